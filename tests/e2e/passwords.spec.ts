import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import { field, latestCode, randomPhone, registerByApi, screenshot, tr, useLocale, type Locale, test } from './support.ts';

/** Logs in through the API, sets a new password with the change dialog's rule, and logs out. */
async function changePasswordByApi(page: Page, phone: string, oldPassword: string, newPassword: string) {
  expect((await page.request.post('/api/v1/users', { data: { login_id: phone, password: oldPassword } })).status()).toBe(200);
  const res = await page.request.put('/api/v1/users/password', { data: { old_password: oldPassword, new_password: newPassword } });
  expect(res.status(), await res.text()).toBe(200);
  await page.request.delete('/api/v1/users/tokens');
}

async function switchLanguage(page: Page, label: string) {
  await page.getByTestId('footer-locale').click();
  await page.getByRole('menuitem', { name: label }).click();
}

test.describe('passwords as people set and use them', () => {
  for (const locale of ['zh', 'ja'] as Locale[]) {
    test(`a 7-character password set in the change dialog still reaches the server, which opens the upgrade dialog — ${locale}`, async ({ page }) => {
      const L = (s: string) => tr(locale, s);
      await useLocale(page, locale);
      const phone = randomPhone();
      await registerByApi(page.request, phone);
      // §9: the change dialog accepts 7 characters; the login rule is 8.
      await changePasswordByApi(page, phone, 'Passw0rdA', 'abcdef1');
      await page.goto('/user/login');
      await field(page, L('Phone number')).fill(phone);
      await field(page, L('Password')).fill('abcdef1');
      await page.getByRole('button', { name: L('Log in'), exact: true }).click();
      // §8: invalid_password_format opens the strength hint, whose button leads to reset.
      const dialog = page.getByRole('dialog');
      await expect(dialog.getByText(L('Your password is weak, please upgrade it first'))).toBeVisible();
      await screenshot(page, `password-weak-dialog-${locale}`);
      await dialog.getByRole('button', { name: L('Upgrade password') }).click();
      await expect(page).toHaveURL(/\/reset-pass/);
    });
  }

  test('a wrong 7-character password gets the one "phone or password wrong" answer from the server, not from the page', async ({ page }) => {
    await useLocale(page, 'en');
    const phone = randomPhone();
    await registerByApi(page.request, phone);
    await page.goto('/user/login');
    await field(page, 'Phone number').fill(phone);
    await field(page, 'Password').fill('short1x');
    const asked = page.waitForRequest((r) => r.url().endsWith('/api/v1/users') && r.method() === 'POST');
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await asked;
    await expect(page.getByText('Phone or password wrong')).toBeVisible();
  });

  test('the password visibility button is labelled in the page language and reachable by keyboard', async ({ page }) => {
    await useLocale(page, 'zh');
    await page.goto('/user/login');
    const password = field(page, tr('zh', 'Password'));
    await password.fill('Secret123');
    await password.focus();
    await page.keyboard.press('Tab');
    const toggle = page.getByRole('button', { name: tr('zh', 'Show or hide the password') });
    await expect(toggle).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(password).toHaveAttribute('type', 'text');
    await screenshot(page, 'password-toggle-zh');
  });

  test('errors on screen follow a language switch; a short SMS code asks for the code (§5)', async ({ page }) => {
    await useLocale(page, 'en');
    await page.goto('/signup');
    await field(page, 'Phone number').fill(randomPhone());
    await field(page, 'Password').fill('alllower1');
    await field(page, 'Repeat password').fill('alllower1');
    await field(page, 'SMS verification code').fill('123');
    await page.getByRole('button', { name: 'Register' }).click();
    await expect(page.getByText('The password must contain upper and lower case letters and digits')).toBeVisible();
    await expect(page.getByText('Please enter the phone verification code')).toBeVisible();
    await expect(page.getByText('SMS verification code wrong')).toHaveCount(0);
    await switchLanguage(page, '日本語');
    await expect(page.getByText(tr('ja', 'The password must contain upper and lower case letters and digits'))).toBeVisible();
    await expect(page.getByText(tr('ja', 'Please enter the phone verification code'))).toBeVisible();
    await expect(page.getByText('The password must contain upper and lower case letters and digits')).toHaveCount(0);
    await screenshot(page, 'signup-errors-switched-ja');
  });

  test('sending a code again too early counts down with the §9 message; a new code hides the stale error', async ({ page }) => {
    await useLocale(page, 'en');
    const phone = randomPhone();
    await page.goto('/signup');
    await field(page, 'Phone number').fill(phone);
    await page.getByTestId('send-code').click();
    await expect(page.getByText('Code sent to your phone, valid for 10 minutes')).toBeVisible();
    await latestCode(page.request, phone, 1);
    // A second tab (or a reload) asks again within the minute: the server refuses, the page says why and counts down.
    await page.reload();
    await field(page, 'Phone number').fill(phone);
    await page.getByTestId('send-code').click();
    await expect(page.getByTestId('send-code')).toBeDisabled();
    await expect(page.getByTestId('send-code')).toContainText(/Resend in \d+s/);
    await screenshot(page, 'sms-too-early-en');
  });

  test('anonymous pages make no failing call', async ({ page }) => {
    const failed: string[] = [];
    page.on('response', (r) => {
      if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
    });
    page.on('console', (m) => {
      if (m.type() === 'error') failed.push(m.text());
    });
    await useLocale(page, 'en');
    for (const p of ['/user/login', '/signup', '/reset-pass', '/verify-file', '/terms']) {
      await page.goto(p);
      await page.waitForLoadState('networkidle');
    }
    expect(failed).toEqual([]);
  });
});

