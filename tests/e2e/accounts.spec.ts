import { expect, type Page } from '@playwright/test';
import { field, latestCode, randomPhone, registerByApi, screenshot, tr, useLocale, type Locale, test } from './support.ts';

async function registerThroughForm(page: Page, locale: Locale, phone: string, password: string, name: string) {
  const L = (s: string) => tr(locale, s);
  await page.goto('/signup');
  await field(page, L('Phone number')).fill(phone);
  await field(page, L('Password')).fill(password);
  await field(page, L('Repeat password')).fill(password);
  await field(page, L('Name')).fill(name);
  await page.getByTestId('send-code').click();
  await expect(page.getByText(L('Code sent to your phone, valid for 10 minutes'))).toBeVisible();
  await field(page, L('SMS verification code')).fill(await latestCode(page.request, phone, 1));
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: L('Register') }).click();
}

/** §4: a user without real-name authentication is sent to it after login or sign-up. */
async function expectRealAuthNext(page: Page) {
  await expect(page).toHaveURL(/\/real-auth/);
}

async function logOut(page: Page, locale: Locale) {
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: tr(locale, 'Log out') }).click();
  await page.getByTestId('logout-confirm').click();
  await expect(page).toHaveURL(/\/user\/login/);
}

test.describe('accounts, end to end', () => {
  test('register, log out, log in by password and by code, reset the password — in Chinese', async ({ page }) => {
    const L = (s: string) => tr('zh', s);
    await useLocale(page, 'zh');
    const phone = randomPhone();

    // The front page is off by default (§9), so / leads to login.
    await page.goto('/');
    await expect(page).toHaveURL(/\/user\/login/);
    await expect(page.locator('html')).toHaveAttribute('lang', /zh/);

    await registerThroughForm(page, 'zh', phone, 'Passw0rdA', '张三丰');
    await expectRealAuthNext(page);
    // The dashboard waits for real-name and company authentication (§4).
    await page.goto('/dashboard/home');
    await expect(page).toHaveURL(/\/real-auth/);
    await expect(page).toHaveTitle(/Provena/);

    // The avatar menu shows the masked name and phone (§2).
    await page.getByTestId('user-menu').click();
    await expect(page.getByRole('menu').getByText(`${phone.slice(0, 3)}****${phone.slice(-4)}`)).toBeVisible();
    await page.keyboard.press('Escape');

    await logOut(page, 'zh');

    // Password login.
    await field(page, L('Phone number')).fill(phone);
    await field(page, L('Password')).fill('Passw0rdA');
    await page.getByRole('button', { name: L('Log in'), exact: true }).click();
    await expectRealAuthNext(page);
    await logOut(page, 'zh');

    // Code login.
    await page.getByRole('tab', { name: L('Code login') }).click();
    await field(page, L('Phone number')).fill(phone);
    await page.getByRole('button', { name: L('Send code') }).click();
    await field(page, L('SMS verification code')).fill(await latestCode(page.request, phone, 14));
    await page.getByRole('button', { name: L('Log in'), exact: true }).click();
    await expectRealAuthNext(page);
    await logOut(page, 'zh');

    // Reset the password, then log in with the new one.
    await page.getByRole('link', { name: L('Forgot password?') }).click();
    await expect(page).toHaveURL(/\/reset-pass/);
    await field(page, L('Phone number')).fill(phone);
    await field(page, L('New password')).fill('NewPassw0rd');
    await field(page, L('Repeat new password')).fill('NewPassw0rd');
    await page.getByRole('button', { name: L('Send code') }).click();
    await field(page, L('SMS verification code')).fill(await latestCode(page.request, phone, 11));
    await page.getByRole('button', { name: L('Reset password') }).click();
    await expect(page).toHaveURL(/\/user\/login/);
    await field(page, L('Phone number')).fill(phone);
    await field(page, L('Password')).fill('NewPassw0rd');
    await page.getByRole('button', { name: L('Log in'), exact: true }).click();
    await expectRealAuthNext(page);
  });

  test('register shows the §5 rules on the right fields and writes nothing — in English', async ({ page }) => {
    await useLocale(page, 'en');
    const phone = randomPhone();
    await page.goto('/signup');
    const submit = page.getByRole('button', { name: 'Register' });
    await expect(submit).toBeDisabled();
    await field(page, 'Phone number').fill('12345');
    await field(page, 'Password').fill('alllower1');
    await field(page, 'Repeat password').fill('different1');
    await field(page, 'SMS verification code').fill('123456');
    await expect(submit).toBeEnabled();
    await submit.click();
    await expect(page.getByText('Phone or password wrong')).toBeVisible();
    await expect(page.getByText('The password must contain upper and lower case letters and digits')).toBeVisible();
    await expect(page.getByText('The two passwords do not match')).toBeVisible();
    await expect(page.getByText('Please read and agree to the user agreement')).toBeVisible();

    // A right-shaped form with a wrong code: the server's message lands on the code field.
    await field(page, 'Phone number').fill(phone);
    await field(page, 'Password').fill('Passw0rdA');
    await field(page, 'Repeat password').fill('Passw0rdA');
    await page.getByTestId('send-code').click();
    const code = await latestCode(page.request, phone, 1);
    await field(page, 'SMS verification code').fill(code === '000000' ? '000001' : '000000');
    await page.getByRole('checkbox').check();
    await submit.click();
    await expect(page.getByText('SMS verification code wrong')).toBeVisible();
    await expect(page).toHaveURL(/\/signup/);
    expect((await page.request.get('/api/v1/users')).status()).toBe(400);

    // Sending again within a minute: the button counts down and stays disabled.
    await expect(page.getByTestId('send-code')).toBeDisabled();
  });

  test('login errors of §8: wrong password, lock-out after five, then the ten-minute message — in Japanese', async ({ page }) => {
    const L = (s: string) => tr('ja', s);
    await useLocale(page, 'ja');
    const phone = randomPhone();
    await registerByApi(page.request, phone);
    await page.goto('/user/login');
    await field(page, L('Phone number')).fill(phone);
    const password = field(page, L('Password'));
    const submit = page.getByRole('button', { name: L('Log in'), exact: true });
    for (let i = 0; i < 4; i += 1) {
      await password.fill(`Wrong${i}pass1`);
      await submit.click();
      await expect(page.getByText(L('Phone or password wrong'))).toBeVisible();
    }
    await password.fill('Wrong9pass1');
    await submit.click();
    await expect(page.getByText(L('Multiple wrong passwords, please try again in ten minutes'))).toBeVisible();
    await password.fill('Passw0rdA');
    await submit.click();
    await expect(page.getByText(L('Multiple wrong passwords, please try again in ten minutes'))).toBeVisible();
    await expect(page).toHaveURL(/\/user\/login/);
  });

  test('language switch in the footer persists across reloads', async ({ page }) => {
    await useLocale(page, 'zh');
    await page.goto('/user/login');
    await expect(page.getByRole('button', { name: tr('zh', 'Log in'), exact: true })).toBeVisible();
    await page.getByTestId('footer-locale').click();
    await page.getByRole('menuitem', { name: 'English' }).click();
    await expect(page.getByRole('button', { name: 'Log in', exact: true })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    expect(await page.evaluate(() => localStorage.getItem('locale'))).toBe('en');
    await page.reload();
    await expect(page.getByRole('button', { name: 'Log in', exact: true })).toBeVisible();
    await page.getByTestId('footer-locale').click();
    await page.getByRole('menuitem', { name: '日本語' }).click();
    await expect(page.getByRole('button', { name: tr('ja', 'Log in'), exact: true })).toBeVisible();
  });

  test('personal centre: change name and password; logged-in visitors skip login and register', async ({ page }) => {
    const L = (s: string) => tr('zh', s);
    await useLocale(page, 'zh');
    const phone = randomPhone();
    await registerByApi(page.request, phone);
    await page.goto('/user/login');
    await field(page, L('Phone number')).fill(phone);
    await field(page, L('Password')).fill('Passw0rdA');
    await page.getByRole('button', { name: L('Log in'), exact: true }).click();
    await expectRealAuthNext(page);

    await page.goto('/signup');
    await expect(page).not.toHaveURL(/\/signup/);
    await page.goto('/user/login');
    await expect(page).not.toHaveURL(/\/user\/login/);

    await page.goto('/dashboard/setting/info');
    await field(page, L('Name')).fill('李四');
    await page.getByRole('button', { name: L('Save name') }).click();
    await expect(page.getByText(L('Your name has been changed'))).toBeVisible();

    await page.goto('/dashboard/setting/pass');
    await field(page, L('Original password')).fill('Wrong1234');
    await field(page, L('New password')).fill('Better1234');
    await field(page, L('Repeat new password')).fill('Better1234');
    await page.getByRole('button', { name: L('Change password') }).last().click();
    await expect(page.getByText(L('Original password wrong'))).toBeVisible();
    await field(page, L('Original password')).fill('Passw0rdA');
    await page.getByRole('button', { name: L('Change password') }).last().click();
    await expect(page.getByText(L('Password changed. Other devices have been logged out.'))).toBeVisible();
  });

  test('the dashboard needs a session; unknown pages get a real not-found page', async ({ page }) => {
    await useLocale(page, 'en');
    await page.goto('/dashboard/setting/info');
    await expect(page).toHaveURL(/\/user\/login/);
    await page.goto('/no/such/page');
    await expect(page.getByText('Page not found')).toBeVisible();
    await page.getByRole('link', { name: 'Back to home' }).click();
    await expect(page).toHaveURL(/\/user\/login/);
  });

  test('register and log in at mobile width @mobile', async ({ page }) => {
    await useLocale(page, 'en');
    const phone = randomPhone();
    await registerThroughForm(page, 'en', phone, 'Passw0rdA', 'Ada Lovelace');
    await expectRealAuthNext(page);
    // Nothing overflows horizontally on a phone.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'mobile-home-en');
  });
});

test.describe('screens in three languages', () => {
  for (const locale of ['zh', 'en', 'ja'] as const) {
    test(`login, register and reset render in ${locale} @mobile`, async ({ page }, info) => {
      await useLocale(page, locale);
      for (const [route, heading] of [
        ['/user/login', 'Log in'],
        ['/signup', 'Register'],
        ['/reset-pass', 'Reset password'],
      ] as const) {
        await page.goto(route);
        await expect(page.getByRole('heading', { name: tr(locale, heading) })).toBeVisible();
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${route} overflows at ${info.project.name}`).toBeLessThanOrEqual(0);
        await screenshot(page, `${route.replaceAll('/', '_')}-${locale}-${info.project.name}`);
      }
    });
  }
});

test.describe('legal pages', () => {
  for (const locale of ['zh', 'en', 'ja'] as const) {
    test(`terms and the nine-section privacy policy read in ${locale} @mobile`, async ({ page }, info) => {
      await useLocale(page, locale);
      await page.goto('/signup');
      // The agree-terms checkbox links to the agreement (§2), opening it beside the form.
      await expect(page.locator('form a[href="/terms"]')).toHaveAttribute('target', '_blank');
      await page.goto('/terms');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(tr(locale, 'User agreement'));
      await page.goto('/privacy');
      await expect(page.locator('section h2')).toHaveCount(9);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await screenshot(page, `privacy-${locale}-${info.project.name}`);
    });
  }
});
