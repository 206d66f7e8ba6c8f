import { expect } from '@playwright/test';
import { test, operatorApi, screenshot, tr, useLocale, type Locale } from './support.ts';

/**
 * The operator console's Jobs tab: the certificate job a registration's block
 * asked for is listed with its state and attempts, in zh, en and ja, at three widths.
 */
test('the operator sees the background jobs with their state and attempts', async ({ browser }) => {
  // Three languages at three widths, each a reload: more than the default minute on a busy machine.
  test.setTimeout(300_000);
  const op = await operatorApi(browser);
  try {
    const page = await op.context.newPage();
    for (const locale of ['zh', 'en', 'ja'] as Locale[]) {
      await useLocale(page, locale);
      await page.goto('/operator');
      await page.evaluate((l) => localStorage.setItem('locale', l), locale);
      await page.reload();
      await page.getByTestId('operator-tab-jobs').click();
      await expect(page.getByTestId('operator-jobs')).toBeVisible();
      await expect(page.getByRole('columnheader', { name: tr(locale, 'Attempts') })).toBeVisible();
      for (const width of [1440, 900, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await screenshot(page, `operator-jobs-${locale}-${width}`);
      }
      await page.setViewportSize({ width: 1440, height: 900 });
    }
  } finally {
    await op.context.close();
  }
});
