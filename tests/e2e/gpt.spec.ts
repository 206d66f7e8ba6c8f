import { createHash, randomBytes } from 'node:crypto';
import { expect as baseExpect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { createEnterprise, giveCredits, joinCompany, ok, operatorApi, person, registerAsset, screenshot, tr, type Locale, test } from './support.ts';

// Every navigation loads the app again; on a busy machine assertions wait longer than the default.
const expect = baseExpect.configure({ timeout: 20_000 });

function newIdentity(ext: string): string {
  return `0x${createHash('sha256').update(randomBytes(16)).digest('hex')}${ext}`;
}

async function ask(page: Page, question: string): Promise<void> {
  const input = page.getByTestId('gpt-input');
  await input.fill(question);
  await input.press('Enter');
}

/** A question whose answer is long enough (several sentences of the verification page) to be stopped halfway. */
const QUESTION = 'How does verification work, which checks run, and what does the result show?';
/** The conversation's title: the first 40 characters of its first question. */
const TITLE = Array.from(QUESTION).slice(0, 40).join('');

const lastAnswer = (page: Page) => page.getByTestId('gpt-answer').last();

/** WCAG 2 A/AA rules that axe-core rates serious or critical (as tests/e2e/a11y.spec.ts). */
async function expectAccessible(page: Page): Promise<void> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const serious = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
  expect(serious).toEqual([]);
}

/** The page is no wider than the viewport. */
async function expectNoOverflow(page: Page): Promise<void> {
  const wide = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(wide).toBeLessThanOrEqual(1);
}

