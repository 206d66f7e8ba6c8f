import { expect } from '@playwright/test';
import { test } from './support.ts';

/** The suite's CSP guard itself: the app page refuses an injected inline script, and the guard fails the test for it. */
test('an injected inline script is refused by the CSP and fails the test', async ({ page }) => {
  test.fail(true, 'the CSP guard must fail a test that meets a violation');
  await page.goto('/');
  await page.evaluate(() => {
    const script = document.createElement('script');
    script.textContent = 'window.__inlineRan = true';
    document.body.appendChild(script);
  });
  await expect.poll(() => page.evaluate(() => (window as unknown as { __inlineRan?: boolean }).__inlineRan ?? false)).toBe(false);
});
