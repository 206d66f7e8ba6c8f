/**
 * Enterprise certificates (ARCHITECTURE "Keys": the platform is the CA). The platform
 * root ("Provena Platform Root CA", core/ledger/platform-cert.ts) certifies an issuing CA,
 * "Provena Enterprise CA", which issues each enterprise's X.509 certificate from its
 * PKCS#10 request and publishes revocations in a CRL. Pure pkijs + WebCrypto: the server
 * issues, the keys worker reads and checks local files, and OpenSSL agrees with both
 * (core/crypto/enterprise-cert.test.ts).
 */
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { sha256, toHex } from '../ledger/bytes.ts';
import { distinguishedName, subjectName, type CsrSubject } from './csr.ts';
import { toPem } from './pem.ts';
import { signX509, type IssuerKey } from './sign-with.ts';
import {
  authorityKeyIdOf,
  basicConstraintsExtension,
  certificateDer,
  extension as ext,
  isCaCertificate,
  keyIdExtensions,
  keyIdentifier,
  keyUsageExtension,
  parseCertificate,
  publicKeyInfo,
  randomSerial,
  setValidity,
  spkiDer,
} from './x509.ts';
import { NAME_OID, OID } from './oids.ts';

const DAY = 24 * 60 * 60 * 1000;

export const ENTERPRISE_CA_NAME = 'Provena Enterprise CA';
/** The issuing CA lives ten years (never past its root); certificates it issues two. */
export const ENTERPRISE_CA_YEARS = 10;

const NAME_LABELS: Record<string, string> = {
  [NAME_OID.country]: 'C',
  [NAME_OID.organization]: 'O',
  [NAME_OID.organizationIdentifier]: 'organizationIdentifier',
  [NAME_OID.commonName]: 'CN',
  [NAME_OID.serialNumber]: 'serialNumber',
  [NAME_OID.organizationalUnit]: 'OU',
  [NAME_OID.locality]: 'L',
  [NAME_OID.state]: 'ST',
};

export function certificatePem(der: Uint8Array): string {
  return toPem('CERTIFICATE', der);
}

/** The issuer's certificate and its key: a WebCrypto key, or a signer (a sealed key, an HSM). */
type SignedBy = { certificate: pkijs.Certificate; privateKey: IssuerKey };

async function finish(
  cert: pkijs.Certificate,
  subjectSpki: Uint8Array,
  issuer: SignedBy | { self: CryptoKey },
  extra: pkijs.Extension[],
): Promise<Uint8Array> {
  const isSelf = 'self' in issuer;
  cert.extensions = [...extra, ...keyIdExtensions(subjectSpki, isSelf ? keyIdentifier(subjectSpki) : authorityKeyIdOf(issuer.certificate))];
  await signX509(cert, isSelf ? issuer.self : issuer.privateKey);
  return certificateDer(cert);
}

/**
 * The issuing CA for enterprise certificates, certified by the platform root: a CA that
 * may sign only end-entity certificates (pathLen 0) and CRLs, valid ten years (at most
 * until the root expires).
 */
export async function issueEnterpriseCa(root: SignedBy, caPublicKey: CryptoKey | Uint8Array, now: number): Promise<Uint8Array> {
  const cert = new pkijs.Certificate();
  cert.version = 2;
  cert.serialNumber = new asn1js.Integer({ valueHex: randomSerial().buffer as ArrayBuffer });
  cert.issuer = root.certificate.subject;
  cert.subject = distinguishedName([
    [NAME_OID.organization, new asn1js.Utf8String({ value: 'Provena' })],
    [NAME_OID.commonName, new asn1js.Utf8String({ value: ENTERPRISE_CA_NAME })],
  ]);
  const notAfter = Math.min(now + ENTERPRISE_CA_YEARS * 365 * DAY, root.certificate.notAfter.value.getTime());
  setValidity(cert, now - 60_000, notAfter);
  if (caPublicKey instanceof Uint8Array) cert.subjectPublicKeyInfo = publicKeyInfo(caPublicKey);
  else await cert.subjectPublicKeyInfo.importKey(caPublicKey);
  return finish(cert, spkiDer(cert), root, [basicConstraintsExtension(true, 0), keyUsageExtension(['keyCertSign', 'cRLSign'])]);
}

