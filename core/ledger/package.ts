/**
 * The proof package (format "provena-proof", version 1): everything needed to check a
 * registration offline, gzip'd JSON embedded in the PDF certificate. docs/proof-format.md
 * describes every field; this module encodes, decodes and verifies it.
 *
 * The scheme is a salted hash commitment in a signed, append-only Merkle log. It is not
 * a zero-knowledge proof, whatever the §7 paths (`zkp-proof-…`) are called.
 */
import type { ErrorKey } from '../errors.ts';
import { checkPageSignature, type PageSignature } from './page-signature.ts';
import { verifyPlatformChain, type ChainVerdict } from './platform-cert.ts';
import { AnchorUnreachableError, checkCheckpointAnchor, type Anchor, type RpcCall } from './anchor-check.ts';
import { checkpointHash, verifyCheckpoint } from './checkpoint.ts';
import { equalBytes, fromBase64, fromHex, toHex, utf8 } from './bytes.ts';
import { blockHash, encodeHeader, importPublicKey, isBlockHeader, keyId, verifyText, type BlockHeader } from './block.ts';
import { leafHash, rootFromInclusionProof, verifyConsistency } from './merkle.ts';
import { assetDna, DNA_PATTERN, fileCommitment, parseRecord, type LedgerRecord } from './record.ts';

export const PACKAGE_FORMAT = 'provena-proof';
export const PACKAGE_VERSION = 1;
/** The PDF attachment's file name. */
export const PACKAGE_ATTACHMENT_NAME = 'provena-proof.json.gz';

/** What the platform signs when it issues (or re-issues) a certificate: binds the expiry. */
export type ProofStatement = {
  v: 1;
  asset_dna: string;
  leaf_hash: string;
  block_height: number;
  block_hash: string;
  issued_at: number;
  expires_at: number;
  /**
   * The platform's anchoring account (0x + 40 lowercase hex), present when the platform
   * anchors checkpoints: a verifier asking the chain accepts only anchors sent from it.
   * Absent from statements signed before checkpoint anchoring (their encoding is unchanged).
   */
  anchor_address?: string;
  /**
   * "pades": the certificate carrying this statement is a signed PDF, so a copy without a
   * page signature was stripped. Absent from statements signed before pages were signed: such
   * a certificate may be unsigned, and then only its package is proven (the page check is skipped).
   */
  page?: 'pades';
};

export function encodeStatement(s: ProofStatement): string {
  const base = { v: s.v, type: 'provena-proof-statement', asset_dna: s.asset_dna, leaf_hash: s.leaf_hash, block_height: s.block_height, block_hash: s.block_hash, issued_at: s.issued_at, expires_at: s.expires_at };
  return JSON.stringify({ ...base, ...(s.anchor_address === undefined ? {} : { anchor_address: s.anchor_address }), ...(s.page === undefined ? {} : { page: s.page }) });
}

export type { Anchor };

export type ProofPackage = {
  format: typeof PACKAGE_FORMAT;
  version: typeof PACKAGE_VERSION;
  asset_dna: string;
  /** §3 file identity of the original: 0x + SHA-256 hex + lowercase extension. */
  file_hash: string;
  /** Hex, 32 bytes: opens the record's commitment. */
  salt: string;
  /** The leaf input, exactly as hashed. */
  record: string;
  leaf_index: number;
  block: { header: BlockHeader; hash: string; signature: string };
  /** RFC 6962 audit path from the leaf to block.header.root (tree size block.header.tree_size). */
  inclusion: string[];
  platform_key: { key_id: string; algorithm: 'ECDSA-P256-SHA256'; spki: string };
  /**
   * Base64 DER X.509 certificates [signing certificate, platform root]: the root certifies
   * platform_key (see platform-cert.ts). Absent from packages issued before chains existed.
   */
  platform_certificates?: string[];
  statement: ProofStatement & { signature: string };
  /**
   * The log checkpoint the certificate was issued under (C2SP signed note, signed by
   * platform_key) and the RFC 6962 consistency proof from the block's tree to it. With
   * anchoring on, the anchor carries this checkpoint's hash. Absent from older packages.
   */
  checkpoint?: { note: string; consistency: string[] };
  anchor: Anchor | null;
  /** Where the entry can be seen online (informative, not verified). */
  explorer_url: string;
};

