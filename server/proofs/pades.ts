/**
 * The certificate page is signed: PAdES baseline B-LT (ETSI EN 319 142-1). A CAdES
 * detached CMS signature over the whole file (ByteRange from byte 0 to the end, around
 * /Contents) by the platform's proof-signing key, with an RFC 3161 time-stamp token on
 * the signature value from the platform's own time-stamping authority, and the
 * certificates that validate both in the document's DSS, so it validates offline.
 *
 * @signpdf places the signature dictionary into the pdf-lib document (pades-prepare.ts, where
 * the page is rendered) and fills the ByteRange and /Contents here; the CMS and the time-stamp
 * token are built here with pkijs (node-forge, which @signpdf's own signer uses, does not do
 * ECDSA). Keys are used only through their Signer: a sealed software key or an HSM.
 */
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import * as signpdfModule from '@signpdf/signpdf';
import { Signer as SignpdfSigner } from '@signpdf/utils';
import { createHash } from 'node:crypto';
import { p1363ToDer } from '../../core/crypto/keys.ts';
import { derSortedAttributes, signedAttributesToSign, signingCertificateV2, TSA_POLICY_OID } from '../../core/crypto/cms.ts';
import { OID } from '../../core/crypto/oids.ts';
import type { CertifiedSigner } from '../keys/signer.ts';
import { parseCertificate } from '../../core/crypto/x509.ts';

// A CommonJS module: its default export is the SignPdf instance (one level deeper under ESM interop).
type SignPdf = { sign(pdf: Buffer, signer: SignpdfSigner, signingTime?: Date): Promise<Buffer> };
const cjs = signpdfModule as unknown as { default: SignPdf & { default?: SignPdf } };
const signpdf: SignPdf = cjs.default.default ?? cjs.default;

export type PadesKeys = { proof: CertifiedSigner; tsa: CertifiedSigner };

const parsedCertificates = new WeakMap<Uint8Array, pkijs.Certificate>();
/** A platform certificate parsed once per signer (the signers are cached; their DER arrays are stable). */
function certificateOf(der: Uint8Array): pkijs.Certificate {
  let cert = parsedCertificates.get(der);
  if (!cert) parsedCertificates.set(der, (cert = parseCertificate(der)));
  return cert;
}
/**
 * A certificate as a SignedData's certificate set writes it: its DER, copied as it is. (A pkijs
 * Certificate parses its own TBS again and asn1js encodes the tree back, byte range by byte
 * range, each time it is written: three certificates per signature.) asn1js asks each element
 * of a set to write itself into the set's writer; this one writes its bytes.
 */
class DerElement {
  private readonly der: Uint8Array;
  constructor(der: Uint8Array) {
    this.der = der;
  }
  toSchema(): this {
    return this;
  }
  toBER(_sizeOnly?: boolean, writer?: { write(buffer: ArrayBuffer): void }): ArrayBuffer {
    const buffer = this.der.slice().buffer;
    if (!writer) return buffer;
    writer.write(buffer);
    return new ArrayBuffer(0);
  }
}
const derElements = new WeakMap<Uint8Array, DerElement>();
function certificateElementOf(der: Uint8Array): DerElement {
  let element = derElements.get(der);
  if (!element) derElements.set(der, (element = new DerElement(der)));
  return element;
}
const essAttributes = new WeakMap<pkijs.Certificate, pkijs.Attribute>();
/** The signing-certificate-v2 attribute of a signer's certificate, built once (it re-encodes and hashes the certificate). */
function signingCertificateOf(cert: pkijs.Certificate): pkijs.Attribute {
  let attribute = essAttributes.get(cert);
  if (!attribute) essAttributes.set(cert, (attribute = signingCertificateV2(cert)));
  return attribute;
}

/** SHA-256 by Node's OpenSSL (the signed file is ~80 KB: the pure-JavaScript hash took a tenth of the signature's time). */
function sha256(data: Uint8Array): Uint8Array {
  return new Uint8Array(createHash('sha256').update(data).digest());
}

const sha256Algorithm = () => new pkijs.AlgorithmIdentifier({ algorithmId: OID.sha256 });
const ecdsaAlgorithm = () => new pkijs.AlgorithmIdentifier({ algorithmId: OID.ecdsaWithSha256 });

/**
 * A CMS SignedData signed by `key` over `content`'s digest: the signed attributes are the
 * content type, the message digest and signing-certificate-v2 (no signing time: PAdES
 * takes the time from the time-stamp). `eContent` is embedded (a time-stamp token's
 * TSTInfo) or left out (a detached PDF signature).
 */