export type EnterpriseIssue = {
  subject: CsrSubject;
  /** The request's SubjectPublicKeyInfo (checked by checkCsrPem). */
  spki: Uint8Array;
  ca: SignedBy;
  now: number;
  validityDays: number;
  serial?: Uint8Array;
  /** Where the issuing CA publishes its CRL (left out when the deployment has no public URL). */
  crlUrl?: string;
};

/** The enterprise's certificate: not a CA, digitalSignature, the subject validated by the platform, a random serial. */
export async function issueEnterpriseCertificate(input: EnterpriseIssue): Promise<{ der: Uint8Array; serialNumber: string }> {
  const cert = new pkijs.Certificate();
  cert.version = 2;
  const serial = input.serial ?? randomSerial();
  cert.serialNumber = new asn1js.Integer({ valueHex: serial.slice().buffer });
  cert.issuer = input.ca.certificate.subject;
  cert.subject = subjectName(input.subject);
  const notAfter = Math.min(input.now + input.validityDays * DAY, input.ca.certificate.notAfter.value.getTime());
  setValidity(cert, input.now - 60_000, notAfter);
  cert.subjectPublicKeyInfo = publicKeyInfo(input.spki);
  const extensions = [basicConstraintsExtension(false), keyUsageExtension(['digitalSignature'])];
  if (input.crlUrl) {
    const points = new pkijs.CRLDistributionPoints({
      distributionPoints: [new pkijs.DistributionPoint({ distributionPoint: [new pkijs.GeneralName({ type: 6, value: input.crlUrl })] })],
    });
    extensions.push(ext(OID.crlDistributionPoints, points.toSchema().toBER(false)));
  }
  return { der: await finish(cert, input.spki, input.ca, extensions), serialNumber: toHex(serial) };
}

export type NameAttribute = { type: string; oid: string; value: string };

export function nameAttributes(name: pkijs.RelativeDistinguishedNames): NameAttribute[] {
  return name.typesAndValues.map((tv) => {
    const value = (tv.value as { valueBlock?: { value?: unknown } }).valueBlock?.value;
    return { type: NAME_LABELS[tv.type] ?? tv.type, oid: tv.type, value: typeof value === 'string' ? value : '' };
  });
}

export function nameText(attributes: NameAttribute[]): string {
  return attributes.map((a) => `${a.type}=${a.value}`).join(', ');
}

function keyUsageNames(cert: pkijs.Certificate): string[] {
  const e = cert.extensions?.find((x) => x.extnID === OID.keyUsage);
  if (!e) return [];
  const parsed = asn1js.fromBER(e.extnValue.valueBlock.valueHexView.slice().buffer).result;
  if (!(parsed instanceof asn1js.BitString)) return [];
  const bytes = parsed.valueBlock.valueHexView;
  const names = ['digitalSignature', 'nonRepudiation', 'keyEncipherment', 'dataEncipherment', 'keyAgreement', 'keyCertSign', 'cRLSign', 'encipherOnly', 'decipherOnly'];
  return names.filter((_, bit) => (((bytes[bit >> 3] ?? 0) >> (7 - (bit & 7))) & 1) === 1);
}

export type CertificateSummary = {
  serialNumber: string;
  subject: NameAttribute[];
  issuer: NameAttribute[];
  subjectText: string;
  issuerText: string;
  notBefore: number;
  notAfter: number;
  /** SHA-256 of the DER, lowercase hex. */
  fingerprint: string;
  keyUsage: string[];
  isCa: boolean;
  publicKey: string;
  signatureAlgorithm: string;
  spki: Uint8Array;
};

function publicKeyLabel(cert: pkijs.Certificate): string {
  const alg = cert.subjectPublicKeyInfo.algorithm;
  const curve = alg.algorithmParams instanceof asn1js.ObjectIdentifier ? alg.algorithmParams.valueBlock.toString() : '';
  if (alg.algorithmId === '1.2.840.10045.2.1') return curve === '1.2.840.10045.3.1.7' ? 'ECDSA P-256' : `EC ${curve}`;
  if (alg.algorithmId === '1.2.840.113549.1.1.1') return 'RSA';
  return alg.algorithmId;
}

