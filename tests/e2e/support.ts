import fs from 'node:fs';
import path from 'node:path';
import { expect, type APIRequestContext, type Page } from '@playwright/test';

export type Locale = 'zh' | 'en' | 'ja';

/** Every catalog of a locale: the main one and one per product area (see lingui.config.ts). */
const CATALOG_DIRS = ['', 'legal', 'assets', 'vault', 'disclosure', 'map'];

/** Reads the lingui .po catalogs of a locale into msgid → msgstr (multi-line strings joined). */
function readCatalog(locale: Locale): Map<string, string> {
  const map = new Map<string, string>();
  for (const dir of CATALOG_DIRS) {
    const file = path.join(process.cwd(), 'locales', dir, `${locale}.po`);
    if (fs.existsSync(file)) readCatalogFile(file, map);
  }
  return map;
}

function readCatalogFile(file: string, map: Map<string, string>): void {
  const unquote = (s: string) => JSON.parse(s) as string;
  let key: 'msgid' | 'msgstr' | null = null;
  let msgid = '';
  let msgstr = '';
  const flush = () => {
    if (msgid) map.set(msgid, msgstr || msgid);
    msgid = '';
    msgstr = '';
  };
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (line.startsWith('msgid ')) {
      flush();
      key = 'msgid';
      msgid = unquote(line.slice(6));
    } else if (line.startsWith('msgstr ')) {
      key = 'msgstr';
      msgstr = unquote(line.slice(7));
    } else if (line.startsWith('"') && key) {
      if (key === 'msgid') msgid += unquote(line);
      else msgstr += unquote(line);
    } else {
      key = null;
    }
  }
  flush();
}

const catalogs = new Map<Locale, Map<string, string>>();
/** The text a user sees for an English source message in `locale` (fails loudly when untranslated). */
export function tr(locale: Locale, source: string): string {
  if (locale === 'en') return source;
  if (!catalogs.has(locale)) catalogs.set(locale, readCatalog(locale));
  const text = catalogs.get(locale)!.get(source);
  if (!text || text === source) throw new Error(`no ${locale} translation for "${source}"`);
  return text;
}

/** Opens the app in a given language (the choice the app keeps under localStorage `locale`). */
export async function useLocale(page: Page, locale: Locale): Promise<void> {
  await page.addInitScript((l) => {
    if (!sessionStorage.getItem('e2e-locale-set')) {
      localStorage.setItem('locale', l);
      sessionStorage.setItem('e2e-locale-set', '1');
    }
  }, locale);
}

export function randomPhone(): string {
  return `139${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
}

/** The newest SMS code sent to a phone, read from the outbox (waits for it to arrive). */
export async function latestCode(request: APIRequestContext, phone: string, type?: number): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(async () => {
      const res = await request.get(`/api/dev/sms-outbox?phone=${phone}`);
      const rows = ((await res.json()).data ?? []) as Array<{ code: string; type: number }>;
      code = rows.find((r) => type === undefined || r.type === type)?.code;
      return code;
    })
    .toBeTruthy();
  return code!;
}

/** Registers through the API (for tests about other screens). */
export async function registerByApi(request: APIRequestContext, phone: string, password = 'Passw0rdA', name = '张三丰'): Promise<void> {
  const sent = await request.get(`/api/v1/validation/public-code?phonenumber=${phone}&type=1`);
  expect(sent.status()).toBe(200);
  const code = await latestCode(request, phone, 1);
  const res = await request.post('/api/v1/users/tokens', { data: { phonenumber: phone, password, name, validation_code: code } });
  expect(res.status()).toBe(200);
  await request.delete('/api/v1/users/tokens');
}

export async function screenshot(page: Page, name: string): Promise<void> {
  const dir = path.join(process.cwd(), 'test-results', 'screens');
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
}

/**
 * A form field by its visible label. Mantine appends " *" to required labels, and
 * password fields have a visibility toggle whose name contains the label, so match
 * the whole accessible name of the input exactly, with or without the asterisk.
 */
export function field(page: Page, label: string) {
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return page.getByLabel(new RegExp(`^${escaped}\\s*\\*?$`)).and(page.locator('input, textarea'));
}
