import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect as baseExpect, type Locator, type Page } from '@playwright/test';
import { MIB, bodyOf, headerOf, identityOfGenerated } from './generated-file.ts';
import { createEnterprise, field, giveCredits, joinCompany, ok, operatorApi, person, screenshot, tr, type Locale, type Person, test } from './support.ts';

// Every navigation loads the app again (configuration, catalogs, user, company); on a busy
// machine that alone can take several seconds, so assertions wait longer than the default.
const expect = baseExpect.configure({ timeout: 20_000 });

/** The Done-when file: 200 MiB made in the page (E2E_ASSET_MIB makes a smaller one for quick local runs). */
const FILE_MIB = Number(process.env.E2E_ASSET_MIB ?? 200);
const PRICE = 200;
/** The header tag of this spec's generated files. */
const TAG = 'PVN-AST-';

/**
 * Puts the generated file into a file input, as if the user had chosen it: the page builds the
 * File from the 1 MiB body and the part headers that Node made (generated-file.ts).
 */
async function chooseGenerated(input: Locator, name: string, mib: number, seed: number): Promise<void> {
  const body = Buffer.from(bodyOf(seed)).toString('base64');
  const headers = Array.from({ length: mib }, (_, i) => Buffer.from(headerOf(TAG, i, seed)).toString('base64'));
  await input.evaluate(
    (el: HTMLInputElement, { name, body, headers }) => {
      const bytes = (b64: string) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const part = bytes(body);
      const parts = headers.flatMap((h) => [bytes(h), part]);
      const transfer = new DataTransfer();
      transfer.items.add(new File(parts as BlobPart[], name, { type: 'application/octet-stream' }));
      el.files = transfer.files;
      el.dispatchEvent(new Event('change', { bubbles: true }));
    },
    { name, body, headers },
  );
}

function registerFormInput(page: Page): Locator {
  return page.getByTestId('asset-register-form').locator('input[type=file]');
}

