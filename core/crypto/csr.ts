import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { fromPem, toPem } from './pem.ts';
import { NAME_OID, OID } from './oids.ts';

export type CsrSubject = { commonName: string; organization?: string; organizationIdentifier?: string; country?: string };

/**
 * A distinguished name with one attribute per RDN, in the order given. (pkijs's own
 * encoder would put every attribute in one multi-valued RDN, "C=CN+O=…+CN=…".)
 */
export function distinguishedName(attributes: Array<[type: string, value: asn1js.BaseStringBlock]>): pkijs.RelativeDistinguishedNames {
  const sequence = new asn1js.Sequence({
    value: attributes.map(([type, value]) => new asn1js.Set({ value: [new pkijs.AttributeTypeAndValue({ type, value }).toSchema()] })),
  });
  return new pkijs.RelativeDistinguishedNames({ schema: asn1js.fromBER(sequence.toBER(false)).result });
}

/**
 * The subject as RDNs in a fixed order (C, O, organizationIdentifier, CN): C is a
 * PrintableString, the rest UTF-8 (the enterprise name is Chinese). CSR and certificate
 * build it the same way, so the two compare byte for byte.
 */
export function subjectName(subject: CsrSubject): pkijs.RelativeDistinguishedNames {
  const attributes: Array<[string, asn1js.BaseStringBlock]> = [];
  if (subject.country) attributes.push([NAME_OID.country, new asn1js.PrintableString({ value: subject.country })]);
  if (subject.organization) attributes.push([NAME_OID.organization, new asn1js.Utf8String({ value: subject.organization })]);
  if (subject.organizationIdentifier) attributes.push([NAME_OID.organizationIdentifier, new asn1js.Utf8String({ value: subject.organizationIdentifier })]);
  attributes.push([NAME_OID.commonName, new asn1js.Utf8String({ value: subject.commonName })]);
  return distinguishedName(attributes);
}

/**
 * A PKCS#10 certification request for the enterprise certificate (the platform is the
 * CA that issues it), signed with the enterprise's P-256 key (ECDSA with SHA-256).
 */
export async function createCsrPem(keys: { privateKey: CryptoKey; publicKey: CryptoKey }, subject: CsrSubject): Promise<string> {
  const csr = new pkijs.CertificationRequest();
  csr.subject = subjectName(subject);
  await csr.subjectPublicKeyInfo.importKey(keys.publicKey);
  await csr.sign(keys.privateKey, 'SHA-256');
  return toPem('CERTIFICATE REQUEST', new Uint8Array(csr.toSchema().toBER(false)));
}

export type CsrProblem = 'certificate_request_invalid' | 'certificate_subject_mismatch';
export type CheckedCsr = { csr: pkijs.CertificationRequest; spki: Uint8Array; publicKey: CryptoKey };

function derOf(value: { toSchema(): asn1js.AsnType }): Uint8Array {
  return new Uint8Array(value.toSchema().toBER(false));
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/**
 * Checks a PEM certification request before the platform certifies its key: one request
 * and nothing else, ECDSA P-256 with SHA-256, a valid self-signature (proof of possession),
 * and a subject that is exactly `expected`. Returns the problem's §8 key, or the request.
 */
export async function checkCsrPem(pem: string, expected: CsrSubject): Promise<CheckedCsr | { problem: CsrProblem; detail: string }> {
  const bad = (detail: string) => ({ problem: 'certificate_request_invalid' as const, detail });
  const blocks = pem.match(/-----BEGIN [A-Z0-9 ]+-----/g) ?? [];
  if (blocks.length !== 1 || blocks[0] !== '-----BEGIN CERTIFICATE REQUEST-----') return bad('expected exactly one PEM CERTIFICATE REQUEST');
  let der: Uint8Array;
  let csr: pkijs.CertificationRequest;
  try {
    der = fromPem('CERTIFICATE REQUEST', pem);
    const asn = asn1js.fromBER(der.slice().buffer);
    if (asn.offset === -1 || asn.offset !== der.length) return bad('not one DER structure');
    csr = new pkijs.CertificationRequest({ schema: asn.result });
  } catch (error) {
    return bad(`unreadable: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (csr.version !== 0) return bad('version must be 1 (0)');
  if (csr.signatureAlgorithm.algorithmId !== OID.ecdsaWithSha256) return bad('signature algorithm must be ecdsa-with-SHA256');
  const spkiInfo = csr.subjectPublicKeyInfo;
  const curve = spkiInfo.algorithm.algorithmParams instanceof asn1js.ObjectIdentifier ? spkiInfo.algorithm.algorithmParams.valueBlock.toString() : '';
  if (spkiInfo.algorithm.algorithmId !== OID.ecPublicKey || curve !== OID.p256) return bad('the key must be ECDSA P-256');
  let isSigned = false;
  try {
    isSigned = await csr.verify();
  } catch {
    isSigned = false;
  }
  if (!isSigned) return bad('the request is not signed by its own key');
  if (!sameBytes(derOf(csr.subject), derOf(subjectName(expected)))) return { problem: 'certificate_subject_mismatch', detail: 'the subject differs from the enterprise' };
  const spki = derOf(spkiInfo);
  const publicKey = await crypto.subtle.importKey('spki', spki as BufferSource, { name: 'ECDSA', namedCurve: 'P-256' }, true, ['verify']);
  return { csr, spki, publicKey };
}
