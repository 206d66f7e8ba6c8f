import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { PDFDocument } from 'pdf-lib';
import { startHarness, type Harness } from './harness.ts';
import { shapeOf } from './shape.ts';
import { fromHex, toHex } from '../../core/ledger/bytes.ts';
import { verifyConsistency, verifyInclusion } from '../../core/ledger/merkle.ts';
import { decodePackage, encodePackage, gzip, PACKAGE_ATTACHMENT_NAME, verifyCertificate } from '../../core/ledger/package.ts';
import { extractPackageNode } from '../../server/proofs/extract.ts';
import { Ledger } from '../../server/ledger/ledger.ts';

let h: Harness;
let alice: string;
let bob: string;
/** Each test account's user id, by its session cookie. */
const userIds = new Map<string, number>();
async function account(phone: string): Promise<string> {
  const cookie = await h.register(phone);
  userIds.set(cookie, Number((await h.app.db.selectFrom('users').select('id').where('phonenumber', '=', phone).executeTakeFirstOrThrow()).id));
  return cookie;
}
beforeAll(async () => {
  h = await startHarness();
  // Blocks are sealed when a test says so: a timer seal between two registrations would split them across blocks.
  await h.app.ledger.stop();
  alice = await account(`137${String(process.pid % 10000).padStart(4, '0')}0001`);
  bob = await account(`137${String(process.pid % 10000).padStart(4, '0')}0002`);
});
afterAll(async () => {
  await h?.close();
});

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * These tests exercise the ledger itself, so they call its in-process registration service
 * directly, as a feature service does after its membership, role and credit checks (there is
 * no registration route: tests/server/registration-door.test.ts).
 */
async function registerFile(content: string, cookie = alice, extra: { enterprise_name?: string; valid_seconds?: number } = {}) {
  const r = await h.app.registerEntry({
    fileHash: `0x${sha(content)}.txt`,
    enterpriseName: extra.enterprise_name ?? '西安测试科技有限公司',
    registrantUserId: userIds.get(cookie) ?? null,
    kind: 'file',
    validMs: extra.valid_seconds ? extra.valid_seconds * 1000 : undefined,
  });
  return { asset_dna: r.dna, file_hash: r.file_hash, registered_at: r.registered_at };
}

async function sealAndGenerate() {
  await h.app.ledger.sealNow();
  await h.app.proofs.drain();
}

async function downloadPdf(dna: string, cookie = alice): Promise<Uint8Array> {
  const res = await h.request({ method: 'GET', url: `/verify-api/v1/public/zkp-proof-request?zkp_register_dna=${dna}`, cookie });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toBe('application/pdf');
  return new Uint8Array(res.rawPayload);
}

async function verifyOverApi(hash: string, pdf: Uint8Array) {
  const boundary = '----provena' + Math.random().toString(16).slice(2);
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="hash"\r\n\r\n${hash}\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="proof.pdf"\r\nContent-Type: application/pdf\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return h.app.inject({ method: 'PUT', url: '/verify-api/v1/public/zkp-proof-verify', headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: Buffer.concat([head, Buffer.from(pdf), tail]) });
}

/** A copy of a certificate with its attachment replaced (or removed when bytes is null). */
async function withAttachment(bytes: Uint8Array | null): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.addPage();
  if (bytes) await doc.attach(bytes, PACKAGE_ATTACHMENT_NAME, { mimeType: 'application/gzip' });
  return doc.save();
}

