import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { fail, rethrowMultipart } from '../../errors.ts';
import { DNA_PATTERN } from '../../../core/ledger/record.ts';
import { jsonRpc } from '../../../core/ledger/anchor-check.ts';
import { normalizeDigest, verifyCertificate, withCheck, type Check, type Verdict } from '../../../core/ledger/package.ts';
import { extractPackageNode } from '../../proofs/extract.ts';
import { readProofPdf } from '../../services/proof-pdf.ts';
import { contentDisposition } from '../../content-disposition.ts';

const MAX_PDF_BYTES = 20 * 1024 * 1024;

/**
 * The §7 verification API. `zkp-` is the historical name of these paths: the scheme is a
 * salted commitment in a signed Merkle log (docs/proof-format.md), not a zero-knowledge proof.
 */
export default async function verifyRoutes(app: FastifyInstance) {
  await app.register(multipart, { limits: { fileSize: MAX_PDF_BYTES, files: 1, fields: 4, fieldSize: 256 } });

  /**
   * The certificate PDF of an entry. It reveals the file hash, so only the registrant's
   * session gets it; anyone else (and an unknown DNA) gets proof_record_not_found.
   */
  app.get<{ Querystring: { zkp_register_dna: string } }>(
    '/verify-api/v1/public/zkp-proof-request',
    { schema: { querystring: { type: 'object', properties: { zkp_register_dna: { type: 'string', maxLength: 64 } }, required: ['zkp_register_dna'] } } },
    async (request, reply) => {
      const dna = request.query.zkp_register_dna;
      if (!DNA_PATTERN.test(dna)) fail('proof_record_not_found', 'zkp_register_dna');
      const entry = await app.db.selectFrom('ledger_entries').select(['dna', 'registrant_user_id']).where('dna', '=', dna).executeTakeFirst();
      if (!entry || !request.session || entry.registrant_user_id !== request.session.user_id) fail('proof_record_not_found', 'zkp_register_dna');
      const pdf = await readProofPdf(app.db, app.fileStore.driver, dna);
      if (!pdf) fail('proof_record_not_found', 'zkp_register_dna');
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', contentDisposition(`provena-proof-${dna}.pdf`))
        .header('cache-control', 'private, no-store')
        .send(pdf);
    },
  );

  /**
   * A proof this platform vouches for is in its own ledger: the block at the proof's height
   * has the proof's block hash and holds the entry. A signature alone is not enough (a
   * stolen or misused key could sign a block this ledger never sealed).
   */
  async function ledgerCheck(summary: NonNullable<Verdict['summary']>): Promise<Check> {
    const { height, hash } = summary.block_address;
    const dna = summary.asset_dna;
    const fail = (detail: string): Check => ({ id: 'platform_ledger', isOk: false, message: 'proof_not_in_ledger', detail });
    if (!Number.isSafeInteger(height) || height < 0) return fail(`block height ${height} is not a height`);
    const block = await app.db.selectFrom('ledger_blocks').select('hash').where('height', '=', height).executeTakeFirst();
    if (!block) return fail(`this platform has no block ${height}`);
    if (block.hash !== hash) return fail(`this platform's block ${height} is ${block.hash}, the proof names ${hash}`);
    const entry = DNA_PATTERN.test(dna) ? await app.db.selectFrom('ledger_entries').select('block_height').where('dna', '=', dna).executeTakeFirst() : undefined;
    if (!entry || entry.block_height === null || Number(entry.block_height) !== height) return fail(`block ${height} of this platform's ledger has no entry ${dna}`);
    return { id: 'platform_ledger', isOk: true, detail: `entry ${dna} is in block ${height} of this platform's ledger` };
  }

  const onVerify = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!request.isMultipart()) fail('no_proof_package', 'file');
    let hash: string | undefined;
    let pdf: Uint8Array | undefined;
    try {
      for await (const part of request.parts()) {
        if (part.type === 'file') {
          if (part.fieldname !== 'file') {
            part.file.resume();
            continue;
          }
          pdf = new Uint8Array(await part.toBuffer());
        } else if (part.fieldname === 'hash') {
          hash = String(part.value);
        }
      }
    } catch (error) {
      rethrowMultipart(error, 'file');
    }
    if (!hash || !normalizeDigest(hash)) fail('verify_file_not_found', 'hash');
    if (!pdf || pdf.length === 0) fail('no_proof_package', 'file');
    // With anchoring configured, the platform's own chain node checks the anchor; an
    // unreachable node does not fail a verification (the check says it was skipped).
    const rpcUrl = app.ledger.config.anchor?.rpcUrl;
    const anchorOptions = rpcUrl ? { anchorRpc: jsonRpc(rpcUrl, 5000), isAnchorRequired: false } : {};
    const keys = await app.db.selectFrom('ledger_keys').select('key_id').execute();
    const roots = await app.db.selectFrom('platform_roots').select('fingerprint').execute();
    // This platform pins only its own keys and roots: another platform's proof is untrusted, never valid.
    const signed = await verifyCertificate(pdf, extractPackageNode, { fileSha256: hash, now: Date.now(), trustedKeyIds: keys.map((k) => k.key_id), trustedRootFingerprints: roots.map((r) => r.fingerprint), ...anchorOptions });
    // What this platform signed must also be in its ledger (asked only then: another platform's proof is answered as untrusted).
    const verdict = signed.isValid && signed.summary ? withCheck(signed, await ledgerCheck(signed.summary)) : signed;
    const checks = verdict.checks.map((c) => ({ id: c.id, ok: c.isOk, skipped: c.isSkipped ?? false, message: c.message ?? null, detail: c.detail }));
    if (!verdict.isValid) {
      return reply.code(400).send({ message: verdict.message, field_name: verdict.failedCheck === 'file_hash' ? 'hash' : 'file', failed_check: verdict.failedCheck, checks });
    }
    const s = verdict.summary!;
    return { data: { file_hash: s.file_hash, asset_dna: s.asset_dna, registered_at: s.registered_at, block_address: s.block_address, enterprise_name: s.enterprise_name, expired_at: s.expired_at, issued_at: s.issued_at, explorer_url: s.explorer_url, checks } };
  };
  app.put('/verify-api/v1/public/zkp-proof-verify', onVerify);
  app.put('/verify-api/v1/public/verify-proof', onVerify);
}
