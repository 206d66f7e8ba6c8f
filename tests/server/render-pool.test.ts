import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodePackage } from '../../core/ledger/package.ts';
import { fromBase64 } from '../../core/ledger/bytes.ts';
import { DEFAULT_FALLBACK_FONT_FILE, DEFAULT_FONT_FILE } from '../../server/ledger/config.ts';
import { extractPackageNode } from '../../server/proofs/extract.ts';
import { renderPreparedCertificate, type PageInput } from '../../server/proofs/pdf.ts';
import { RenderPool, renderWorkersFromEnv } from '../../server/proofs/render-pool.ts';

// A real package (the v1 vector's): the page is laid out from it as for any certificate.
const vector = new Uint8Array(fs.readFileSync(path.resolve('tests/fixtures/proof-v1-unsigned/proof.pdf')));
const pkg = await decodePackage((await extractPackageNode(vector.slice()))!);
const page: PageInput = { pkg, verifyUrl: 'https://provena.example/verify-file?dna=x', fontFile: DEFAULT_FONT_FILE, fallbackFontFile: DEFAULT_FALLBACK_FONT_FILE, locale: 'en', asset: null };
const chain = (pkg.platform_certificates ?? []).map(fromBase64);
const pool = new RenderPool(2);
afterAll(() => pool.close());

describe('certificate render workers', () => {
  it('render the same bytes as this thread, unsigned and prepared for signing, several at once', async () => {
    const [unsigned, prepared, again] = await Promise.all([pool.render(page, null), pool.render(page, chain), pool.render({ ...page, locale: 'ja' }, chain)]);
    expect(Buffer.from(unsigned).equals(Buffer.from(await renderPreparedCertificate(page, null)))).toBe(true);
    expect(Buffer.from(prepared).equals(Buffer.from(await renderPreparedCertificate(page, chain)))).toBe(true);
    expect(Buffer.from(again).equals(Buffer.from(await renderPreparedCertificate({ ...page, locale: 'ja' }, chain)))).toBe(true);
    // Prepared: the empty signature field and its byte range placeholder are in the page, no key was needed.
    expect(Buffer.from(prepared).toString('latin1')).toMatch(/\/ByteRange \[/);
    expect(await extractPackageNode(prepared.slice())).not.toBeNull();
  });

  it('fail a page with the worker error, and keep rendering the next one', async () => {
    await expect(pool.render({ ...page, fontFile: '/nonexistent/font.ttf' }, null)).rejects.toThrow(/certificate font \/nonexistent\/font.ttf is missing/);
    expect((await pool.render(page, null)).length).toBeGreaterThan(10_000);
  });

  it('refuse pages once closed; size 0 renders in this thread', async () => {
    const closing = new RenderPool(1);
    await closing.render(page, null);
    await closing.close();
    await expect(closing.render(page, null)).rejects.toThrow(/closed/);
    expect((await new RenderPool(0).render(page, null)).length).toBeGreaterThan(10_000);
  });

  it('take their number from PROOF_RENDER_WORKERS, refusing nonsense', () => {
    expect(renderWorkersFromEnv({ PROOF_RENDER_WORKERS: '0' })).toBe(0);
    expect(renderWorkersFromEnv({ PROOF_RENDER_WORKERS: '3' })).toBe(3);
    expect(renderWorkersFromEnv({})).toBeGreaterThanOrEqual(1);
    expect(() => renderWorkersFromEnv({ PROOF_RENDER_WORKERS: 'many' })).toThrow(/PROOF_RENDER_WORKERS/);
  });
});