async function signedData(opts: {
  key: CertifiedSigner;
  contentType: string;
  digest: Uint8Array;
  eContent?: Uint8Array;
  certificates: Uint8Array[];
  unsignedAttributes?: (signature: Uint8Array) => Promise<pkijs.Attribute[]>;
}): Promise<pkijs.ContentInfo> {
  const cert = certificateOf(opts.key.certificates[0]!);
  const attributes = derSortedAttributes([
    new pkijs.Attribute({ type: OID.contentType, values: [new asn1js.ObjectIdentifier({ value: opts.contentType })] }),
    new pkijs.Attribute({ type: OID.messageDigest, values: [new asn1js.OctetString({ valueHex: opts.digest.slice().buffer })] }),
    signingCertificateOf(cert),
  ]);
  const signature = p1363ToDer(await opts.key.signer.sign(signedAttributesToSign(attributes)));
  const signerInfo = new pkijs.SignerInfo({
    version: 1,
    sid: new pkijs.IssuerAndSerialNumber({ issuer: cert.issuer, serialNumber: cert.serialNumber }),
    digestAlgorithm: sha256Algorithm(),
    signedAttrs: new pkijs.SignedAndUnsignedAttributes({ type: 0, attributes }),
    signatureAlgorithm: ecdsaAlgorithm(),
    signature: new asn1js.OctetString({ valueHex: signature.slice().buffer }),
  });
  const unsigned = await opts.unsignedAttributes?.(signature);
  if (unsigned?.length) signerInfo.unsignedAttrs = new pkijs.SignedAndUnsignedAttributes({ type: 1, attributes: unsigned });
  const signed = new pkijs.SignedData({
    version: 1,
    digestAlgorithms: [sha256Algorithm()],
    encapContentInfo: new pkijs.EncapsulatedContentInfo({
      eContentType: opts.contentType,
      ...(opts.eContent ? { eContent: new asn1js.OctetString({ valueHex: opts.eContent.slice().buffer }) } : {}),
    }),
    certificates: opts.certificates.map(certificateElementOf) as unknown as pkijs.CertificateSetItem[],
    signerInfos: [signerInfo],
  });
  return new pkijs.ContentInfo({ contentType: OID.signedData, content: signed.toSchema(true) });
}

/**
 * An RFC 3161 time-stamp token from the platform's TSA: TSTInfo (policy TSA_POLICY_OID,
 * SHA-256 message imprint, a random serial, the time to the second, accuracy one second,
 * the TSA's name) in a SignedData signed by the TSA key, with the TSA's certificate.
 */
export async function timeStampToken(tsa: CertifiedSigner, imprint: Uint8Array, at: Date): Promise<pkijs.ContentInfo> {
  const tsaCert = certificateOf(tsa.certificates[0]!);
  const serial = crypto.getRandomValues(new Uint8Array(16));
  serial[0]! &= 0x7f;
  const tstInfo = new pkijs.TSTInfo({
    version: 1,
    policy: TSA_POLICY_OID,
    messageImprint: new pkijs.MessageImprint({ hashAlgorithm: sha256Algorithm(), hashedMessage: new asn1js.OctetString({ valueHex: imprint.slice().buffer }) }),
    serialNumber: new asn1js.Integer({ valueHex: serial.buffer }),
    genTime: new Date(Math.floor(at.getTime() / 1000) * 1000),
    accuracy: new pkijs.Accuracy({ seconds: 1 }),
    ordering: false,
    tsa: new pkijs.GeneralName({ type: 4, value: tsaCert.subject }),
  });
  const der = new Uint8Array(tstInfo.toSchema().toBER(false));
  return signedData({ key: tsa, contentType: OID.tstInfo, digest: sha256(der), eContent: der, certificates: [tsa.certificates[0]!] });
}

/** The CMS for the PDF signature: detached, over `covered`, time-stamped on its signature value. */
export async function padesCms(keys: PadesKeys, covered: Uint8Array, at: Date): Promise<Uint8Array> {
  const info = await signedData({
    key: keys.proof,
    contentType: OID.data,
    digest: sha256(covered),
    certificates: keys.proof.certificates,
    unsignedAttributes: async (signature) => {
      const token = await timeStampToken(keys.tsa, sha256(signature), at);
      return [new pkijs.Attribute({ type: OID.signatureTimeStampToken, values: [token.toSchema()] })];
    },
  });
  return new Uint8Array(info.toSchema().toBER(false));
}

class CmsSigner extends SignpdfSigner {
  private readonly keys: PadesKeys;
  private readonly at: Date;
  constructor(keys: PadesKeys, at: Date) {
    super();
    this.keys = keys;
    this.at = at;
  }
  override async sign(pdfBuffer: Buffer): Promise<Buffer> {
    return Buffer.from(await padesCms(this.keys, new Uint8Array(pdfBuffer), this.at));
  }
}

/** The certificates that validate a page signed with `keys` (the proof signer's and the TSA's chains), for the DSS. */
export function padesCertificates(keys: PadesKeys): Uint8Array[] {
  return [...keys.proof.certificates, ...keys.tsa.certificates];
}

/**
 * Signs a PDF saved (without object streams) from a document `preparePades` (pades-prepare.ts)
 * prepared. This side needs no pdf-lib: the API thread, which signs every page, does not load it.
 */
export async function signPreparedPdf(bytes: Uint8Array, keys: PadesKeys, at: Date): Promise<Uint8Array> {
  return new Uint8Array(await signpdf.sign(Buffer.from(bytes), new CmsSigner(keys, at)));
}