// ---- gzip (CompressionStream: browsers, workers and Node 18+) --------------------------

async function pipe(bytes: Uint8Array, stream: CompressionStream | DecompressionStream): Promise<Uint8Array> {
  const out = new Response(new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(stream));
  return new Uint8Array(await out.arrayBuffer());
}

export async function gzip(bytes: Uint8Array): Promise<Uint8Array> {
  return pipe(bytes, new CompressionStream('gzip'));
}

export async function gunzip(bytes: Uint8Array): Promise<Uint8Array> {
  return pipe(bytes, new DecompressionStream('gzip'));
}

export async function encodePackage(pkg: ProofPackage): Promise<Uint8Array> {
  return gzip(utf8.encode(JSON.stringify(pkg)));
}

export class PackageFormatError extends Error {}

const HEX64 = /^[0-9a-f]{64}$/;
const IDENTITY = /^0x([0-9a-f]{64})((?:\.[a-z0-9]{1,16})?)$/;

/** Gunzips and validates the shape; throws PackageFormatError (→ gzip_invalid_header). */
export async function decodePackage(bytes: Uint8Array): Promise<ProofPackage> {
  if (bytes.length < 18 || bytes[0] !== 0x1f || bytes[1] !== 0x8b || bytes[2] !== 8) throw new PackageFormatError('not a gzip stream');
  let text: string;
  try {
    text = utf8.decode(await gunzip(bytes));
  } catch {
    throw new PackageFormatError('gzip stream is damaged');
  }
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw new PackageFormatError('package is not JSON');
  }
  const p = v as ProofPackage;
  const isOk =
    typeof v === 'object' && v !== null &&
    p.format === PACKAGE_FORMAT && p.version === PACKAGE_VERSION &&
    typeof p.asset_dna === 'string' && typeof p.file_hash === 'string' && IDENTITY.test(p.file_hash) &&
    typeof p.salt === 'string' && HEX64.test(p.salt) && typeof p.record === 'string' &&
    Number.isSafeInteger(p.leaf_index) && p.leaf_index >= 0 &&
    typeof p.block === 'object' && p.block !== null && isBlockHeader(p.block.header) &&
    typeof p.block.hash === 'string' && typeof p.block.signature === 'string' &&
    Array.isArray(p.inclusion) && p.inclusion.length <= 64 && p.inclusion.every((x) => typeof x === 'string' && HEX64.test(x)) &&
    typeof p.platform_key === 'object' && p.platform_key !== null && typeof p.platform_key.spki === 'string' && typeof p.platform_key.key_id === 'string' &&
    (p.platform_certificates === undefined || (Array.isArray(p.platform_certificates) && p.platform_certificates.length <= 4 && p.platform_certificates.every((c) => typeof c === 'string'))) &&
    typeof p.statement === 'object' && p.statement !== null && p.statement.v === 1 &&
    Number.isSafeInteger(p.statement.issued_at) && Number.isSafeInteger(p.statement.expires_at) &&
    typeof p.statement.signature === 'string' &&
    (p.statement.anchor_address === undefined || (typeof p.statement.anchor_address === 'string' && /^0x[0-9a-f]{40}$/.test(p.statement.anchor_address))) &&
    (p.statement.page === undefined || p.statement.page === 'pades') &&
    (p.checkpoint === undefined ||
      (typeof p.checkpoint === 'object' && p.checkpoint !== null && typeof p.checkpoint.note === 'string' && p.checkpoint.note.length <= 4096 &&
        Array.isArray(p.checkpoint.consistency) && p.checkpoint.consistency.length <= 128 && p.checkpoint.consistency.every((x) => typeof x === 'string' && HEX64.test(x)))) &&
    (p.anchor === null || typeof p.anchor === 'object');
  if (!isOk) throw new PackageFormatError(`not a ${PACKAGE_FORMAT} v${PACKAGE_VERSION} package`);
  return p;
}

// ---- verification -------------------------------------------------------------------

