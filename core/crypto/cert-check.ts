/**
 * Reading and checking the platform's X.509 certificates and CMS signatures straight from
 * their DER, for verifiers (the browser's verify worker, the CLI, the verify API): one
 * pass of core/crypto/der.ts over the bytes and WebCrypto for the signatures, instead of
 * building pkijs objects (schema comparison and re-encoding were most of the time of a
 * page-signature check in the browser). Only what the checks need is read; anything else
 * in the structures is kept as the raw bytes the signatures cover, so nothing is
 * re-encoded before being hashed or verified.
 *
 * Every platform key is ECDSA P-256 with SHA-256; any other algorithm fails the check.
 *
 * Per process (per worker in the browser), verified results are remembered by the exact
 * bytes checked (a certificate and its issuer's key; a key's SPKI), so a person checking
 * several proofs of one platform pays for its chain once. A remembered result is the result
 * the same computation on the same bytes gives: no check is skipped.
 */
import { oidToString, parseDer, type DerNode } from './der.ts';
import { NAME_OID, OID } from './oids.ts';
import { derToP1363 } from '../ledger/block.ts';
import { equalBytes, sha256, toHex } from '../ledger/bytes.ts';

const TAG = { boolean: 0x01, integer: 0x02, bitString: 0x03, octetString: 0x04, oid: 0x06, utf8: 0x0c, sequence: 0x30, set: 0x31, utcTime: 0x17, generalizedTime: 0x18 } as const;

export class DerShapeError extends Error {}

function fail(what: string): never {
  throw new DerShapeError(what);
}

/** The `index`th child of a constructed node, with the expected tag. */
export function at(node: DerNode | undefined, index: number, tag: number, what: string): DerNode {
  const child = node?.children?.[index];
  if (!child || child.tag !== tag) fail(`${what}: unexpected structure`);
  return child;
}

export function children(node: DerNode, what: string): DerNode[] {
  if (!node.children) fail(`${what}: expected a constructed element`);
  return node.children;
}

export function oidOf(node: DerNode | undefined, what: string): string {
  if (!node || node.tag !== TAG.oid || node.content.length === 0) fail(`${what}: expected an object identifier`);
  return oidToString(node.content);
}

