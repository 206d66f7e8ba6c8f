import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test as base, type APIRequestContext, type APIResponse, type Browser, type BrowserContext, type Page } from '@playwright/test';
import * as OTPAuth from 'otpauth';
import { cardCheckChar } from '../../core/identity.ts';

export type Locale = 'zh' | 'en' | 'ja';

const CSP_MARK = '[csp-violation]';

/**
 * Reports every Content-Security-Policy violation in a context: pages log the
 * `securitypolicyviolation` events (an init script) and Chromium's own "Refused to …"
 * console errors (workers' included) are caught as they are.
 */
export async function watchCsp(context: BrowserContext, violations: string[]): Promise<void> {
  await context.addInitScript((mark) => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(`${mark} ${e.violatedDirective} blocked ${e.blockedURI || '(inline)'} at ${e.sourceFile}:${e.lineNumber}`);
    });
  }, CSP_MARK);
  context.on('console', (message) => {
    const text = message.text();
    if (text.startsWith(CSP_MARK) || /Content Security Policy/i.test(text)) violations.push(text);
  });
}

/**
 * The suite's `test`: every test runs under the app's CSP and fails on any violation, in
 * its default page and in every context it opens itself (browser.newContext, as person() does).
 */
export const test = base.extend<{ cspGuard: void }>({
  cspGuard: [
    async ({ context, browser }, use) => {
      const violations: string[] = [];
      await watchCsp(context, violations);
      const newContext = browser.newContext.bind(browser);
      browser.newContext = async (options) => {
        const created = await newContext(options);
        await watchCsp(created, violations);
        return created;
      };
      try {
        await use();
      } finally {
        browser.newContext = newContext;
      }
      // The violation event is queued after the blocked load: let the last reports arrive.
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(violations, 'Content-Security-Policy violations').toEqual([]);
    },
    { auto: true },
  ],
});

/** Every catalog of a locale: the main one and one per product area (see lingui.config.ts). */
const CATALOG_DIRS = ['', 'legal', 'assets', 'credit', 'home', 'vault', 'disclosure', 'map', 'repos', 'application', 'front', 'gpt'];

/** Reads the lingui .po catalogs of a locale into msgid → msgstr (multi-line strings joined; a message with a msgctxt is keyed `context\u0004msgid`). */
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
  let key: 'msgctxt' | 'msgid' | 'msgstr' | null = null;
  let msgctxt = '';
  let msgid = '';
  let msgstr = '';
  const flush = () => {
    if (msgid) map.set(msgctxt ? `${msgctxt}\u0004${msgid}` : msgid, msgstr || msgid);
    msgctxt = '';
    msgid = '';
    msgstr = '';
  };
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (line.startsWith('msgctxt ')) {
      flush();
      key = 'msgctxt';
      msgctxt = unquote(line.slice(8));
    } else if (line.startsWith('msgid ')) {
      if (key !== 'msgctxt') flush();
      key = 'msgid';
      msgid = unquote(line.slice(6));
    } else if (line.startsWith('msgstr ')) {
      key = 'msgstr';
      msgstr = unquote(line.slice(7));
    } else if (line.startsWith('"') && key) {
      if (key === 'msgctxt') msgctxt += unquote(line);
      else if (key === 'msgid') msgid += unquote(line);
      else msgstr += unquote(line);
    } else {
      key = null;
    }
  }
  flush();
}