export type CheckId =
  | 'pdf'
  | 'package_present'
  | 'package_format'
  | 'platform_key'
  | 'platform_certificate'
  | 'file_hash'
  | 'commitment'
  | 'asset_dna'
  | 'inclusion'
  | 'block_hash'
  | 'block_signature'
  | 'statement_signature'
  | 'checkpoint'
  | 'anchor'
  | 'expiry'
  /** The PDF itself is signed by the platform (PAdES), over the whole file, time-stamped. */
  | 'page_signature'
  /** Added by a platform's verify API: the proof's block and entry are in that platform's own ledger. */
  | 'platform_ledger';

/**
 * One check's outcome. `isUntrusted`: the check failed only because nothing the verifier
 * trusts vouches for the signer (the proof may be intact, but from another platform).
 */
/**
 * `detail` is the check's English line (the CLI's); `facts` are its values, for a reader in
 * any language to word the same line (the browser's verification centre does).
 */
export type Check = { id: CheckId; isOk: boolean; isSkipped?: boolean; isUntrusted?: boolean; message?: ErrorKey; detail: string; facts?: Record<string, string | number> };

export type VerifiedSummary = {
  file_hash: string;
  asset_dna: string;
  registered_at: number;
  block_address: { height: number; hash: string };
  enterprise_name: string;
  expired_at: number;
  issued_at: number;
  explorer_url: string;
  anchor: Anchor | null;
};

/**
 * Trust fails closed: `isValid` only when every check passed AND a pinned key or root
 * vouches for the signer. `isUntrusted` when every check passed except that trust (message
 * proof_signer_untrusted): then `signer` says what to pin. A failed check always wins over
 * an untrusted signer.
 */
export type Verdict = {
  isValid: boolean;
  isUntrusted?: boolean;
  /** The §8 key of the first failed check. */
  message?: ErrorKey;
  failedCheck?: CheckId;
  checks: Check[];
  summary?: VerifiedSummary;
  /** The key that signed the block and the root that certified it (null without a chain). */
  signer?: { key_id: string; root_fingerprint: string | null };
};

export type VerifyOptions = {
  /** SHA-256 of the original, as hex or a §3 identity (0x…ext). */
  fileSha256: string;
  /** Milliseconds; the expiry check compares with this. */
  now: number;
  /**
   * Key ids (hex SHA-256 of SPKI) of platform keys the verifier trusts. A package signed by
   * a key that neither these nor trustedRootFingerprints vouch for is never valid: with
   * nothing pinned at all, every proof is untrusted (the verdict's `isUntrusted`).
   */
  trustedKeyIds?: string[];
  /**
   * SHA-256 fingerprints (hex) of platform roots the verifier trusts: a package whose
   * signing key a trusted root certified is trusted even when its key id is not in
   * trustedKeyIds (keys rotate, the root stays).
   */
  trustedRootFingerprints?: string[];
  /**
   * A node of the anchor's chain. With it the anchor is checked (checkCheckpointAnchor) instead of
   * only reported; when the node cannot be reached the check fails if `isAnchorRequired`,
   * and is skipped (saying so) otherwise.
   */
  anchorRpc?: RpcCall;
  isAnchorRequired?: boolean;
};

export function normalizeDigest(text: string): string | null {
  const m = /^(?:0x)?([0-9a-fA-F]{64})(?:\.[a-z0-9]{1,16})?$/.exec(text.trim());
  return m ? (m[1] as string).toLowerCase() : null;
}

function verdictOf(checks: Check[], summary?: VerifiedSummary, signer?: Verdict['signer']): Verdict {
  const failed = checks.find((c) => !c.isOk && !c.isUntrusted);
  if (failed) return { isValid: false, message: failed.message, failedCheck: failed.id, checks, summary, signer };
  const untrusted = checks.find((c) => !c.isOk);
  if (untrusted) return { isValid: false, isUntrusted: true, message: untrusted.message, failedCheck: untrusted.id, checks, summary, signer };
  return { isValid: true, checks, summary, signer };
}

/** A verdict with one more check (a platform's own ledger, say), judged again as a whole. */
export function withCheck(verdict: Verdict, check: Check): Verdict {
  return verdictOf([...verdict.checks, check], verdict.summary, verdict.signer);
}

const UNTRUSTED: ErrorKey = 'proof_signer_untrusted';

const FAILED: ErrorKey = 'file_hashes_inconsistent';

