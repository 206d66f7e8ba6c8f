/**
 * The `page_signature` check: the certificate PDF a person reads is the one the platform
 * signed (PAdES, server/proofs/pades.ts). The embedded proof package is checked on its
 * own; this check binds the visible page to it, so an edited expiry or hash on the page,
 * an incremental update appended after signing, or a stripped signature is caught even
 * when the package inside is intact.
 *
 * Runs on raw bytes with pkijs, in the browser's verify worker, the CLI and the verify API
 * alike. What it requires:
 * - exactly one signature, whose ByteRange runs from byte 0 to the end of the file around
 *   its /Contents (nothing before or after it is unsigned);
 * - a CMS SignedData whose message digest is that of the covered bytes, signed by a
 *   certificate (bound by signing-certificate-v2) that a self-signed root in the CMS
 *   certified: the root the caller compares with the proof's own platform root;
 * - an RFC 3161 time-stamp token on the signature value, by a time-stamping certificate
 *   (extKeyUsage id-kp-timeStamping) of the same root; its time is the signing time.
 */
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { equalBytes, sha256, toHex } from './bytes.ts';
import { certificateDerOf, OID, signingCertificateV2Hash } from '../crypto/cms.ts';

export type PageSignature =
  | { isOk: true; rootFingerprint: string; signedAt: number; signer: string; detail: string }
  | { isOk: false; isUnsigned?: boolean; detail: string };

const latin1 = new TextDecoder('latin1');

function fail(detail: string, isUnsigned = false): PageSignature {
  return isUnsigned ? { isOk: false, isUnsigned: true, detail } : { isOk: false, detail };
}

function commonName(cert: pkijs.Certificate): string {
  for (const tv of cert.subject.typesAndValues) if (tv.type === '2.5.4.3') return String(tv.value.valueBlock.value);
  return '';
}

function isSelfSignedCa(cert: pkijs.Certificate): boolean {
  const bc = cert.extensions?.find((e) => e.extnID === '2.5.29.19')?.parsedValue as pkijs.BasicConstraints | undefined;
  return Boolean(bc?.cA) && JSON.stringify(cert.subject.toJSON()) === JSON.stringify(cert.issuer.toJSON());
}

function hasTimeStampingUsage(cert: pkijs.Certificate): boolean {
  const eku = cert.extensions?.find((e) => e.extnID === OID.extKeyUsage);
  return Boolean(eku?.critical && (eku.parsedValue as pkijs.ExtKeyUsage | undefined)?.keyPurposes.includes(OID.timeStamping));
}

function isCa(cert: pkijs.Certificate): boolean {
  return Boolean((cert.extensions?.find((e) => e.extnID === '2.5.29.19')?.parsedValue as pkijs.BasicConstraints | undefined)?.cA);
}

function sidMatches(sid: unknown, cert: pkijs.Certificate): boolean {
  if (!(sid instanceof pkijs.IssuerAndSerialNumber)) return false;
  return sid.serialNumber.isEqual(cert.serialNumber) && JSON.stringify(sid.issuer.toJSON()) === JSON.stringify(cert.issuer.toJSON());
}

/** The signer's certificate, its root, and whether the signature and its certificate binding hold. */
async function checkSignedData(sd: pkijs.SignedData, data: ArrayBuffer | undefined, what: string): Promise<{ leaf: pkijs.Certificate; root: pkijs.Certificate | null } | string> {
  if (sd.signerInfos.length !== 1) return `${what}: ${sd.signerInfos.length} signers, expected one`;
  const si = sd.signerInfos[0]!;
  const certs = (sd.certificates ?? []).filter((c): c is pkijs.Certificate => c instanceof pkijs.Certificate);
  const leaf = certs.find((c) => sidMatches(si.sid, c));
  if (!leaf) return `${what}: the signer's certificate is not in the signature`;
  if (si.digestAlgorithm.algorithmId !== OID.sha256) return `${what}: digest is not SHA-256`;
  let result: pkijs.SignedDataVerifyResult | boolean;
  try {
    result = await sd.verify({ signer: 0, ...(data ? { data } : {}), checkChain: false, extendedMode: true });
  } catch (error) {
    const e = error as { message?: string; signatureVerified?: boolean | null };
    return `${what} does not verify: ${e.message ?? String(error)}`;
  }
  if (typeof result === 'object' ? !result.signatureVerified : !result) return `${what} does not verify`;
  const bound = signingCertificateV2Hash(si.signedAttrs);
  if (!bound || !equalBytes(bound, sha256(certificateDerOf(leaf)))) return `${what}: the signing-certificate-v2 attribute does not name the signer's certificate`;
  const root = certs.find((c) => c !== leaf && isSelfSignedCa(c)) ?? null;
  return { leaf, root };
}