const catalogs = new Map<Locale, Map<string, string>>();
/** The text a user sees for an English source message (and its msgctxt, if it has one) in `locale`; fails loudly when untranslated. */
export function tr(locale: Locale, source: string, context?: string): string {
  if (locale === 'en') return source;
  if (!catalogs.has(locale)) catalogs.set(locale, readCatalog(locale));
  const text = catalogs.get(locale)!.get(context ? `${context}\u0004${source}` : source);
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

/**
 * The screenshots are for people to look at (`test-results/screens`), not assertions. E2E_SCREENSHOTS=0
 * skips them; CI skips them by default (its machine throws the folder away).
 */
export const isShooting = process.env.E2E_SCREENSHOTS ? process.env.E2E_SCREENSHOTS !== '0' : !process.env.CI;

export async function screenshot(page: Page, name: string): Promise<void> {
  if (!isShooting) return;
  const dir = path.join(process.cwd(), 'test-results', 'screens');
  fs.mkdirSync(dir, { recursive: true });
  const started = Date.now();
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
  if (process.env.E2E_SCREENSHOT_LOG) fs.appendFileSync(process.env.E2E_SCREENSHOT_LOG, `${name}\t${Date.now() - started}\n`);
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

/** An 18-digit ID card number with a valid check digit. */
/**
 * A valid identity-card number no one else in the run holds: a card number proves one person,
 * so a second account with the same one is refused (phone_real_name_inconsistent). Birth dates
 * over 40 years and a three-digit sequence give about 14.6 million numbers; the former ten
 * years and one birthday gave 10 000, and a suite of a few hundred people drew one twice.
 */
export function randomCardNo(): string {
  const birth = new Date(Date.UTC(1960, 0, 1) + Math.floor(Math.random() * 40 * 365) * 86_400_000).toISOString().slice(0, 10).replaceAll('-', '');
  const first17 = `110105${birth}${String(Math.floor(Math.random() * 1000)).padStart(3, '0')}`;
  return first17 + cardCheckChar(first17);
}

/** The `data` of a 200 response; anything else throws with the status and body. */
export async function ok(res: Promise<APIResponse>, what: string) {
  const r = await res;
  if (r.status() !== 200) throw new Error(`${what}: ${r.status()} ${await r.text()}`);
  return (await r.json()).data;
}

export type Person = { context: BrowserContext; page: Page; phone: string; locale: Locale };

/** A registered, logged-in, real-name-authenticated user in their own browser context. */
export async function person(browser: Browser, locale: Locale, name: string, baseURL?: string): Promise<Person> {
  const context = await browser.newContext(baseURL ? { baseURL } : {});
  const page = await context.newPage();
  await useLocale(page, locale);
  const phone = randomPhone();
  await registerByApi(page.request, phone);
  await ok(page.request.post('/api/v1/users', { data: { login_id: phone, password: 'Passw0rdA' } }), 'login');
  await ok(page.request.post('/api/v2/users/verified-token', { data: { card_no: randomCardNo(), name } }), 'real-name auth');
  return { context, page, phone, locale };
}

/** Creates a verified enterprise by channel 1 (licence image, legal-person SMS code) through the API. */
export async function createEnterprise(owner: Person, namePrefix: string): Promise<{ invitation_code: string; name: string }> {
  const request = owner.page.request;
  const name = `${namePrefix} ${Date.now()}`;
  const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from(`licence-${name}`)]);
  const uuid = `0x${createHash('sha256').update(png).digest('hex')}.png`;
  const info = await ok(request.post('/api/v1/files/upload-request', { data: { uuid } }), 'upload-request');
  await ok(request.post(info.url.replace(/^\/?/, '/'), { multipart: { ...info.body_params, file: { name: 'licence.png', mimeType: 'image/png', buffer: png } } }), 'upload');
  await ok(request.get('/api/v1/validation/private-code?type=17'), 'legal-person code');
  const company = await ok(
    request.post('/api/v1/enterprises/legal-person', {
      data: { name, license: `91610000${String(Date.now()).slice(-9)}X`, legal_person: '张三', license_image_id: uuid, validation_code: await latestCode(request, owner.phone, 17) },
    }),
    'create enterprise',
  );
  return { invitation_code: company.invitation_code, name };
}

/** Joins by invitation code through the API; the owner approves and gives the role. */
export async function joinCompany(member: Person, owner: Person, invitationCode: string, role: number): Promise<void> {
  await ok(member.page.request.post('/api/v2/enterprises/employees', { data: { invitation_code: invitationCode } }), 'join');
  const list = await ok(owner.page.request.get('/api/v1/enterprises/employees?status=2'), 'applications');
  const employee = list.items.find((e: { phone: string }) => e.phone === member.phone);
  await ok(owner.page.request.put('/api/v1/enterprises/employees', { data: { employee_id: employee.employee_id, status: 1 } }), 'approve');
  if (role !== 0) await ok(owner.page.request.put(`/api/v2/users/members/${employee.employee_id}`, { data: { role } }), 'role');
}

/**
 * Operators are created only from the command line (provena operator-create). The e2e
 * server keeps its data in DATA_DIR=<tmp>/provena-e2e-<its pid>; find the pid by its port.
 */
export function createOperator(loginId: string, password: string): void {
  const port = process.env.E2E_PORT ?? '8181';
  const listing = execFileSync('ss', ['-Hltnp', `sport = :${port}`], { encoding: 'utf8' });
  const pid = /pid=(\d+)/.exec(listing)?.[1];
  if (!pid) throw new Error(`no server found on port ${port}: ${listing}`);
  execFileSync(process.execPath, ['bin/provena.ts', 'operator-create', '--login', loginId, '--password', password, '--reset-totp'], {
    env: { ...process.env, DATA_DIR: path.join(os.tmpdir(), `provena-e2e-${pid}`) },
  });
}

/** The 6-digit code an authenticator app shows for a base32 TOTP secret (RFC 6238, 30 s, SHA-1). */
export function totpCode(secret: string, timestamp = Date.now()): string {
  return new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp });
}