/** Runs every check on a package's bytes. Never throws for bad input: each problem is a failed check. */
export async function verifyPackage(packageBytes: Uint8Array, opts: VerifyOptions, prior: Check[] = []): Promise<Verdict> {
  const checks: Check[] = [...prior];
  let pkg: ProofPackage;
  try {
    pkg = await decodePackage(packageBytes);
    checks.push({ id: 'package_format', isOk: true, detail: `${PACKAGE_FORMAT} v${PACKAGE_VERSION}` });
  } catch (error) {
    checks.push({ id: 'package_format', isOk: false, message: 'gzip_invalid_header', detail: error instanceof Error ? error.message : String(error) });
    return verdictOf(checks);
  }

  // Platform certificate chain: [signing certificate, root], the signing certificate for
  // exactly platform_key, valid at the block's time, signed by a self-signed CA root. The
  // chain's form is checked here; whether its root is one the verifier trusts, below.
  let chain: ChainVerdict | null = null;
  if (pkg.platform_certificates) {
    try {
      chain = await verifyPlatformChain(pkg.platform_certificates.map(fromBase64), fromBase64(pkg.platform_key.spki), pkg.block.header.sealed_at);
    } catch (error) {
      chain = { isOk: false, detail: error instanceof Error ? error.message : String(error) };
    }
  }
  const rootFingerprint = chain?.isOk ? chain.rootFingerprint : null;
  const signer = { key_id: String(pkg.platform_key.key_id), root_fingerprint: rootFingerprint };
  // Trust fails closed: the signer is trusted only when pinned by key id or by its chain's root.
  const isPinned = Boolean(opts.trustedKeyIds?.includes(pkg.platform_key.key_id));
  const isRootPinned = Boolean(rootFingerprint && opts.trustedRootFingerprints?.includes(rootFingerprint));
  const isTrusted = isPinned || isRootPinned;
  checks.push(
    !chain
      ? { id: 'platform_certificate', isOk: true, isSkipped: true, detail: 'no certificate chain in this package (issued before chains): the key is judged by its id alone' }
      : !chain.isOk
        ? { id: 'platform_certificate', isOk: false, message: FAILED, detail: chain.detail }
        : isTrusted
          ? { id: 'platform_certificate', isOk: true, detail: isRootPinned ? `trusted ${chain.detail}` : `${chain.detail} (the key itself is pinned)`, facts: { root: rootFingerprint ?? '' } }
          : { id: 'platform_certificate', isOk: false, isUntrusted: true, message: UNTRUSTED, detail: `root ${rootFingerprint} is not a trusted platform root: ${chain.detail}`, facts: { root: rootFingerprint ?? '' } },
  );

  // Platform key: parseable and its id matches; without a chain (packages issued before
  // chains) it is also where trust is judged, by the key id alone.
  let publicKey: CryptoKey | null = null;
  try {
    const spki = fromBase64(pkg.platform_key.spki);
    if (keyId(spki) !== pkg.platform_key.key_id) throw new Error('key id does not match the key');
    publicKey = await importPublicKey(spki);
    if (!isTrusted && !chain?.isOk) {
      checks.push({ id: 'platform_key', isOk: false, isUntrusted: true, message: UNTRUSTED, detail: `key ${pkg.platform_key.key_id} is neither a trusted platform key nor certified by a trusted root` });
    } else {
      const detail = isPinned
        ? `trusted platform key ${pkg.platform_key.key_id.slice(0, 16)}…`
        : isRootPinned
          ? `platform key ${pkg.platform_key.key_id.slice(0, 16)}… certified by a trusted root`
          : `platform key ${pkg.platform_key.key_id.slice(0, 16)}… certified by root ${rootFingerprint?.slice(0, 16)}…`;
      checks.push({ id: 'platform_key', isOk: true, detail });
    }
  } catch (error) {
    checks.push({ id: 'platform_key', isOk: false, message: 'parse_pdf_failed', detail: `platform key unreadable: ${error instanceof Error ? error.message : String(error)}` });
  }

  const claimed = normalizeDigest(pkg.file_hash) as string;
  const actual = normalizeDigest(opts.fileSha256);
  checks.push(
    actual === claimed
      ? { id: 'file_hash', isOk: true, detail: `SHA-256 ${claimed}`, facts: { claimed } }
      : { id: 'file_hash', isOk: false, message: 'hash_mismatch', detail: `original is ${actual ?? 'not a SHA-256 digest'}, proof is for ${claimed}`, facts: { claimed, actual: actual ?? '' } },
  );

  const record: LedgerRecord | null = parseRecord(pkg.record);
  const commitment = fileCommitment(fromHex(pkg.salt), fromHex(claimed));
  checks.push(
    record && record.commitment === commitment
      ? { id: 'commitment', isOk: true, detail: 'salted commitment opens to the file hash' }
      : { id: 'commitment', isOk: false, message: FAILED, detail: record ? 'commitment does not open to the file hash' : 'record is not canonical' },
  );

  const dna = assetDna(pkg.record);
  checks.push(
    DNA_PATTERN.test(pkg.asset_dna) && dna === pkg.asset_dna
      ? { id: 'asset_dna', isOk: true, detail: dna, facts: { dna } }
      : { id: 'asset_dna', isOk: false, message: FAILED, detail: `record gives ${dna}, package says ${pkg.asset_dna}` },
  );

  const header = pkg.block.header;
  const leaf = leafHash(utf8.encode(pkg.record));
  const computedRoot = rootFromInclusionProof(leaf, pkg.leaf_index, header.tree_size, pkg.inclusion.map(fromHex));
  checks.push(
    computedRoot && equalBytes(computedRoot, fromHex(header.root))
      ? { id: 'inclusion', isOk: true, detail: `leaf ${pkg.leaf_index} of ${header.tree_size}, ${pkg.inclusion.length} hashes to root ${header.root.slice(0, 16)}…`, facts: { leaf: pkg.leaf_index, size: header.tree_size, hashes: pkg.inclusion.length } }
      : { id: 'inclusion', isOk: false, message: FAILED, detail: 'audit path does not lead to the block root' },
  );

  const hash = blockHash(header);
  checks.push(
    hash === pkg.block.hash
      ? { id: 'block_hash', isOk: true, detail: `block ${header.height} ${hash}`, facts: { height: header.height, hash } }
      : { id: 'block_hash', isOk: false, message: FAILED, detail: `header hashes to ${hash}, package says ${pkg.block.hash}` },
  );

  const isKeyOfBlock = header.key_id === pkg.platform_key.key_id;
  const isBlockSigned = publicKey !== null && isKeyOfBlock && (await verifyText(publicKey, encodeHeader(header), pkg.block.signature));
  checks.push(
    isBlockSigned
      ? { id: 'block_signature', isOk: true, detail: 'ECDSA P-256 signature by the platform key' }
      : { id: 'block_signature', isOk: false, message: FAILED, detail: isKeyOfBlock ? 'block signature does not verify' : 'block names another signing key' },
  );

  const s = pkg.statement;
  const isStatementBound = s.asset_dna === pkg.asset_dna && s.leaf_hash === toHex(leaf) && s.block_height === header.height && s.block_hash === hash;
  const isStatementSigned = publicKey !== null && isStatementBound && (await verifyText(publicKey, encodeStatement(s), s.signature));
  checks.push(
    isStatementSigned
      ? // `page`: what the signed statement says of the PDF around it ("pades", or "none" before pages were signed).
        { id: 'statement_signature', isOk: true, detail: 'certificate statement (issue and expiry) signed by the platform key', facts: { page: s.page ?? 'none' } }
      : { id: 'statement_signature', isOk: false, message: FAILED, detail: isStatementBound ? 'statement signature does not verify' : 'statement names another entry or block' },
  );

  checks.push(await checkpointCheck(pkg, header));
  checks.push(await anchorCheck(pkg, opts));

  checks.push(
    opts.now <= s.expires_at
      ? { id: 'expiry', isOk: true, detail: `valid until ${new Date(s.expires_at).toISOString()}`, facts: { at: s.expires_at } }
      : { id: 'expiry', isOk: false, message: 'expiration_time_verification_failed', detail: `expired at ${new Date(s.expires_at).toISOString()}`, facts: { at: s.expires_at } },
  );

  const summary: VerifiedSummary = {
    file_hash: pkg.file_hash,
    asset_dna: pkg.asset_dna,
    registered_at: record?.registered_at ?? 0,
    block_address: { height: header.height, hash },
    enterprise_name: record?.enterprise_name ?? '',
    expired_at: s.expires_at,
    issued_at: s.issued_at,
    explorer_url: pkg.explorer_url,
    anchor: pkg.anchor,
  };
  return verdictOf(checks, summary, signer);
}