test('the chat assistant: ask, watch it stream, stop, regenerate, reload, and a member gets nothing of another’s', async ({ browser }) => {
  test.setTimeout(420_000);
  const owner = await person(browser, 'zh', '张三');
  const company = await createEnterprise(owner, '助手企业');
  const alice = await person(browser, 'en', '李四');
  await joinCompany(alice, owner, company.invitation_code, 0);
  const bob = await person(browser, 'zh', '王五');
  await joinCompany(bob, owner, company.invitation_code, 0);
  const operator = await operatorApi(browser);
  try {
    await giveCredits(owner, alice.phone, 200, operator.request);
  } finally {
    await operator.context.close();
  }
  const dna = await registerAsset(alice, newIdentity('.bin'), '合同草案.bin');

  // The sidebar leads to the list; a new conversation starts from it.
  const page = alice.page;
  await page.goto('/dashboard/home');
  await page.getByRole('link', { name: 'Chat assistant' }).first().click();
  await expect(page).toHaveURL(/\/dashboard\/gpt\/list$/);
  await expect(page.getByTestId('gpt-source-note')).toHaveAttribute('data-engine', 'builtin');
  await page.getByTestId('gpt-new').click();
  await expect(page).toHaveURL(/\/dashboard\/gpt\/detail$/);

  // Shift+Enter adds a line; Enter sends.
  const input = page.getByTestId('gpt-input');
  await input.fill('How does verification work?');
  await input.press('Shift+Enter');
  await expect(input).toHaveValue('How does verification work?\n');
  // The server renders Alice's proof in the background (seconds of CPU); asked then, the answer would wait for it.
  await expect.poll(async () => (await ok(page.request.get(`/api/v1/assets/${dna}`), 'asset')).is_generated, { timeout: 60_000 }).toBe(true);
  // In the page: record the answer's length at every change, and press Stop once it has grown
  // three times (from the page itself: a round trip from the test could come after the end).
  await page.evaluate(() => {
    const w = window as unknown as { answerLengths: number[]; isStopArmed: boolean };
    w.answerLengths = [];
    w.isStopArmed = true;
    new MutationObserver(() => {
      const answers = document.querySelectorAll('[data-testid="gpt-answer"] [data-testid="gpt-markdown"]');
      w.answerLengths.push(answers[answers.length - 1]?.textContent?.length ?? 0);
      if (w.isStopArmed && new Set(w.answerLengths.filter((n) => n > 0)).size >= 3) {
        w.isStopArmed = false;
        document.querySelector<HTMLButtonElement>('[data-testid="gpt-stop"]')?.click();
      }
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  await input.fill(QUESTION);
  await input.press('Enter');
  await expect(page).toHaveURL(/\/dashboard\/gpt\/detail\/\d+$/);
  const conversationUrl = page.url();

  // Tokens arrived one piece after another; Stop ended the answer halfway.
  const answer = lastAnswer(page);
  await expect(answer).toHaveAttribute('data-status', 'stopped');
  await expect(page.getByTestId('gpt-stopped')).toBeVisible();
  const streamedSteps = () => page.evaluate(() => new Set((window as unknown as { answerLengths: number[] }).answerLengths.filter((n) => n > 0)).size);
  expect(await streamedSteps()).toBeGreaterThanOrEqual(3);
  const stoppedText = (await answer.getByTestId('gpt-markdown').textContent()) ?? '';

  // Regenerate: the whole answer this time, with its help-page citation.
  await page.evaluate(() => ((window as unknown as { answerLengths: number[] }).answerLengths = []));
  await page.getByTestId('gpt-regenerate').click();
  await expect(lastAnswer(page)).toHaveAttribute('data-status', 'done');
  expect(await streamedSteps()).toBeGreaterThan(5);
  const fullText = (await lastAnswer(page).getByTestId('gpt-markdown').textContent()) ?? '';
  expect(fullText).toContain('verification centre');
  expect(fullText.length).toBeGreaterThan(stoppedText.length);
  await expect(lastAnswer(page).getByTestId('gpt-citation').first()).toBeVisible();

  // Her own data, cited with its name, DNA and link.
  await ask(page, 'Find my asset named "合同草案"');
  await expect(lastAnswer(page)).toHaveAttribute('data-status', 'done');
  await expect(lastAnswer(page)).toContainText('合同草案.bin');
  await expect(lastAnswer(page)).toContainText(dna);
  await expect(lastAnswer(page).getByRole('link', { name: '合同草案.bin' }).first()).toHaveAttribute('href', `/dashboard/asset/detail/${dna}`);

  // Edit the last question: it and its answer are replaced.
  await page.getByTestId('gpt-edit').click();
  await expect(input).toHaveValue('Find my asset named "合同草案"');
  await input.fill('Find my asset named "合同"');
  await input.press('Enter');
  await expect(lastAnswer(page)).toHaveAttribute('data-status', 'done');
  await expect(page.getByTestId('gpt-question').last()).toHaveText('Find my asset named "合同"');
  await expect(lastAnswer(page)).toContainText('合同草案.bin');

  // Reload: the conversation is there, and in the list with its title.
  await page.reload();
  await expect(page.getByTestId('gpt-question')).toHaveCount(2);
  await expect(page.getByTestId('gpt-answer')).toHaveCount(2);
  await expect(page.getByTestId('gpt-title')).toHaveText(TITLE);
  await page.getByTestId('gpt-back').click();
  await expect(page.getByTestId('gpt-conversation-title').first()).toHaveText(TITLE);
  await page.getByTestId('gpt-search').fill('合同草案');
  await expect(page.getByTestId('gpt-conversation')).toHaveCount(1);
  await page.getByTestId('gpt-conversation-link').first().click();
  await expect(page).toHaveURL(conversationUrl);

  // Bob, a plain member of the same company, asks for Alice's asset: nothing of hers comes back.
  await bob.page.goto('/dashboard/gpt/detail');
  await ask(bob.page, '找一下名为“合同草案”的资产');
  await expect(lastAnswer(bob.page)).toHaveAttribute('data-status', 'done');
  await expect(lastAnswer(bob.page)).toContainText('没有找到');
  await expect(lastAnswer(bob.page)).not.toContainText('合同草案.bin');
  await expect(lastAnswer(bob.page)).not.toContainText(dna);
  await ask(bob.page, `DNA ${dna} 的状态？`);
  await expect(lastAnswer(bob.page)).toHaveAttribute('data-status', 'done');
  await expect(lastAnswer(bob.page)).not.toContainText('合同草案');
  // Nor does he reach her conversation by its address.
  await bob.page.goto(conversationUrl.replace(/^https?:\/\/[^/]+/, ''));
  await expect(bob.page.getByText(tr('zh', 'This conversation does not exist or is not yours.'))).toBeVisible();

  // Rename and delete from the list.
  await page.goto('/dashboard/gpt/list');
  await page.getByTestId('gpt-search').fill('');
  await page.getByTestId('gpt-rename').first().click();
  await page.getByTestId('gpt-rename-input').fill('Verification questions');
  await page.getByTestId('gpt-rename-save').click();
  await expect(page.getByTestId('gpt-conversation-title').first()).toHaveText('Verification questions');

  // Screens in three languages at desktop, middle and mobile widths.
  for (const locale of ['zh', 'en', 'ja'] as Locale[]) {
    await page.evaluate((l) => localStorage.setItem('locale', l), locale);
    for (const width of [1440, 900, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      await page.goto(conversationUrl.replace(/^https?:\/\/[^/]+/, ''));
      await expect(page.getByTestId('gpt-answer')).toHaveCount(2);
      await expect(page.getByTestId('gpt-send')).toHaveText(tr(locale, 'Send'));
      await expectNoOverflow(page);
      if (width === 1440) await expectAccessible(page);
      await screenshot(page, `gpt-chat-${locale}-${width}`);
      await page.goto('/dashboard/gpt/list');
      await expect(page.getByTestId('gpt-conversation').first()).toBeVisible();
      await expectNoOverflow(page);
      if (width === 1440) await expectAccessible(page);
      await screenshot(page, `gpt-list-${locale}-${width}`);
    }
  }

  // Delete.
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.evaluate(() => localStorage.setItem('locale', 'en'));
  await page.reload();
  await expect(page.getByTestId('gpt-conversation').first()).toBeVisible();
  const before = await page.getByTestId('gpt-conversation').count();
  await page.getByTestId('gpt-delete').first().click();
  await page.getByTestId('gpt-delete-confirm').click();
  await expect(page.getByTestId('gpt-conversation')).toHaveCount(before - 1);
  expect((await ok(page.request.get('/api/v1/gpt/conversations'), 'list')).items.map((c: { title: string }) => c.title)).not.toContain('Verification questions');
});