test.describe('with strongPassword on', () => {
  let server: ChildProcess;
  let dir: string;
  const port = Number(process.env.E2E_PORT ?? 8181) + 1100;
  const baseURL = `http://127.0.0.1:${port}`;
  test.beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-strong-e2e-'));
    const configFile = path.join(dir, 'provena.json');
    fs.writeFileSync(configFile, JSON.stringify({ strongPassword: true }));
    server = spawn(process.execPath, ['scripts/e2e-server.ts'], {
      env: { ...process.env, E2E_PORT: String(port), E2E_NO_BUILD: '1', E2E_DEMO_ENTERPRISES: '0', PROVENA_CONFIG: configFile },
      stdio: 'ignore',
    });
    await expect.poll(async () => (await fetch(`${baseURL}/api/health`).catch(() => null))?.status ?? 0, { timeout: 60_000 }).toBe(200);
  });
  test.afterAll(() => {
    server?.kill('SIGTERM');
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  test('sign-up, reset and the change dialog all say and check the special character', async ({ browser }) => {
    const context = await browser.newContext({ baseURL });
    const page = await context.newPage();
    await useLocale(page, 'en');
    const hint = 'At least 8 characters, with upper and lower case letters, a digit and a special character (such as ! @ # $ %)';
    await page.goto('/signup');
    await expect(page.getByText(hint)).toBeVisible();
    const phone = randomPhone();
    await field(page, 'Phone number').fill(phone);
    await field(page, 'Password').fill('Passw0rd1');
    await field(page, 'Repeat password').fill('Passw0rd1');
    await page.getByTestId('send-code').click();
    await field(page, 'SMS verification code').fill(await latestCode(page.request, phone, 1));
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Register' }).click();
    // Passw0rd1 has upper, lower and digits: the message names the one thing it lacks.
    await expect(page.getByText('The password must also contain a special character, such as ! @ # $ %')).toBeVisible();
    await expect(page.getByText('The password must contain upper and lower case letters and digits')).toHaveCount(0);
    await screenshot(page, 'signup-strong-password-en');
    await field(page, 'Password').fill('Passw0rd1!');
    await field(page, 'Repeat password').fill('Passw0rd1!');
    await page.getByRole('button', { name: 'Register' }).click();
    await expect(page).toHaveURL(/\/real-auth/);

    await page.goto('/reset-pass');
    await expect(page.getByText(hint)).toBeVisible();

    // The change dialog: the same rule (7 characters there, §9), and its hint says so.
    await page.goto('/dashboard/setting/pass');
    await expect(page.getByText('At least 7 characters, with letters, digits and a special character (such as ! @ # $ %), different from the original')).toBeVisible();
    await field(page, 'Original password').fill('Passw0rd1!');
    await field(page, 'New password').fill('abcdef12');
    await field(page, 'Repeat new password').fill('abcdef12');
    await page.getByRole('button', { name: 'Change password' }).last().click();
    await expect(page.getByText('The password must also contain a special character, such as ! @ # $ %')).toBeVisible();
    // The server holds the same rule for a client that skips the page.
    const res = await page.request.put('/api/v1/users/password', { data: { old_password: 'Passw0rd1!', new_password: 'abcdef12' } });
    expect(await res.json()).toEqual({ message: 'password_needs_special_character', field_name: 'new_password' });
    await context.close();
  });
});
