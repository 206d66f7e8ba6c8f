/**
 * The `page_signature` check: the certificate PDF a person reads is the one the platform
 * signed (PAdES, server/proofs/pades.ts). The embedded proof package is checked on its
 * own; this check binds the visible page to it, so an edited expiry or hash on the page,
 * an incremental update appended after signing, or a stripped signature is caught even
 * when the package inside is intact.
 *
 * Runs on raw bytes (core/crypto/cert-check.ts: DER read once, WebCrypto for the
 * signatures), in the browser's verify worker, the CLI and the verify API alike. What it requires:
 * - exactly one signature, whose ByteRange runs from byte 0 to the end of the file around
 *   its /Contents (nothing before or after it is unsigned);
 * - a CMS SignedData whose message digest is that of the covered bytes, signed by a
 *   certificate (bound by signing-certificate-v2) that a self-signed root in the CMS
 *   certified: the root the caller compares with the proof's own platform root;
 * - an RFC 3161 time-stamp token on the signature value, by a time-stamping certificate
 *   (extKeyUsage id-kp-timeStamping) of the same root; its time is the signing time.
 */
import { concat, equalBytes, sha256, toHex } from './bytes.ts';
import { parseDer, type DerNode } from '../crypto/der.ts';
import { DerShapeError, at, children, isIssuedBy, isSelfSignedCa, oidOf, parseOne, readCertificate, timeOf, verifyEcdsaSha256, withinValidity, type Cert } from '../crypto/cert-check.ts';
import { OID } from '../crypto/oids.ts';

export type PageSignature =
  | { isOk: true; rootFingerprint: string; signedAt: number; signer: string; detail: string }
  | { isOk: false; isUnsigned?: boolean; detail: string };

const latin1 = new TextDecoder('latin1');

function fail(detail: string, isUnsigned = false): PageSignature {
  return isUnsigned ? { isOk: false, isUnsigned: true, detail } : { isOk: false, detail };
}

const SEQUENCE = 0x30;
const SET = 0x31;
const INTEGER = 0x02;
const OCTET_STRING = 0x04;

/** The parts of a CMS SignedData (RFC 5652 §5) the checks read, from a ContentInfo. */
type SignedData = {
  eContentType: string;
  /** The encapsulated content (a time-stamp token's TSTInfo); null when detached (the page signature). */
  eContent: Uint8Array | null;
  certificates: Cert[];
  signers: DerNode[];
};

function readSignedData(contentInfo: DerNode): SignedData {
  if (contentInfo.tag !== SEQUENCE || oidOf(contentInfo.children?.[0], 'contentType') !== OID.signedData) throw new DerShapeError('not a SignedData');
  const sd = at(at(contentInfo, 1, 0xa0, 'content'), 0, SEQUENCE, 'SignedData');
  const parts = children(sd, 'SignedData');
  at(sd, 0, INTEGER, 'SignedData version');
  at(sd, 1, SET, 'digestAlgorithms');
  const encap = at(sd, 2, SEQUENCE, 'encapContentInfo');
  const eContentType = oidOf(encap.children?.[0], 'eContentType');
  let eContent: Uint8Array | null = null;
  if (encap.children!.length > 1) {
    const octets = at(encap, 1, 0xa0, 'eContent').children?.[0];
    if (octets?.tag === OCTET_STRING) eContent = octets.content;
    // pkijs writes the content as a constructed OCTET STRING (BER): its segments, in order.
    else if (octets?.tag === 0x24 && octets.children!.every((x) => x.tag === OCTET_STRING)) eContent = concat(...octets.children!.map((x) => x.content));
    else throw new DerShapeError('eContent: unexpected structure');
    if (encap.children!.length > 2) throw new DerShapeError('encapContentInfo: unexpected elements');
  }
  let i = 3;
  const certificates: Cert[] = [];
  if (parts[i]?.tag === 0xa0) {
    for (const c of children(parts[i]!, 'certificates')) if (c.tag === SEQUENCE) certificates.push(readCertificate(c));
    i++;
  }
  if (parts[i]?.tag === 0xa1) i++; // crls
  const signerInfos = at(sd, i, SET, 'signerInfos');
  if (i !== parts.length - 1) throw new DerShapeError('SignedData: unexpected elements');
  return { eContentType, eContent, certificates, signers: children(signerInfos, 'signerInfos') };
}

type Attribute = { type: string; values: DerNode[] };

function readAttributes(node: DerNode, what: string): Attribute[] {
  return children(node, what).map((a) => {
    if (a.tag !== SEQUENCE) throw new DerShapeError(`${what}: expected an Attribute`);
    return { type: oidOf(a.children?.[0], what), values: children(at(a, 1, SET, what), what) };
  });
}

/** The one value of the one attribute of `type`; null when absent, repeated or multi-valued. */
function single(attrs: Attribute[], type: string): DerNode | null {
  const found = attrs.filter((a) => a.type === type);
  return found.length === 1 && found[0]!.values.length === 1 ? found[0]!.values[0]! : null;
}

