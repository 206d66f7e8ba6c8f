import { createHash } from 'node:crypto';
import { expect } from '@playwright/test';
import { createEnterprise, giveCredits, ok, operatorApi, person, screenshot, tr, type Locale, test } from './support.ts';

/** The block explorer as a newcomer meets it: what each thing is, kinds as words, readable records, neighbours, live head, real not-found pages. */
test.describe('block explorer', () => {
  test('explains blocks, DNAs and inclusion proofs, links entry ↔ block ↔ neighbours, follows new blocks live, and answers a missing block or entry with a not-found page', async ({ browser }) => {
    test.setTimeout(120_000);
    const owner = await person(browser, 'en', '张三');
    await createEnterprise(owner, '浏览器公司');
    const operator = await operatorApi(browser);
    await giveCredits(owner, owner.phone, 1000, operator.request);
    const register = async (name: string) =>
      (await ok(owner.page.request.post('/api/v1/assets', { data: { name, type: 0, file_hash: `0x${createHash('sha256').update(`${name}-${Date.now()}-${Math.random()}`).digest('hex')}.bin`, size: 1234 } }), 'register')).dip_id as string;
    const dna = await register('explorer-one');

    const page = owner.page;
    await page.goto('/explorer');
    // The entry: a kind in words, the record as labelled fields, a link to its block once sealed.
    await expect.poll(async () => (await (await page.request.get(`/api/v1/explorer/entries/${dna}`)).json()).data?.block?.height ?? null, { timeout: 30_000 }).not.toBeNull();
    for (const locale of ['zh', 'en', 'ja'] as Locale[]) {
      await page.evaluate((l) => localStorage.setItem('locale', l), locale);
      await page.goto(`/explorer/entries/${dna}`);
      await expect(page.getByTestId('explorer-explainer')).toBeVisible();
      await expect(page.getByTestId('explorer-entry').getByText(tr(locale, 'Digital asset'))).toBeVisible();
      await expect(page.getByTestId('explorer-record-fields').getByText('commitment')).toBeVisible();
      await expect(page.getByRole('heading', { name: tr(locale, 'Inclusion proof') })).toBeVisible();
      await screenshot(page, `explorer-entry-${locale}`);
    }
    await page.evaluate(() => localStorage.setItem('locale', 'en'));
    await page.goto(`/explorer/entries/${dna}`);
    // Times are local, the UTC value is on hover.
    const sealed = page.getByTestId('explorer-entry').locator('[data-utc]').first();
    await sealed.hover();
    await expect(page.getByRole('tooltip')).toContainText(/^UTC \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    await page.getByTestId('entry-block-link').click();
    await expect(page).toHaveURL(/\/explorer\/blocks\/\d+$/);
    const height = Number(new URL(page.url()).pathname.split('/').pop());
    await expect(page.getByRole('link', { name: dna })).toBeVisible();
    await expect(page.getByTestId('explorer-entries').getByText('Digital asset')).toBeVisible();
    if (height > 1) await expect(page.getByTestId('block-neighbours').getByRole('link', { name: `Block #${height - 1}` })).toBeVisible();
    await screenshot(page, 'explorer-block-en');

    // The first page follows the head: a block sealed while it is open appears without a reload.
    await page.goto('/explorer');
    await expect(page.getByTestId('explorer-live')).toBeVisible();
    const topBefore = await page.getByTestId('explorer-blocks').locator('tbody tr').first().locator('a').textContent();
    await register('explorer-two');
    await expect(page.getByTestId('explorer-blocks').locator('tbody tr').first().locator('a')).not.toHaveText(topBefore!, { timeout: 20_000 });
    // ...and the older block now has a "next" neighbour.
    await page.goto(`/explorer/blocks/${height}`);
    await expect(page.getByTestId('block-neighbours').getByRole('link', { name: `Block #${height + 1}` })).toBeVisible();

    // Missing things are pages of their own, not a red "not found" error line.
    await page.goto('/explorer/blocks/999999');
    await expect(page.getByTestId('explorer-not-found')).toContainText('No such block');
    await page.goto('/explorer/entries/pv00000000000000000000');
    await expect(page.getByTestId('explorer-not-found')).toContainText('No such entry');
    await screenshot(page, 'explorer-not-found-en');
    await operator.context.close();
    await owner.context.close();
  });

  test('the explorer fits a phone @mobile', async ({ page }) => {
    await page.goto('/explorer');
    await expect(page.getByTestId('explorer-explainer')).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
    await screenshot(page, 'explorer-home-mobile');
  });
});
