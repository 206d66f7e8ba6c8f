import { expect } from '@playwright/test';
import { createEnterprise, joinCompany, person, screenshot, tr, type Locale, test } from './support.ts';

/** Changes that act on other people at once are confirmed and acknowledged; restricted tabs say so; phones see everything. */
test.describe('company screens as administrators and members meet them', () => {
  test('role change, freeze and a new invitation code are confirmed and acknowledged; a plain member is told the tabs are for administrators', async ({ browser }) => {
    test.setTimeout(120_000);
    const owner = await person(browser, 'en', '张三');
    const company = await createEnterprise(owner, '确认公司');
    const member = await person(browser, 'ja', '孙二');
    await joinCompany(member, owner, company.invitation_code, 0);

    const page = owner.page;
    await page.goto('/dashboard/company/info');
    const before = (await page.getByTestId('invitation-code').textContent())?.trim();
    await page.getByTestId('regenerate-code').click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByText('The current code stops working at once; people who have it can no longer join with it.')).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByTestId('invitation-code')).toHaveText(before!);
    await page.getByTestId('regenerate-code').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Generate a new code' }).click();
    await expect(page.getByText('A new invitation code was generated')).toBeVisible();
    await expect(page.getByTestId('invitation-code')).not.toHaveText(before!);

    await page.goto('/dashboard/company/members');
    const row = page.getByTestId(`member-${member.phone}`);
    await row.getByLabel('Role').click();
    await page.getByRole('option', { name: 'Super administrator' }).click();
    // Making someone super administrator says what it means, in red, before anything happens.
    await expect(page.getByRole('dialog').getByText('孙二 becomes a super administrator, with every right in this enterprise, including over you.')).toBeVisible();
    await screenshot(page, 'company-role-confirm-en');
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await expect(row.getByLabel('Role')).toHaveValue('Member');
    await row.getByLabel('Role').click();
    await page.getByRole('option', { name: 'Administrator', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Change role' }).click();
    await expect(page.getByText('孙二 is now Administrator')).toBeVisible();
    await expect(row.getByLabel('Role')).toHaveValue('Administrator');
    await owner.context.close();

    // A plain member who opens the administrators' tabs by address is told, not shown an empty panel.
    const plain = await person(browser, 'zh', '周三');
    const second = await person(browser, 'en', '张三');
    const other = await createEnterprise(second, '普通成员公司');
    await joinCompany(plain, second, other.invitation_code, 0);
    for (const tab of ['members', 'applications', 'invitations']) {
      await plain.page.goto(`/dashboard/company/${tab}`);
      await expect(plain.page.getByTestId('tab-for-admins')).toBeVisible();
    }
    await expect(plain.page.getByTestId('tab-for-admins')).toHaveText(tr('zh', "This tab is for the enterprise's administrators."));
    await screenshot(plain.page, 'company-tab-for-admins-zh');
    for (const p of [member, plain, second]) await p.context.close();
  });

  for (const locale of ['en', 'ja'] as Locale[]) {
    test(`at 390 px the members list shows status and actions, and the review channel fits — ${locale}`, async ({ browser }) => {
      test.setTimeout(120_000);
      const owner = await person(browser, locale, '张三');
      await owner.page.setViewportSize({ width: 390, height: 844 });
      const company = await createEnterprise(owner, '窄屏公司');
      const member = await person(browser, 'zh', '王六');
      await joinCompany(member, owner, company.invitation_code, 0);
      const L = (s: string) => tr(locale, s);
      await owner.page.goto('/dashboard/company/members');
      const card = owner.page.getByTestId(`member-${member.phone}`);
      await expect(card.getByText(L('Normal'))).toBeInViewport();
      await expect(card.getByRole('button', { name: L('Freeze') })).toBeInViewport();
      expect(await owner.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
      await screenshot(owner.page, `company-members-390-${locale}`);

      // The create-company form's review channel (both labels) stays inside the screen once a licence is chosen.
      await owner.page.goto('/add-company');
      const licence = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from(`narrow-licence-${Date.now()}`)]);
      await owner.page.getByTestId('licence-file').setInputFiles({ name: 'licence.png', mimeType: 'image/png', buffer: licence });
      const channel = owner.page.getByTestId('review-channel');
      await expect(channel).toBeVisible({ timeout: 30_000 });
      const box = await channel.boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(390);
      await expect(channel.getByText(L('Other review (application form)'))).toBeInViewport({ ratio: 1 });
      expect(await owner.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
      await screenshot(owner.page, `company-create-channel-390-${locale}`);
      await owner.context.close();
      await member.context.close();
    });
  }

  test('below 1000 px the drawer lists the companies: current ticked, switch to another, join or create', async ({ browser }) => {
    test.setTimeout(120_000);
    const owner = await person(browser, 'ja', '张三');
    await owner.page.setViewportSize({ width: 390, height: 844 });
    const first = await createEnterprise(owner, '抽屉一');
    // A second company, joined by code (one legal-person code a minute rules out creating two at once).
    const other = await person(browser, 'zh', '张三');
    const second = await createEnterprise(other, '抽屉二');
    await joinCompany(owner, other, second.invitation_code, 0);
    const L = (s: string) => tr('ja', s);
    await owner.page.goto('/dashboard/home');
    await owner.page.getByRole('button', { name: L('Open navigation') }).click();
    const companies = owner.page.getByTestId('drawer-companies');
    await expect(companies.getByText(first.name)).toBeVisible();
    await expect(companies.getByText(second.name)).toBeVisible();
    await expect(companies.getByRole('link', { name: L('Join or create a company') }).or(companies.getByText(L('Join or create a company')))).toBeVisible();
    // The company shown now is the last one created; it is ticked.
    await expect(companies.locator('[aria-current="true"]')).toContainText(second.name);
    await screenshot(owner.page, 'drawer-companies-ja');
    await companies.getByText(first.name).click();
    await expect(owner.page).toHaveURL(/\/dashboard\/company/);
    await expect(owner.page.getByRole('heading', { name: first.name })).toBeVisible();
    await owner.context.close();
    await other.context.close();
  });
});