describe('registration and certificates', () => {
  it('has no registration route: neither an anonymous caller nor a signed-in account without a company registers', async () => {
    const anon = await h.request({ method: 'POST', url: '/api/v1/ledger/entries', body: { file_hash: `0x${sha('x')}`, enterprise_name: 'A' } });
    expect(anon.statusCode).toBe(404);
    const signedIn = await h.request({ method: 'POST', url: '/api/v1/ledger/entries', cookie: alice, body: { file_hash: `0x${sha('x')}`, enterprise_name: 'A' } });
    expect(signedIn.statusCode).toBe(404);
  });

  it('registers, seals, generates a certificate and verifies it over the §7 API', async () => {
    const content = 'the original work';
    const reg = await registerFile(content);
    expect(reg.asset_dna).toMatch(/^pv[a-z2-7]{20}$/);
    const before = await h.request({ method: 'GET', url: `/api/v1/ledger/entries/${reg.asset_dna}/proof`, cookie: alice });
    expect(before.json().data).toMatchObject({ proof_status: 1, is_generated: false });
    await sealAndGenerate();
    const after = await h.request({ method: 'GET', url: `/api/v1/ledger/entries/${reg.asset_dna}/proof`, cookie: alice });
    expect(after.json().data).toMatchObject({ proof_status: 5, is_generated: true });

    const pdf = await downloadPdf(reg.asset_dna);
    const ok = await verifyOverApi(`0x${sha(content)}`, pdf);
    expect(ok.statusCode, ok.body).toBe(200);
    const data = ok.json().data;
    expect(data).toMatchObject({ file_hash: reg.file_hash, asset_dna: reg.asset_dna, registered_at: reg.registered_at, enterprise_name: '西安测试科技有限公司' });
    expect(data.block_address.height).toBeGreaterThanOrEqual(1);
    expect(data.expired_at).toBeGreaterThan(Date.now() + 300 * 86400_000);
    expect(data.checks.every((c: { ok: boolean }) => c.ok)).toBe(true);

    // Offline with pdf.js reading the attachment: every check passes, but with nothing pinned
    // trust fails closed (untrusted, never valid).
    const offline = await verifyCertificate(pdf, extractPackageNode, { fileSha256: sha(content), now: Date.now() });
    expect(offline).toMatchObject({ isValid: false, isUntrusted: true, message: 'proof_signer_untrusted' });
    expect(offline.checks.filter((c) => !c.isOk).map((c) => c.id)).toEqual(['platform_certificate']);

    // Pinning only the published X.509 root is enough: it certifies the signing key. A
    // verifier pinning another root (and no key id) refuses the same proof.
    const roots = (await h.request({ method: 'GET', url: '/api/v1/ledger/platform-roots' })).json().data as { fingerprint: string }[];
    expect(roots).toHaveLength(1);
    const byRoot = await verifyCertificate(pdf, extractPackageNode, { fileSha256: sha(content), now: Date.now(), trustedRootFingerprints: [roots[0]!.fingerprint] });
    expect(byRoot.isValid).toBe(true);
    const chainCheck = byRoot.checks.find((c) => c.id === 'platform_certificate');
    expect(chainCheck?.isOk).toBe(true);
    expect(chainCheck?.isSkipped).toBeFalsy();
    expect(byRoot.checks.find((c) => c.id === 'platform_key')?.detail).toContain('certified by a trusted root');
    const otherRoot = await verifyCertificate(pdf, extractPackageNode, { fileSha256: sha(content), now: Date.now(), trustedRootFingerprints: ['ab'.repeat(32)] });
    expect(otherRoot).toMatchObject({ isValid: false, isUntrusted: true, failedCheck: 'platform_certificate', message: 'proof_signer_untrusted' });
    const keys = (await h.request({ method: 'GET', url: '/api/v1/ledger/platform-keys' })).json().data as { root_fingerprint: string; certificate: string }[];
    expect(keys[0]).toMatchObject({ root_fingerprint: roots[0]!.fingerprint, certificate: expect.any(String) });
  });

  it('answers each broken case with its §8 key', async () => {
    const content = 'second work';
    const reg = await registerFile(content);
    await sealAndGenerate();
    const pdf = await downloadPdf(reg.asset_dna);
    const pkgBytes = (await extractPackageNode(pdf)) as Uint8Array;
    const pkg = await decodePackage(pkgBytes);

    const changed = await verifyOverApi(sha('second work, edited'), pdf);
    expect(changed.json()).toMatchObject({ message: 'hash_mismatch', failed_check: 'file_hash' });

    const removed = await verifyOverApi(sha(content), await withAttachment(null));
    expect(removed.json()).toMatchObject({ message: 'no_proof_package' });

    const notPdf = await verifyOverApi(sha(content), new TextEncoder().encode('%PDF-1.7 this is not really a pdf'));
    expect(notPdf.json()).toMatchObject({ message: 'parse_pdf_failed', failed_check: 'pdf' });

    const corrupt = pkgBytes.slice();
    corrupt[0] = 0x50;
    expect((await verifyOverApi(sha(content), await withAttachment(corrupt))).json()).toMatchObject({ message: 'gzip_invalid_header' });
    const truncated = pkgBytes.slice(0, pkgBytes.length - 40);
    expect((await verifyOverApi(sha(content), await withAttachment(truncated))).json()).toMatchObject({ message: 'gzip_invalid_header' });

    const forgedRoot = await encodePackage({ ...pkg, block: { ...pkg.block, header: { ...pkg.block.header, root: 'ab'.repeat(32) } } });
    expect((await verifyOverApi(sha(content), await withAttachment(forgedRoot))).json()).toMatchObject({ message: 'file_hashes_inconsistent' });
    const forgedExpiry = await encodePackage({ ...pkg, statement: { ...pkg.statement, expires_at: pkg.statement.expires_at + 1 } });
    expect((await verifyOverApi(sha(content), await withAttachment(forgedExpiry))).json()).toMatchObject({ message: 'file_hashes_inconsistent', failed_check: 'statement_signature' });
    const forgedFile = await encodePackage({ ...pkg, file_hash: `0x${sha('another')}` });
    expect((await verifyOverApi(sha('another'), await withAttachment(forgedFile))).json()).toMatchObject({ message: 'file_hashes_inconsistent', failed_check: 'commitment' });

    const notJson = await gzip(new TextEncoder().encode('{"format":"something else"}'));
    expect((await verifyOverApi(sha(content), await withAttachment(notJson))).json()).toMatchObject({ message: 'gzip_invalid_header' });

    // A package of another registration does not match this original.
    const other = await registerFile('third work');
    await sealAndGenerate();
    expect((await verifyOverApi(sha(content), await downloadPdf(other.asset_dna))).json()).toMatchObject({ message: 'hash_mismatch' });
  });

  it('expires, and a regenerated certificate carries a new expiry (status 6)', async () => {
    const content = 'short-lived';
    const reg = await registerFile(content, alice, { valid_seconds: 1 });
    await sealAndGenerate();
    const pdf = await downloadPdf(reg.asset_dna);
    await new Promise((r) => setTimeout(r, 1100));
    expect((await verifyOverApi(sha(content), pdf)).json()).toMatchObject({ message: 'expiration_time_verification_failed', failed_check: 'expiry' });

    const regen = await h.request({ method: 'POST', url: `/api/v1/ledger/entries/${reg.asset_dna}/proof`, cookie: alice, body: {} });
    expect(regen.statusCode, regen.body).toBe(200);
    await h.app.proofs.drain();
    const status = await h.request({ method: 'GET', url: `/api/v1/ledger/entries/${reg.asset_dna}/proof`, cookie: alice });
    expect(status.json().data).toMatchObject({ proof_status: 6, is_generated: true });
    const fresh = await verifyOverApi(sha(content), await downloadPdf(reg.asset_dna));
    expect(fresh.statusCode, fresh.body).toBe(200);
    expect(fresh.json().data.expired_at).toBeGreaterThan(Date.now() + 300 * 86400_000);
  });

  it('commits the caller\'s work with the entry, or neither', async () => {
    const count = async () => Number((await h.app.db.selectFrom('ledger_entries').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const before = await count();
    const input = { fileHash: `0x${sha('atomic')}.bin`, enterpriseName: '西安测试科技有限公司', registrantUserId: null, kind: 'asset' };
    await expect(
      h.app.registerEntry(input, async (trx, registration) => {
        // The entry is visible inside the transaction…
        const row = await trx.selectFrom('ledger_entries').select('dna').where('dna', '=', registration.dna).executeTakeFirst();
        expect(row?.dna).toBe(registration.dna);
        throw new Error('caller refused');
      }),
    ).rejects.toThrow('caller refused');
    // …and gone with the caller's failure: no entry, no certificate job.
    expect(await count()).toBe(before);
    let seen = '';
    const ok = await h.app.registerEntry(input, async (_trx, registration) => {
      seen = registration.dna;
    });
    expect(seen).toBe(ok.dna);
    expect(await count()).toBe(before + 1);
  });

  it('prints an enterprise name with characters beyond GB2312 from the fallback font', async () => {
    // 堃 (GBK, not GB2312) and 䶮 (CJK Extension A): blank boxes with the GB2312 font alone.
    const name = '刘䶮堃科技有限公司';
    const { asset_dna } = await registerFile('rare characters', alice, { enterprise_name: name });
    await sealAndGenerate();
    const pdf = await downloadPdf(asset_dna);
    const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const task = getDocument({ data: pdf, useSystemFonts: false, disableFontFace: true, verbosity: 0 });
    const doc = await task.promise;
    const page = await doc.getPage(1);
    const content = await page.getTextContent();
    const text = content.items.map((i) => ('str' in i ? i.str : '')).join('');
    const fonts = new Set(content.items.map((i) => ('fontName' in i ? i.fontName : '')));
    await task.destroy();
    expect(text).toContain('刘');
    expect(text).toContain('䶮堃');
    // Helvetica, the GB2312 font and the fallback: three fonts drew this page's text.
    expect(fonts.size).toBeGreaterThanOrEqual(3);
  });

  it('gives certificates only to their registrant', async () => {
    const reg = await registerFile('private work');
    await sealAndGenerate();
    for (const cookie of [bob, undefined]) {
      const res = await h.request({ method: 'GET', url: `/verify-api/v1/public/zkp-proof-request?zkp_register_dna=${reg.asset_dna}`, cookie });
      expect(res.json()).toMatchObject({ message: 'proof_record_not_found' });
    }
    const unknown = await h.request({ method: 'GET', url: '/verify-api/v1/public/zkp-proof-request?zkp_register_dna=pvaaaaaaaaaaaaaaaaaaaa', cookie: alice });
    expect(unknown.json()).toMatchObject({ message: 'proof_record_not_found' });
    expect((await h.request({ method: 'GET', url: `/api/v1/ledger/entries/${reg.asset_dna}/proof`, cookie: bob })).json()).toMatchObject({ message: 'proof_record_not_found' });
  });
});

describe('explorer and proofs between blocks', () => {
  it('lists blocks, shows entries without file hashes, and serves inclusion and consistency proofs that verify', async () => {
    const a = await registerFile('explorer one');
    await h.app.ledger.sealNow();
    await registerFile('explorer two');
    await registerFile('explorer three');
    await h.app.ledger.sealNow();

    const list = (await h.request({ method: 'GET', url: '/api/v1/explorer/blocks?limit=5' })).json().data;
    expect(list.blocks.length).toBeGreaterThanOrEqual(2);
    const [latest, previous] = list.blocks;
    expect(latest.prev_hash).toBe(previous.hash);
    expect(latest.height).toBe(previous.height + 1);
    expect((await h.request({ method: 'GET', url: `/api/v1/explorer/blocks/${latest.hash}` })).json().data.height).toBe(latest.height);
    expect((await h.request({ method: 'GET', url: '/api/v1/explorer/blocks/latest' })).json().data.hash).toBe(latest.hash);
    expect((await h.request({ method: 'GET', url: '/api/v1/explorer/blocks/999999' })).statusCode).toBe(400);

    const entries = (await h.request({ method: 'GET', url: `/api/v1/explorer/blocks/${latest.height}/entries` })).json().data;
    expect(entries).toHaveLength(2);
    expect(JSON.stringify(entries)).not.toContain(sha('explorer two'));

    const entry = (await h.request({ method: 'GET', url: `/api/v1/explorer/entries/${a.asset_dna}` })).json().data;
    expect(verifyInclusion(fromHex(entry.leaf_hash), entry.leaf_index, entry.inclusion.tree_size, entry.inclusion.path.map(fromHex), fromHex(entry.block.root))).toBe(true);

    const later = (await h.request({ method: 'GET', url: `/api/v1/ledger/entries/${a.asset_dna}/inclusion?tree_size=${latest.tree_size}` })).json().data;
    expect(later.root).toBe(latest.root);
    expect(verifyInclusion(fromHex(later.leaf_hash), later.leaf_index, later.tree_size, later.path.map(fromHex), fromHex(later.root))).toBe(true);

    const c = (await h.request({ method: 'GET', url: `/api/v1/ledger/consistency?first=1&second=${latest.height}` })).json().data;
    expect(verifyConsistency(c.first.tree_size, c.second.tree_size, fromHex(c.first.root), fromHex(c.second.root), c.proof.map(fromHex))).toBe(true);

    const keys = (await h.request({ method: 'GET', url: '/api/v1/ledger/platform-keys' })).json().data;
    expect(keys[0].key_id).toBe(latest.key_id);

    // The whole answers, field by field (the response schemas must keep every one).
    const block = { height: 'number', hash: 'string', prev_hash: 'string', tree_size: 'number', root: 'string', sealed_at: 'number', key_id: 'string', header: 'string', signature: 'string', entry_count: 'number', anchor: 'null' };
    expect(shapeOf(list)).toEqual({ blocks: [block], latest_height: 'number', tree_size: 'number' });
    expect(shapeOf((await h.request({ method: 'GET', url: '/api/v1/explorer/blocks/latest' })).json())).toEqual({ data: block });
    const entryShape = { asset_dna: 'string', kind: 'string', enterprise_name: 'string', registered_at: 'number', leaf_index: 'number', leaf_hash: 'string', record: 'string' };
    expect(shapeOf(entries)).toEqual([entryShape]);
    expect(shapeOf(entry)).toEqual({ ...entryShape, block, inclusion: { tree_size: 'number', root: 'string', path: ['string'] } });
    expect(shapeOf(later)).toEqual({ asset_dna: 'string', leaf_index: 'number', leaf_hash: 'string', tree_size: 'number', root: 'string', path: ['string'] });
    const head = { height: 'number', tree_size: 'number', root: 'string' };
    expect(shapeOf(c)).toEqual({ first: head, second: head, proof: expect.any(Array) });
    const keyShape = { key_id: 'string', purpose: 'string', algorithm: 'string', spki: 'string', created_at: 'number', retired_at: 'null', certificate: 'string', root_fingerprint: 'string' };
    expect(shapeOf(keys[0])).toEqual(keyShape);
    expect(shapeOf((await h.request({ method: 'GET', url: '/api/v1/ledger/platform-roots' })).json().data)).toEqual([{ fingerprint: 'string', certificate: 'string', created_at: 'number' }]);
    // An entry not yet in a block: no block, no inclusion, no leaf index.
    const pending = await registerFile('explorer pending');
    expect(shapeOf((await h.request({ method: 'GET', url: `/api/v1/explorer/entries/${pending.asset_dna}` })).json().data)).toEqual({ ...entryShape, leaf_index: 'null', block: 'null', inclusion: 'null' });
  });

  it("lists the caller's own entries with their proofs' states, whole", async () => {
    const reg = await registerFile('own entry list');
    const mine = (await h.request({ method: 'GET', url: '/api/v1/ledger/entries?page_size=100', cookie: alice })).json().data as { asset_dna: string }[];
    const row = mine.find((e) => e.asset_dna === reg.asset_dna);
    expect(shapeOf(row)).toEqual({ asset_dna: 'string', file_hash: 'string', kind: 'string', enterprise_name: 'string', registered_at: 'number', block_height: 'null', proof_status: 'number', expired_at: 'null' });
    const proof = (await h.request({ method: 'GET', url: `/api/v1/ledger/entries/${reg.asset_dna}/proof`, cookie: alice })).json().data;
    expect(shapeOf(proof)).toEqual({ asset_dna: 'string', proof_status: 'number', is_generated: 'boolean', issued_at: 'null', expired_at: 'null', block_height: 'null' });
    await sealAndGenerate();
    const sealed = ((await h.request({ method: 'GET', url: '/api/v1/ledger/entries?page_size=100', cookie: alice })).json().data as { asset_dna: string }[]).find((e) => e.asset_dna === reg.asset_dna);
    expect(sealed).toMatchObject({ asset_dna: reg.asset_dna, file_hash: reg.file_hash, block_height: expect.any(Number), proof_status: 5, expired_at: expect.any(Number) });
    const regen = await h.request({ method: 'POST', url: `/api/v1/ledger/entries/${reg.asset_dna}/proof`, cookie: alice, body: {} });
    expect(regen.json()).toEqual({ data: { asset_dna: reg.asset_dna, proof_status: 2 } });
  });

  it('a second ledger on the same database resumes the same chain, and refuses a tampered one', async () => {
    const noop = { info() {}, warn() {}, error() {} };
    const again = new Ledger(h.app.db, h.app.ledger.config, noop);
    await again.start({ isSealingTimerOn: false });
    expect(again.headBlock?.hash).toBe(h.app.ledger.headBlock?.hash);
    expect(toHex(fromHex(again.rootAt(again.treeSize)))).toBe(h.app.ledger.headBlock?.root);

    // Two sealers racing: both see the same head, only one block gets each height.
    await registerFile('race one');
    await registerFile('race two');
    const [x, y] = await Promise.all([again.sealNow(), h.app.ledger.sealNow()]);
    const heights = [x, y].filter(Boolean).map((b) => b!.height);
    expect(new Set(heights).size).toBe(heights.length);
    const count = await h.app.db.selectFrom('ledger_entries').select((eb) => eb.fn.countAll<number>().as('n')).where('leaf_index', 'is', null).executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
    await again.stop();

    const victim = await h.app.db.selectFrom('ledger_entries').select(['id', 'leaf_hash']).where('leaf_index', '=', 0).executeTakeFirstOrThrow();
    const flipped = (victim.leaf_hash[0] === '0' ? '1' : '0') + victim.leaf_hash.slice(1);
    await h.app.db.updateTable('ledger_entries').set({ leaf_hash: flipped }).where('id', '=', victim.id).execute();
    const third = new Ledger(h.app.db, h.app.ledger.config, noop);
    await expect(third.start({ isSealingTimerOn: false })).rejects.toThrow(/root/);
    await h.app.db.updateTable('ledger_entries').set({ leaf_hash: victim.leaf_hash }).where('id', '=', victim.id).execute();
  });
});

describe('ledger:verify', () => {
  it('passes on the chain built above and names the first tampered byte', async () => {
    const { auditLedger } = await import('../../server/ledger/audit.ts');
    const good = await auditLedger(h.app.db);
    expect(good).toMatchObject({ isOk: true });
    const victim = await h.app.db.selectFrom('ledger_entries').select(['id', 'record', 'block_height']).where('leaf_index', '=', 1).executeTakeFirstOrThrow();
    const tampered = victim.record.replace('"kind":"file"', '"kind":"filf"');
    await h.app.db.updateTable('ledger_entries').set({ record: tampered }).where('id', '=', victim.id).execute();
    const bad = await auditLedger(h.app.db);
    expect(bad.isOk).toBe(false);
    expect(bad).toMatchObject({ problem: expect.stringContaining(`block ${victim.block_height}`) });
    await h.app.db.updateTable('ledger_entries').set({ record: victim.record }).where('id', '=', victim.id).execute();

    const block = await h.app.db.selectFrom('ledger_blocks').select(['height', 'signature']).where('height', '=', 1).executeTakeFirstOrThrow();
    const sig = block.signature;
    await h.app.db.updateTable('ledger_blocks').set({ signature: sig.slice(0, 20) + (sig[20] === 'A' ? 'B' : 'A') + sig.slice(21) }).where('height', '=', 1).execute();
    expect(await auditLedger(h.app.db)).toMatchObject({ isOk: false, problem: expect.stringMatching(/block 1: signature/) });
    await h.app.db.updateTable('ledger_blocks').set({ signature: sig }).where('height', '=', 1).execute();
    expect(await auditLedger(h.app.db)).toMatchObject({ isOk: true });
  });
});

describe('search/dip-data and configuration', () => {
  it('finds an entry by DNA for anyone and by file hash only for its registrant', async () => {
    const reg = await registerFile('searchable work');
    const byDna = await h.request({ method: 'GET', url: `/api/v1/search/dip-data?keyword=${reg.asset_dna}` });
    expect(byDna.json().data).toEqual({ entity_type: 1, dip_id: reg.asset_dna, project_id: null });
    const byHash = await h.request({ method: 'GET', url: `/api/v1/search/dip-data?keyword=0x${sha('searchable work')}`, cookie: alice });
    expect(byHash.json().data).toMatchObject({ entity_type: 1, dip_id: reg.asset_dna });
    for (const cookie of [bob, undefined]) {
      const hidden = await h.request({ method: 'GET', url: `/api/v1/search/dip-data?keyword=0x${sha('searchable work')}`, cookie });
      expect(hidden.json().data).toMatchObject({ entity_type: 0 });
    }
  });

  it('validates the ledger environment with a clear message', async () => {
    const { readLedgerConfig } = await import('../../server/ledger/config.ts');
    expect(readLedgerConfig({}).blockIntervalMs).toBe(3000);
    expect(() => readLedgerConfig({ LEDGER_BLOCK_INTERVAL_MS: 'soon', PUBLIC_URL: 'ftp://x' })).toThrow(/LEDGER_BLOCK_INTERVAL_MS must be an integer[\s\S]*PUBLIC_URL/);
  });
});
