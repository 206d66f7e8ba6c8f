/**
 * Every object identifier the platform writes or checks, in one place: the CMS signer and the
 * verifiers (pkijs-based and the DER reader of cert-check.ts), X.509 building, CSRs and the
 * PKCS#8 key wrapping all name the same numbers. A module of constants only, so the verify
 * worker can import it without pulling in pkijs.
 */
export const OID = {
  // CMS (RFC 5652) content types and attributes, ESS (RFC 5035), time stamps (RFC 3161)
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  signatureTimeStampToken: '1.2.840.113549.1.9.16.2.14',
  tstInfo: '1.2.840.113549.1.9.16.1.4',
  // Algorithms
  sha256: '2.16.840.1.101.3.4.2.1',
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  ecPublicKey: '1.2.840.10045.2.1',
  p256: '1.2.840.10045.3.1.7',
  pbes2: '1.2.840.113549.1.5.13',
  pbkdf2: '1.2.840.113549.1.5.12',
  hmacWithSha256: '1.2.840.113549.2.9',
  aes256Cbc: '2.16.840.1.101.3.4.1.42',
  // X.509 extensions and extended key usages
  basicConstraints: '2.5.29.19',
  keyUsage: '2.5.29.15',
  extKeyUsage: '2.5.29.37',
  subjectKeyIdentifier: '2.5.29.14',
  authorityKeyIdentifier: '2.5.29.35',
  crlDistributionPoints: '2.5.29.31',
  crlNumber: '2.5.29.20',
  crlReason: '2.5.29.21',
  timeStamping: '1.3.6.1.5.5.7.3.8',
} as const;

/** The attribute types of a distinguished name (X.520). */
export const NAME_OID = {
  country: '2.5.4.6',
  organization: '2.5.4.10',
  organizationIdentifier: '2.5.4.97',
  commonName: '2.5.4.3',
  serialNumber: '2.5.4.5',
  organizationalUnit: '2.5.4.11',
  locality: '2.5.4.7',
  state: '2.5.4.8',
} as const;
