import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseIdCardBack, parseIdCardFront, tesseractIdCardOcr } from '../../server/services/identity.ts';
import { startHarness, type Harness } from './harness.ts';
import { newCardNo, newPhone, pngBytes, upload } from './enterprise-helpers.ts';

const hasTesseract = (() => {
  try {
    return execFileSync('tesseract', ['--list-langs'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).includes('chi_sim');
  } catch {
    return false;
  }
})();
if (!hasTesseract) console.warn('identity.test: tesseract with chi_sim is not installed (apt-get install tesseract-ocr tesseract-ocr-chi-sim); the real-OCR tests are skipped');

// @napi-rs/canvas arrives with pdfjs-dist (its optional dependency, pinned by the overrides in package.json).
const require = createRequire(import.meta.url);
type Canvas = {
  GlobalFonts: { registerFromPath(path: string, name: string): boolean };
  createCanvas(w: number, h: number): {
    width: number;
    height: number;
    getContext(kind: '2d'): { fillStyle: string; font: string; fillRect(x: number, y: number, w: number, h: number): void; fillText(t: string, x: number, y: number): void };
    toBuffer(mime: 'image/png'): Buffer;
  };
};
const canvasLib = ((): Canvas | null => {
  try {
    return createRequire(require.resolve('pdfjs-dist/package.json'))('@napi-rs/canvas') as Canvas;
  } catch {
    return null;
  }
})();
if (!canvasLib) console.warn('identity.test: @napi-rs/canvas (via pdfjs-dist) is missing; the rendered-card tests are skipped');
const CJK_FONT = ['/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc', '/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc', '/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc'].find((f) => fs.existsSync(f));
if (CJK_FONT && canvasLib) canvasLib.GlobalFonts.registerFromPath(CJK_FONT, 'IdCardCJK');
const canRender = Boolean(CJK_FONT && canvasLib);

/** An ID-card-like image: labels and values on a pale card, as a phone photo of the card would read after cropping. */
function idCardPng(lines: string[]): Buffer {
  const canvas = canvasLib!.createCanvas(1000, 90 + lines.length * 80);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#f4f1ea';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.fillStyle = '#111';
  ctx.font = '44px IdCardCJK';
  lines.forEach((line, i) => ctx.fillText(line, 50, 90 + i * 80));
  return canvas.toBuffer('image/png');
}

const expect400 = (res: { statusCode: number; json(): unknown }, message: string, field?: string) => {
  expect(res.statusCode).toBe(400);
  expect(res.json()).toEqual({ message, ...(field ? { field_name: field } : {}) });
};

describe('ID card text parsing', () => {
  it('finds the number with a valid check digit and the name, ignoring OCR noise', () => {
    const card = newCardNo();
    expect(parseIdCardFront(`姓 名 李 四 |\n性别 男 民族 汉\n出生 1990 年 1 月 1 日\n公民身份号码 ${card}\n`)).toEqual({ card_no: card, name: '李四', valid_until: '' });
    expect(parseIdCardFront(`姓名:阿依古丽·买买提\n公民身份号码 ${card.slice(0, 17).toLowerCase()}${card[17].toLowerCase()}`)?.name).toBe('阿依古丽·买买提');
    // A number whose check digit is wrong is not a card number (OCR misread a digit).
    const wrong = card.slice(0, 17) + (card[17] === '0' ? '1' : '0');
    expect(parseIdCardFront(`姓名 李四\n公民身份号码 ${wrong}`)).toBeNull();
    // The number is what the server checks; a name OCR could not read is typed by the person.
    expect(parseIdCardFront(`公民身份号码 ${card}`)).toEqual({ card_no: card, name: '', valid_until: '' });
  });
  it('reads the validity period of the back, including 长期', () => {
    expect(parseIdCardBack('签发机关 北京市公安局\n有效期限 2016.05.01-2036.05.01')?.valid_until).toBe('20360501');
    expect(parseIdCardBack('有效期限 2016.05.01-长期')?.valid_until).toBe('long');
    expect(parseIdCardBack('签发机关 北京市公安局')).toBeNull();
  });
});

describe.skipIf(!hasTesseract || !canRender)('Tesseract recognition of a rendered ID card', () => {
  it('reads card_no and name from the front and the validity from the back', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'idcard-'));
    const card = newCardNo();
    const front = path.join(dir, 'front.png');
    const back = path.join(dir, 'back.png');
    fs.writeFileSync(front, idCardPng(['姓名 王小明', '性别 男    民族 汉', '住址 北京市朝阳区建国路1号', `公民身份号码 ${card}`]));
    fs.writeFileSync(back, idCardPng(['中华人民共和国', '居民身份证', '签发机关 北京市公安局朝阳分局', '有效期限 2020.01.01-2040.01.01']));
    const ocr = tesseractIdCardOcr(true);
    expect(await ocr.recognize(front, 'front')).toEqual({ card_no: card, name: '王小明', valid_until: '' });
    expect((await ocr.recognize(back, 'back'))?.valid_until).toBe('20400101');
    fs.rmSync(dir, { recursive: true, force: true });
  }, 60_000);
});

