import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, devices, type Page } from '@playwright/test';
import { MIB, identityOfGenerated, writeGenerated } from './generated-file.ts';
import { createEnterprise, field, latestCode, ok, ownerCredits, person, randomPhone, registerAsset, screenshot, tr, useLocale, type Locale, type Person, test } from './support.ts';

/** Size of the generated file: 1 GiB by default (E2E_DISCLOSURE_MIB for a quicker local run). */
const FILE_MIB = Number(process.env.E2E_DISCLOSURE_MIB ?? 1024);
const SENDER_CODE = 19;
const RECEIVER_CODE = 8;


async function joinAsAdmin(member: Person, owner: Person, invitationCode: string): Promise<void> {
  await ok(member.page.request.post('/api/v2/enterprises/employees', { data: { invitation_code: invitationCode } }), 'join');
  const list = await ok(owner.page.request.get('/api/v1/enterprises/employees?status=2'), 'applications');
  const employee = list.items.find((e: { phone: string }) => e.phone === member.phone);
  await ok(owner.page.request.put('/api/v1/enterprises/employees', { data: { employee_id: employee.employee_id, status: 1 } }), 'approve');
  await ok(owner.page.request.put(`/api/v2/users/members/${employee.employee_id}`, { data: { role: 2 } }), 'role');
}

async function chooseFile(page: Page, file: string): Promise<void> {
  await page.getByTestId('store-file').locator('input[type=file]').setInputFiles(file);
}

async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 4 * MIB })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** A disclosure through the API (senders other than the one on screen; each sends its own code). */
async function discloseByApi(sender: Person, hash: string, extra: Record<string, unknown> = {}): Promise<string> {
  await ok(sender.page.request.get('/api/v2/disclosures/validation-code'), 'sender code');
  const record = await ok(
    sender.page.request.post('/api/v2/disclosures', {
      data: { hash, name: 'archive', received_phone: randomPhone(), store_name: 'R&D', type: 6, store_forever: true, validation_code: await latestCode(sender.page.request, sender.phone, SENDER_CODE), ...extra },
    }),
    'disclose',
  );
  return record.disclosure_id as string;
}

const generatedDir = path.join(os.tmpdir(), `provena-e2e-disclosure-${process.pid}`);
// The generated file is 1 GiB: never leave it behind, whatever the outcome.
test.afterAll(() => fs.rmSync(generatedDir, { recursive: true, force: true }));

