import { expect as baseExpect, type Page } from '@playwright/test';
import { createEnterprise, createOperator, enrollOperatorInPage, field, giveCredits, joinCompany, latestCode, ok, operatorApi, person, screenshot, tr, useLocale, type Locale, type Person, test } from './support.ts';

const VAULT_CODE = 18;
// The machine running the suite is shared and slow at times: screens get longer to settle (no assertion here is about speed).
const expect = baseExpect.configure({ timeout: 15_000 });

function fieldError(page: Page, label: string) {
  return page.locator('.mantine-InputWrapper-root', { has: field(page, label) }).locator('.mantine-InputWrapper-error');
}

/** The vault opened through the API (SMS code to the member's own phone) and a project to register into. */
async function vaultProjectByApi(p: Person, name: string): Promise<number> {
  const request = p.page.request;
  await ok(request.get(`/api/v1/validation/private-code?type=${VAULT_CODE}`), 'vault code');
  await ok(request.post('/api/v1/vault/authorization', { data: { new_phone_number: p.phone, validation_code: await latestCode(request, p.phone, VAULT_CODE) } }), 'unlock');
  return (await ok(request.post('/api/v1/vault/projects', { data: { name } }), 'project')).project_id;
}

async function available(p: Person): Promise<number> {
  return (await ok(p.page.request.get('/api/v1/credits/summary'), 'summary')).available;
}

/** The page is no wider than the viewport (no horizontal scrolling). */
async function expectNoOverflow(page: Page) {
  const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
  expect(scroll).toBeLessThanOrEqual(width);
}