/** SigningCertificateV2 { certs: [ESSCertIDv2 { hashAlgorithm DEFAULT sha256, certHash, … }] }: the first certificate's SHA-256 hash. */
function signingCertificateV2Hash(value: DerNode | null): Uint8Array | null {
  const first = value?.children?.[0]?.children?.[0];
  const parts = first?.tag === SEQUENCE ? (first.children ?? []) : [];
  let j = 0;
  if (parts[0]?.tag === SEQUENCE) {
    if (oidOf(parts[0].children?.[0], 'hashAlgorithm') !== OID.sha256) return null;
    j = 1;
  }
  return parts[j]?.tag === OCTET_STRING ? parts[j]!.content : null;
}

type Signer = { leaf: Cert; root: Cert | null; signature: Uint8Array; unsignedAttrs: Attribute[] };

/**
 * The one signer of `sd`: its certificate (by issuer and serial) is in the signature, the
 * digest is SHA-256, the signed attributes carry `dataDigest` (SHA-256 of the signed data) and name the
 * certificate (signing-certificate-v2), and the signer's key signed them (ECDSA P-256).
 */
async function checkSignedData(sd: SignedData, dataDigest: Uint8Array, what: string): Promise<Signer | string> {
  if (sd.signers.length !== 1) return `${what}: ${sd.signers.length} signers, expected one`;
  const si = sd.signers[0]!;
  if (si.tag !== SEQUENCE) return `${what}: the signer is unreadable`;
  const fields = children(si, 'SignerInfo');
  at(si, 0, INTEGER, 'SignerInfo version');
  const sid = at(si, 1, SEQUENCE, 'sid');
  const sidIssuer = at(sid, 0, SEQUENCE, 'sid issuer');
  const sidSerial = at(sid, 1, INTEGER, 'sid serial');
  const leaf = sd.certificates.find((c) => equalBytes(c.serial, sidSerial.content) && equalBytes(c.issuer, sidIssuer.raw!));
  if (!leaf) return `${what}: the signer's certificate is not in the signature`;
  if (oidOf(at(si, 2, SEQUENCE, 'digestAlgorithm').children?.[0], 'digestAlgorithm') !== OID.sha256) return `${what}: digest is not SHA-256`;
  if (fields[3]?.tag !== 0xa0) return `${what} does not verify: it has no signed attributes`;
  const signedAttrsNode = fields[3];
  const signedAttrs = readAttributes(signedAttrsNode, 'signedAttrs');
  if (oidOf(at(si, 4, SEQUENCE, 'signatureAlgorithm').children?.[0], 'signatureAlgorithm') !== OID.ecdsaWithSha256) return `${what} does not verify: not ECDSA with SHA-256`;
  const signature = at(si, 5, OCTET_STRING, 'signature').content;
  const rest = fields.slice(6);
  if (rest.length > 1 || (rest[0] && rest[0].tag !== 0xa1)) return `${what}: the signer is unreadable`;
  const unsignedAttrs = rest[0] ? readAttributes(rest[0], 'unsignedAttrs') : [];

  const digest = single(signedAttrs, OID.messageDigest);
  if (!digest || digest.tag !== OCTET_STRING || !equalBytes(digest.content, dataDigest)) return `${what} does not verify: the message digest is not that of the signed bytes`;
  // The signature is over the DER of the signed attributes as a SET OF (RFC 5652 §5.4).
  const signedBytes = signedAttrsNode.raw!.slice();
  signedBytes[0] = SET;
  if (!(await verifyEcdsaSha256(leaf.spki, signature, signedBytes))) return `${what} does not verify`;
  const bound = signingCertificateV2Hash(single(signedAttrs, OID.signingCertificateV2));
  if (!bound || !equalBytes(bound, sha256(leaf.der))) return `${what}: the signing-certificate-v2 attribute does not name the signer's certificate`;
  let root: Cert | null = null;
  for (const c of sd.certificates) {
    if (c !== leaf && (await isSelfSignedCa(c))) {
      root = c;
      break;
    }
  }
  return { leaf, root, signature, unsignedAttrs };
}

const HEX = new Int8Array(128).fill(-1);
for (let i = 0; i < 16; i++) {
  HEX['0123456789abcdef'.charCodeAt(i)] = i;
  HEX['0123456789ABCDEF'.charCodeAt(i)] = i;
}

/** The hex digits of pdf[from, to) as bytes; null when any is not a hex digit. */
function hexBytes(pdf: Uint8Array, from: number, to: number): Uint8Array | null {
  if ((to - from) % 2 !== 0) return null;
  const out = new Uint8Array((to - from) / 2);
  for (let i = 0, p = from; p < to; i++, p += 2) {
    const hi = HEX[pdf[p]!] ?? -1;
    const lo = HEX[pdf[p + 1]!] ?? -1;
    if (hi < 0 || lo < 0) return null;
    out[i] = (hi << 4) | lo;
  }
  return out;
}

export async function checkPageSignature(pdf: Uint8Array): Promise<PageSignature> {
  try {
    return await checkPage(pdf);
  } catch (error) {
    if (error instanceof DerShapeError) return fail(`the signature is unreadable: ${error.message}`);
    throw error;
  }
}