describe('real-name authentication, OCR variant (§2, §7, §8)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ realAuthNeedOCR: true });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('requires both photos, checks them, and answers recognition failures', async () => {
    const cookie = await h.register(newPhone('139'));
    const card = newCardNo();
    const commit = (body: unknown) => h.request({ method: 'POST', url: '/api/v2/users/verified-token', body, cookie });
    expect400(await commit({ card_no: card, name: '王小明' }), 'identity_card_front_and_back_required', 'front_image_id');
    const blank = await upload(h, cookie, pngBytes('not-a-card'), 'png');
    expect400(await commit({ card_no: card, name: '王小明', front_image_id: blank }), 'identity_card_front_and_back_required', 'back_image_id');
    // Someone else's (or no) upload is not a photo of this user.
    expect400(await commit({ card_no: card, name: '王小明', front_image_id: blank, back_image_id: `0x${'a'.repeat(64)}.png` }), 'identity_card_front_and_back_required', 'back_image_id');
    // A PDF is not an ID photo.
    const pdf = await upload(h, cookie, Buffer.from('%PDF-1.4\n%provena id\n'), 'pdf');
    expect400(await h.request({ method: 'POST', url: '/api/v1/users/ocr/identity-card', body: { image_id: pdf, side: 'front' }, cookie }), 'file_type_unsupported', 'image_id');
    expect400(await h.request({ method: 'POST', url: '/api/v1/users/ocr/identity-card', body: { image_id: blank, side: 'side' }, cookie }), 'invalid_param', 'side');
    if (hasTesseract) {
      expect400(await h.request({ method: 'POST', url: '/api/v1/users/ocr/identity-card', body: { image_id: blank, side: 'front' }, cookie }), 'identity_card_recognition_failed', 'image_id');
    } else {
      expect400(await h.request({ method: 'POST', url: '/api/v1/users/ocr/identity-card', body: { image_id: blank, side: 'front' }, cookie }), 'recognition_unavailable', 'image_id');
    }
  });

  it.skipIf(!hasTesseract || !canRender)('recognises uploaded photos and authenticates only with what the photo shows', async () => {
    const cookie = await h.register(newPhone('139'));
    const card = newCardNo();
    const front = await upload(h, cookie, idCardPng(['姓名 李建国', `公民身份号码 ${card}`]), 'png');
    const back = await upload(h, cookie, idCardPng(['签发机关 上海市公安局', '有效期限 2021.03.01-长期']), 'png');
    const expiredBack = await upload(h, cookie, idCardPng(['签发机关 上海市公安局', '有效期限 2001.03.01-2011.03.01']), 'png');
    const ocr = (image_id: string, side: string) => h.request({ method: 'POST', url: '/api/v1/users/ocr/identity-card', body: { image_id, side }, cookie });
    const read = await ocr(front, 'front');
    expect(read.json()).toMatchObject({ data: {} });
    expect(read.json().data).toEqual({ card_no: card, name: '李建国', valid_until: '' });
    expect((await ocr(back, 'back')).json().data.valid_until).toBe('long');
    expect400(await ocr(expiredBack, 'back'), 'identity_card_expired', 'image_id');
    const commit = (body: unknown) => h.request({ method: 'POST', url: '/api/v2/users/verified-token', body, cookie });
    // A number other than the photo's: the photo is not this person's card (§8 identity verify info invalid).
    expect400(await commit({ card_no: newCardNo(), name: '李建国', front_image_id: front, back_image_id: back }), 'identity_verify_info_invalid', 'front_image_id');
    expect400(await commit({ card_no: card, name: '李建国', front_image_id: front, back_image_id: expiredBack }), 'identity_card_expired', 'back_image_id');
    const ok = await commit({ card_no: card, name: '李建国', front_image_id: front, back_image_id: back });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data).toMatchObject({ card_no: card, real_name: '李建国' });
  }, 90_000);

  it.skipIf(!hasTesseract || !canRender)('a front whose name OCR cannot read answers the number, and a typed name with that number authenticates', async () => {
    const cookie = await h.register(newPhone('139'));
    const card = newCardNo();
    const front = await upload(h, cookie, idCardPng(['性别 男    民族 汉', `公民身份号码 ${card}`]), 'png');
    const back = await upload(h, cookie, idCardPng(['签发机关 上海市公安局', '有效期限 2021.03.01-长期']), 'png');
    const read = await h.request({ method: 'POST', url: '/api/v1/users/ocr/identity-card', body: { image_id: front, side: 'front' }, cookie });
    expect(read.json().data).toEqual({ card_no: card, name: '', valid_until: '' });
    const ok = await h.request({ method: 'POST', url: '/api/v2/users/verified-token', body: { card_no: card, name: '欧阳娜娜', front_image_id: front, back_image_id: back }, cookie });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data).toMatchObject({ card_no: card, real_name: '欧阳娜娜' });
  }, 90_000);
});
