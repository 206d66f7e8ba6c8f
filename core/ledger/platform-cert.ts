import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { sha256, toHex } from './bytes.ts';
import { signX509, type IssuerKey } from '../crypto/sign-with.ts';
import { isSignedBy, parseCertificateDer, withinValidity, type Cert } from '../crypto/cert-check.ts';
import {
  basicConstraintsExtension,
  certificateDer,
  keyIdExtensions,
  keyIdentifier,
  keyUsageExtension,
  publicKeyInfo,
  randomSerial,
  setValidity,
  type KeyUsage,
} from '../crypto/x509.ts';
import { NAME_OID, OID } from '../crypto/oids.ts';

/**
 * The platform's X.509 chain (ARCHITECTURE "Keys": the platform acts as the CA): a
 * long-lived self-signed root, "Provena Platform Root CA", certifies each block-signing
 * key. A proof package carries [signing certificate, root] so that a verifier who pins
 * only the root's SHA-256 fingerprint accepts blocks signed by any key the root
 * certified — the platform can rotate signing keys without breaking old proofs or pins.
 */
const YEAR = 365 * 24 * 60 * 60 * 1000;

/** What a platform certificate is for: the root, and the online keys it certifies. */
export type CertifiedPurpose = 'block' | 'proof' | 'tsa';

function name(commonName: string): pkijs.RelativeDistinguishedNames {
  return new pkijs.RelativeDistinguishedNames({
    typesAndValues: [
      new pkijs.AttributeTypeAndValue({ type: NAME_OID.organization, value: new asn1js.Utf8String({ value: 'Provena' }) }),
      new pkijs.AttributeTypeAndValue({ type: NAME_OID.commonName, value: new asn1js.Utf8String({ value: commonName }) }),
    ],
  });
}

/**
 * CA: keyCertSign|cRLSign. Block and time-stamp keys: digitalSignature. The proof-signing
 * key signs the certificate a person reads, a commitment: digitalSignature|nonRepudiation.
 */
const KEY_USAGES: Record<'ca' | CertifiedPurpose, KeyUsage[]> = {
  ca: ['keyCertSign', 'cRLSign'],
  block: ['digitalSignature'],
  proof: ['digitalSignature', 'nonRepudiation'],
  tsa: ['digitalSignature'],
};

/** RFC 3161 §2.3: a TSA's certificate has exactly one extended key usage, id-kp-timeStamping, marked critical. */
function timeStampingUsage(): pkijs.Extension {
  const usage = new pkijs.ExtKeyUsage({ keyPurposes: [OID.timeStamping] });
  return new pkijs.Extension({ extnID: OID.extKeyUsage, critical: true, extnValue: usage.toSchema().toBER(false), parsedValue: usage });
}

async function spkiOf(publicKey: CryptoKey): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.exportKey('spki', publicKey));
}

/** The key that signs a certificate: its public half (for the authority key id) and a way to sign. */
export type CertificateIssuer = { spki: Uint8Array; key: IssuerKey };

type IssueInput = {
  subject: string;
  subjectSpki: Uint8Array;
  issuer: string;
  issuerKey: CertificateIssuer;
  kind: 'ca' | CertifiedPurpose;
  notBefore: number;
  years: number;
  serial: Uint8Array;
};

async function issue(input: IssueInput): Promise<Uint8Array> {
  const cert = new pkijs.Certificate();
  cert.version = 2;
  cert.serialNumber = new asn1js.Integer({ valueHex: input.serial.slice().buffer });
  cert.issuer = name(input.issuer);
  cert.subject = name(input.subject);
  const start = Math.floor(input.notBefore / 1000) * 1000;
  setValidity(cert, start, start + input.years * YEAR);
  cert.subjectPublicKeyInfo = publicKeyInfo(input.subjectSpki);
  cert.extensions = [
    basicConstraintsExtension(input.kind === 'ca'),
    keyUsageExtension(KEY_USAGES[input.kind]),
    ...(input.kind === 'tsa' ? [timeStampingUsage()] : []),
    ...keyIdExtensions(input.subjectSpki, keyIdentifier(input.issuerKey.spki)),
  ];
  await signX509(cert, input.issuerKey.key);
  return certificateDer(cert);
}