/** The checkpoint is signed by the platform key and its tree extends the block's tree (consistency proof). */
async function checkpointCheck(pkg: ProofPackage, header: BlockHeader): Promise<Check> {
  if (!pkg.checkpoint) return { id: 'checkpoint', isOk: true, isSkipped: true, detail: 'no checkpoint in this proof (issued before checkpoints)' };
  let spki: Uint8Array;
  try {
    spki = fromBase64(pkg.platform_key.spki);
  } catch {
    return { id: 'checkpoint', isOk: false, message: 'checkpoint_invalid', detail: 'platform key unreadable' };
  }
  const verdict = await verifyCheckpoint(pkg.checkpoint.note, spki);
  if (!verdict.isOk) return { id: 'checkpoint', isOk: false, message: 'checkpoint_invalid', detail: verdict.detail };
  const { treeSize, root } = verdict.body;
  const isConsistent = treeSize >= header.tree_size && verifyConsistency(header.tree_size, treeSize, fromHex(header.root), root, pkg.checkpoint.consistency.map(fromHex));
  return isConsistent
    ? { id: 'checkpoint', isOk: true, detail: `checkpoint of ${verdict.body.origin} at tree size ${treeSize}, signed by the platform key, contains block ${header.height} (tree size ${header.tree_size})`, facts: { origin: verdict.body.origin, size: treeSize, height: header.height } }
    : { id: 'checkpoint', isOk: false, message: 'checkpoint_invalid', detail: `the checkpoint (tree size ${treeSize}) does not contain block ${header.height}'s tree (size ${header.tree_size})` };
}

