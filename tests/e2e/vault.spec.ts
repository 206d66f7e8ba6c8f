import { expect, type Page } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createEnterprise, field, giveCredits, joinCompany, latestCode, operatorApi, person, screenshot, tr, type Person, test } from './support.ts';

const VAULT_CODE = 18;


/** Through the unlock screen: send the type-18 code, read it from the outbox, unlock; lands back on `back`. */
async function unlockByUi(p: Person, back: RegExp): Promise<void> {
  const L = (s: string) => tr(p.locale, s);
  // The vault screen loads its chunk and asks the API before it redirects: room for a loaded CI machine.
  await expect(p.page).toHaveURL(/\/dashboard\/vault\/unlock/, { timeout: 15_000 });
  await p.page.getByTestId('vault-send-code').click();
  const code = await latestCode(p.page.request, p.phone, VAULT_CODE);
  await p.page.getByLabel(new RegExp(L('SMS code sent to {phone}').replace('{phone}', '.*'))).fill(code);
  await p.page.getByTestId('vault-unlock').click();
  await expect(p.page).toHaveURL(back);
  await expect(p.page.getByTestId('vault-open-until')).toBeVisible();
}

/** A file generated in the page (random-ish bytes, `mb` MiB) put into the register form's file input. */
async function chooseGeneratedFile(page: Page, name: string, mb: number, seed: number): Promise<void> {
  const input = page.getByTestId('register-form').locator('input[type=file]');
  await input.evaluate(
    (el: HTMLInputElement, { name, mb, seed }) => {
      const bytes = new Uint8Array(mb * 1024 * 1024);
      let x = seed >>> 0 || 1;
      for (let i = 0; i < bytes.length; i += 4) {
        x ^= x << 13;
        x ^= x >>> 17;
        x ^= x << 5;
        bytes[i] = x & 255;
        bytes[i + 1] = (x >>> 8) & 255;
        bytes[i + 2] = (x >>> 16) & 255;
        bytes[i + 3] = (x >>> 24) & 255;
      }
      const transfer = new DataTransfer();
      transfer.items.add(new File([bytes], name, { type: 'application/octet-stream' }));
      el.files = transfer.files;
      el.dispatchEvent(new Event('change', { bubbles: true }));
    },
    { name, mb, seed },
  );
}

function fieldError(page: Page, label: string) {
  // Mantine ties the error to its input with aria-describedby; the wrapper holds both.
  return page.locator('.mantine-InputWrapper-root', { has: field(page, label) }).locator('.mantine-InputWrapper-error');
}

