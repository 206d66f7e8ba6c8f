import { expect } from '@playwright/test';
import { tr, useLocale, type Locale, test } from './support.ts';

test('the §2 navigation carries the cooperation company link in every language', async ({ page }) => {
  for (const locale of ['zh', 'en', 'ja'] as Locale[]) {
    await useLocale(page, locale);
    await page.goto('/user/login');
    await page.evaluate((l) => localStorage.setItem('locale', l), locale);
    await page.reload();
    const nav = page.getByRole('navigation').first();
    const link = nav.getByRole('link', { name: tr(locale, 'Cooperation company') });
    await expect(link).toBeVisible();
    await expect(link).toHaveAttribute('href', '/verify-file');
  }
});
