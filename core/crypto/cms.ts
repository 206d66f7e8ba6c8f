/**
 * CMS (RFC 5652) pieces shared by the certificate signer (server) and every verifier
 * (browser, CLI, verify API): the object identifiers, the ESS signing-certificate-v2
 * attribute (RFC 5035) that binds a signature to its certificate, and DER SET ordering.
 */
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { sha256 } from '../ledger/bytes.ts';
import { OID } from './oids.ts';


/**
 * The time-stamp policy under which the platform's TSA issues tokens: a UUID-derived OID
 * (ITU-T X.667, 2.25.<128-bit integer>), so it needs no registration. docs/proof-format.md.
 */
export const TSA_POLICY_OID = '2.25.218720390612744211823396307232479839241';

export function certificateDerOf(cert: pkijs.Certificate): Uint8Array {
  return new Uint8Array(cert.toSchema(true).toBER(false));
}

/** SigningCertificateV2 { certs: [ESSCertIDv2 { certHash (SHA-256, the default algorithm), issuerSerial }] }. */
export function signingCertificateV2(cert: pkijs.Certificate): pkijs.Attribute {
  const issuerSerial = new asn1js.Sequence({
    value: [new pkijs.GeneralNames({ names: [new pkijs.GeneralName({ type: 4, value: cert.issuer })] }).toSchema(), cert.serialNumber],
  });
  const essCertIdV2 = new asn1js.Sequence({ value: [new asn1js.OctetString({ valueHex: sha256(certificateDerOf(cert)).slice().buffer }), issuerSerial] });
  const value = new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [essCertIdV2] })] });
  return new pkijs.Attribute({ type: OID.signingCertificateV2, values: [value] });
}

/** The SHA-256 certificate hash a SigningCertificateV2 attribute names first (null when absent or another algorithm). */
export function signingCertificateV2Hash(attrs: pkijs.SignedAndUnsignedAttributes | undefined): Uint8Array | null {
  const attr = attrs?.attributes.find((a) => a.type === OID.signingCertificateV2);
  try {
    const certs = (attr?.values[0] as asn1js.Sequence | undefined)?.valueBlock.value[0] as asn1js.Sequence | undefined;
    const first = certs?.valueBlock.value[0] as asn1js.Sequence | undefined;
    const parts = first?.valueBlock.value ?? [];
    // hashAlgorithm DEFAULT sha256 is left out; when present it must be SHA-256.
    if (parts[0] instanceof asn1js.Sequence) {
      const alg = new pkijs.AlgorithmIdentifier({ schema: parts[0] });
      if (alg.algorithmId !== OID.sha256) return null;
      parts.shift();
    }
    const hash = parts[0];
    return hash instanceof asn1js.OctetString ? new Uint8Array(hash.valueBlock.valueHexView) : null;
  } catch {
    return null;
  }
}

/** DER orders the elements of a SET OF by their encodings (X.690 §11.6); asn1js does not. */
export function derSortedAttributes(attributes: pkijs.Attribute[]): pkijs.Attribute[] {
  const encoded = attributes.map((a) => ({ a, der: new Uint8Array(a.toSchema().toBER(false)) }));
  encoded.sort((x, y) => {
    for (let i = 0; i < Math.min(x.der.length, y.der.length); i++) if (x.der[i] !== y.der[i]) return x.der[i]! - y.der[i]!;
    return x.der.length - y.der.length;
  });
  return encoded.map((e) => e.a);
}

/** The bytes a signer signs: the signed attributes as a DER SET (RFC 5652 §5.4), not as the [0] they travel in. */
export function signedAttributesToSign(attributes: pkijs.Attribute[]): Uint8Array {
  return new Uint8Array(new asn1js.Set({ value: attributes.map((a) => a.toSchema()) }).toBER(false));
}