async function checkPage(pdf: Uint8Array): Promise<PageSignature> {
  const text = latin1.decode(pdf);
  const ranges = [...text.matchAll(/\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g)];
  if (ranges.length === 0) return fail(text.includes('/ByteRange') ? 'the signature field was never filled' : 'the certificate page is not signed', true);
  if (ranges.length > 1) return fail(`the file carries ${ranges.length} signatures: something was signed into it after the platform`);
  const [a, b, c, d] = ranges[0]!.slice(1).map(Number) as [number, number, number, number];
  if (a !== 0 || b <= 0 || c <= b || c + d !== pdf.length) {
    const tail = pdf.length - (c + d);
    return fail(tail > 0 ? `${tail} bytes were added after the signature (an incremental update or an appended change)` : 'the signature does not cover the whole file');
  }
  const der = text[b] === '<' && text[c - 1] === '>' ? hexBytes(pdf, b + 1, c - 1) : null;
  if (!der) return fail('the signature value is not where the byte range says');
  const covered = new Uint8Array(b + d);
  covered.set(pdf.subarray(0, b), 0);
  covered.set(pdf.subarray(c, c + d), b);

  // The /Contents placeholder is larger than the CMS: what follows it must be zero padding.
  let sd: SignedData;
  try {
    let end = der.length;
    while (end > 0 && der[end - 1] === 0) end--;
    const { node } = parseDer(der, 0);
    if (node.raw!.length < end) throw new DerShapeError('bytes after the signature in its placeholder');
    sd = readSignedData(node);
  } catch (error) {
    return fail(`the signature is unreadable: ${error instanceof Error ? error.message : String(error)}`);
  }
  // The whole file but the signature: WebCrypto's native SHA-256 (the JavaScript one ran cold on the first check).
  const coveredDigest = new Uint8Array(await crypto.subtle.digest('SHA-256', covered));
  const page = await checkSignedData(sd, coveredDigest, 'the page signature');
  if (typeof page === 'string') return fail(page);
  const root = page.root;
  if (!root) return fail('the signature carries no root certificate');
  if (page.leaf.isCa || !(await isIssuedBy(page.leaf, root))) return fail('the page was signed by a certificate the root did not issue');

  // The time-stamp on the signature value.
  const tokenValue = page.unsignedAttrs.find((x) => x.type === OID.signatureTimeStampToken)?.values[0];
  if (!tokenValue) return fail('the page signature has no time-stamp');
  let tst: SignedData;
  let imprintAlgorithm: string;
  let imprint: Uint8Array;
  let signedAt: number;
  try {
    tst = readSignedData(tokenValue);
    if (tst.eContentType !== OID.tstInfo || !tst.eContent) throw new Error('not a time-stamp token');
    // TSTInfo { version, policy, messageImprint { hashAlgorithm, hashedMessage }, serialNumber, genTime, … }
    const info = parseOne(tst.eContent, 'TSTInfo');
    if (info.tag !== SEQUENCE) throw new Error('not a TSTInfo');
    at(info, 0, INTEGER, 'TSTInfo version');
    oidOf(info.children?.[1], 'TSTInfo policy');
    const messageImprint = at(info, 2, SEQUENCE, 'messageImprint');
    imprintAlgorithm = oidOf(at(messageImprint, 0, SEQUENCE, 'hashAlgorithm').children?.[0], 'hashAlgorithm');
    imprint = at(messageImprint, 1, OCTET_STRING, 'hashedMessage').content;
    at(info, 3, INTEGER, 'TSTInfo serialNumber');
    signedAt = timeOf(info.children?.[4], 'genTime');
  } catch (error) {
    return fail(`the time-stamp is unreadable: ${error instanceof Error ? error.message : String(error)}`);
  }
  // The token's signed attributes carry the digest of its TSTInfo; the TSTInfo's imprint is that of the signature value.
  const stamp = await checkSignedData(tst, sha256(tst.eContent), 'the time-stamp');
  if (typeof stamp === 'string') return fail(stamp);
  const eku = stamp.leaf.extKeyUsage;
  const isTsa = Boolean(eku?.isCritical && eku.purposes.includes(OID.timeStamping));
  if (!isTsa || !(await isIssuedBy(stamp.leaf, root))) return fail('the time-stamp is not from a time-stamping authority of the same root');
  if (imprintAlgorithm !== OID.sha256 || !equalBytes(imprint, sha256(page.signature))) return fail('the time-stamp is for another signature');
  if (!withinValidity(page.leaf, signedAt) || !withinValidity(stamp.leaf, signedAt) || !withinValidity(root, signedAt)) return fail('a certificate was not valid at the time-stamp');
  const rootFingerprint = toHex(sha256(root.der));
  const signer = page.leaf.commonName;
  return { isOk: true, rootFingerprint, signedAt, signer, detail: `signed by ${signer}, time-stamped ${new Date(signedAt).toISOString()}, whole file covered` };
}
