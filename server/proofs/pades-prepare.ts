/**
 * The unsigned half of PAdES (pades.ts signs): the DSS and an empty signature field put into the
 * pdf-lib document of the certificate page. It runs where the page is rendered (a render worker),
 * so pdf-lib and @signpdf's placeholder stay out of the API thread, which only signs.
 */
import { PDFArray, PDFName, type PDFDocument } from 'pdf-lib';
import { pdflibAddPlaceholder } from '@signpdf/placeholder-pdf-lib';
import { SUBFILTER_ETSI_CADES_DETACHED } from '@signpdf/utils';

/** Room for the CMS in /Contents, in bytes (hex doubles it): three certificates and a token need about 3 KB. */
const SIGNATURE_BYTES = 12_288;

/**
 * Puts the validation material (the DSS: every certificate of the proof signer's and the
 * TSA's chains) and an empty signature field into `doc`. Both go in before signing, so the
 * signature covers them and the whole file: anything appended later breaks it.
 */
export function preparePades(doc: PDFDocument, certificates: Uint8Array[], at: Date, labels: { reason: string; location: string; name: string }): void {
  const unique = new Map<string, Uint8Array>();
  for (const der of certificates) unique.set(Buffer.from(der).toString('base64'), der);
  const certs = PDFArray.withContext(doc.context);
  for (const der of unique.values()) certs.push(doc.context.register(doc.context.stream(der)));
  doc.catalog.set(PDFName.of('DSS'), doc.context.obj({ Certs: certs }));
  pdflibAddPlaceholder({
    pdfDoc: doc,
    reason: labels.reason,
    location: labels.location,
    name: labels.name,
    contactInfo: '',
    signingTime: at,
    signatureLength: SIGNATURE_BYTES,
    subFilter: SUBFILTER_ETSI_CADES_DETACHED,
    appName: 'Provena',
  });
}