async function issuedBy(cert: pkijs.Certificate, root: pkijs.Certificate): Promise<boolean> {
  try {
    return (await root.verify()) && (await cert.verify(root));
  } catch {
    return false;
  }
}

function withinValidity(cert: pkijs.Certificate, at: number): boolean {
  return cert.notBefore.value.getTime() <= at && at <= cert.notAfter.value.getTime();
}

export async function checkPageSignature(pdf: Uint8Array): Promise<PageSignature> {
  const text = latin1.decode(pdf);
  const ranges = [...text.matchAll(/\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g)];
  if (ranges.length === 0) return fail(text.includes('/ByteRange') ? 'the signature field was never filled' : 'the certificate page is not signed', true);
  if (ranges.length > 1) return fail(`the file carries ${ranges.length} signatures: something was signed into it after the platform`);
  const [a, b, c, d] = ranges[0]!.slice(1).map(Number) as [number, number, number, number];
  if (a !== 0 || b <= 0 || c <= b || c + d !== pdf.length) {
    const tail = pdf.length - (c + d);
    return fail(tail > 0 ? `${tail} bytes were added after the signature (an incremental update or an appended change)` : 'the signature does not cover the whole file');
  }
  if (text[b] !== '<' || text[c - 1] !== '>' || !/^[0-9a-fA-F]*$/.test(text.slice(b + 1, c - 1))) return fail('the signature value is not where the byte range says');
  const hex = text.slice(b + 1, c - 1);
  const der = new Uint8Array(hex.length / 2);
  for (let i = 0; i < der.length; i++) der[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  const covered = new Uint8Array(b + d);
  covered.set(pdf.subarray(0, b), 0);
  covered.set(pdf.subarray(c, c + d), b);

  let sd: pkijs.SignedData;
  try {
    const parsed = asn1js.fromBER(der.slice().buffer);
    if (parsed.offset === -1) throw new Error('not DER');
    const info = new pkijs.ContentInfo({ schema: parsed.result });
    if (info.contentType !== OID.signedData) throw new Error('not a SignedData');
    sd = new pkijs.SignedData({ schema: info.content });
  } catch (error) {
    return fail(`the signature is unreadable: ${error instanceof Error ? error.message : String(error)}`);
  }
  const page = await checkSignedData(sd, covered.slice().buffer, 'the page signature');
  if (typeof page === 'string') return fail(page);
  const root = page.root;
  if (!root) return fail('the signature carries no root certificate');
  if (isCa(page.leaf) || !(await issuedBy(page.leaf, root))) return fail('the page was signed by a certificate the root did not issue');

  // The time-stamp on the signature value.
  const si = sd.signerInfos[0]!;
  const tokenAttr = si.unsignedAttrs?.attributes.find((x) => x.type === OID.signatureTimeStampToken);
  if (!tokenAttr) return fail('the page signature has no time-stamp');
  let tst: pkijs.SignedData;
  let tstInfo: pkijs.TSTInfo;
  try {
    const info = new pkijs.ContentInfo({ schema: tokenAttr.values[0] });
    tst = new pkijs.SignedData({ schema: info.content });
    if (tst.encapContentInfo.eContentType !== OID.tstInfo || !tst.encapContentInfo.eContent) throw new Error('not a time-stamp token');
    tstInfo = pkijs.TSTInfo.fromBER(tst.encapContentInfo.eContent.getValue());
  } catch (error) {
    return fail(`the time-stamp is unreadable: ${error instanceof Error ? error.message : String(error)}`);
  }
  const signatureValue = new Uint8Array(si.signature.valueBlock.valueHexView);
  // pkijs checks a token's message imprint against the data it is given: the signature value.
  const stamp = await checkSignedData(tst, signatureValue.slice().buffer, 'the time-stamp');
  if (typeof stamp === 'string') return fail(stamp);
  if (!hasTimeStampingUsage(stamp.leaf) || !(await issuedBy(stamp.leaf, root))) return fail('the time-stamp is not from a time-stamping authority of the same root');
  const imprint = new Uint8Array(tstInfo.messageImprint.hashedMessage.valueBlock.valueHexView);
  if (tstInfo.messageImprint.hashAlgorithm.algorithmId !== OID.sha256 || !equalBytes(imprint, sha256(signatureValue))) return fail('the time-stamp is for another signature');
  const signedAt = tstInfo.genTime.getTime();
  if (!withinValidity(page.leaf, signedAt) || !withinValidity(stamp.leaf, signedAt) || !withinValidity(root, signedAt)) return fail('a certificate was not valid at the time-stamp');
  const rootFingerprint = toHex(sha256(certificateDerOf(root)));
  const signer = commonName(page.leaf);
  return { isOk: true, rootFingerprint, signedAt, signer, detail: `signed by ${signer}, time-stamped ${new Date(signedAt).toISOString()}, whole file covered` };
}
