import fs from 'node:fs';
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import fontkit from '@pdf-lib/fontkit';

/** Same TrueType CJK font as the certificates (PROOF_FONT_FILE, Debian fonts-arphic-gbsn00lp). */
const FONT_FILE = process.env.PROOF_FONT_FILE || '/usr/share/fonts/truetype/arphic-gbsn00lp/gbsn00lp.ttf';

type Fonts = { latin: PDFFont; cjk: PDFFont | null };

function draw(page: PDFPage, text: string, x: number, y: number, size: number, fonts: Fonts): void {
  let at = x;
  for (const run of text.match(/[\x20-\x7e]+|[^\x20-\x7e]+/g) ?? []) {
    const isLatin = /^[\x20-\x7e]/.test(run);
    const font = isLatin || !fonts.cjk ? fonts.latin : fonts.cjk;
    // Without a CJK font, characters Helvetica cannot encode are left as blanks to fill by hand.
    const shown = isLatin || fonts.cjk ? run : '_'.repeat(run.length * 2);
    page.drawText(shown, { x: at, y, size, font, color: rgb(0.1, 0.12, 0.18) });
    at += font.widthOfTextAtSize(shown, size);
  }
}

/** Channel 2 (§2 create company): the form to print, fill, sign, stamp and upload. */
export async function applicationFormPdf(input: { enterpriseName: string; license: string; applicant: string; phone: string }): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  doc.setTitle('Enterprise authentication application form');
  const fonts: Fonts = {
    latin: await doc.embedFont(StandardFonts.Helvetica),
    cjk: fs.existsSync(FONT_FILE) ? await doc.embedFont(fs.readFileSync(FONT_FILE), { subset: true }) : null,
  };
  const page = doc.addPage([595, 842]);
  draw(page, '企业认证申请表 Enterprise authentication application form', 50, 780, 16, fonts);
  const rows: Array<[string, string]> = [
    ['企业名称 Enterprise name', input.enterpriseName],
    ['统一社会信用代码 Licence no.', input.license],
    ['经办人 Applicant', input.applicant],
    ['联系电话 Phone', input.phone],
    ['法定代表人 Legal representative', ''],
    ['申请日期 Date', ''],
  ];
  let y = 720;
  for (const [label, value] of rows) {
    draw(page, label, 50, y, 11, fonts);
    draw(page, value, 260, y, 11, fonts);
    page.drawLine({ start: { x: 255, y: y - 4 }, end: { x: 545, y: y - 4 }, thickness: 0.5, color: rgb(0.6, 0.6, 0.6) });
    y -= 36;
  }
  y -= 10;
  const text = [
    '本企业申请在本平台进行企业认证，并授权上述经办人办理。所填信息真实有效。',
    'We apply for enterprise authentication on this platform and authorise the applicant above.',
    'The information given is true. Print, fill in, sign, stamp, scan and upload this form.',
  ];
  for (const line of text) {
    draw(page, line, 50, y, 10, fonts);
    y -= 20;
  }
  draw(page, '法定代表人签字 Signature of the legal representative:', 50, 300, 11, fonts);
  draw(page, '企业盖章 Company stamp:', 50, 240, 11, fonts);
  return doc.save();
}
