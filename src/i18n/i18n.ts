import { i18n } from '@lingui/core';
import { CATALOG_LOADERS, DEFAULT_LOCALE, HTML_LANG, LOCALE_STORAGE_KEY, isLocale, type Locale } from './locales.ts';

export { i18n };

function readStoredLocale(): Locale {
  // A language named in the address (the hreflang links of the server-rendered pages) wins.
  const fromAddress = new URLSearchParams(window.location.search).get('lang');
  if (isLocale(fromAddress)) return fromAddress;
  try {
    const stored = localStorage.getItem(LOCALE_STORAGE_KEY);
    if (isLocale(stored)) return stored;
  } catch {
    // Storage can be unavailable (privacy mode); fall back to the default.
  }
  return DEFAULT_LOCALE;
}

/** Loads the catalogs of `locale`, activates it, stores the choice and sets <html lang>. */
export async function activateLocale(locale: Locale): Promise<void> {
  const catalogs = await CATALOG_LOADERS[locale]();
  i18n.load(locale, Object.assign({}, ...catalogs.map((c) => c.messages)));
  i18n.activate(locale);
  document.documentElement.lang = HTML_LANG[locale];
  try {
    localStorage.setItem(LOCALE_STORAGE_KEY, locale);
  } catch {
    // Not persisted; the choice still holds for this visit.
  }
  // The server renders the public pages in this language on the next visit.
  document.cookie = `${LOCALE_STORAGE_KEY}=${locale}; path=/; max-age=31536000; samesite=lax`;
}

/** Activates the stored (or default) locale; called once before the first render. */
export function initI18n(): Promise<void> {
  return activateLocale(readStoredLocale());
}

export function currentLocale(): Locale {
  return isLocale(i18n.locale) ? i18n.locale : DEFAULT_LOCALE;
}
