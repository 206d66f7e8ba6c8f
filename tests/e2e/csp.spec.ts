import { expect, test } from '@playwright/test';
import { watchCsp } from './support.ts';

/**
 * The suite's CSP watcher itself (the plain Playwright test, without the guard that would
 * fail this test for the violation it provokes): the app page refuses an injected inline
 * script, and the watcher reports it. (Code that Playwright evaluates is exempt from the
 * page's CSP, so eval cannot be provoked from here; the server test checks script-src.)
 */
test('an injected inline script is refused by the CSP and reported', async ({ browser }) => {
  const context = await browser.newContext();
  const violations: string[] = [];
  await watchCsp(context, violations);
  const page = await context.newPage();
  await page.goto('/');
  const ran = await page.evaluate(() => {
    const script = document.createElement('script');
    script.textContent = 'window.__inlineRan = true';
    document.body.appendChild(script);
    return (window as unknown as { __inlineRan?: boolean }).__inlineRan ?? false;
  });
  expect(ran).toBe(false);
  await expect.poll(() => violations.join('\n')).toContain('script-src');
  await context.close();
});
