import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, type Browser, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { isShooting, randomPhone, registerByApi, screenshot, totpCode, tr, useLocale, type Locale, test } from './support.ts';

/**
 * The public face: the front pages (default and government), partners, the
 * assessment and insurance page, navigation and footer; server-rendered HTML; the partner
 * flow with its §5 errors; the guards; axe. The main e2e server runs the default
 * configuration (no front page, no cooperation company): the guards are checked there. A
 * second server, started here, has both switched on.
 */
const LOCALES: Locale[] = ['zh', 'en', 'ja'];
const WIDTHS = [1440, 900, 390];
const PAGES = [
  { path: '/', testId: 'front-page', heading: 'Digital intellectual property, registered and provable' },
  { path: '/government', testId: 'government-page', heading: "Four centres and one network for the region's digital assets" },
  { path: '/partners', testId: 'partners-page', heading: 'Grow with the digital asset network' },
  { path: '/insurance', testId: 'insurance-page', heading: 'Turn registered assets into value and cover' },
];
const COMPANY = '西安数字产权合作有限公司';
const FILING = { default: '陕ICP备12345678号-1', xian: '陕ICP备87654321号-2' };
const EMAIL = 'partners@provena.example';

const port = Number(process.env.E2E_PORT ?? 8181) + 1;
const frontURL = `http://127.0.0.1:${port}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-front-e2e-'));
let server: ChildProcess | null = null;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const configFile = path.join(dataDir, 'provena.json');
  fs.writeFileSync(configFile, JSON.stringify({ frontPageAvailable: true, cooperation: { name: COMPANY }, filingNumber: FILING, contactEmail: EMAIL }));
  server = spawn(process.execPath, ['scripts/e2e-server.ts'], {
    env: { ...process.env, E2E_PORT: String(port), E2E_NO_BUILD: '1', E2E_DEMO_ENTERPRISES: '0', E2E_DATA_DIR: path.join(dataDir, 'data'), PROVENA_CONFIG: configFile },
    stdio: 'ignore',
  });
  await expect.poll(async () => (await fetch(`${frontURL}/api/health`).catch(() => null))?.status ?? 0, { timeout: 90_000 }).toBe(200);
});

test.afterAll(() => {
  server?.kill('SIGTERM');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** The page's text as a browser reads it (the HTML-escaped apostrophes and ampersands decoded). */
async function pageText(url: string, headers: Record<string, string> = {}): Promise<{ status: number; html: string }> {
  const res = await fetch(url, { headers });
  const html = (await res.text()).replace(/&#x27;/g, "'").replace(/&quot;/g, '"').replace(/&amp;/g, '&');
  return { status: res.status, html };
}

/**
 * The sections below the hero have `content-visibility: auto` (front.module.css): the browser draws
 * them only near the viewport, so a full-page capture would show them blank. Draw them all first.
 */
async function drawWholePage(page: Page): Promise<void> {
  // An inline style, not page.addStyleTag: that waits for a load event, which never comes with JavaScript off.
  if (isShooting) await page.locator('section').evaluateAll((sections) => sections.forEach((s) => ((s as HTMLElement).style.contentVisibility = 'visible')));
}

/** A full-page screenshot, plus the page in slices of 1600 px (tall pages are unreadable in one image). */
async function shoot(page: Page, name: string): Promise<void> {
  await drawWholePage(page);
  await screenshot(page, name);
  if (!isShooting) return;
  const dir = path.join(process.cwd(), 'test-results', 'screens', 'slices');
  fs.mkdirSync(dir, { recursive: true });
  const { width, height } = await page.evaluate(() => ({ width: document.documentElement.clientWidth, height: document.documentElement.scrollHeight }));
  for (let y = 0, i = 0; y < height; y += 1600, i++) {
    await page.screenshot({ path: path.join(dir, `${name}-${i}.png`), fullPage: true, clip: { x: 0, y, width, height: Math.min(1600, height - y) } });
  }
}

async function frontPage(browser: Browser, locale: Locale, width = 1440, options: { reducedMotion?: 'reduce' | 'no-preference' } = {}): Promise<Page> {
  const context = await browser.newContext({ baseURL: frontURL, viewport: { width, height: 900 }, ...options });
  await context.addInitScript((l) => localStorage.setItem('locale', l), locale);
  return context.newPage();
}

test.describe('server-rendered public pages', () => {
  test('the HTML of each page holds its content, title, description, Open Graph and hreflang in each language', async () => {
    for (const locale of LOCALES) {
      for (const p of PAGES) {
        const { status, html } = await pageText(`${frontURL}${p.path}?lang=${locale}`);
        expect(status, p.path).toBe(200);
        expect(html, `${p.path} ${locale}`).toContain(tr(locale, p.heading));
        expect(html).toMatch(new RegExp(`<html lang="${locale === 'zh' ? 'zh-CN' : locale}"`));
        expect(html).toMatch(/<title>[^<]+<\/title>/);
        expect(html).toMatch(/<meta name="description" content="[^"]{20,}">/);
        expect(html).toContain('<meta property="og:title"');
        expect(html).toContain('<meta property="og:description"');
        for (const l of LOCALES) expect(html).toContain(`<link rel="alternate" hreflang="${l}" href="http://localhost:8080${p.path}?lang=${l}">`);
        expect(html).toContain('hreflang="x-default"');
        // The footer is rendered too, with the variant's filing number.
        expect(html).toContain(p.path === '/government' ? FILING.xian : FILING.default);
      }
      const front = (await pageText(`${frontURL}/?lang=${locale}`)).html;
      for (const text of ['Creative works', 'Trade secrets and know-how', 'Research and data', 'Other digital assets', 'Industrial parks', 'Privacy computing', 'Security lab', 'Digital wallet', 'Rights confirmation']) {
        expect(front).toContain(tr(locale, text));
      }
      const gov = (await pageText(`${frontURL}/government?lang=${locale}`)).html;
      for (const text of ['The four-centres-one-network solution', 'Success cases', 'Assessment centre']) expect(gov).toContain(tr(locale, text));
      const partners = (await pageText(`${frontURL}/partners?lang=${locale}`)).html;
      expect(partners).toContain(COMPANY);
      expect(partners).toContain('data-testid="digit-roll"');
    }
    // The visitor's last choice of language (the cookie the app sets) is honoured without ?lang.
    const ja = (await pageText(`${frontURL}/insurance`, { cookie: 'locale=ja' })).html;
    expect(ja).toContain(tr('ja', 'Turn registered assets into value and cover'));
  });

  test('with JavaScript off the front page is painted, styled, in the chosen language', async ({ browser }) => {
    const context = await browser.newContext({ baseURL: frontURL, javaScriptEnabled: false, viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await page.goto('/?lang=en');
    const heading = page.getByRole('heading', { level: 1, name: 'Digital intellectual property, registered and provable' });
    await expect(heading).toBeVisible();
    // The front chunk's stylesheet is linked: the hero is the dark band, not unstyled text.
    const background = await page.locator('section').first().evaluate((el) => getComputedStyle(el).backgroundImage);
    expect(background).toContain('linear-gradient');
    await drawWholePage(page);
    await screenshot(page, 'front-nojs-en-1440');
    await context.close();
  });
});

test.describe('every public page, language and width', () => {
  for (const locale of LOCALES) {
    test(`renders ${locale} at 1440, 900 and 390 without horizontal overflow`, async ({ browser }) => {
      test.setTimeout(180_000);
      for (const width of WIDTHS) {
        const page = await frontPage(browser, locale, width);
        for (const p of PAGES) {
          await page.goto(p.path);
          await expect(page.getByTestId(p.testId)).toBeVisible();
          await expect(page.getByRole('heading', { level: 1, name: tr(locale, p.heading) })).toBeVisible();
          await expect(page.getByTestId('footer-filing')).toContainText(p.path === '/government' ? FILING.xian : FILING.default);
          await expect(page.getByTestId('site-footer')).toContainText(EMAIL);
          await shoot(page, `front${p.path === '/' ? '-home' : p.path.replace('/', '-')}-${locale}-${width}`);
          const overflow = await page.evaluate(() => {
            const width = document.documentElement.clientWidth;
            const wide = [...document.querySelectorAll('body *')].filter((el) => el.getBoundingClientRect().right > width + 0.5 && !el.closest('[style*="overflow"], ul'));
            return { by: document.documentElement.scrollWidth - width, what: wide.slice(0, 3).map((el) => `${el.tagName}.${el.className} ${el.textContent?.slice(0, 40)}`) };
          });
          expect(overflow.by, `${p.path} ${locale} ${width}: ${overflow.what.join(' | ')}`).toBeLessThanOrEqual(0);
        }
        await page.context().close();
      }
    });
  }

  test('live figures come from the platform', async ({ browser }) => {
    const page = await frontPage(browser, 'en');
    await page.goto('/');
    const figures = (await (await fetch(`${frontURL}/api/v1/public/figures`)).json()).data as { registrations: number; enterprises: number; blocks: number };
    await expect(page.getByTestId('figure-enterprises')).toHaveText(String(figures.enterprises));
    await expect(page.getByTestId('figure-blocks')).toHaveText(figures.blocks.toLocaleString('en'));
    await page.context().close();
  });
});

test.describe('navigation and footer', () => {
  test('a signed-in visitor gets the avatar menu on a public page (its own entry loads it) and logs out from there', async ({ browser }) => {
    const page = await frontPage(browser, 'en');
    const phone = randomPhone();
    await registerByApi(page.request, phone, 'Passw0rdA', 'Ada Lovelace');
    expect((await page.request.post('/api/v1/users', { data: { login_id: phone, password: 'Passw0rdA' } })).status()).toBe(200);
    await page.goto('/');
    // The server drew the visitor's view; the public entry finds the session and swaps in the avatar menu.
    await page.getByTestId('user-menu').click();
    await expect(page.getByRole('menu').getByText(`${phone.slice(0, 3)}****${phone.slice(-4)}`)).toBeVisible();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await page.getByTestId('logout-confirm').click();
    // Into the app: a full page load, answered with the app's entry.
    await expect(page).toHaveURL(/\/user\/login/);
    await expect(page.getByRole('button', { name: 'Log in', exact: true })).toBeVisible();
    await page.context().close();
  });

  test('default version: links, explorer label, insurance link, footer', async ({ browser }) => {
    const page = await frontPage(browser, 'en');
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: 'Service system' })).toHaveAttribute('href', '/');
    await expect(nav.getByRole('link', { name: 'Cooperation company' })).toHaveAttribute('href', '/partners');
    await expect(nav.getByRole('link', { name: /Blockchain explorer/ })).toHaveAttribute('target', '_blank');
    await expect(nav.getByRole('link', { name: /File verification centre/ })).toHaveAttribute('target', '_blank');
    await page.getByTestId('insurance-link').click();
    await expect(page).toHaveURL(/\/insurance$/);
    const footer = page.getByTestId('site-footer');
    await expect(footer.getByRole('link', { name: 'User agreement' })).toHaveAttribute('href', '/terms');
    await expect(footer.getByRole('link', { name: 'Privacy policy' })).toHaveAttribute('href', '/privacy');
    await expect(footer.getByRole('link', { name: EMAIL })).toHaveAttribute('href', `mailto:${EMAIL}`);
    await expect(footer).toContainText("Address: Xi'an, Shaanxi, China");
    // The footer's language switch changes the page's language.
    await page.getByTestId('footer-locale').click();
    await page.getByRole('menuitem', { name: '日本語' }).click();
    await expect(page.getByRole('heading', { level: 1, name: tr('ja', 'Turn registered assets into value and cover') })).toBeVisible();
    await page.context().close();
  });

  test('government (xian) version: asset network label, drawer menu, logo reloads, own filing number', async ({ browser }) => {
    const page = await frontPage(browser, 'en');
    await page.goto('/government');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: /Asset network/ })).toBeVisible();
    await expect(page.getByTestId('footer-filing')).toContainText(FILING.xian);
    await page.getByRole('button', { name: 'Open navigation' }).click();
    const drawer = page.getByRole('dialog', { name: 'Menu' });
    await expect(drawer.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/government');
    await expect(drawer.getByRole('link', { name: 'Partners' })).toHaveAttribute('href', '/partners');
    await expect(drawer.getByRole('link', { name: /Asset network/ })).toHaveAttribute('target', '_blank');
    await expect(drawer.getByRole('link', { name: /Asset verification centre/ })).toHaveAttribute('href', '/verify-file');
    await drawWholePage(page);
    await screenshot(page, 'front-government-drawer-en-1440');
    await page.keyboard.press('Escape');
    // No phone in the user state: the logo reloads the government page.
    await page.evaluate(() => ((window as unknown as { beforeReload: boolean }).beforeReload = true));
    await page.getByRole('link', { name: 'Provena home' }).click();
    await expect.poll(() => page.evaluate(() => (window as unknown as { beforeReload?: boolean }).beforeReload ?? false)).toBe(false);
    await expect(page).toHaveURL(/\/government$/);
    await page.context().close();
  });
});

test.describe('partners', () => {
  test('the live count rolls digit by digit; the join form checks §5, posts, thanks, and the operator sees it', async ({ browser }) => {
    test.slow(); // two browsers, the operator's sign-in and two screens
    const page = await frontPage(browser, 'en');
    await page.goto('/partners');
    const total = (await (await fetch(`${frontURL}/api/v1/partners/total`)).json()).data.total as number;
    await page.waitForLoadState('networkidle');
    const roll = page.getByTestId('digit-roll');
    await expect(roll).toHaveAttribute('data-value', String(total));
    await expect(roll).toHaveAttribute('aria-label', `${total} enterprises`);
    // The strips move (a transition), unless the visitor asked for reduced motion (below).
    expect(await roll.locator('span span').first().evaluate((el) => getComputedStyle(el).transitionDuration)).not.toBe('0s');

    await page.getByTestId('partner-join').click();
    const dialog = page.getByRole('dialog', { name: 'Become a partner' });
    await dialog.getByTestId('partner-submit').click();
    await expect(dialog.getByText('Please enter the enterprise name')).toBeVisible();
    await expect(dialog.getByText('Please enter the contact name')).toBeVisible();
    await expect(dialog.getByText('Please enter the phone number')).toBeVisible();
    await expect(dialog.getByText('Please choose a cooperation method')).toBeVisible();
    await drawWholePage(page);
    await screenshot(page, 'front-partners-errors-en-1440');

    const enterprise = `秦岭数据科技有限公司${Date.now()}`;
    await dialog.getByTestId('partner-enterprise').fill(enterprise);
    await dialog.getByTestId('partner-name').fill('李雷');
    await dialog.getByTestId('partner-phone').fill('1380013800');
    await dialog.getByTestId('partner-method').selectOption({ label: 'Technology partner' });
    await dialog.getByTestId('partner-submit').click();
    await expect(dialog.getByText('Please enter a valid phone number')).toBeVisible();
    await expect(dialog.getByText('Please enter the enterprise name')).toHaveCount(0);

    await dialog.getByTestId('partner-phone').fill('13800138000');
    await dialog.getByTestId('partner-submit').click();
    await expect(page.getByTestId('partner-thanks')).toBeVisible();
    await expect(page.getByRole('dialog', { name: 'Thank you' })).toBeVisible();
    await drawWholePage(page);
    await screenshot(page, 'front-partners-thanks-en-1440');
    await page.getByTestId('partner-thanks-close').click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page.getByTestId('partners-page')).toBeVisible();

    // The operator console lists it.
    const loginId = `front-ops-${Date.now()}`;
    execFileSync(process.execPath, ['bin/provena.ts', 'operator-create', '--login', loginId, '--password', 'OperatorPass1'], { env: { ...process.env, DATA_DIR: path.join(dataDir, 'data') } });
    const ops = await browser.newContext({ baseURL: frontURL });
    const offer = await (await ops.request.post('/api/v1/operator/tokens', { data: { login_id: loginId, password: 'OperatorPass1' } })).json();
    expect((await ops.request.post('/api/v1/operator/tokens', { data: { login_id: loginId, password: 'OperatorPass1', totp_code: totpCode(offer.data.enroll.secret) } })).status()).toBe(200);
    const list = await (await ops.request.get('/api/v1/operator/partner-contracts')).json();
    expect(list.data.items[0]).toMatchObject({ enterprise_name: enterprise, name: '李雷', contract_number: '13800138000', corporation: 'Technology partner' });
    const csv = await ops.request.get('/api/v1/operator/partner-contracts/export?format=csv');
    expect(await csv.text()).toContain(enterprise);
    // …and so does its screen: the operator console's partner applications tab, with both exports.
    const console_ = await ops.newPage();
    await console_.goto('/operator');
    await console_.getByTestId('operator-tab-partners').click();
    const rows = console_.getByTestId('operator-partners').locator('[data-testid^="operator-partner-"]');
    await expect(rows.filter({ hasText: enterprise })).toHaveCount(1);
    await expect(rows.filter({ hasText: enterprise })).toContainText('13800138000');
    await expect(console_.getByTestId('partners-export-csv')).toHaveAttribute('href', /\/api\/v1\/operator\/partner-contracts\/export\?format=csv/);
    await expect(console_.getByTestId('partners-export-xlsx')).toHaveAttribute('href', /format=xlsx/);
    await screenshot(console_, 'front-operator-partners');
    await ops.close();
    await page.context().close();
  });

  test('the roll does not move for a visitor who asked for reduced motion', async ({ browser }) => {
    const page = await frontPage(browser, 'zh', 390, { reducedMotion: 'reduce' });
    await page.goto('/partners');
    // The app has replaced the server's HTML (the element evaluated must stay attached).
    await page.waitForLoadState('networkidle');
    const strip = page.getByTestId('digit-roll').locator('span span').first();
    expect(await strip.evaluate((el) => getComputedStyle(el).transitionDuration)).toBe('0s');
    await page.context().close();
  });

  test('the insurance page contacts through the partner form', async ({ browser }) => {
    const page = await frontPage(browser, 'ja', 390);
    await page.goto('/insurance');
    // The button works once the app has taken over the server's HTML.
    await page.waitForLoadState('networkidle');
    await page.getByTestId('insurance-contact').first().click();
    await expect(page.getByRole('dialog', { name: tr('ja', 'Become a partner') })).toBeVisible();
    await drawWholePage(page);
    await screenshot(page, 'front-insurance-form-ja-390');
    await page.context().close();
  });
});

test.describe('guards (default configuration: no front page, no cooperation company)', () => {
  test('the front pages go to login; the partners page does not exist', async ({ page, baseURL }) => {
    await useLocale(page, 'en');
    for (const p of ['/', '/government', '/insurance']) {
      await page.goto(p);
      await expect(page).toHaveURL(/\/user\/login$/);
    }
    const res = await fetch(`${baseURL}/partners`, { redirect: 'manual' });
    expect(res.status).toBe(404);
    await page.goto('/partners');
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    expect((await fetch(`${baseURL}/api/v1/partners/total`)).status).toBe(404);
    // No cooperation company: the nav's cooperation link is the verification centre (§2).
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Cooperation company' })).toHaveAttribute('href', '/verify-file');
  });
});

test.describe('accessibility (axe-core)', () => {
  for (const locale of LOCALES) {
    test(`no serious or critical violation on the public face — ${locale}`, async ({ browser }) => {
      test.setTimeout(120_000);
      const page = await frontPage(browser, locale);
      const found: string[] = [];
      for (const p of PAGES) {
        await page.goto(p.path);
        await expect(page.getByTestId(p.testId)).toBeVisible();
        const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
        found.push(
          ...result.violations
            .filter((v) => v.impact === 'serious' || v.impact === 'critical')
            .map((v) => `${p.path} ${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => `${n.target.join(' ')} — ${(n.any[0] ?? n.all[0])?.message ?? ''}`).join(' | ')}`),
        );
      }
      // The partner form, open.
      await page.goto('/partners');
      await page.getByTestId('partner-join').click();
      await page.getByTestId('partner-submit').click();
      const form = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
      found.push(...form.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `partner form ${v.id}: ${v.nodes[0]?.target.join(' ')}`));
      expect(found).toEqual([]);
      await page.context().close();
    });
  }
});
