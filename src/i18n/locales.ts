import type { Messages } from '@lingui/core';

export const LOCALES = ['zh', 'en', 'ja'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'zh';
/** §1: the choice is kept in local storage under this key. */
export const LOCALE_STORAGE_KEY = 'locale';

/** Each language is named in itself, so that a reader of any language can find theirs. */
export const LOCALE_NATIVE_NAMES: Record<Locale, string> = { zh: '简体中文', en: 'English', ja: '日本語' };

/** <html lang> values: the script matters for CJK font selection. */
export const HTML_LANG: Record<Locale, string> = { zh: 'zh-CN', en: 'en', ja: 'ja' };

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

type CatalogModule = { messages: Messages };

/**
 * The catalogs of each locale, compiled by the lingui vite plugin and loaded on demand so
 * that only the active language is fetched. The core ones (the app's own strings, the
 * public face, search in the nav bar) come before the first render; the product areas'
 * ones when a screen that may show them is first drawn (i18n.ts ensureAllCatalogs), so
 * that the front page and login do not download the dashboard's texts.
 */
export const CORE_CATALOG_LOADERS: Record<Locale, () => Promise<CatalogModule[]>> = {
  zh: () => Promise.all([import('../../locales/zh.po'), import('../../locales/front/zh.po'), import('../../locales/home/zh.po')]),
  en: () => Promise.all([import('../../locales/en.po'), import('../../locales/front/en.po'), import('../../locales/home/en.po')]),
  ja: () => Promise.all([import('../../locales/ja.po'), import('../../locales/front/ja.po'), import('../../locales/home/ja.po')]),
};

export const AREA_CATALOG_LOADERS: Record<Locale, () => Promise<CatalogModule[]>> = {
  zh: () => Promise.all([import('../../locales/legal/zh.po'), import('../../locales/assets/zh.po'), import('../../locales/credit/zh.po'), import('../../locales/vault/zh.po'), import('../../locales/disclosure/zh.po'), import('../../locales/map/zh.po'), import('../../locales/repos/zh.po'), import('../../locales/application/zh.po'), import('../../locales/gpt/zh.po')]),
  en: () => Promise.all([import('../../locales/legal/en.po'), import('../../locales/assets/en.po'), import('../../locales/credit/en.po'), import('../../locales/vault/en.po'), import('../../locales/disclosure/en.po'), import('../../locales/map/en.po'), import('../../locales/repos/en.po'), import('../../locales/application/en.po'), import('../../locales/gpt/en.po')]),
  ja: () => Promise.all([import('../../locales/legal/ja.po'), import('../../locales/assets/ja.po'), import('../../locales/credit/ja.po'), import('../../locales/vault/ja.po'), import('../../locales/disclosure/ja.po'), import('../../locales/map/ja.po'), import('../../locales/repos/ja.po'), import('../../locales/application/ja.po'), import('../../locales/gpt/ja.po')]),
};

/** Every catalog of a locale (the server renderer and the tests). */
export const CATALOG_LOADERS: Record<Locale, () => Promise<CatalogModule[]>> = {
  zh: async () => [...(await CORE_CATALOG_LOADERS.zh()), ...(await AREA_CATALOG_LOADERS.zh())],
  en: async () => [...(await CORE_CATALOG_LOADERS.en()), ...(await AREA_CATALOG_LOADERS.en())],
  ja: async () => [...(await CORE_CATALOG_LOADERS.ja()), ...(await AREA_CATALOG_LOADERS.ja())],
};