/** A logged-in platform operator's API (its own browser context; close it with `.dispose()` of the context). */
export async function operatorApi(browser: Browser): Promise<{ context: BrowserContext; request: APIRequestContext }> {
  const loginId = `e2e-credit-ops-${Date.now()}`;
  createOperator(loginId, 'OperatorPass1');
  const context = await browser.newContext();
  // First login: the server offers an authenticator secret; the first code enrolls it and opens the session.
  const offer = await ok(context.request.post('/api/v1/operator/tokens', { data: { login_id: loginId, password: 'OperatorPass1' } }), 'operator login');
  await ok(context.request.post('/api/v1/operator/tokens', { data: { login_id: loginId, password: 'OperatorPass1', totp_code: totpCode(offer.enroll.secret) } }), 'operator enrollment');
  return { context, request: context.request };
}

/** Screenshots at 1440, 900 and 390 px wide, then back to the page's own size. */
async function screenshotWidths(page: Page, name: string): Promise<void> {
  const size = page.viewportSize();
  for (const width of [1440, 900, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await screenshot(page, `${name}-${width}`);
  }
  if (size) await page.setViewportSize(size);
}

/**
 * The console's first login in the browser, after the password was submitted: reads the
 * key shown beside the QR code, types the authenticator's code, and passes the recovery
 * codes screen. Returns the secret (for later logins).
 */
export async function enrollOperatorInPage(page: Page, screenshotName?: string): Promise<string> {
  await expect(page.getByTestId('operator-totp-qr')).toBeVisible();
  if (screenshotName) await screenshotWidths(page, `${screenshotName}-enroll`);
  const secret = (await page.getByTestId('operator-totp-secret').innerText()).trim();
  await page.getByTestId('operator-totp-input').fill(totpCode(secret));
  await page.locator('form button[type=submit]').click();
  await expect(page.getByTestId('operator-recovery-codes').locator('code')).toHaveCount(10);
  if (screenshotName) await screenshotWidths(page, `${screenshotName}-recovery`);
  await page.getByTestId('operator-recovery-done').click();
  return secret;
}

/**
 * Gives a member credits through the real path: the administrator orders a top-up,
 * the operator confirms it, the administrator allocates it to the member (themselves included).
 */
export async function giveCredits(admin: Person, memberPhone: string, amount: number, operator: APIRequestContext): Promise<void> {
  const order = await ok(admin.page.request.post('/api/v1/credits/orders', { data: { amount, note: 'e2e' } }), 'top-up order');
  await ok(operator.put(`/api/v1/operator/credit-orders/${order.order_id}`, { data: { status: 2 } }), 'confirm top-up');
  const members = await ok(admin.page.request.get(`/api/v1/credits/members?keyword=${memberPhone}`), 'members');
  const member = members.items.find((m: { phone: string }) => m.phone === memberPhone);
  if (!member) throw new Error(`no member ${memberPhone}`);
  await ok(admin.page.request.post('/api/v1/credits/allocations', { data: { employee_id: member.employee_id, amount } }), 'allocation');
}

/** Credits for `amount` on the owner's own account, through the real path (an operator confirms the top-up). */
export async function ownerCredits(browser: Browser, owner: Person, amount: number): Promise<void> {
  const operator = await operatorApi(browser);
  try {
    await giveCredits(owner, owner.phone, amount, operator.request);
  } finally {
    await operator.context.close();
  }
}

/**
 * Registers a file the only way there is: as a digital asset of the member's enterprise
 * (membership, role and credits checked, the price charged). Returns the entry's DNA.
 */
export async function registerAsset(member: Person, fileHash: string, name = 'file'): Promise<string> {
  const asset = await ok(member.page.request.post('/api/v1/assets', { data: { name, type: 1, file_hash: fileHash, size: 1 } }), 'register asset');
  return asset.dip_id as string;
}

export type Upload = { name: string; mimeType: string; buffer: Buffer };

/** Opens the verification centre, chooses the original and the proof, presses Verify, and returns the result panel once shown. */
export async function verifyInCentre(page: Page, locale: Locale, original: Upload, proof: Upload) {
  await page.goto('/verify-file');
  const [c1] = await Promise.all([page.waitForEvent('filechooser'), page.getByTestId('verify-original').click()]);
  await c1.setFiles(original);
  const [c2] = await Promise.all([page.waitForEvent('filechooser'), page.getByTestId('verify-proof').click()]);
  await c2.setFiles(proof);
  await page.getByRole('button', { name: tr(locale, 'Verify'), exact: true }).click();
  const result = page.getByTestId('verify-result');
  await expect(result).toBeVisible({ timeout: 20_000 });
  return result;
}