/** Parses exactly one DER element filling `bytes`. */
export function parseOne(bytes: Uint8Array, what: string): DerNode {
  let parsed: ReturnType<typeof parseDer>;
  try {
    parsed = parseDer(bytes, 0);
  } catch (error) {
    fail(`${what}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (parsed.end !== bytes.length) fail(`${what}: trailing bytes`);
  return parsed.node;
}

/** UTCTime (YYMMDDHHMMSSZ, RFC 5280: 50–99 are 19xx) or GeneralizedTime (YYYYMMDDHHMMSS[.f]Z), as ms. */
export function timeOf(node: DerNode | undefined, what: string): number {
  const text = node ? new TextDecoder('latin1').decode(node.content) : '';
  const m =
    node?.tag === TAG.utcTime
      ? /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/.exec(text)
      : node?.tag === TAG.generalizedTime
        ? /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(?:\.(\d{1,3})\d*)?Z$/.exec(text)
        : null;
  if (!m) fail(`${what}: not a UTC time`);
  let year = Number(m[1]);
  if (node!.tag === TAG.utcTime) year += year >= 50 ? 1900 : 2000;
  const ms = m[7] ? Number(m[7].padEnd(3, '0')) : 0;
  return Date.UTC(year, Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]), ms);
}

/** What a check needs of a certificate; byte fields are the DER as it came. */
export type Cert = {
  der: Uint8Array;
  tbs: Uint8Array;
  signatureAlgorithm: string;
  signature: Uint8Array;
  serial: Uint8Array;
  issuer: Uint8Array;
  subject: Uint8Array;
  notBefore: number;
  notAfter: number;
  spki: Uint8Array;
  commonName: string;
  isCa: boolean;
  /** The extended key usages, and whether that extension is marked critical (null when absent). */
  extKeyUsage: { purposes: string[]; isCritical: boolean } | null;
};

function commonNameOf(name: DerNode): string {
  for (const rdn of children(name, 'name')) {
    for (const atv of children(rdn, 'name')) {
      if (oidOf(atv.children?.[0], 'name attribute') !== NAME_OID.commonName) continue;
      const value = atv.children?.[1];
      if (!value) fail('name attribute without a value');
      return new TextDecoder(value.tag === TAG.utf8 ? 'utf-8' : 'latin1').decode(value.content);
    }
  }
  return '';
}

/** Reads a certificate (throws DerShapeError when it is not one). */
export function readCertificate(node: DerNode): Cert {
  if (node.tag !== TAG.sequence || !node.raw) fail('certificate: expected a SEQUENCE');
  const parts = children(node, 'certificate');
  if (parts.length !== 3) fail('certificate: expected tbsCertificate, signatureAlgorithm, signature');
  const tbs = at(node, 0, TAG.sequence, 'tbsCertificate');
  const signatureAlgorithm = oidOf(at(node, 1, TAG.sequence, 'signatureAlgorithm').children?.[0], 'signatureAlgorithm');
  const bits = at(node, 2, TAG.bitString, 'signature');
  if (bits.content[0] !== 0) fail('signature: unused bits');
  const fields = children(tbs, 'tbsCertificate');
  let i = fields[0]?.tag === 0xa0 ? 1 : 0; // [0] EXPLICIT version
  const serial = at(tbs, i++, TAG.integer, 'serialNumber');
  const innerAlgorithm = oidOf(at(tbs, i++, TAG.sequence, 'signature').children?.[0], 'tbsCertificate signature');
  if (innerAlgorithm !== signatureAlgorithm) fail('certificate: the two signature algorithms differ');
  const issuer = at(tbs, i++, TAG.sequence, 'issuer');
  const validity = at(tbs, i++, TAG.sequence, 'validity');
  const subject = at(tbs, i++, TAG.sequence, 'subject');
  const spki = at(tbs, i++, TAG.sequence, 'subjectPublicKeyInfo');
  let isCa = false;
  let extKeyUsage: Cert['extKeyUsage'] = null;
  for (const field of fields.slice(i)) {
    if (field.tag !== 0xa3) continue; // [1], [2] unique ids; [3] extensions
    const seen = new Set<string>();
    for (const ext of children(at(field, 0, TAG.sequence, 'extensions'), 'extensions')) {
      const id = oidOf(ext.children?.[0], 'extension');
      if (seen.has(id)) fail(`extension ${id} appears twice`);
      seen.add(id);
      const isCritical = ext.children?.[1]?.tag === TAG.boolean ? ext.children[1].content[0] !== 0 : false;
      const value = ext.children?.[ext.children.length - 1];
      if (!value || value.tag !== TAG.octetString) fail('extension: expected an OCTET STRING value');
      if (id === OID.basicConstraints) {
        const bc = parseOne(value.content, 'basicConstraints');
        const first = bc.children?.[0];
        isCa = first?.tag === TAG.boolean && first.content[0] !== 0;
      } else if (id === OID.extKeyUsage) {
        const eku = parseOne(value.content, 'extKeyUsage');
        extKeyUsage = { purposes: children(eku, 'extKeyUsage').map((p) => oidOf(p, 'extKeyUsage')), isCritical };
      }
    }
  }
  return {
    der: node.raw,
    tbs: tbs.raw!,
    signatureAlgorithm,
    signature: bits.content.subarray(1),
    serial: serial.content,
    issuer: issuer.raw!,
    subject: subject.raw!,
    notBefore: timeOf(validity.children?.[0], 'notBefore'),
    notAfter: timeOf(validity.children?.[1], 'notAfter'),
    spki: spki.raw!,
    commonName: commonNameOf(subject),
    isCa,
    extKeyUsage,
  };
}

export function parseCertificateDer(der: Uint8Array): Cert {
  return readCertificate(parseOne(der, 'certificate'));
}

const ECDSA_P256 = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const ECDSA_SHA256 = { name: 'ECDSA', hash: 'SHA-256' } as const;
const CACHE_LIMIT = 64;
const keys = new Map<string, Promise<CryptoKey>>();
const verifiedCerts = new Map<string, Promise<boolean>>();

function remember<T>(map: Map<string, T>, key: string, make: () => T): T {
  let value = map.get(key);
  if (value === undefined) {
    if (map.size >= CACHE_LIMIT) map.clear();
    value = make();
    map.set(key, value);
  }
  return value;
}

/** An ECDSA P-256 verification key from an SPKI, imported once per process. */
export function verificationKey(spki: Uint8Array): Promise<CryptoKey> {
  const key = remember(keys, toHex(spki), () => crypto.subtle.importKey('spki', spki.slice() as Uint8Array<ArrayBuffer>, ECDSA_P256, false, ['verify']));
  // A key that failed to import is not remembered.
  key.catch(() => keys.delete(toHex(spki)));
  return key;
}

/** An ECDSA-with-SHA-256 signature (DER-encoded, as in X.509 and CMS) over `data` by the key `spki`. */
export async function verifyEcdsaSha256(spki: Uint8Array, signatureDer: Uint8Array, data: Uint8Array): Promise<boolean> {
  let raw: Uint8Array;
  try {
    raw = derToP1363(signatureDer);
  } catch {
    return false;
  }
  try {
    return await crypto.subtle.verify(ECDSA_SHA256, await verificationKey(spki), raw as Uint8Array<ArrayBuffer>, data as Uint8Array<ArrayBuffer>);
  } catch {
    return false;
  }
}

/** Whether `cert` carries a valid ECDSA-SHA-256 signature by `issuerSpki` (remembered per process). */
export function isSignedBy(cert: Cert, issuerSpki: Uint8Array): Promise<boolean> {
  if (cert.signatureAlgorithm !== OID.ecdsaWithSha256) return Promise.resolve(false);
  return remember(verifiedCerts, `${toHex(sha256(cert.der))}:${toHex(sha256(issuerSpki))}`, () => verifyEcdsaSha256(issuerSpki, cert.signature, cert.tbs));
}

/** `cert` was issued by `root`: its issuer is the root's subject and the root's key signed it. */
export async function isIssuedBy(cert: Cert, root: Cert): Promise<boolean> {
  return equalBytes(cert.issuer, root.subject) && (await isSignedBy(cert, root.spki));
}

/** A self-signed CA certificate: cA, issuer = subject, signed by its own key. */
export async function isSelfSignedCa(cert: Cert): Promise<boolean> {
  return cert.isCa && (await isIssuedBy(cert, cert));
}

export function withinValidity(cert: Cert, when: number): boolean {
  return cert.notBefore <= when && when <= cert.notAfter;
}
