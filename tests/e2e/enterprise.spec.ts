import { expect, test, type Browser, type Page } from '@playwright/test';
import { cardCheckChar } from '../../core/identity.ts';
import { field, latestCode, randomPhone, registerByApi, screenshot, tr, useLocale, type Locale } from './support.ts';

function randomCardNo(): string {
  const first17 = `110105199${Math.floor(Math.random() * 10)}0101${String(Math.floor(Math.random() * 1000)).padStart(3, '0')}`;
  return first17 + cardCheckChar(first17);
}

function pngFile(salt: string) {
  const buffer = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from(`licence-${salt}`)]);
  return { name: 'licence.png', mimeType: 'image/png', buffer };
}

async function newUserPage(browser: Browser, locale: Locale): Promise<{ page: Page; phone: string }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await useLocale(page, locale);
  const phone = randomPhone();
  await registerByApi(page.request, phone);
  return { page, phone };
}

async function logIn(page: Page, locale: Locale, phone: string) {
  const L = (s: string) => tr(locale, s);
  await page.goto('/user/login');
  await field(page, L('Phone number')).fill(phone);
  await field(page, L('Password')).fill('Passw0rdA');
  await page.getByRole('button', { name: L('Log in'), exact: true }).click();
}

async function realNameAuth(page: Page, locale: Locale, name: string) {
  const L = (s: string) => tr(locale, s);
  await expect(page).toHaveURL(/\/real-auth/);
  // §5: a wrong check digit is refused on the field.
  await field(page, L('ID card number')).fill('110105194912310021');
  await field(page, L('Real name')).fill(name);
  await page.getByRole('button', { name: L('Authenticate'), exact: true }).click();
  await expect(page.getByText(L('Real-name authentication failed, please check and try again'), { exact: false }).or(page.locator('.mantine-InputWrapper-error')).first()).toBeVisible();
  await field(page, L('ID card number')).fill(randomCardNo());
  await page.getByRole('button', { name: L('Authenticate'), exact: true }).click();
  await expect(page.getByTestId('choose-join-code')).toBeVisible();
}

test.describe('identity and enterprises, two browsers', () => {
  test('A creates an enterprise (channel 1), B joins by code, A approves, then freezes B', async ({ browser }) => {
    test.setTimeout(120_000);
    const A = await newUserPage(browser, 'en');
    const B = await newUserPage(browser, 'zh');
    const LA = (s: string) => tr('en', s);
    const LB = (s: string) => tr('zh', s);
    const companyName = `Provena Test ${Date.now()}`;

    // A: login → §4 no card_no → real-auth; authenticate; create a company.
    await logIn(A.page, 'en', A.phone);
    await realNameAuth(A.page, 'en', '张三');
    await screenshot(A.page, 'enterprise-real-auth-step2-en');
    await A.page.getByTestId('choose-create').click();
    await expect(A.page).toHaveURL(/\/add-company/);
    await A.page.getByTestId('licence-file').setInputFiles(pngFile(companyName));
    // No Tesseract on this machine: recognition is unavailable and the fields are typed.
    await expect(A.page.getByTestId('ocr-alert')).toBeVisible();
    await field(A.page, LA('Company name')).fill(companyName);
    await field(A.page, LA('Licence number')).fill(`91610000${String(Date.now()).slice(-9)}X`);
    await field(A.page, LA('Legal representative')).fill('张三');
    await expect(A.page.getByTestId('channel-1')).toBeVisible();
    const authenticate = A.page.getByRole('button', { name: LA('Authenticate'), exact: true });
    await expect(authenticate).toBeDisabled();
    await A.page.getByTestId('send-legal-code').click();
    await A.page.getByLabel(/SMS code sent to/).fill(await latestCode(A.page.request, A.phone, 17));
    await expect(authenticate).toBeDisabled();
    await A.page.getByRole('checkbox').check();
    await screenshot(A.page, 'enterprise-create-channel1-en');
    await authenticate.click();
    await expect(A.page).toHaveURL(/\/dashboard\/company/);
    const code = (await A.page.getByTestId('invitation-code').textContent())?.trim() ?? '';
    expect(code).toMatch(/^[A-Z2-9]{8}$/);

    // B: login → real-auth → join by invitation code → review state.
    await logIn(B.page, 'zh', B.phone);
    await realNameAuth(B.page, 'zh', '李四');
    await B.page.getByTestId('choose-join-code').click();
    await B.page.getByRole('button', { name: LB('Join'), exact: true }).click();
    await expect(B.page.getByText(LB('Please enter the invitation code')).first()).toBeVisible();
    await field(B.page, LB('Invitation code')).fill('WRONG999');
    await B.page.getByRole('button', { name: LB('Join'), exact: true }).click();
    await expect(B.page.locator('.mantine-InputWrapper-error')).toBeVisible();
    await field(B.page, LB('Invitation code')).fill(code);
    await B.page.getByRole('button', { name: LB('Join'), exact: true }).click();
    await expect(B.page).toHaveURL(/\/in-review/);
    await expect(B.page.getByTestId('review-state')).toHaveAttribute('data-status', '2');
    await expect(B.page.getByText(LB('The administrator is reviewing, please wait.'))).toBeVisible();
    await screenshot(B.page, 'enterprise-in-review-zh');

    // A approves.
    await A.page.goto('/dashboard/company/applications');
    await A.page.getByTestId(`application-${B.phone}`).getByRole('button', { name: LA('Approve') }).click();
    await expect(A.page.getByText(LA('No applications waiting for review.'))).toBeVisible();

    // B lands on the default page.
    await B.page.reload();
    await expect(B.page).toHaveURL(/\/dashboard\/home/);

    // A freezes B; B's session ends and B cannot log in.
    await A.page.goto('/dashboard/company/members');
    await A.page.getByTestId(`member-${B.phone}`).getByRole('button', { name: LA('Freeze') }).click();
    await expect(A.page.getByTestId(`member-${B.phone}`).getByRole('button', { name: LA('Unfreeze') })).toBeVisible();
    await screenshot(A.page, 'enterprise-members-en');
    await B.page.reload();
    await expect(B.page).toHaveURL(/\/user\/login/);
    await logIn(B.page, 'zh', B.phone);
    await expect(B.page.getByText(LB('Your account has been frozen'))).toBeVisible();
    await expect(B.page).toHaveURL(/\/user\/login/);
  });
});