export function summarizeCertificate(der: Uint8Array): CertificateSummary {
  const cert = parseCertificate(der);
  const subject = nameAttributes(cert.subject);
  const issuer = nameAttributes(cert.issuer);
  return {
    serialNumber: toHex(new Uint8Array(cert.serialNumber.valueBlock.valueHexView)).replace(/^(00)+(?=..)/, ''),
    subject,
    issuer,
    subjectText: nameText(subject),
    issuerText: nameText(issuer),
    notBefore: cert.notBefore.value.getTime(),
    notAfter: cert.notAfter.value.getTime(),
    fingerprint: toHex(sha256(der)),
    keyUsage: keyUsageNames(cert),
    isCa: isCaCertificate(cert),
    publicKey: publicKeyLabel(cert),
    signatureAlgorithm: cert.signatureAlgorithm.algorithmId === OID.ecdsaWithSha256 ? 'ecdsa-with-SHA256' : cert.signatureAlgorithm.algorithmId,
    spki: spkiDer(cert),
  };
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function sameName(a: pkijs.RelativeDistinguishedNames, b: pkijs.RelativeDistinguishedNames): boolean {
  return sameBytes(new Uint8Array(a.toSchema().toBER(false)), new Uint8Array(b.toSchema().toBER(false)));
}

async function isSignedBy(cert: pkijs.Certificate, issuer: pkijs.Certificate): Promise<boolean> {
  if (!sameName(cert.issuer, issuer.subject)) return false;
  try {
    return await cert.verify(issuer);
  } catch {
    return false;
  }
}

export type ChainCheck =
  | { isOk: true; rootFingerprint: string; chain: Uint8Array[] }
  | { isOk: false; reason: 'no_issuer' | 'not_yet_valid' | 'expired' | 'issuer_not_ca' | 'unreadable'; detail: string };

/**
 * Builds leaf → issuing CA → trusted root from the given certificates and checks each
 * signature, each validity period at `at`, and that every issuer is a CA. `roots` are
 * the trust anchors (the platform roots); `intermediates` may hold anything.
 */
export async function verifyChain(leafDer: Uint8Array, intermediates: Uint8Array[], roots: Uint8Array[], at: number): Promise<ChainCheck> {
  let leaf: pkijs.Certificate;
  let pool: Array<{ der: Uint8Array; cert: pkijs.Certificate }>;
  let anchors: Array<{ der: Uint8Array; cert: pkijs.Certificate }>;
  try {
    leaf = parseCertificate(leafDer);
    pool = intermediates.map((der) => ({ der, cert: parseCertificate(der) }));
    anchors = roots.map((der) => ({ der, cert: parseCertificate(der) }));
  } catch (error) {
    return { isOk: false, reason: 'unreadable', detail: error instanceof Error ? error.message : String(error) };
  }
  const when = new Date(at);
  const chain: Uint8Array[] = [leafDer];
  let current = leaf;
  for (let depth = 0; depth < 4; depth++) {
    if (when < current.notBefore.value) return { isOk: false, reason: 'not_yet_valid', detail: `${nameText(nameAttributes(current.subject))} is not valid yet` };
    if (when > current.notAfter.value) return { isOk: false, reason: 'expired', detail: `${nameText(nameAttributes(current.subject))} has expired` };
    for (const anchor of anchors) {
      if (await isSignedBy(current, anchor.cert)) {
        if (!isCaCertificate(anchor.cert)) return { isOk: false, reason: 'issuer_not_ca', detail: 'the root is not a CA' };
        if (when < anchor.cert.notBefore.value || when > anchor.cert.notAfter.value) return { isOk: false, reason: 'expired', detail: 'the root is not valid now' };
        if (!sameBytes(chain.at(-1)!, anchor.der)) chain.push(anchor.der);
        return { isOk: true, rootFingerprint: toHex(sha256(anchor.der)), chain };
      }
    }
    let next: { der: Uint8Array; cert: pkijs.Certificate } | undefined;
    for (const candidate of pool) {
      if (await isSignedBy(current, candidate.cert)) {
        next = candidate;
        break;
      }
    }
    if (!next) return { isOk: false, reason: 'no_issuer', detail: `no trusted issuer for ${nameText(nameAttributes(current.issuer))}` };
    if (!isCaCertificate(next.cert)) return { isOk: false, reason: 'issuer_not_ca', detail: `${nameText(nameAttributes(next.cert.subject))} is not a CA` };
    chain.push(next.der);
    current = next.cert;
  }
  return { isOk: false, reason: 'no_issuer', detail: 'the chain is too long' };
}

export type RevokedEntry = { serialNumber: string; revokedAt: number; reason: number };

/** A CRL (RFC 5280 §5) of the issuing CA: every revoked serial with its time and reason, valid one day. */
export async function issueCrl(ca: SignedBy, revoked: RevokedEntry[], now: number, nextUpdateMs = DAY): Promise<Uint8Array> {
  const time = (ms: number) => new pkijs.Time({ type: new Date(ms).getUTCFullYear() >= 2050 ? pkijs.TimeType.GeneralizedTime : pkijs.TimeType.UTCTime, value: new Date(Math.floor(ms / 1000) * 1000) });
  const crl = new pkijs.CertificateRevocationList();
  crl.version = 1;
  crl.issuer = ca.certificate.subject;
  crl.thisUpdate = time(now);
  crl.nextUpdate = time(now + nextUpdateMs);
  if (revoked.length) {
    crl.revokedCertificates = revoked.map(
      (r) =>
        new pkijs.RevokedCertificate({
          userCertificate: new asn1js.Integer({ valueHex: hexBytes(r.serialNumber).buffer as ArrayBuffer }),
          revocationDate: time(r.revokedAt),
          // RFC 5280 §5.3.1: the reason code is left out rather than sent as unspecified (0).
          ...(r.reason ? { crlEntryExtensions: new pkijs.Extensions({ extensions: [ext(OID.crlReason, new asn1js.Enumerated({ value: r.reason }).toBER(false))] }) } : {}),
        }),
    );
  }
  crl.crlExtensions = new pkijs.Extensions({
    extensions: [
      ext(OID.authorityKeyIdentifier, new pkijs.AuthorityKeyIdentifier({ keyIdentifier: new asn1js.OctetString({ valueHex: authorityKeyIdOf(ca.certificate).slice().buffer }) }).toSchema().toBER(false)),
      // CRL numbers must only grow: the issue time in seconds does.
      ext(OID.crlNumber, new asn1js.Integer({ value: Math.floor(now / 1000) }).toBER(false)),
    ],
  });
  await signX509(crl, ca.privateKey);
  return new Uint8Array(crl.toSchema(true).toBER(false));
}

function hexBytes(hex: string): Uint8Array {
  const clean = hex.length % 2 ? `0${hex}` : hex;
  const out = new Uint8Array(clean.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(clean.slice(2 * i, 2 * i + 2), 16);
  return out;
}

export type CrlSummary = { issuerText: string; thisUpdate: number; nextUpdate: number | null; revoked: Map<string, { revokedAt: number; reason: number }>; isSignedByIssuer: boolean };

/** Reads a CRL and checks its signature against the issuing CA certificate. */
export async function readCrl(der: Uint8Array, issuerDer: Uint8Array): Promise<CrlSummary> {
  const asn = asn1js.fromBER(der.slice().buffer);
  if (asn.offset === -1) throw new Error('not a DER CRL');
  const crl = new pkijs.CertificateRevocationList({ schema: asn.result });
  const issuer = parseCertificate(issuerDer);
  let isSignedByIssuer = false;
  try {
    isSignedByIssuer = sameName(crl.issuer, issuer.subject) && (await crl.verify({ issuerCertificate: issuer }));
  } catch {
    isSignedByIssuer = false;
  }
  const revoked = new Map<string, { revokedAt: number; reason: number }>();
  for (const entry of crl.revokedCertificates ?? []) {
    const serial = toHex(new Uint8Array(entry.userCertificate.valueBlock.valueHexView)).replace(/^(00)+(?=..)/, '');
    const reasonExt = entry.crlEntryExtensions?.extensions.find((e) => e.extnID === OID.crlReason);
    let reason = 0;
    if (reasonExt) {
      const parsed = asn1js.fromBER(reasonExt.extnValue.valueBlock.valueHexView.slice().buffer).result;
      if (parsed instanceof asn1js.Enumerated) reason = parsed.valueBlock.valueDec;
    }
    revoked.set(serial, { revokedAt: entry.revocationDate.value.getTime(), reason });
  }
  return { issuerText: nameText(nameAttributes(crl.issuer)), thisUpdate: crl.thisUpdate.value.getTime(), nextUpdate: crl.nextUpdate?.value.getTime() ?? null, revoked, isSignedByIssuer };
}

/** The uncompressed P-256 point (0x04‖x‖y) inside a SubjectPublicKeyInfo. */
export function ecPointOfSpki(spki: Uint8Array): Uint8Array {
  const asn = asn1js.fromBER(spki.slice().buffer);
  const info = new pkijs.PublicKeyInfo({ schema: asn.result });
  return new Uint8Array(info.subjectPublicKey.valueBlock.valueHexView);
}
