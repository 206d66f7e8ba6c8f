/**
 * X.509 building blocks shared by the platform's chain (core/ledger/platform-cert.ts) and
 * the enterprise CA (core/crypto/enterprise-cert.ts): parsing, key identifiers, the
 * extensions both write, validity times and serials. pkijs + asn1js, nothing else.
 */
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { sha256 } from '../ledger/bytes.ts';
import { OID } from './oids.ts';

/** One DER certificate, nothing before or after it. */
export function parseCertificate(der: Uint8Array): pkijs.Certificate {
  const asn = asn1js.fromBER(der.slice().buffer);
  if (asn.offset === -1 || asn.offset !== der.length) throw new Error('not one DER certificate');
  return new pkijs.Certificate({ schema: asn.result });
}

export function certificateDer(cert: pkijs.Certificate): Uint8Array {
  return new Uint8Array(cert.toSchema(true).toBER(false));
}

export function spkiDer(cert: pkijs.Certificate): Uint8Array {
  return new Uint8Array(cert.subjectPublicKeyInfo.toSchema().toBER(false));
}

export function publicKeyInfo(spki: Uint8Array): pkijs.PublicKeyInfo {
  return new pkijs.PublicKeyInfo({ schema: asn1js.fromBER(spki.slice().buffer).result });
}

/** RFC 7093 §2 method 1: the leftmost 160 bits of the SHA-256 of the SubjectPublicKeyInfo. */
export function keyIdentifier(spki: Uint8Array): Uint8Array {
  return sha256(spki).slice(0, 20);
}

export function extension(extnID: string, value: ArrayBuffer, critical = false): pkijs.Extension {
  return new pkijs.Extension({ extnID, critical, extnValue: value });
}

/** RFC 5280 §4.2.1.3 bit numbers (bit 0 is the top bit of the first byte). */
const KEY_USAGE_BITS = { digitalSignature: 0, nonRepudiation: 1, keyCertSign: 5, cRLSign: 6 } as const;
export type KeyUsage = keyof typeof KEY_USAGE_BITS;

/** keyUsage, critical: the named bits set, DER's unused-bit count after the last one. */
export function keyUsageExtension(usages: KeyUsage[]): pkijs.Extension {
  const bits: number[] = usages.map((u) => KEY_USAGE_BITS[u]);
  const byte = bits.reduce((b, bit) => b | (0x80 >> bit), 0);
  return extension(OID.keyUsage, new asn1js.BitString({ valueHex: new Uint8Array([byte]).buffer, unusedBits: 7 - Math.max(...bits) }).toBER(false), true);
}

/** basicConstraints, critical. */
export function basicConstraintsExtension(isCa: boolean, pathLenConstraint?: number): pkijs.Extension {
  const constraints = new pkijs.BasicConstraints(pathLenConstraint === undefined ? { cA: isCa } : { cA: isCa, pathLenConstraint });
  return new pkijs.Extension({ extnID: OID.basicConstraints, critical: true, extnValue: constraints.toSchema().toBER(false), parsedValue: constraints });
}

/** basicConstraints says cA (pkijs parses the extension it knows). */
export function isCaCertificate(cert: pkijs.Certificate): boolean {
  const e = cert.extensions?.find((x) => x.extnID === OID.basicConstraints);
  return Boolean(e && (e.parsedValue as pkijs.BasicConstraints | undefined)?.cA);
}

/** subjectKeyIdentifier and authorityKeyIdentifier. */
export function keyIdExtensions(subjectSpki: Uint8Array, authorityKeyId: Uint8Array): pkijs.Extension[] {
  return [
    extension(OID.subjectKeyIdentifier, new asn1js.OctetString({ valueHex: keyIdentifier(subjectSpki).slice().buffer }).toBER(false)),
    extension(OID.authorityKeyIdentifier, new pkijs.AuthorityKeyIdentifier({ keyIdentifier: new asn1js.OctetString({ valueHex: authorityKeyId.slice().buffer }) }).toSchema().toBER(false)),
  ];
}

/** The issuer's subjectKeyIdentifier, or the identifier of its key when it has none. */
export function authorityKeyIdOf(issuer: pkijs.Certificate): Uint8Array {
  const ski = issuer.extensions?.find((e) => e.extnID === OID.subjectKeyIdentifier);
  if (ski) {
    const parsed = asn1js.fromBER(ski.extnValue.valueBlock.valueHexView.slice().buffer);
    if (parsed.result instanceof asn1js.OctetString) return new Uint8Array(parsed.result.valueBlock.valueHexView);
  }
  return keyIdentifier(spkiDer(issuer));
}

/** RFC 5280 §4.1.2.5: UTCTime through 2049, GeneralizedTime from 2050, whole seconds. */
export function setValidity(cert: pkijs.Certificate, notBefore: number, notAfter: number): void {
  for (const [time, ms] of [[cert.notBefore, notBefore], [cert.notAfter, notAfter]] as const) {
    const whole = Math.floor(ms / 1000) * 1000;
    time.value = new Date(whole);
    time.type = new Date(whole).getUTCFullYear() >= 2050 ? pkijs.TimeType.GeneralizedTime : pkijs.TimeType.UTCTime;
  }
}

/** 16 random bytes, positive and without a leading zero byte (so DER keeps all 16). */
export function randomSerial(): Uint8Array {
  const serial = crypto.getRandomValues(new Uint8Array(16));
  serial[0] = ((serial[0] as number) & 0x3f) | 0x40;
  return serial;
}
