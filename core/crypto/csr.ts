import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { toPem } from './pem.ts';

export type CsrSubject = { commonName: string; organization?: string; country?: string };

/**
 * A PKCS#10 certification request for the enterprise certificate (the platform is the
 * CA that issues it), signed with the enterprise's P-256 key (ECDSA with SHA-256).
 */
export async function createCsrPem(keys: { privateKey: CryptoKey; publicKey: CryptoKey }, subject: CsrSubject): Promise<string> {
  const csr = new pkijs.CertificationRequest();
  const add = (type: string, value: asn1js.BaseStringBlock) => csr.subject.typesAndValues.push(new pkijs.AttributeTypeAndValue({ type, value }));
  if (subject.country) add('2.5.4.6', new asn1js.PrintableString({ value: subject.country }));
  if (subject.organization) add('2.5.4.10', new asn1js.Utf8String({ value: subject.organization }));
  add('2.5.4.3', new asn1js.Utf8String({ value: subject.commonName }));
  await csr.subjectPublicKeyInfo.importKey(keys.publicKey);
  await csr.sign(keys.privateKey, 'SHA-256');
  return toPem('CERTIFICATE REQUEST', new Uint8Array(csr.toSchema().toBER(false)));
}