test.describe('file disclosure', () => {
  test('sender stores a 1 GiB generated file (resumed after a reload, through a network drop), discloses it; the receiver on a phone verifies, accepts and downloads the same bytes; revoked, expired, guessed and reused links get nothing', async ({ browser }) => {
    test.setTimeout(480_000);
    const L = (s: string) => tr('en', s);
    const owner = await person(browser, 'en', '张三');
    const company = await createEnterprise(owner, '披露 E2E');
    const seed = 20261122;
    const identity = identityOfGenerated('PVN-E2E-', FILE_MIB, seed, '.bin');
    const generated = path.join(generatedDir, 'design-archive.bin');
    fs.mkdirSync(path.dirname(generated), { recursive: true });
    writeGenerated(generated, 'PVN-E2E-', FILE_MIB, seed);
    test.info().attach('generated', { body: `${FILE_MIB} MiB at ${generated}` }).catch(() => undefined);
    await ownerCredits(browser, owner, 10_000);
    await registerAsset(owner, identity, 'design-archive.bin');

    // Store: hashed in the page, uploaded with tus; a reload midway; the same file again resumes.
    const page = owner.page;
    await page.goto('/dashboard/disclosures');
    await chooseFile(page, generated);
    const store = page.getByTestId('store-file');
    await expect(store).toHaveAttribute('data-phase', 'uploading', { timeout: 120_000 });
    await expect.poll(async () => Number(await store.getAttribute('data-bytes')), { timeout: 120_000, intervals: [100] }).toBeGreaterThan(FILE_MIB * MIB * 0.25);
    await page.reload();
    await chooseFile(page, generated);
    const resumed = page.getByTestId('resumed-from');
    await expect(resumed).toBeVisible({ timeout: 120_000 });
    expect(Number(await resumed.getAttribute('data-offset'))).toBeGreaterThan(FILE_MIB * MIB * 0.2);
    // The network drops past 60 %, until a request has failed and the upload counts a retry (a
    // fixed two seconds could pass with no request in flight on a slow machine); back online,
    // it goes on by itself.
    await expect.poll(async () => Number(await store.getAttribute('data-bytes')), { timeout: 120_000, intervals: [100] }).toBeGreaterThan(FILE_MIB * MIB * 0.6);
    await owner.context.setOffline(true);
    // Small runs (E2E_DISCLOSURE_MIB) may finish before the drop; 1 GiB always has some 400 MB to go.
    const isDropMidway = (await store.getAttribute('data-phase')) === 'uploading';
    if (isDropMidway || FILE_MIB >= 1024) await expect.poll(async () => Number(await store.getAttribute('data-retries')), { timeout: 60_000, intervals: [100] }).toBeGreaterThan(0);
    await owner.context.setOffline(false);
    await expect(page.getByTestId('store-done')).toBeVisible({ timeout: 240_000 });

    // Disclose through the form, confirmed with the sender's own code.
    await page.getByTestId('new-disclosure').click();
    const dialog = page.getByRole('dialog');
    await expect(field(page, L('Name shown to the receiver'))).toHaveValue('design-archive');
    // Choosing the file that is already chosen keeps it (it used to clear the field).
    const fileField = dialog.getByTestId('disclosure-file');
    // The field shows the file's name once the list of stored files has loaded: wait for it, then read it.
    await expect(fileField).not.toHaveValue('');
    const chosen = await fileField.inputValue();
    await fileField.click();
    await page.getByRole('option', { name: chosen }).click();
    await expect(fileField).toHaveValue(chosen);
    const receiverPhone = randomPhone();
    await field(page, L("Receiver's phone number")).fill(receiverPhone);
    await field(page, L('Store name')).fill('Legal department');
    await dialog.getByTestId('sender-send-code').click();
    await field(page, L('Your SMS verification code')).fill(await latestCode(page.request, owner.phone, SENDER_CODE));
    await dialog.getByRole('button', { name: L('Disclose') }).click();
    await expect(page).toHaveURL(/\/dashboard\/disclosures\/detail\/[a-z2-7]{26}$/);
    const link = (await page.getByTestId('receiver-link').textContent())!;
    const disclosureId = link.split('/').pop()!;
    await expect(page.getByTestId('disclosure-events').locator('[data-event="sent"]')).toBeVisible();

    // The receiver: another browser, a phone, no account.
    const receiverContext = await browser.newContext({ ...devices['Pixel 7'], acceptDownloads: true });
    const phone = await receiverContext.newPage();
    await useLocale(phone, 'en');
    await phone.goto(new URL(link).pathname);
    await expect(phone.getByTestId('receipt-page')).toHaveAttribute('data-layout', 'mobile');
    await expect(phone.getByTestId('receipt-phone')).toHaveText(`*******${receiverPhone.slice(-4)}`);
    const verify = phone.getByTestId('receipt-verify');
    await phone.getByTestId('receipt-send-code').click();
    const code = await latestCode(phone.request, receiverPhone, RECEIVER_CODE);
    const codeInput = phone.getByPlaceholder(tr('en', '{SMS_CODE_LENGTH}-digit code').replace('{SMS_CODE_LENGTH}', '6'));
    await codeInput.fill(code.slice(0, 5));
    await expect(verify).toBeDisabled();
    await codeInput.fill(code === '000000' ? '111111' : '000000');
    await verify.click();
    await expect(phone.getByText(L('SMS verification code wrong'))).toBeVisible();
    await codeInput.fill(code);
    await verify.click();
    await expect(phone.getByTestId('legal-warning')).toBeVisible();
    await screenshot(phone, 'disclosure-receipt-agreement-mobile-en');
    // Reject goes back to step 1; the verified browser comes back to the agreement after a reload.
    await phone.getByTestId('receipt-reject').click();
    await expect(phone.getByTestId('receipt-page')).toHaveAttribute('data-step', '1');
    await phone.reload();
    await expect(phone.getByTestId('receipt-page')).toHaveAttribute('data-step', '2');
    const accept = phone.getByTestId('receipt-accept');
    await expect(accept).toBeDisabled();
    for (const pledge of ['Keep the file strictly confidential', 'Not disclose its content to anyone', 'Not reproduce it or create new works from it']) {
      await phone.getByLabel(L(pledge)).check();
    }
    const downloadPromise = phone.waitForEvent('download', { timeout: 120_000 });
    await accept.click();
    const download = await downloadPromise;
    expect(download.suggestedFilename()).toBe('design-archive.bin');
    const saved = await download.path();
    expect(`0x${await sha256OfFile(saved)}.bin`).toBe(identity);
    const fileLink = await phone.getByTestId('receipt-downloading').getAttribute('data-link');
    await screenshot(phone, 'disclosure-receipt-downloaded-mobile-en');
    expect(fileLink).toMatch(/^\/api\/v2\/disclosures\/files\//);
    await download.delete();

    // The link in another session gets nothing; guessed ids get nothing.
    const stranger = await browser.newContext();
    expect((await stranger.request.get(fileLink!)).status()).toBe(404);
    expect((await stranger.request.get(`/api/v2/disclosures/records/${'a'.repeat(26)}`)).status()).toBe(404);
    const strangerPage = await stranger.newPage();
    await useLocale(strangerPage, 'en');
    await strangerPage.goto(`/disclosures/${'b'.repeat(26)}`);
    await expect(strangerPage.getByTestId('receipt-expired')).toBeVisible();

    // The sender sees every step.
    await page.reload();
    for (const kind of ['sent', 'identity_verified', 'agreement_accepted', 'downloaded']) {
      await expect(page.getByTestId('disclosure-events').locator(`[data-event="${kind}"]`).first()).toBeVisible();
    }
    await expect(page.getByTestId('disclosure-status')).toHaveAttribute('data-status', '4');
    await expect(page.getByTestId('receipt-entry')).toHaveAttribute('href', /^\/explorer\/entries\//);

    // Revoked (by the owner, in the detail page) and expired disclosures show the expired result.
    const admin = await person(browser, 'en', '李四');
    await joinAsAdmin(admin, owner, company.invitation_code);
    const revokedId = await discloseByApi(admin, identity);
    const expiringId = await discloseByApi(owner, identity, { store_forever: false, expires_at: Date.now() + 2000 }).catch(async () => {
      // The owner's one-code-a-minute rule: a second admin discloses the dated one.
      const second = await person(browser, 'en', '王五');
      await joinAsAdmin(second, owner, company.invitation_code);
      return discloseByApi(second, identity, { store_forever: false, expires_at: Date.now() + 2000 });
    });
    await page.goto(`/dashboard/disclosures/detail/${revokedId}`);
    await page.getByTestId('revoke').click();
    await page.getByTestId('confirm-revoke').click();
    await expect(page.getByTestId('disclosure-status')).toHaveAttribute('data-status', '6');
    await strangerPage.goto(`/disclosures/${revokedId}`);
    await expect(strangerPage.getByTestId('receipt-expired')).toBeVisible();
    await strangerPage.waitForTimeout(2100);
    await strangerPage.goto(`/disclosures/${expiringId}`);
    await expect(strangerPage.getByTestId('receipt-expired')).toBeVisible();
    await screenshot(strangerPage, 'disclosure-receipt-expired-desktop-en');
    expect(disclosureId).toHaveLength(26);
    await Promise.all([receiverContext.close(), stranger.close(), admin.context.close(), owner.context.close()]);
  });
});

test.describe('file disclosure screens', () => {
  test('list, detail and receipt steps in zh, en and ja at 1440, 1000 and 390 wide, without horizontal overflow', async ({ browser }) => {
    test.setTimeout(240_000);
    const owner = await person(browser, 'zh', '张三');
    await createEnterprise(owner, '披露 E2E');
    const page = owner.page;
    const file = path.join(os.tmpdir(), `provena-e2e-disclosure-small-${process.pid}.pdf`);
    writeGenerated(file, 'PVN-E2E-', 2, 7);
    const identity = `0x${await sha256OfFile(file)}.pdf`;
    await ownerCredits(browser, owner, 10_000);
    await registerAsset(owner, identity, '产品设计图.pdf');
    await page.goto('/dashboard/disclosures');
    await chooseFile(page, file);
    await expect(page.getByTestId('store-done')).toBeVisible({ timeout: 60_000 });
    fs.rmSync(file, { force: true });
    const id = await discloseByApi(owner, identity, { name: '产品设计图 v3', store_name: '法务部', store_forever: false, expires_at: Date.now() + 7 * 86_400_000 });
    const receiver = await browser.newContext();
    const rpage = await receiver.newPage();
    const detail = await ok(page.request.get(`/api/v2/disclosures/records/${id}`), 'detail');
    const receiverPhone = detail.record.received_phone as string;
    await ok(rpage.request.post(`/api/v2/disclosures/records/${id}/validation-code`), 'receiver code');

    const noOverflow = async (p: Page) => expect(await p.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
    const setLocale = async (p: Page, locale: Locale) => {
      await p.evaluate((l) => localStorage.setItem('locale', l), locale);
    };
    for (const locale of ['zh', 'en', 'ja'] as const) {
      for (const width of [1440, 1000, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto('/dashboard/disclosures');
        await setLocale(page, locale);
        await page.reload();
        await expect(page.getByTestId('disclosure-list')).toBeVisible();
        await expect(page.getByRole('heading', { name: tr(locale, 'File disclosure') })).toBeVisible();
        await noOverflow(page);
        await screenshot(page, `disclosure-list-${locale}-${width}`);
        await page.goto(`/dashboard/disclosures/detail/${id}`);
        await expect(page.getByTestId('disclosure-events')).toBeVisible();
        await noOverflow(page);
        await screenshot(page, `disclosure-detail-${locale}-${width}`);
        await page.goto('/dashboard/disclosures');
        await page.getByTestId('new-disclosure').click();
        await expect(page.getByRole('dialog')).toBeVisible();
        await noOverflow(page);
        await page.waitForTimeout(400); // the modal's opening transition
        await screenshot(page, `disclosure-create-${locale}-${width}`);

        await rpage.setViewportSize({ width, height: 900 });
        await rpage.goto(`/disclosures/${id}`);
        await setLocale(rpage, locale);
        await rpage.reload();
        await expect(rpage.getByTestId('receipt-page')).toHaveAttribute('data-layout', width === 390 ? 'mobile' : 'desktop');
        await noOverflow(rpage);
        await screenshot(rpage, `disclosure-receipt-${locale}-${width}`);
      }
    }
    // Step 2 in each language once verified.
    const verified = await receiver.request.put('/api/v2/disclosures/check-identify', { data: { disclosure_id: id, validation_code: await latestCode(rpage.request, receiverPhone, RECEIVER_CODE) } });
    expect(verified.status()).toBe(200);
    for (const locale of ['zh', 'en', 'ja'] as const) {
      for (const width of [1440, 390]) {
        await rpage.setViewportSize({ width, height: 900 });
        await setLocale(rpage, locale);
        await rpage.goto(`/disclosures/${id}`);
        await expect(rpage.getByTestId('legal-warning')).toBeVisible();
        await expect(rpage.getByLabel(tr(locale, 'Keep the file strictly confidential'))).toBeVisible();
        await noOverflow(rpage);
        await screenshot(rpage, `disclosure-agreement-${locale}-${width}`);
      }
    }
    await Promise.all([receiver.close(), owner.context.close()]);
  });
});
