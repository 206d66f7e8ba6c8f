import { expect, type Browser, type Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createOperator, enrollOperatorInPage, field, totpCode, latestCode, randomCardNo, randomPhone, registerByApi, screenshot, tr, useLocale, type Locale, test } from './support.ts';

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
    // §2 avatar menu: with multiCompany, a submenu of companies with the current one ticked.
    await A.page.getByTestId('user-menu').click();
    await A.page.getByTestId('company-submenu').hover();
    await expect(A.page.getByRole('menuitem', { name: companyName })).toBeVisible();
    await expect(A.page.getByRole('menuitem', { name: LA('Join or create a company') })).toBeVisible();
    await A.page.keyboard.press('Escape');

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
    // §4 holds for dashboard URLs too: a member under review is sent back to the review screen.
    await B.page.goto('/dashboard/vault');
    await expect(B.page).toHaveURL(/\/in-review/);

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
    // A change that takes effect for someone else at once is confirmed first, and said when done.
    await expect(A.page.getByTestId(`member-${B.phone}`).getByRole('button', { name: LA('Unfreeze') })).toHaveCount(0);
    await A.page.getByRole('dialog').getByRole('button', { name: LA('Freeze') }).click();
    await expect(A.page.getByText(/was frozen$/)).toBeVisible();
    await expect(A.page.getByTestId(`member-${B.phone}`).getByRole('button', { name: LA('Unfreeze') })).toBeVisible();
    await screenshot(A.page, 'enterprise-members-en');
    await B.page.reload();
    await expect(B.page).toHaveURL(/\/user\/login/);
    await logIn(B.page, 'zh', B.phone);
    await expect(B.page.getByText(LB('Your account has been frozen'))).toBeVisible();
    await expect(B.page).toHaveURL(/\/user\/login/);

    // §6 add in bulk from an XLSX written by SheetJS: one bad row imports nothing; the corrected file imports all.
    const XLSX = await import('@e965/xlsx');
    const sheet = (rows: unknown[][]) => {
      const book = XLSX.utils.book_new();
      XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), 'members');
      return { name: 'members.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: Buffer.from(XLSX.write(book, { type: 'buffer', bookType: 'xlsx' })) };
    };
    const [p1, p2] = [randomPhone(), randomPhone()];
    await A.page.goto('/dashboard/company/invitations');
    await A.page.getByTestId('bulk-file').setInputFiles(sheet([['phone', 'name', 'role', 'password'], [Number(p1), '钱一', 0, 'Passw0rdA'], ['1234', '钱二', 0, 'Passw0rdA']]));
    await expect(A.page.getByTestId('bulk-summary')).toContainText(LA('Nothing was imported: {0} of {1} rows have problems. Correct the rows marked below and upload the file again.').replace('{0}', '1').replace('{1}', '2'));
    await expect(A.page.getByTestId('bulk-results').getByRole('row')).toHaveCount(3);
    await screenshot(A.page, 'enterprise-bulk-rejected-en');
    await A.page.getByTestId('bulk-file').setInputFiles(sheet([['phone', 'name', 'role', 'password'], [Number(p1), '钱一', 0, 'Passw0rdA'], [p2, '钱二', 2, 'Passw0rdA']]));
    await expect(A.page.getByTestId('bulk-summary')).toHaveText(LA('{0} rows imported.').replace('{0}', '2'));
    await A.page.goto('/dashboard/company/members');
    await expect(A.page.getByTestId(`member-${p2}`)).toBeVisible();
  });

  test('channel 2: application form to the operator console, rejected with a reason, recommitted, approved', async ({ browser }) => {
    test.setTimeout(120_000);
    const C = await newUserPage(browser, 'en');
    const L = (s: string) => tr('en', s);
    const companyName = `Agent Route ${Date.now()}`;
    await logIn(C.page, 'en', C.phone);
    await realNameAuth(C.page, 'en', '王五');
    await C.page.getByTestId('choose-create').click();
    // §5: the licence comes first.
    await C.page.getByTestId('licence-file').setInputFiles(pngFile(companyName));
    await field(C.page, L('Company name')).fill(companyName);
    await field(C.page, L('Licence number')).fill(`91610000${String(Date.now()).slice(-9)}Y`);
    await field(C.page, L('Legal representative')).fill('法人甲');
    // Not the legal person: channel 2, authenticate disabled until the form is uploaded.
    await expect(C.page.getByTestId('channel-2')).toBeVisible();
    const authenticate = C.page.getByRole('button', { name: L('Authenticate'), exact: true });
    await expect(authenticate).toBeDisabled();
    const download = C.page.waitForEvent('download');
    await C.page.getByRole('link', { name: L('Download the application form') }).click();
    expect((await (await download).path()) !== null).toBe(true);
    await C.page.getByTestId('apply-book-file').setInputFiles({ name: 'form.pdf', mimeType: 'application/pdf', buffer: Buffer.from(`%PDF-1.4\nsigned ${companyName}`) });
    await expect(authenticate).toBeEnabled();
    await screenshot(C.page, 'enterprise-create-channel2-en');
    await authenticate.click();
    await expect(C.page).toHaveURL(/\/in-review/);
    await expect(C.page.getByText(L('Your enterprise application is being reviewed by the platform.'))).toBeVisible();

    // The operator console: its own login; reject with a reason.
    createOperator('e2e-ops', 'OperatorPass1');
    const opContext = await browser.newContext();
    const op = await opContext.newPage();
    await useLocale(op, 'en');
    await op.goto('/operator');
    await field(op, L('Operator account')).fill('e2e-ops');
    await field(op, L('Password')).fill('OperatorPass1');
    await op.getByRole('button', { name: L('Log in'), exact: true }).click();
    const totpSecret = await enrollOperatorInPage(op, 'operator-en');
    const row = op.getByRole('row').filter({ hasText: companyName });
    await row.getByRole('button', { name: L('Reject') }).click();
    await op.getByLabel(L('Reason (shown to the applicant)')).fill('The stamp is not legible');
    await op.getByRole('dialog').getByRole('button', { name: L('Reject') }).click();
    await expect(row).toHaveCount(0);
    await screenshot(op, 'enterprise-operator-en');

    // The applicant sees the reason and recommits.
    await C.page.reload();
    await expect(C.page.getByText('The stamp is not legible')).toBeVisible();
    await C.page.getByRole('button', { name: L('Recommit the application') }).click();
    await C.page.getByTestId('licence-file').setInputFiles(pngFile(companyName));
    await field(C.page, L('Company name')).fill(companyName);
    await field(C.page, L('Licence number')).fill(`91610000${String(Date.now()).slice(-9)}Y`);
    await field(C.page, L('Legal representative')).fill('法人甲');
    await C.page.getByTestId('apply-book-file').setInputFiles({ name: 'form2.pdf', mimeType: 'application/pdf', buffer: Buffer.from(`%PDF-1.4\nclearer ${companyName}`) });
    await C.page.getByRole('button', { name: L('Recommit'), exact: true }).click();
    await expect(C.page).toHaveURL(/\/in-review/);

    await op.reload();
    await op.getByRole('row').filter({ hasText: companyName }).getByRole('button', { name: L('Approve') }).click();
    await expect(op.getByRole('row').filter({ hasText: companyName })).toHaveCount(0);
    // Both decisions, and the console login, are in the operator audit log.
    await op.getByTestId('operator-tab-audit').click();
    const audit = op.getByTestId('operator-audit');
    await expect(audit.locator('tr[data-action="application_approved"]').first()).toContainText('e2e-ops');
    await expect(audit.locator('tr[data-action="application_rejected"]').first()).toContainText('The stamp is not legible');
    await expect(audit.locator('tr[data-action="totp_enrolled"]').first()).toBeVisible();
    for (const width of [1440, 900, 390]) {
      await op.setViewportSize({ width, height: 900 });
      await screenshot(op, `operator-audit-${width}`);
    }
    // The next login needs the authenticator's code (the next 30-second step: each code works once).
    await op.setViewportSize({ width: 1440, height: 900 });
    await op.getByRole('button', { name: L('Log out') }).click();
    await field(op, L('Operator account')).fill('e2e-ops');
    await field(op, L('Password')).fill('OperatorPass1');
    await op.getByRole('button', { name: L('Log in'), exact: true }).click();
    await op.getByTestId('operator-totp-input').fill(totpCode(totpSecret, Date.now() + 30_000));
    await op.getByRole('button', { name: L('Log in'), exact: true }).click();
    await expect(op.getByTestId('operator-tab-audit')).toBeVisible();

    // Approved: the applicant is super administrator of the new company.
    await C.page.reload();
    await expect(C.page).toHaveURL(/\/dashboard\/home/);
    await C.page.goto('/dashboard/company');
    await expect(C.page.getByRole('heading', { name: companyName })).toBeVisible();
    await expect(C.page.getByTestId('invitation-code')).toHaveText(/^[A-Z2-9]{8}$/);
  });

});