async function anchorCheck(pkg: ProofPackage, opts: VerifyOptions): Promise<Check> {
  const anchor = pkg.anchor;
  const address = pkg.statement.anchor_address;
  if (!anchor) {
    const why = address ? `the platform anchors from ${address}, but this proof carries no anchor` : 'no anchor in this proof';
    return opts.anchorRpc && opts.isAnchorRequired ? { id: 'anchor', isOk: false, message: 'anchor_not_found', detail: why } : { id: 'anchor', isOk: true, isSkipped: true, detail: why };
  }
  const named = `transaction ${anchor.tx_hash} on chain ${anchor.chain_id}`;
  if (!opts.anchorRpc) return { id: 'anchor', isOk: true, isSkipped: true, detail: `anchored in ${named} (not checked offline)` };
  if (!address || !pkg.checkpoint) {
    // An old per-block anchor names no sender: a self-send from any account would pass.
    return { id: 'anchor', isOk: false, message: 'anchor_sender_unknown', detail: `${named}: the signed statement names no anchoring address, so the sender cannot be checked` };
  }
  try {
    const text = pkg.checkpoint.note.slice(0, pkg.checkpoint.note.lastIndexOf('\n\n') + 1);
    const result = await checkCheckpointAnchor(anchor, { address, checkpointHash: checkpointHash(text), sealedAt: pkg.block.header.sealed_at }, opts.anchorRpc);
    return result.isOk ? { id: 'anchor', isOk: true, detail: result.detail } : { id: 'anchor', isOk: false, message: result.failure, detail: result.detail };
  } catch (error) {
    const why = `could not ask the chain about ${named}: ${error instanceof Error ? error.message : String(error)}`;
    if (!(error instanceof AnchorUnreachableError)) return { id: 'anchor', isOk: false, message: 'anchor_not_found', detail: why };
    return opts.isAnchorRequired ? { id: 'anchor', isOk: false, message: 'anchor_not_found', detail: why } : { id: 'anchor', isOk: true, isSkipped: true, detail: why };
  }
}

/** Extracts the package from a certificate PDF; `null` when the PDF carries none. Throws when the PDF cannot be read. */
export type PackageExtractor = (pdf: Uint8Array) => Promise<Uint8Array | null>;