test.describe('trade-secret vault', () => {
  test('unlock by SMS, projects with the §5 and §8 rules, a generated file registered and its proof downloaded; §6 visibility', async ({ browser }) => {
    test.setTimeout(180_000);
    const owner = await person(browser, 'zh', '张三');
    const company = await createEnterprise(owner, '保险箱 E2E');
    const alice = await person(browser, 'en', '李四');
    const bob = await person(browser, 'zh', '王五');
    const officer = await person(browser, 'ja', '赵六');
    await joinCompany(alice, owner, company.invitation_code, 0);
    await joinCompany(bob, owner, company.invitation_code, 0);
    await joinCompany(officer, owner, company.invitation_code, 3);
    // One vault file costs credits.vaultFile (1000 by default), paid by the registering member.
    const ops = await operatorApi(browser);
    await giveCredits(owner, alice.phone, 1000, ops.request);
    await ops.context.close();
    const LA = (s: string) => tr('en', s);
    const LB = (s: string) => tr('zh', s);

    // Alice: the vault is locked → unlock screen → back to the vault.
    await alice.page.goto('/dashboard/vault');
    await expect(alice.page).toHaveURL(/\/dashboard\/vault\/unlock\?reason=locked/);
    await screenshot(alice.page, 'vault-unlock-en');
    await unlockByUi(alice, /\/dashboard\/vault$/);
    await expect(alice.page.getByText(LA('No projects yet'))).toBeVisible();

    // New project: §5 rules on their fields.
    await alice.page.getByTestId('new-project').click();
    const form = alice.page.getByTestId('project-form');
    await form.getByTestId('project-save').click();
    await expect(fieldError(alice.page, LA('Project name'))).toHaveText(LA('This field is required'));
    await field(alice.page, LA('Project name')).fill('x'.repeat(31));
    await alice.page.getByLabel(LA('Description')).fill('d'.repeat(201));
    await form.getByTestId('project-save').click();
    await expect(fieldError(alice.page, LA('Project name'))).toHaveText(LA('Too long'));
    await expect(alice.page.locator('.mantine-InputWrapper-root', { has: alice.page.getByLabel(LA('Description')) }).locator('.mantine-InputWrapper-error')).toHaveText(LA('Too long'));
    const projectName = `Coating formula ${Date.now() % 100000}`;
    await field(alice.page, LA('Project name')).fill(projectName);
    await alice.page.getByLabel(LA('Description')).fill('Ratios and curing temperatures of the 2027 coating.');
    await screenshot(alice.page, 'vault-new-project-en');
    await form.getByTestId('project-save').click();
    await expect(alice.page).toHaveURL(/\/dashboard\/vault\/project\/\d+$/);
    const projectUrl = alice.page.url();

    // Register: §5 a file and a name are required.
    await alice.page.getByTestId('register-submit').click();
    await expect(alice.page.getByText(LA('Please choose a file to register'))).toBeVisible();
    // A 48 MiB file made in the page; only its fingerprint is sent.
    const sent: string[] = [];
    alice.page.on('request', (r) => {
      if (r.url().includes('/vault/projects/') && r.method() === 'POST') sent.push(r.postData() ?? '');
    });
    await chooseGeneratedFile(alice.page, 'formula.bin', 48, 2027);
    await expect(field(alice.page, LA('Name'))).toHaveValue('formula.bin');
    await alice.page.getByTestId('register-submit').click();
    const card = alice.page.getByTestId('file-formula.bin');
    await expect(card).toBeVisible({ timeout: 30_000 });
    expect(sent).toHaveLength(1);
    expect(sent[0]!.length).toBeLessThan(500);
    expect(JSON.parse(sent[0]!)).toMatchObject({ name: 'formula.bin', size: 48 * 1024 * 1024, file_hash: expect.stringMatching(/^0x[0-9a-f]{64}\.bin$/) });
    // §3 generating → generated, with its block.
    await expect(card.getByTestId('proof-status')).toHaveAttribute('data-generated', 'true', { timeout: 60_000 });
    await expect(card.getByTestId('file-block')).toHaveAttribute('href', /\/explorer\/blocks\/\d+$/);
    const dna = (await card.getByTestId('file-dna').textContent())?.trim() ?? '';
    expect(dna).toMatch(/^pv[a-z2-7]{20}$/);
    await screenshot(alice.page, 'vault-project-en');
    const [download] = await Promise.all([alice.page.waitForEvent('download'), card.getByTestId('download-proof').click()]);
    expect(download.suggestedFilename()).toBe(`provena-proof-${dna}.pdf`);
    const pdf = fs.readFileSync(await download.path());
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');

    // §8 the same content again: "file already exists" on the file field, nothing registered.
    await chooseGeneratedFile(alice.page, 'formula-copy.bin', 48, 2027);
    await alice.page.getByTestId('register-submit').click();
    await expect(alice.page.getByTestId('register-form').getByText(LA('This file already exists'))).toBeVisible({ timeout: 30_000 });
    await expect(alice.page.getByTestId('file-list').getByTestId('download-proof')).toHaveCount(1);

    // Project log: who did what.
    await alice.page.goto(projectUrl.replace('/project/', '/log/'));
    await expect(alice.page.getByTestId('log-proof_downloaded')).toBeVisible();
    await expect(alice.page.getByTestId('log-file_registered')).toContainText(dna);
    await expect(alice.page.getByTestId('log-project_created')).toContainText('李四');
    await screenshot(alice.page, 'vault-log-en');

    // Bob (plain member, zh): does not see Alice's project; §8 the same name is refused on the field.
    await bob.page.goto('/dashboard/vault');
    await unlockByUi(bob, /\/dashboard\/vault$/);
    await expect(bob.page.getByText(LB('No projects yet'))).toBeVisible();
    await bob.page.getByTestId('new-project').click();
    await field(bob.page, LB('Project name')).fill(projectName);
    await bob.page.getByTestId('project-save').click();
    await expect(fieldError(bob.page, LB('Project name'))).toHaveText(LB('A project with this name already exists, please rename it'));
    await screenshot(bob.page, 'vault-project-exists-zh');
    await bob.page.goto(projectUrl.replace(/^https?:\/\/[^/]+/, ''));
    await expect(bob.page.getByText(LB('This project does not exist, or you may not see it.'))).toBeVisible();

    // The confidentiality officer (ja) sees Alice's project and its proof, read-only.
    await officer.page.goto(projectUrl.replace(/^https?:\/\/[^/]+/, ''));
    await unlockByUi(officer, /\/dashboard\/vault\/project\/\d+$/);
    await expect(officer.page.getByTestId('file-formula.bin')).toBeVisible();
    await expect(officer.page.getByTestId('register-form')).toHaveCount(0);
    await expect(officer.page.getByTestId('edit-project')).toHaveCount(0);
    await officer.page.goto('/dashboard/vault');
    await expect(officer.page.getByTestId(`project-${projectName}`)).toBeVisible();
    await screenshot(officer.page, 'vault-list-ja');
    // Middle width.
    await officer.page.setViewportSize({ width: 1000, height: 800 });
    await officer.page.goto(projectUrl.replace(/^https?:\/\/[^/]+/, ''));
    await expect(officer.page.getByTestId('file-formula.bin')).toBeVisible({ timeout: 15_000 });
    await screenshot(officer.page, 'vault-project-middle-ja');

    // Someone without a company is sent to real-name and company authentication first (§4 dashboard guard).
    const loner = await person(browser, 'zh', '孙七');
    await loner.page.goto('/dashboard/vault');
    await expect(loner.page).toHaveURL(/\/real-auth/);
    await loner.context.close();

    for (const p of [owner, alice, bob, officer]) await p.context.close();
  });

  test('when the vault session runs out the member is sent to unlock, with the way back kept', async ({ browser }) => {
    test.setTimeout(120_000);
    // A second server whose vault stays open 8 seconds (deployment configuration vaultSessionSeconds).
    const port = Number(process.env.E2E_PORT ?? 8181) + 1000;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-vault-e2e-'));
    const configFile = path.join(dir, 'provena.json');
    fs.writeFileSync(configFile, JSON.stringify({ vaultSessionSeconds: 8 }));
    const server: ChildProcess = spawn(process.execPath, ['scripts/e2e-server.ts'], {
      env: { ...process.env, E2E_PORT: String(port), E2E_NO_BUILD: '1', E2E_DEMO_ENTERPRISES: '0', PROVENA_CONFIG: configFile },
      stdio: 'ignore',
    });
    try {
      const baseURL = `http://127.0.0.1:${port}`;
      await expect.poll(async () => (await fetch(`${baseURL}/api/health`).catch(() => null))?.status ?? 0, { timeout: 60_000 }).toBe(200);
      const owner = await person(browser, 'en', '张三', baseURL);
      await createEnterprise(owner, '保险箱 E2E');
      const L = (s: string) => tr('en', s);
      await owner.page.goto('/dashboard/vault');
      await unlockByUi(owner, /\/dashboard\/vault$/);
      await owner.page.getByTestId('new-project').click();
      await field(owner.page, L('Project name')).fill('Short session');
      await owner.page.getByTestId('project-save').click();
      await expect(owner.page).toHaveURL(/\/dashboard\/vault\/project\/\d+$/);
      const projectPath = new URL(owner.page.url()).pathname;
      await expect(owner.page.getByRole('heading', { name: 'Short session' })).toBeVisible();
      // Idle on the project page: when the unlock runs out the app goes to unlock by itself.
      await expect(owner.page).toHaveURL(/\/dashboard\/vault\/unlock\?reason=expired/, { timeout: 15_000 });
      await expect(owner.page.getByTestId('vault-expired')).toHaveText(L('The vault key has expired, please unlock the vault again'));
      // The server refuses too (§8 vault key expired).
      const res = await owner.page.request.get('/api/v1/vault/projects');
      expect(await res.json()).toEqual({ message: 'vault_login_status_expired' });
      await screenshot(owner.page, 'vault-expired-en');
      // The way back is kept (the return itself is checked in the first test: the per-phone
      // code limit of one a minute would make this one wait).
      expect(new URL(owner.page.url()).searchParams.get('from')).toBe(projectPath);
      await owner.context.close();
    } finally {
      server.kill('SIGTERM');
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('vault screens fit a phone @mobile', async ({ browser }) => {
    test.setTimeout(120_000);
    test.skip(test.info().project.name !== 'mobile', 'mobile layout only');
    const owner = await person(browser, 'zh', '张三');
    await createEnterprise(owner, '保险箱 E2E');
    const ops = await operatorApi(browser);
    await giveCredits(owner, owner.phone, 1000, ops.request);
    await ops.context.close();
    await owner.page.setViewportSize({ width: 390, height: 844 });
    await owner.page.goto('/dashboard/vault');
    await screenshot(owner.page, 'vault-unlock-mobile-zh');
    await unlockByUi(owner, /\/dashboard\/vault$/);
    await owner.page.getByTestId('new-project').click();
    await field(owner.page, tr('zh', 'Project name')).fill('移动端项目');
    await owner.page.getByTestId('project-save').click();
    await expect(owner.page).toHaveURL(/\/dashboard\/vault\/project\/\d+$/);
    await chooseGeneratedFile(owner.page, '配方.docx', 2, 7);
    await owner.page.getByTestId('register-submit').click();
    await expect(owner.page.getByTestId('file-配方.docx').getByTestId('proof-status')).toHaveAttribute('data-generated', 'true', { timeout: 60_000 });
    const width = await owner.page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    await screenshot(owner.page, 'vault-project-mobile-zh');
    await owner.page.goto('/dashboard/vault');
    await screenshot(owner.page, 'vault-list-mobile-zh');
    await owner.context.close();
  });
});