/**
 * The screens at mobile width in three languages. Not tagged @mobile (so it runs once,
 * in the desktop project, with a phone viewport): every SMS code counts against the
 * server's per-address ceiling (20 an hour), and the whole e2e run shares one address.
 */
test.describe('identity and company screens in three languages at mobile width', () => {
  test.use({ viewport: { width: 412, height: 839 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
  let inviterRequest: import('@playwright/test').APIRequestContext;
  let ownerContextToClose: import('@playwright/test').BrowserContext;

  test.beforeAll(async ({ browser }) => {
    // One owner with a company, set up through the API, invites every visitor below.
    ownerContextToClose = await browser.newContext();
    inviterRequest = ownerContextToClose.request;
    const ownerPhone = randomPhone();
    await registerByApi(inviterRequest, ownerPhone);
    expect((await inviterRequest.post('/api/v1/users', { data: { login_id: ownerPhone, password: 'Passw0rdA' } })).status()).toBe(200);
    expect((await inviterRequest.post('/api/v2/users/verified-token', { data: { card_no: randomCardNo(), name: '赵六' } })).status()).toBe(200);
    const licence = pngFile(`screens-${Date.now()}`);
    const uuid = `0x${createHash('sha256').update(licence.buffer).digest('hex')}.png`;
    await inviterRequest.post('/api/v1/files/upload-request', { data: { uuid } });
    expect((await inviterRequest.post('/api/v1/files', { multipart: { uuid, file: licence } })).status()).toBe(200);
    await inviterRequest.get('/api/v1/validation/private-code?type=17');
    const created = await inviterRequest.post('/api/v1/enterprises/legal-person', {
      data: { name: `多语言公司 ${Date.now()}`, license: `91610000${String(Date.now()).slice(-9)}Z`, legal_person: '赵六', license_image_id: uuid, validation_code: await latestCode(inviterRequest, ownerPhone, 17) },
    });
    expect(created.status()).toBe(200);
  });
  test.afterAll(async () => {
    await ownerContextToClose?.close();
  });

  for (const locale of ['zh', 'en', 'ja'] as const) {
    test(`real-auth, create, invitation and company screens fit and read in ${locale}`, async ({ page }) => {
      const L = (s: string) => tr(locale, s);
      await useLocale(page, locale);
      const noOverflow = async () => expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);

      // The visitor: register, log in → real-auth step 1.
      const phone = randomPhone();
      await registerByApi(page.request, phone);
      await logIn(page, locale, phone);
      await expect(page).toHaveURL(/\/real-auth/);
      await noOverflow();
      await screenshot(page, `enterprise-real-auth-${locale}-mobile`);
      await field(page, L('ID card number')).fill(randomCardNo());
      await field(page, L('Real name')).fill('孙八');
      await page.getByRole('button', { name: L('Authenticate'), exact: true }).click();
      await expect(page.getByTestId('choose-join-code')).toBeVisible();
      await noOverflow();
      await page.getByTestId('choose-create').click();
      await expect(page.getByText(L('Business licence (JPEG, PNG, BMP or GIF, under 3 MB)'))).toBeVisible();
      await noOverflow();
      await screenshot(page, `enterprise-add-company-${locale}-mobile`);

      // The owner invites the visitor (an existing account): §4 after login → invited company → accept → company.
      expect((await inviterRequest.post('/api/v2/users/members', { data: { phone, name: '孙八', role: 0 } })).status()).toBe(200);
      await page.request.delete('/api/v1/users/tokens');
      await logIn(page, locale, phone);
      await expect(page).toHaveURL(/\/invited-company/);
      await expect(page.getByTestId('invitation')).toBeVisible();
      await noOverflow();
      await screenshot(page, `enterprise-invited-${locale}-mobile`);
      await page.getByRole('button', { name: L('Join this company') }).click();
      await expect(page).toHaveURL(/\/dashboard\/company/);
      await expect(page.getByRole('tab', { name: L('Members') })).toHaveCount(0);
      await noOverflow();
      await screenshot(page, `enterprise-company-${locale}-mobile`);
    });
  }
});

/**
 * The OCR variant of real-name authentication (§2 realAuthNeedOCR). The e2e server runs the
 * default configuration, so the page is given realAuthNeedOCR through /config.json; the photos go
 * through the real §7 upload and the server's real OCR (Tesseract when installed, else the
 * "recognition unavailable" fallback). The server-side rules of this variant are in tests/server/identity.test.ts.
 */
test.describe('real-name authentication with ID photos', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
  test('front and back photos, a failed recognition, then recognised fields', async ({ page }) => {
    test.setTimeout(90_000);
    const hasTesseract = (() => {
      try {
        return execFileSync('tesseract', ['--list-langs'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).includes('chi_sim');
      } catch {
        return false;
      }
    })();
    await page.route('**/config.json', async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, json: { ...(await response.json()), realAuthNeedOCR: true } });
    });
    await useLocale(page, 'ja');
    const L = (s: string) => tr('ja', s);
    const phone = randomPhone();
    await registerByApi(page.request, phone);
    await logIn(page, 'ja', phone);
    await expect(page).toHaveURL(/\/real-auth/);
    // A dashboard URL opened directly leads back here until the user is authenticated and in a company (§4).
    await page.goto('/dashboard/home');
    await expect(page).toHaveURL(/\/real-auth/);
    const submit = page.getByTestId('real-auth-submit');
    await expect(submit).toBeDisabled();
    for (const locale of ['zh', 'en', 'ja'] as const) {
      await page.evaluate((l) => localStorage.setItem('locale', l), locale);
      await page.reload();
      await expect(page.getByText(tr(locale, 'ID card front (with the photo)'))).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
      await screenshot(page, `enterprise-real-auth-ocr-${locale}-mobile`);
    }

    // A photo that is not a card: the alert says to retake. Typing is offered only where the server
    // cannot read photos at all: after a failed reading it would refuse typed fields (a dead end).
    await page.getByTestId('id-front').setInputFiles(pngFile('not-an-id-card'));
    await expect(page.getByTestId('id-ocr-alert')).toHaveText(
      L(hasTesseract ? 'The front of the ID card could not be recognised. Retake the photo and upload it again.' : 'Recognition is unavailable on this server. Type the number and name from your ID card.'),
    );
    if (hasTesseract) await expect(field(page, L('ID card number'))).toHaveCount(0);
    else await expect(field(page, L('ID card number'))).toBeEditable();
    await expect(submit).toBeDisabled();

    // A rendered card: the front fills number and name; with the back, Authenticate is enabled.
    const cardNo = randomCardNo();
    const render = (lines: string[]) =>
      page.evaluate((ls) => {
        const canvas = document.createElement('canvas');
        canvas.width = 1000;
        canvas.height = 90 + ls.length * 80;
        const ctx = canvas.getContext('2d')!;
        ctx.fillStyle = '#f4f1ea';
        ctx.fillRect(0, 0, canvas.width, canvas.height);
        ctx.fillStyle = '#111';
        ctx.font = '44px "Noto Sans CJK SC", sans-serif';
        ls.forEach((l, i) => ctx.fillText(l, 50, 90 + i * 80));
        return canvas.toDataURL('image/png').split(',')[1];
      }, lines);
    const front = Buffer.from(await render(['姓名 王小明', '性别 男    民族 汉', `公民身份号码 ${cardNo}`]), 'base64');
    const back = Buffer.from(await render(['签发机关 北京市公安局', '有效期限 2020.01.01-2040.01.01']), 'base64');
    if (hasTesseract) {
      // A front whose name cannot be read (here: no name line at all) but whose number can: the
      // number is filled and fixed, the name typed, and the server accepts it (it checks the number).
      const nameless = Buffer.from(await render(['性别 男    民族 汉', `公民身份号码 ${cardNo}`]), 'base64');
      await page.getByTestId('id-front').setInputFiles({ name: 'nameless.png', mimeType: 'image/png', buffer: nameless });
      await expect(field(page, L('ID card number'))).toHaveValue(cardNo, { timeout: 30_000 });
      await expect(field(page, L('ID card number'))).not.toBeEditable();
      await expect(page.getByTestId('id-ocr-alert')).toHaveText(L('The number was read from the photo, the name could not be. Type your name as it is printed on the card.'));
      await expect(field(page, L('Real name'))).toHaveValue('');
      await screenshot(page, 'enterprise-real-auth-ocr-number-only-ja-mobile');
    }
    await page.getByTestId('id-front').setInputFiles({ name: 'front.png', mimeType: 'image/png', buffer: front });
    if (hasTesseract) {
      await expect(field(page, L('ID card number'))).toHaveValue(cardNo, { timeout: 30_000 });
      await expect(field(page, L('Real name'))).toHaveValue('王小明');
      await expect(page.getByTestId('id-ocr-alert')).toHaveCount(0);
    } else {
      await field(page, L('ID card number')).fill(cardNo);
      await field(page, L('Real name')).fill('王小明');
    }
    await expect(submit).toBeDisabled();
    await page.getByTestId('id-back').setInputFiles({ name: 'back.png', mimeType: 'image/png', buffer: back });
    await expect(submit).toBeEnabled();
    await screenshot(page, 'enterprise-real-auth-ocr-filled-ja-mobile');
    await submit.click();
    await expect(page.getByTestId('choose-join-code')).toBeVisible();
  });
});