/** The whole check of "original + PDF proof", given a PDF reader for the runtime at hand. */
export async function verifyCertificate(pdf: Uint8Array, extract: PackageExtractor, opts: VerifyOptions): Promise<Verdict> {
  const checks: Check[] = [];
  const size = pdf.length;
  // The PDF reader (pdf.js, in its own worker in the browser) and the page signature run at
  // the same time; the reader gets its own copy, as pdf.js may take (detach) the buffer it is given.
  type Read = { isOk: true; bytes: Uint8Array | null } | { isOk: false; error: unknown };
  let extracted: Promise<Read>;
  try {
    extracted = extract(pdf.slice()).then(
      (bytes): Read => ({ isOk: true, bytes }),
      (error: unknown): Read => ({ isOk: false, error }),
    );
  } catch (error) {
    extracted = Promise.resolve({ isOk: false, error });
  }
  let page: PageSignature;
  try {
    page = await checkPageSignature(pdf);
  } catch (error) {
    page = { isOk: false, detail: `the page signature could not be checked: ${error instanceof Error ? error.message : String(error)}` };
  }
  const read = await extracted;
  if (!read.isOk) {
    const error = read.error;
    checks.push({ id: 'pdf', isOk: false, message: 'parse_pdf_failed', detail: `not a readable PDF: ${error instanceof Error ? error.message : String(error)}` });
    return verdictOf(checks);
  }
  const packageBytes = read.bytes;
  checks.push({ id: 'pdf', isOk: true, detail: `PDF read (${size} bytes)`, facts: { bytes: size } });
  if (!packageBytes) {
    checks.push({ id: 'package_present', isOk: false, message: 'no_proof_package', detail: `the PDF has no ${PACKAGE_ATTACHMENT_NAME} attachment` });
    return verdictOf(checks);
  }
  checks.push({ id: 'package_present', isOk: true, detail: `${PACKAGE_ATTACHMENT_NAME} (${packageBytes.length} bytes)` });
  const verdict = await verifyPackage(packageBytes, opts, checks);
  // The page's signer must be of the same platform as the proof inside: its root is the
  // proof's root (or, for a package without a chain, a root the verifier trusts).
  const proofRoot = verdict.signer?.root_fingerprint ?? null;
  // A certificate issued before pages were signed (its signed statement does not say "pades")
  // may be unsigned: its package is proven, its page is not, and the check says so. One whose
  // statement says "pades" and has no signature was stripped.
  const statementPage = verdict.checks.find((c) => c.id === 'statement_signature' && c.isOk)?.facts?.page;
  const isLegacyUnsigned = !page.isOk && page.isUnsigned === true && statementPage === 'none';
  const pageCheck: Check = isLegacyUnsigned
    ? { id: 'page_signature', isOk: true, isSkipped: true, detail: 'not signed: issued before certificate pages were signed; the proof package is verified, the page text is not', facts: { reason: 'legacy' } }
    : !page.isOk
    ? { id: 'page_signature', isOk: false, message: 'page_signature_invalid', detail: page.detail, facts: { reason: page.isUnsigned ? 'unsigned' : 'altered' } }
    : proofRoot
      ? page.rootFingerprint === proofRoot
        ? { id: 'page_signature', isOk: true, detail: page.detail, facts: { at: page.signedAt, signer: page.signer } }
        : { id: 'page_signature', isOk: false, message: 'page_signature_invalid', detail: `the page is signed under root ${page.rootFingerprint.slice(0, 16)}…, the proof under ${proofRoot.slice(0, 16)}…`, facts: { reason: 'other_root' } }
      : opts.trustedRootFingerprints?.includes(page.rootFingerprint)
        ? { id: 'page_signature', isOk: true, detail: page.detail, facts: { at: page.signedAt, signer: page.signer } }
        : { id: 'page_signature', isOk: false, isUntrusted: true, message: UNTRUSTED, detail: `the page is signed under root ${page.rootFingerprint}, which is not trusted`, facts: { reason: 'other_root' } };
  // After the package's own checks (their §8 messages come first: a missing or broken package,
  // the wrong original) and before the log and expiry checks: an altered page outranks those.
  const all = [...verdict.checks];
  const at = all.findIndex((c) => c.id === 'checkpoint');
  all.splice(at === -1 ? all.length : at, 0, pageCheck);
  return verdictOf(all, verdict.summary, verdict.signer);
}