/** A Mantine select: open it by its label and pick the option. */
async function pick(page: Page, label: string, option: string): Promise<void> {
  await field(page, label).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function available(p: Person): Promise<{ available: number; consumed: number }> {
  return ok(p.page.request.get('/api/v1/credits/summary'), 'credit summary');
}

/** The page is no wider than the viewport; on failure, the elements that stick out are named. */
async function expectNoOverflow(page: Page): Promise<void> {
  const { scroll, width, culprits } = await page.evaluate(() => {
    const width = window.innerWidth;
    const culprits = [...document.querySelectorAll<HTMLElement>('body *')]
      .filter((el) => el.getBoundingClientRect().right > width + 1)
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}.${el.className.toString().slice(0, 60)} right=${Math.round(el.getBoundingClientRect().right)}`);
    return { scroll: document.documentElement.scrollWidth, width, culprits };
  });
  expect(scroll, culprits.join('\n')).toBeLessThanOrEqual(width);
}

const textFile = (name: string, text: string) => ({ name, mimeType: 'text/plain', buffer: Buffer.from(text) });

const workDir = path.join(os.tmpdir(), `provena-e2e-assets-${process.pid}`);
test.afterAll(() => fs.rmSync(workDir, { recursive: true, force: true }));

test.describe('digital assets', () => {
  test('a member with credits registers a 200 MiB file, watches its proof reach "generated", downloads and verifies it; the same file again is refused; a batch with a duplicate; a member without credits is refused and not charged', async ({ browser }) => {
    test.setTimeout(420_000);
    fs.mkdirSync(workDir, { recursive: true });
    const owner = await person(browser, 'zh', '张三');
    const company = await createEnterprise(owner, '资产 E2E');
    const alice = await person(browser, 'en', '李四');
    const bob = await person(browser, 'zh', '王五');
    await joinCompany(alice, owner, company.invitation_code, 0);
    await joinCompany(bob, owner, company.invitation_code, 0);
    const operator = await operatorApi(browser);
    await giveCredits(owner, alice.phone, 10 * PRICE, operator.request);
    await operator.context.close();
    const L = (s: string) => tr('en', s);
    const page = alice.page;

    // The sidebar's asset entry; nothing registered yet.
    await page.goto('/dashboard/home');
    await page.getByRole('link', { name: L('Digital assets') }).first().click();
    await expect(page).toHaveURL(/\/dashboard\/asset$/);
    const empty = page.getByTestId('asset-empty');
    await expect(empty).toBeVisible();
    await screenshot(page, 'asset-list-empty-en');
    await empty.getByTestId('register-assets').click();
    await expect(page).toHaveURL(/\/dashboard\/asset_upload$/);

    // §5: a chosen file, a name, and one of §3's types.
    const form = page.getByTestId('asset-register-form');
    await page.getByTestId('asset-register-submit').click();
    await expect(form.getByText(L('Please choose a file to register'))).toBeVisible();
    await expect(form.getByText(L('Please choose the type of the asset'))).toBeVisible();
    // The price, from the configuration, and the member's credits, before anything is sent.
    await expect(page.getByTestId('asset-price')).toHaveAttribute('data-price', String(PRICE));
    await expect(page.getByTestId('asset-available')).toHaveAttribute('data-value', String(10 * PRICE));

    // The generated file: hashed in a worker; only its fingerprint and size are sent.
    const seed = 20260601;
    const identity = identityOfGenerated(TAG, FILE_MIB, seed, '.bin');
    const sent: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/v1/assets' && r.method() === 'POST') sent.push(r.postData() ?? '');
    });
    await chooseGenerated(registerFormInput(page), 'design-archive.bin', FILE_MIB, seed);
    await expect(field(page, L('Asset name'))).toHaveValue('design-archive.bin');
    await expect(page.getByTestId('asset-fingerprint')).toHaveAttribute('data-identity', identity, { timeout: 180_000 });
    await pick(page, L('Type'), L('Creative design'));
    await page.getByLabel(L('Description')).fill('Exterior design archive, 2027 model');
    await screenshot(page, 'asset-upload-ready-en');
    await page.getByTestId('asset-register-submit').click();
    await expect(page).toHaveURL(/\/dashboard\/asset\/detail\/pv[a-z2-7]{20}$/, { timeout: 60_000 });
    const dna = new URL(page.url()).pathname.split('/').pop() as string;
    expect(sent).toHaveLength(1);
    expect(sent[0]!.length).toBeLessThan(500);
    expect(JSON.parse(sent[0]!)).toEqual({ name: 'design-archive.bin', type: 1, description: 'Exterior design archive, 2027 model', file_hash: identity, size: FILE_MIB * MIB });

    // The detail: DNA, hash, registrant, type; the proof goes from generating to generated by itself.
    await expect(page.getByTestId('asset-dna')).toHaveText(dna);
    await expect(page.getByTestId('asset-hash')).toHaveText(identity);
    await expect(page.getByTestId('asset-type')).toContainText(L('Creative design'));
    await expect(page.getByTestId('asset-registrant')).toContainText('李四');
    await expect(page.getByTestId('asset-description')).toHaveText('Exterior design archive, 2027 model');
    const proofBadge = page.getByTestId('asset-proof').getByTestId('proof-status');
    await expect(proofBadge).toHaveAttribute('data-generated', 'true', { timeout: 90_000 });
    await expect(page.getByTestId('asset-block-link')).toHaveAttribute('href', /^\/explorer\/blocks\/\d+$/);
    await expect(page.getByTestId('asset-entry-link')).toHaveAttribute('href', `/explorer/entries/${dna}`);
    await screenshot(page, 'asset-detail-generated-en');
    expect(await available(alice)).toMatchObject({ available: 9 * PRICE, consumed: PRICE });

    // The PDF.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-proof').click()]);
    expect(download.suggestedFilename()).toBe(`provena-proof-${dna}.pdf`);
    const pdfPath = path.join(workDir, `provena-proof-${dna}.pdf`);
    await download.saveAs(pdfPath);
    expect(fs.readFileSync(pdfPath).subarray(0, 5).toString()).toBe('%PDF-');

    // The block address leads to the explorer, where the entry is.
    await page.getByTestId('asset-block-link').click();
    await expect(page).toHaveURL(/\/explorer\/blocks\/\d+$/);
    await expect(page.getByRole('link', { name: dna })).toBeVisible();

    // The verification centre: the original (made again in the page) and the PDF.
    await page.goto('/verify-file');
    const inputs = page.locator('input[type=file]:not([data-testid=nav-search-file-input])');
    await chooseGenerated(inputs.nth(0), 'design-archive.bin', FILE_MIB, seed);
    await inputs.nth(1).setInputFiles(pdfPath);
    await page.getByRole('button', { name: L('Verify'), exact: true }).click();
    const verdict = page.getByTestId('verify-result');
    await expect(verdict).toHaveAttribute('data-valid', 'true', { timeout: 180_000 });
    await expect(verdict).toContainText(dna);
    await expect(verdict).toContainText(identity);
    await screenshot(page, 'asset-verified-en');

    // §8 the same file again (another name): "file already exists" on the file, nothing charged.
    await page.goto('/dashboard/asset_upload');
    await chooseGenerated(registerFormInput(page), 'design-archive-copy.bin', FILE_MIB, seed);
    await pick(page, L('Type'), L('Other'));
    await page.getByTestId('asset-register-submit').click();
    await expect(form.getByText(L('This file already exists'))).toBeVisible({ timeout: 180_000 });
    await expect(page).toHaveURL(/\/dashboard\/asset_upload$/);
    await screenshot(page, 'asset-upload-duplicate-en');
    expect(await available(alice)).toMatchObject({ available: 9 * PRICE, consumed: PRICE });

    // Batch: four files, one of them a copy of another; each gets its own result.
    await page.getByTestId('mode-batch').click();
    await expect(page).toHaveURL(/\/dashboard\/asset_upload\?mode=batch$/);
    const stamp = randomBytes(8).toString('hex');
    await page.getByTestId('batch-files-input').setInputFiles([
      textFile('notes.txt', `meeting notes ${stamp}`),
      textFile('table.csv', `a,b\n1,2\n${stamp}`),
      textFile('readme.md', `# readme ${stamp}`),
      textFile('notes-copy.txt', `meeting notes ${stamp}`),
    ]);
    await expect(page.getByTestId('batch-rows').locator('tbody tr')).toHaveCount(4);
    await expect(page.getByTestId('batch-price')).toContainText(`4 × ${PRICE} credits = ${4 * PRICE} credits`);
    await page.getByTestId('batch-submit').click();
    await expect(page.getByText(L('Please choose the type of the asset'))).toBeVisible();
    await pick(page, L('Type of these assets'), L('Data'));
    await screenshot(page, 'asset-batch-chosen-en');
    await page.getByTestId('batch-submit').click();
    await expect(page.getByTestId('asset-batch')).toHaveAttribute('data-phase', 'done', { timeout: 60_000 });
    const batchSummary = page.getByTestId('batch-summary');
    await expect(batchSummary).toHaveAttribute('data-registered', '3');
    await expect(batchSummary).toHaveAttribute('data-refused', '1');
    for (const name of ['notes.txt', 'table.csv', 'readme.md']) await expect(page.getByTestId(`batch-row-${name}`)).toHaveAttribute('data-status', 'registered');
    const copyRow = page.getByTestId('batch-row-notes-copy.txt');
    await expect(copyRow).toHaveAttribute('data-status', 'refused');
    await expect(copyRow.getByTestId('batch-row-message')).toHaveText(L('This file already exists'));
    await expect(page.getByTestId('batch-price')).toContainText(`Charged: ${3 * PRICE} credits`);
    await screenshot(page, 'asset-batch-done-en');
    expect(await available(alice)).toMatchObject({ available: 6 * PRICE, consumed: 4 * PRICE });
    await page.getByTestId('batch-row-table.csv').getByTestId('batch-row-link').click();
    await expect(page.getByTestId('asset-name')).toHaveText('table.csv');

    // The list: four assets; filters, sorting, paging state in the address.
    await page.goto('/dashboard/asset');
    await expect(page.getByTestId('asset-total')).toHaveAttribute('data-total', '4');
    await page.getByTestId('sort-size').click();
    await expect(page).toHaveURL(/sort=size/);
    await expect(page.getByTestId('asset-list').locator('tbody tr').first()).toHaveAttribute('data-testid', 'asset-design-archive.bin');
    await pick(page, L('Type'), L('Data'));
    await expect(page.getByTestId('asset-total')).toHaveAttribute('data-total', '3');
    await expect(page).toHaveURL(/type=5/);
    await page.getByTestId('clear-filters').click();
    await expect(page.getByTestId('asset-total')).toHaveAttribute('data-total', '4');
    // The filter is checked once the three batch certificates exist (on a loaded machine they may still be rendering).
    await expect
      .poll(async () => ((await ok(page.request.get('/api/v1/assets?proof_status=generated'), 'generated assets')) as { total: number }).total, { timeout: 120_000 })
      .toBe(4);
    await pick(page, L('Proof status'), L('Generated'));
    await expect(page.getByTestId('asset-total')).toHaveAttribute('data-total', '4', { timeout: 60_000 });
    await page.getByTestId('filter-keyword').fill('notes');
    await expect(page.getByTestId('asset-total')).toHaveAttribute('data-total', '1');
    await page.reload();
    await expect(page.getByTestId('filter-keyword')).toHaveValue('notes');
    await expect(page.getByTestId('asset-total')).toHaveAttribute('data-total', '1');
    await page.getByTestId('clear-filters').click();
    await expect(page.getByTestId('asset-total')).toHaveAttribute('data-total', '4');
    // A plain member has no registrant filter (§6: they see only their own).
    await expect(page.getByTestId('filter-registrant')).toHaveCount(0);
    await screenshot(page, 'asset-list-en');

    // Bob (zh, a plain member without credits): sees none of Alice's assets, and is refused without being charged.
    const Z = (s: string) => tr('zh', s);
    await bob.page.goto('/dashboard/asset');
    await expect(bob.page.getByTestId('asset-empty')).toBeVisible();
    await bob.page.goto(`/dashboard/asset/detail/${dna}`);
    await expect(bob.page.getByTestId('asset-missing')).toBeVisible();
    // Not his company's asset, but its DNA is a public ledger entry: the page leads to the explorer, not a dead end.
    await expect(bob.page.getByTestId('asset-missing-explorer')).toHaveText(Z('Look this DNA up in the block explorer'));
    await expect(bob.page.getByTestId('asset-missing-explorer')).toHaveAttribute('href', `/explorer/entries/${dna}`);
    await bob.page.goto('/dashboard/asset_upload');
    await bob.page.getByTestId('asset-register-form').locator('input[type=file]').setInputFiles(textFile('王五的设计.txt', `bob ${stamp}`));
    await expect(bob.page.getByTestId('asset-fingerprint')).toBeVisible();
    await expect(bob.page.getByTestId('asset-credits-short')).toContainText(Z('Not enough credits, please top up'));
    await pick(bob.page, Z('Type'), Z('Creative work'));
    await bob.page.getByTestId('asset-register-submit').click();
    await expect(bob.page.getByTestId('asset-credits-error')).toContainText(Z('Not enough credits, please top up'));
    await expect(bob.page).toHaveURL(/\/dashboard\/asset_upload$/);
    await screenshot(bob.page, 'asset-upload-no-credits-zh');
    expect(await available(bob)).toMatchObject({ available: 0, consumed: 0 });
    expect((await ok(bob.page.request.get('/api/v1/assets'), 'bob list')).total).toBe(0);

    // The owner (zh, super administrator) sees everyone's assets and may filter by registrant.
    await owner.page.goto('/dashboard/asset');
    await expect(owner.page.getByTestId('asset-total')).toHaveAttribute('data-total', '4');
    await pick(owner.page, Z('Registrant'), '李四 (4)');
    await expect(owner.page).toHaveURL(/registrant=\d+/);
    await expect(owner.page.getByTestId('asset-total')).toHaveAttribute('data-total', '4');
    await screenshot(owner.page, 'asset-list-owner-zh');

    for (const p of [owner, alice, bob]) await p.context.close();
  });

  test('the asset screens in zh, en and ja at 1440, 1000 and 390 wide', async ({ browser }) => {
    // 36 screens, each a fresh navigation: minutes on a busy machine.
    test.setTimeout(600_000);
    const owner = await person(browser, 'zh', '张三');
    await createEnterprise(owner, '资产界面 E2E');
    const operator = await operatorApi(browser);
    await giveCredits(owner, owner.phone, 20 * PRICE, operator.request);
    await operator.context.close();
    const page = owner.page;
    const names = ['产品外观设计图-2027款.psd', 'Quarterly research dataset with a rather long file name.csv', '専用ファームウェア.bin', 'logo.ai'];
    let dna = '';
    for (const [i, name] of names.entries()) {
      const asset = await ok(
        page.request.post('/api/v1/assets', { data: { name, type: i * 2, description: i === 0 ? '2027 款外观设计定稿，含三视图与配色方案。' : '', file_hash: `0x${createHash('sha256').update(`${name}-${Date.now()}`).digest('hex')}.bin`, size: (i + 1) * 7_654_321 } }),
        'register',
      );
      dna ||= asset.dip_id;
    }
    const widths: Array<[number, number]> = [
      [1440, 900],
      [1000, 800],
      [390, 844],
    ];
    for (const locale of ['zh', 'en', 'ja'] as Locale[]) {
      await page.goto('/dashboard/asset');
      await page.evaluate((l) => localStorage.setItem('locale', l), locale);
      for (const [width, height] of widths) {
        await page.setViewportSize({ width, height });
        await page.goto('/dashboard/asset');
        await expect(page.getByTestId('asset-total')).toHaveAttribute('data-total', '4');
        await expect(page.getByTestId('asset-list')).toBeVisible();
        await expectNoOverflow(page);
        await screenshot(page, `asset-list-${locale}-${width}`);

        await page.goto('/dashboard/asset_upload');
        await registerFormInput(page).setInputFiles(textFile('示例文件.txt', `screens ${locale} ${width}`));
        await expect(page.getByTestId('asset-fingerprint')).toBeVisible();
        await expectNoOverflow(page);
        await screenshot(page, `asset-upload-${locale}-${width}`);

        await page.goto('/dashboard/asset_upload?mode=batch');
        await page.getByTestId('batch-files-input').setInputFiles([textFile('a-very-long-file-name-from-a-deep-folder-of-the-project.txt', 'x'), textFile('设计说明.md', 'y'), textFile('データ.csv', 'z')]);
        await expect(page.getByTestId('batch-rows').locator('tbody tr')).toHaveCount(3);
        await expectNoOverflow(page);
        await screenshot(page, `asset-batch-${locale}-${width}`);

        await page.goto(`/dashboard/asset/detail/${dna}`);
        await expect(page.getByTestId('asset-dna')).toHaveText(dna);
        await expect(page.getByTestId('asset-proof').getByTestId('proof-status')).toHaveAttribute('data-generated', 'true', { timeout: 60_000 });
        await expectNoOverflow(page);
        await screenshot(page, `asset-detail-${locale}-${width}`);
      }
    }
    await owner.context.close();
  });

  test('registering on a phone @mobile', async ({ browser }) => {
    test.setTimeout(180_000);
    test.skip(test.info().project.name !== 'mobile', 'phone layout only');
    const owner = await person(browser, 'ja', '张三');
    await createEnterprise(owner, '资产手机 E2E');
    const operator = await operatorApi(browser);
    await giveCredits(owner, owner.phone, 5 * PRICE, operator.request);
    await operator.context.close();
    const J = (s: string) => tr('ja', s);
    const page = owner.page;
    await page.goto('/dashboard/asset_upload');
    await chooseGenerated(registerFormInput(page), '設計図.bin', 8, 77);
    await expect(page.getByTestId('asset-fingerprint')).toHaveAttribute('data-identity', identityOfGenerated(TAG, 8, 77, '.bin'), { timeout: 60_000 });
    await pick(page, J('Type'), J('Industrial design'));
    await expectNoOverflow(page);
    await page.getByTestId('asset-register-submit').click();
    await expect(page).toHaveURL(/\/dashboard\/asset\/detail\/pv[a-z2-7]{20}$/, { timeout: 60_000 });
    await expect(page.getByTestId('asset-proof').getByTestId('proof-status')).toHaveAttribute('data-generated', 'true', { timeout: 90_000 });
    await expectNoOverflow(page);
    await screenshot(page, 'asset-detail-mobile-ja');
    await page.goto('/dashboard/asset');
    await expect(page.getByTestId('asset-設計図.bin')).toBeVisible();
    await expectNoOverflow(page);
    await screenshot(page, 'asset-list-mobile-ja');
    await owner.context.close();
  });
});
