import { expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { createEnterprise, person, useLocale, type Locale, test } from './support.ts';

/** WCAG 2 A/AA rules that axe-core rates serious or critical: none on any screen, signed in or out, in any language. */
async function seriousViolations(page: Page, path: string): Promise<string[]> {
  await page.goto(path);
  await page.waitForLoadState('networkidle');
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${path} ${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => `${n.target.join(' ')} — ${(n.any[0] ?? n.all[0])?.message ?? ''}`).join(' | ')}`);
}

const PUBLIC_PAGES = ['/user/login', '/signup', '/reset-pass', '/verify-file', '/terms', '/privacy', '/explorer', '/assets'];
const DASHBOARD_PAGES = [
  '/dashboard/home',
  '/dashboard/asset',
  '/dashboard/asset_upload',
  '/dashboard/disclosures',
  '/dashboard/credit',
  '/dashboard/company/info',
  '/dashboard/company/identity',
  '/dashboard/company/key',
  '/dashboard/company/members',
  '/dashboard/setting/info',
  '/dashboard/setting/pass',
  '/dashboard/vault/unlock',
  '/dashboard/empty',
];

test.describe('accessibility (axe-core)', () => {
  for (const locale of ['zh', 'en', 'ja'] as Locale[]) {
    test(`no serious or critical violation on the public pages — ${locale}`, async ({ page }) => {
      test.setTimeout(120_000);
      await useLocale(page, locale);
      const found: string[] = [];
      for (const path of PUBLIC_PAGES) found.push(...(await seriousViolations(page, path)));
      expect(found).toEqual([]);
    });

    test(`no serious or critical violation on the signed-in screens — ${locale}`, async ({ browser }) => {
      test.setTimeout(180_000);
      const owner = await person(browser, locale, '张三');
      await createEnterprise(owner, '无障碍公司');
      const found: string[] = [];
      for (const path of DASHBOARD_PAGES) found.push(...(await seriousViolations(owner.page, path)));
      expect(found).toEqual([]);
      await owner.context.close();
    });
  }
});