test.describe('credits', () => {
  test('an administrator orders a top-up, an operator confirms it, the administrator gives a member credits; the member spends them and is refused when short, without being charged', async ({ browser }) => {
    test.setTimeout(240_000);
    const owner = await person(browser, 'zh', '张三');
    const company = await createEnterprise(owner, '积分 E2E');
    const alice = await person(browser, 'en', '李四');
    await joinCompany(alice, owner, company.invitation_code, 0);
    const Z = (s: string) => tr('zh', s);
    const E = (s: string) => tr('en', s);
    const admin = owner.page;

    // The sidebar entry (menu.credit) leads to the overview: nothing yet.
    await admin.goto('/dashboard/home');
    await admin.getByRole('navigation', { name: Z('Dashboard') }).getByRole('link', { name: Z('Credits') }).click();
    await expect(admin).toHaveURL(/\/dashboard\/credit$/);
    await expect(admin.getByTestId('credit-available')).toHaveAttribute('data-value', '0');
    await expect(admin.getByTestId('credit-pool')).toHaveAttribute('data-value', '0');
    await expect(admin.getByTestId('price-vault-file')).toContainText('1,000');
    await expect(admin.getByTestId('credit-short')).toBeVisible();

    // Top-up: the amount is checked on the field, then an order awaits the transfer.
    await admin.getByTestId('credit-tab-top-up').click();
    await expect(admin).toHaveURL(/\/dashboard\/credit\/top-up$/);
    await expect(admin.getByTestId('orders-empty')).toBeVisible();
    await admin.getByTestId('order-submit').click();
    await expect(fieldError(admin, Z('Credits to top up'))).toHaveText(Z('Please enter a number of credits'));
    await field(admin, Z('Credits to top up')).fill('12.5');
    await admin.getByTestId('order-submit').click();
    await expect(fieldError(admin, Z('Credits to top up'))).toHaveText(Z('Enter a whole number of credits from 1 to {max}').replace('{max}', '100,000,000'));
    await field(admin, Z('Credits to top up')).fill('5000');
    await admin.getByLabel(Z('Note for the platform (optional)')).fill('招商银行转账');
    await admin.getByTestId('order-submit').click();
    await expect(admin.getByTestId('order-created')).toBeVisible();
    const orderNo = (await admin.getByTestId('order-reference').textContent())?.trim() ?? '';
    expect(orderNo).toMatch(/^TU\d{8}[A-Z2-9]{8}$/);
    const orderRow = admin.getByTestId(`order-${orderNo}`);
    await expect(orderRow.getByTestId('order-status')).toHaveAttribute('data-status', '1');
    await screenshot(admin, 'credit-top-up-zh');
    // Nothing is in the pool until the operator confirms: no button here pretends a payment happened.
    await admin.getByTestId('credit-tab-overview').click();
    await expect(admin.getByTestId('credit-pool')).toHaveAttribute('data-value', '0');
    await expect(admin.getByTestId('credit-pending-orders')).toBeVisible();

    // The operator console: the pending order, confirmed after a confirmation dialog.
    createOperator('e2e-credit-ops', 'OperatorPass1');
    const opContext = await browser.newContext();
    const op = await opContext.newPage();
    await useLocale(op, 'en');
    await op.goto('/operator');
    await field(op, E('Operator account')).fill('e2e-credit-ops');
    await field(op, E('Password')).fill('OperatorPass1');
    await op.getByRole('button', { name: E('Log in'), exact: true }).click();
    await enrollOperatorInPage(op);
    await op.getByTestId('operator-tab-credit-orders').click();
    const opRow = op.getByTestId(`operator-order-${orderNo}`);
    await expect(opRow).toContainText(company.name);
    await expect(opRow).toContainText('5,000');
    await expect(opRow).toContainText('招商银行转账');
    await screenshot(op, 'credit-operator-orders-en');
    await opRow.getByTestId('confirm-order').click();
    await expect(op.getByRole('dialog')).toContainText(orderNo);
    await op.getByTestId('confirm-order-submit').click();
    await expect(opRow).toHaveCount(0);
    await op.getByRole('radiogroup').getByText(E('Confirmed'), { exact: true }).click();
    await expect(op.getByTestId(`operator-order-${orderNo}`).getByTestId('order-status')).toHaveAttribute('data-status', '2');
    // A second confirmation (a double click that got through) changes nothing.
    const again = await op.request.put(`/api/v1/operator/credit-orders/${(await ok(admin.request.get('/api/v1/credits/orders'), 'orders')).items[0].order_id}`, { data: { status: 2 } });
    expect(again.status()).toBe(200);
    await opContext.close();

    // The pool has the credits once.
    await admin.reload();
    await expect(admin.getByTestId('credit-pool')).toHaveAttribute('data-value', '5000');
    await expect(admin.getByTestId('credit-topped-up')).toHaveAttribute('data-value', '5000');

    // Member top-up: not more than the pool, not more back than the member holds.
    await admin.getByTestId('credit-tab-members').click();
    const aliceRow = admin.getByTestId(`credit-member-${alice.phone}`);
    await aliceRow.getByTestId('give-credits').click();
    const amountLabel = Z('Credits to give from the pool');
    await field(admin, amountLabel).fill('6000');
    await admin.getByTestId('allocation-submit').click();
    await expect(fieldError(admin, amountLabel)).toHaveText(Z('The pool has only {n} credits; top it up first').replace('{n}', '5,000'));
    await field(admin, amountLabel).fill('0');
    await admin.getByTestId('allocation-submit').click();
    await expect(fieldError(admin, amountLabel)).toHaveText(Z('Enter a whole number of credits from 1 to {max}').replace('{max}', '100,000,000'));
    await field(admin, amountLabel).fill('1500');
    await admin.getByTestId('allocation-submit').click();
    await expect(admin.getByTestId('allocation-form')).toHaveCount(0);
    await expect(aliceRow.getByTestId('member-available')).toHaveText('1,500');
    await expect(admin.getByTestId('member-top-up-pool')).toContainText('3,500');
    await aliceRow.getByTestId('take-back-credits').click();
    const backLabel = Z('Credits to take back into the pool');
    await field(admin, backLabel).fill('2000');
    await admin.getByTestId('allocation-submit').click();
    await expect(fieldError(admin, backLabel)).toHaveText(Z('{name} has only {n} credits').replace('{name}', '李四').replace('{n}', '1,500'));
    await field(admin, backLabel).fill('300');
    await admin.getByTestId('allocation-submit').click();
    await expect(aliceRow.getByTestId('member-available')).toHaveText('1,200');
    await screenshot(admin, 'credit-members-zh');

    // The administrator's history shows the company's movements, pool and member, filterable by member.
    await admin.getByTestId('credit-tab-history').click();
    await expect(admin.getByTestId('movement')).toHaveCount(5);
    await screenshot(admin, 'credit-history-admin-zh');

    // Alice sees her balance and her own history only.
    const member = alice.page;
    await member.goto('/dashboard/credit');
    await expect(member.getByTestId('credit-available')).toHaveAttribute('data-value', '1200');
    await expect(member.getByTestId('credit-consumed')).toHaveAttribute('data-value', '0');
    await expect(member.getByTestId('credit-pool')).toHaveCount(0);
    await expect(member.getByTestId('credit-tab-top-up')).toHaveCount(0);
    await expect(member.getByTestId('credit-tab-members')).toHaveCount(0);
    await screenshot(member, 'credit-overview-member-en');
    await member.getByTestId('credit-tab-history').click();
    const deltas = member.getByTestId('credit-history').getByTestId('movement-delta');
    await expect(deltas).toHaveCount(2);
    await expect(deltas.nth(0)).toHaveAttribute('data-value', '-300');
    await expect(deltas.nth(1)).toHaveAttribute('data-value', '1500');
    await expect(member.getByTestId('filter-member')).toHaveCount(0);
    await member.getByTestId('filter-kind').click();
    await member.getByRole('option', { name: E('Member top-up') }).click();
    await expect(deltas).toHaveCount(1);
    await expect(deltas.nth(0)).toHaveAttribute('data-value', '1500');
    await screenshot(member, 'credit-history-member-en');

    // Alice registers a vault file (1,000 credits): 200 left.
    const projectId = await vaultProjectByApi(alice, 'Credits E2E');
    await member.goto(`/dashboard/vault/project/${projectId}`);
    const fileInput = member.getByTestId('register-form').locator('input[type=file]');
    await fileInput.setInputFiles({ name: 'first.txt', mimeType: 'text/plain', buffer: Buffer.from(`first ${Date.now()}`) });
    await member.getByTestId('register-submit').click();
    await expect(member.getByTestId('file-first.txt')).toBeVisible({ timeout: 30_000 });
    expect(await available(alice)).toBe(200);

    // §8: not enough credits for the next one: refused with the message, nothing registered, nothing charged.
    await fileInput.setInputFiles({ name: 'second.txt', mimeType: 'text/plain', buffer: Buffer.from(`second ${Date.now()}`) });
    await member.getByTestId('register-submit').click();
    const problem = member.getByTestId('register-credits-problem');
    await expect(problem).toContainText(E('Not enough credits, please top up'), { timeout: 30_000 });
    await expect(problem.getByRole('link', { name: tr('en', 'See my credits') })).toHaveAttribute('href', '/dashboard/credit');
    await screenshot(member, 'credit-refused-vault-en');
    await expect(member.getByTestId('file-second.txt')).toHaveCount(0);
    expect(await available(alice)).toBe(200);
    await member.goto('/dashboard/credit/history');
    await expect(deltas).toHaveCount(3);
    await expect(deltas.nth(0)).toHaveAttribute('data-value', '-1000');
    await expect(member.getByTestId('movement-kind').nth(0)).toHaveAttribute('data-kind', 'vault_file_registration');
    await member.goto('/dashboard/credit');
    await expect(member.getByTestId('credit-available')).toHaveAttribute('data-value', '200');
    await expect(member.getByTestId('credit-consumed')).toHaveAttribute('data-value', '1000');
    // 200 still pays for an asset registration (§9: 200), so no warning that nothing is affordable.
    await expect(member.getByTestId('price-asset')).toContainText('200');
    await expect(member.getByTestId('credit-short')).toHaveCount(0);

    for (const p of [owner, alice]) await p.context.close();
  });

  /** An administrator and a member with a funded pool and some history, for the layout checks. */
  async function seeded(browser: import('@playwright/test').Browser, locale: Locale) {
    const owner = await person(browser, locale, '张三');
    const company = await createEnterprise(owner, '积分布局');
    const alice = await person(browser, locale, '李四');
    await joinCompany(alice, owner, company.invitation_code, 0);
    const ops = await operatorApi(browser);
    await giveCredits(owner, alice.phone, 2500, ops.request);
    await giveCredits(owner, owner.phone, 1200, ops.request);
    const pending = await ok(owner.page.request.post('/api/v1/credits/orders', { data: { amount: 10000, note: 'Bank of China, transfer of 2027-03-01' } }), 'order');
    const rejected = await ok(owner.page.request.post('/api/v1/credits/orders', { data: { amount: 300 } }), 'order');
    await ok(ops.request.put(`/api/v1/operator/credit-orders/${rejected.order_id}`, { data: { status: 3, reason: 'No transfer arrived within 14 days' } }), 'reject');
    await ops.context.close();
    return { owner, alice, pendingOrder: pending.order_no as string };
  }

  async function shoot(p: Person, name: string, tabs: readonly string[]) {
    for (const tab of tabs) {
      await p.page.goto(`/dashboard/credit/${tab}`);
      await expect(p.page.getByTestId(`credit-tab-${tab}`)).toHaveAttribute('aria-selected', 'true');
      if (tab === 'history') await expect(p.page.getByTestId('movement').first()).toBeVisible();
      if (tab === 'members') await expect(p.page.getByTestId('member-available').first()).toBeVisible();
      if (tab === 'top-up') await expect(p.page.getByTestId('order-status').first()).toBeVisible();
      await expectNoOverflow(p.page);
      await screenshot(p.page, `${name}-${tab}`);
    }
  }

  const ADMIN_TABS = ['overview', 'history', 'top-up', 'members'] as const;

  for (const locale of ['zh', 'en', 'ja'] as const) {
    test(`credit screens fit desktop and middle widths (${locale})`, async ({ browser }) => {
      test.setTimeout(180_000);
      const { owner, alice } = await seeded(browser, locale);
      for (const width of [1440, 1000]) {
        await owner.page.setViewportSize({ width, height: 900 });
        await shoot(owner, `credit-${locale}-${width}-admin`, ADMIN_TABS);
      }
      await alice.page.setViewportSize({ width: 1000, height: 900 });
      await shoot(alice, `credit-${locale}-1000-member`, ['overview', 'history']);
      for (const p of [owner, alice]) await p.context.close();
    });

    test(`credit screens fit a phone (${locale}) @mobile`, async ({ browser }) => {
      test.setTimeout(180_000);
      test.skip(test.info().project.name !== 'mobile', 'mobile layout only');
      const { owner, alice } = await seeded(browser, locale);
      for (const p of [owner, alice]) await p.page.setViewportSize({ width: 390, height: 844 });
      await shoot(owner, `credit-${locale}-390-admin`, ADMIN_TABS);
      await shoot(alice, `credit-${locale}-390-member`, ['overview', 'history']);
      // The allocation dialog on a phone.
      await owner.page.goto('/dashboard/credit/members');
      await owner.page.getByTestId(`credit-member-${alice.phone}`).getByTestId('give-credits').click();
      await expect(owner.page.getByTestId('allocation-form')).toBeVisible();
      await screenshot(owner.page, `credit-${locale}-390-allocate`);
      for (const p of [owner, alice]) await p.context.close();
    });
  }
});
