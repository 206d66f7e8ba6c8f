/**
 * Signs X.509 structures (certificates, CRLs) with whatever holds the issuer's key: a
 * WebCrypto private key, or a signing function (a sealed software key, an HSM over
 * PKCS#11) that returns ECDSA P-256 / SHA-256 signatures in P1363 form (r‖s). pkijs's own
 * `sign` only takes a CryptoKey, which an HSM cannot hand out.
 */
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { p1363ToDer } from './keys.ts';

/** ECDSA P-256 over SHA-256 of the data; the signature as r‖s. */
export type P1363Sign = (data: Uint8Array) => Promise<Uint8Array>;
export type IssuerKey = CryptoKey | P1363Sign;

const ECDSA_WITH_SHA256 = '1.2.840.10045.4.3.2';

function isCryptoKey(key: IssuerKey): key is CryptoKey {
  return typeof key !== 'function';
}

export async function signX509(object: pkijs.Certificate | pkijs.CertificateRevocationList, key: IssuerKey): Promise<void> {
  if (isCryptoKey(key)) {
    await object.sign(key, 'SHA-256');
    return;
  }
  // RFC 5758 §3.2: ecdsa-with-SHA256 carries no parameters.
  object.signature = new pkijs.AlgorithmIdentifier({ algorithmId: ECDSA_WITH_SHA256 });
  object.signatureAlgorithm = new pkijs.AlgorithmIdentifier({ algorithmId: ECDSA_WITH_SHA256 });
  // encodeTBS is public on Certificate and protected (but present) on CertificateRevocationList.
  const tbs = new Uint8Array((object as unknown as { encodeTBS(): asn1js.Sequence }).encodeTBS().toBER(false));
  object.tbsView = tbs;
  const signature = p1363ToDer(await key(tbs));
  object.signatureValue = new asn1js.BitString({ valueHex: signature.slice().buffer });
}
