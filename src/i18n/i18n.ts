import { i18n, type Messages } from '@lingui/core';
import { AREA_CATALOG_LOADERS, CORE_CATALOG_LOADERS, DEFAULT_LOCALE, HTML_LANG, LOCALE_STORAGE_KEY, isLocale, type Locale } from './locales.ts';

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

const merge = (modules: { messages: Messages }[]): Messages => Object.assign({}, ...modules.map((m) => m.messages)) as Messages;

/** Whether a screen that needs the product areas' catalogs was drawn: a language switch then loads them too. */
let wantsAreas = false;
const areasLoaded = new Map<Locale, Promise<void>>();

function loadAreas(locale: Locale): Promise<void> {
  let loading = areasLoaded.get(locale);
  if (!loading) {
    loading = AREA_CATALOG_LOADERS[locale]().then((modules) => i18n.load(locale, merge(modules)));
    loading.catch(() => areasLoaded.delete(locale));
    areasLoaded.set(locale, loading);
  }
  return loading;
}

/**
 * The product areas' catalogs of the active language (and of any language activated later),
 * awaited by every lazily loaded screen before it draws (app/routes.tsx).
 */
export function ensureAllCatalogs(): Promise<void> {
  wantsAreas = true;
  return loadAreas(currentLocale());
}

/** Loads the catalogs of `locale`, activates it, stores the choice and sets <html lang>. */
export async function activateLocale(locale: Locale): Promise<void> {
  const [core] = await Promise.all([CORE_CATALOG_LOADERS[locale](), wantsAreas ? loadAreas(locale) : null]);
  i18n.load(locale, merge(core));
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
