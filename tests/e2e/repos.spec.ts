import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect as baseExpect } from '@playwright/test';
import { createEnterprise, field, person, screenshot, tr, test } from './support.ts';

const expect = baseExpect.configure({ timeout: 30_000 });

/** git with a fixed identity, independent of the machine's configuration. */
function git(dir: string, args: string[], env: Record<string, string> = {}): string {
  return execFileSync('git', args, {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_SYSTEM: '/dev/null', GIT_AUTHOR_NAME: '王小明', GIT_AUTHOR_EMAIL: 'xm@example.com', GIT_COMMITTER_NAME: '王小明', GIT_COMMITTER_EMAIL: 'xm@example.com', ...env },
  }).trim();
}

function commit(dir: string, files: Record<string, string>, message: string): string {
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), content);
  }
  git(dir, ['add', '-A']);
  git(dir, ['commit', '-q', '-m', message]);
  return git(dir, ['rev-parse', 'HEAD']);
}

/**
 * A history registered from a picked folder in the browser (the .git directory read
 * in a worker, only records sent), then a CI push with a project token registering only the
 * one new commit; the commit page shows its SWHIDs and serves its proof.
 */
test('a repository folder registered in the browser, then the CLI pushes only the new commit', async ({ browser, baseURL }) => {
  test.setTimeout(720_000);
  const owner = await person(browser, 'zh', '张三');
  await createEnterprise(owner, '源码存证');
  const { page } = owner;

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-e2e-repo-'));
  git(dir, ['init', '-q', '-b', 'main']);
  commit(dir, { 'README.md': '# 支付网关\n', 'src/index.ts': 'export const version = 1;\n' }, '初始提交');
  commit(dir, { 'src/index.ts': 'export const version = 2;\n' }, 'bump');
  const third = commit(dir, { 'docs/设计.md': '设计说明\n' }, 'docs');

  await page.goto('/dashboard/repos');
  await page.getByTestId('new-repo').click();
  await field(page, tr('zh', 'Project name')).fill('支付网关');
  await field(page, tr('zh', 'Description')).fill('核心支付服务');
  await page.getByTestId('repo-save').click();
  await expect(page.getByTestId('repo-name')).toHaveText('支付网关');
  const projectId = /\/dashboard\/repos\/detail\/(\d+)/.exec(page.url())?.[1];
  expect(projectId).toBeTruthy();

  // The folder, as the user picks it (webkitdirectory): every file of the working tree and .git.
  await page.getByTestId('repo-folder-input').setInputFiles(dir);
  await expect(page.getByTestId('repo-registered')).toContainText('3');
  await expect(page.getByTestId('commit-table').locator('tbody tr')).toHaveCount(3);
  await expect(page.getByTestId('repo-commit-count')).toHaveText('3');
  await expect(page.getByTestId(`commit-${third}`)).toBeVisible();

  // A CI token: shown once.
  await page.getByTestId('new-token').click();
  const token = (await page.getByTestId('token-value').textContent())?.trim() ?? '';
  expect(token).toMatch(/^pvt_/);
  await page.keyboard.press('Escape');

  // One new commit, pushed by the CLI: only it is registered.
  const fourth = commit(dir, { 'src/pay.ts': 'export function pay() {}\n' }, 'pay');
  const out = execFileSync(process.execPath, ['bin/provena.ts', 'repo', 'push', '--project', projectId!, dir], { encoding: 'utf8', env: { ...process.env, PROVENA_URL: baseURL!, PROVENA_TOKEN: token } });
  expect(out).toContain('registered 1 new commit(s); 3 already registered');
  await page.reload();
  await expect(page.getByTestId('commit-table').locator('tbody tr')).toHaveCount(4);
  await expect(page.getByTestId(`commit-${fourth}`)).toBeVisible();

  // Picking the folder again sends nothing new.
  await page.getByTestId('repo-folder-input').setInputFiles(dir);
  await expect(page.getByTestId('repo-registered')).toContainText('4');


  // Branches and tags as pushed; a tag filters the list to its history, so does a commit-id prefix.
  git(dir, ['tag', 'v1', third]);
  await page.getByTestId('repo-folder-input').setInputFiles(dir);
  await expect(page.getByTestId('repo-refs').getByTestId('ref-main')).toBeVisible();
  await expect(page.getByTestId('repo-refs').getByTestId('ref-v1')).toBeVisible();
  await page.getByTestId('ref-v1').click();
  await expect(page.getByTestId('commit-table').locator('tbody tr')).toHaveCount(3);
  await page.getByTestId('ref-v1').click();
  await expect(page.getByTestId('commit-table').locator('tbody tr')).toHaveCount(4);
  await page.getByTestId('filter-commit').fill(fourth.slice(0, 5));
  await expect(page.getByText(tr('zh', 'Type at least 7 characters of the commit id (0–9, a–f).'))).toBeVisible();
  await page.getByTestId('filter-commit').fill(fourth.slice(0, 8).toUpperCase());
  await expect(page.getByTestId('commit-table').locator('tbody tr')).toHaveCount(1);
  await expect(page.getByTestId(`commit-${fourth}`)).toBeVisible();
  await page.getByTestId('filter-commit').fill('');

  // The commit page: metadata, SWHIDs linking to Software Heritage, the proof once generated.
  await page.getByTestId(`commit-${third}`).getByRole('link').click();
  await expect(page.getByTestId('commit-id')).toContainText(third);
  await expect(page.getByTestId('commit-swhid')).toContainText(`swh:1:rev:${third}`);
  await expect(page.getByTestId('commit-swhid').locator(`a[href="https://archive.softwareheritage.org/swh:1:rev:${third}"]`)).toHaveCount(1);
  // Its changed files against the parent, with line counts computed in the browser.
  await expect(page.getByTestId('change-docs/设计.md')).toContainText('+1');
  await expect(page.getByTestId('commit-proof')).toBeEnabled({ timeout: 90_000 });
  const download = page.waitForEvent('download');
  await page.getByTestId('commit-proof').click();
  const pdf = await (await download).path();
  expect(fs.readFileSync(pdf).subarray(0, 5).toString()).toBe('%PDF-');

  // The enterprise's code at a glance (repos/global): counts, the weekly chart, developers.
  await page.goto('/dashboard/repos/global');
  await expect(page.getByTestId('global-commits')).toHaveText('4');
  await expect(page.getByTestId('global-chart').locator('canvas')).toHaveCount(1);
  await page.getByTestId('global-tab-developers').click();
  await expect(page).toHaveURL(/\/dashboard\/repos\/global\/developers$/);
  await expect(page.getByTestId('global-developer-table')).toContainText('王小明');

  // A force-push: the last commit rewritten and pushed by the CLI; the project flags it, the old
  // commit is orphaned and keeps its proof.
  git(dir, ['commit', '-q', '--amend', '-m', 'pay (rewritten)']);
  const rewritten = execFileSync(process.execPath, ['bin/provena.ts', 'repo', 'push', '--project', projectId!, dir], { encoding: 'utf8', env: { ...process.env, PROVENA_URL: baseURL!, PROVENA_TOKEN: token } });
  expect(rewritten).toContain('force-push on refs/heads/main: 1 registered commit(s) no longer reachable');
  await page.goto(`/dashboard/repos/detail/${projectId}`);
  await expect(page.getByTestId('repo-force-pushes')).toBeVisible();
  await expect(page.getByTestId(`orphaned-${fourth}`)).toBeVisible();
  await page.goto(`/dashboard/repos/detail/${projectId}/${fourth}`);
  await expect(page.getByTestId('commit-orphaned')).toBeVisible();
  await expect(page.getByTestId('commit-proof')).toBeEnabled({ timeout: 90_000 });

  await page.goto(`/dashboard/repos/detail/${projectId}`);
  // Where the browser has the File System Access API (Chromium does), the pick button lists only
  // .git. The picked folder here is a real directory handle of the origin-private file system
  // holding a copy of the repository and a working-tree file that must never be read.
  const fifth = commit(dir, { 'src/refund.ts': 'export function refund() {}\n' }, 'refund');
  const gitFiles: [string, string][] = [];
  const walk = (at: string) => {
    for (const entry of fs.readdirSync(path.join(dir, at), { withFileTypes: true })) {
      const rel = path.posix.join(at, entry.name);
      if (entry.isDirectory()) walk(rel);
      else gitFiles.push([rel, fs.readFileSync(path.join(dir, rel)).toString('base64')]);
    }
  };
  walk('.git');
  await page.evaluate(async (files) => {
    const opfs = await navigator.storage.getDirectory();
    await opfs.removeEntry('picked-repo', { recursive: true }).catch(() => undefined);
    const root = await opfs.getDirectoryHandle('picked-repo', { create: true });
    for (const [name, base64] of [...files, ['node_modules/never-read.bin', btoa('working tree')] as [string, string]]) {
      const parts = name.split('/');
      let folder = root;
      for (const part of parts.slice(0, -1)) folder = await folder.getDirectoryHandle(part, { create: true });
      const writable = await (await folder.getFileHandle(parts.at(-1)!, { create: true })).createWritable();
      await writable.write(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)));
      await writable.close();
    }
    const read: string[] = [];
    (window as unknown as { pickedReads: string[] }).pickedReads = read;
    (window as unknown as { showDirectoryPicker: () => Promise<FileSystemDirectoryHandle> }).showDirectoryPicker = async () => root;
    // Which files were opened: File objects are made by getFile().
    const original = FileSystemFileHandle.prototype.getFile;
    FileSystemFileHandle.prototype.getFile = function (this: FileSystemFileHandle) {
      read.push(this.name);
      return original.call(this);
    };
  }, gitFiles);
  await page.getByTestId('repo-pick').click();
  await expect(page.getByTestId('repo-registered')).toContainText('1');
  await expect(page.getByTestId(`commit-${fifth}`)).toBeVisible();
  const reads = await page.evaluate(() => (window as unknown as { pickedReads: string[] }).pickedReads);
  expect(reads).toContain('HEAD');
  expect(reads).not.toContain('never-read.bin');

  // Screens in the three languages at desktop, middle and mobile widths.
  const screens = [
    ['list', '/dashboard/repos'],
    ['intro', '/dashboard/repos/intro'],
    ['global', '/dashboard/repos/global'],
    ['project', `/dashboard/repos/detail/${projectId}`],
    ['commit', `/dashboard/repos/detail/${projectId}/${third}`],
    ['orphaned', `/dashboard/repos/detail/${projectId}/${fourth}`],
  ] as const;
  for (const locale of ['zh', 'en', 'ja'] as const) {
    await page.evaluate((l) => localStorage.setItem('locale', l), locale);
    for (const [width, height] of [
      [1440, 900],
      [900, 1000],
      [390, 844],
    ] as const) {
      await page.setViewportSize({ width, height });
      for (const [name, url] of screens) {
        await page.goto(url);
        await page.waitForLoadState('networkidle');
        const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
        expect(scroll, `${name} ${locale} ${width}: wider than the viewport`).toBeLessThanOrEqual(width + 1);
        await screenshot(page, `repos-${name}-${locale}-${width}`);
      }
    }
  }
  fs.rmSync(dir, { recursive: true, force: true });
});