export const PLATFORM_ROOT_NAME = 'Provena Platform Root CA';
const SUBJECTS: Record<CertifiedPurpose, string> = { block: 'Provena Ledger Signing', proof: 'Provena Proof Signing', tsa: 'Provena Time-Stamping Authority' };
/** Blocks and proofs must stay checkable for as long as the records they prove: 20 years. */
const LEAF_YEARS = 20;

/** The platform root: self-signed, a CA, 30 years. Takes a key pair (tests) or the root's SPKI and signer. */
export async function issuePlatformRoot(keys: CryptoKeyPair | CertificateIssuer, now: number): Promise<Uint8Array> {
  const self = 'privateKey' in keys ? { spki: await spkiOf(keys.publicKey), key: keys.privateKey } : keys;
  return issue({ subject: PLATFORM_ROOT_NAME, subjectSpki: self.spki, issuer: PLATFORM_ROOT_NAME, issuerKey: self, kind: 'ca', notBefore: now - 60_000, years: 30, serial: randomSerial() });
}

/** A certificate for an online platform key (block signing, proof signing, time-stamping), issued by the root. */
export function issuePlatformCertificate(purpose: CertifiedPurpose, root: CertificateIssuer, subjectSpki: Uint8Array, keyId: string, now: number): Promise<Uint8Array> {
  return issue({ subject: `${SUBJECTS[purpose]} ${keyId.slice(0, 16)}`, subjectSpki, issuer: PLATFORM_ROOT_NAME, issuerKey: root, kind: purpose, notBefore: now - 60_000, years: LEAF_YEARS, serial: randomSerial() });
}

/** A block-signing certificate for `signingKey`, issued by the root (key pairs: what tests hold). */
export async function issueSigningCertificate(root: CryptoKeyPair, signingKey: CryptoKey, keyId: string, now: number): Promise<Uint8Array> {
  return issuePlatformCertificate('block', { spki: await spkiOf(root.publicKey), key: root.privateKey }, await spkiOf(signingKey), keyId, now);
}

/** SHA-256 of a certificate's DER, lowercase hex: what verifiers pin. */
export function certificateFingerprint(der: Uint8Array): string {
  return toHex(sha256(der));
}

export type ChainVerdict = { isOk: true; rootFingerprint: string; isRootTrusted: boolean; detail: string } | { isOk: false; detail: string };

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/**
 * Checks [signing certificate, root]: the signing certificate certifies exactly `spki`,
 * was valid at `at` (the block's time), and is signed by the root; the root is a
 * self-signed CA valid at `at`. Trust in the root is the caller's pin list.
 */
export async function verifyPlatformChain(chain: Uint8Array[], spki: Uint8Array, at: number, trustedRootFingerprints?: string[]): Promise<ChainVerdict> {
  if (chain.length !== 2) return { isOk: false, detail: `expected [signing certificate, root], got ${chain.length} certificates` };
  // Read from the DER in one pass and checked with WebCrypto (core/crypto/cert-check.ts): verifiers run this for every proof.
  let leaf: Cert;
  let root: Cert;
  try {
    leaf = parseCertificateDer(chain[0]!);
    root = parseCertificateDer(chain[1]!);
  } catch (error) {
    return { isOk: false, detail: `certificate unreadable: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (!sameBytes(leaf.spki, spki)) return { isOk: false, detail: 'the signing certificate is for another key than the one that signed the block' };
  for (const [label, cert] of [['signing certificate', leaf], ['root', root]] as const) {
    if (!withinValidity(cert, at)) return { isOk: false, detail: `${label} was not valid at the block's time` };
  }
  if (!root.isCa) return { isOk: false, detail: 'the root is not a CA' };
  if (leaf.isCa) return { isOk: false, detail: 'the signing certificate must not be a CA' };
  if (!(await isSignedBy(root, root.spki))) return { isOk: false, detail: 'the root is not self-signed' };
  if (!(await isSignedBy(leaf, root.spki))) return { isOk: false, detail: 'the signing certificate is not signed by the root' };
  const rootFingerprint = certificateFingerprint(chain[1]!);
  const isRootTrusted = Boolean(trustedRootFingerprints?.includes(rootFingerprint));
  if (trustedRootFingerprints && !isRootTrusted) return { isOk: false, detail: `root ${rootFingerprint.slice(0, 16)}… is not a trusted platform root` };
  return { isOk: true, rootFingerprint, isRootTrusted, detail: `${isRootTrusted ? 'trusted ' : ''}root ${rootFingerprint.slice(0, 16)}… certifies the signing key` };
}
