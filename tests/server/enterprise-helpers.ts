import { createHash } from 'node:crypto';
import { cardCheckChar } from '../../core/identity.ts';
import { clearRateLimits, type Harness } from './harness.ts';

let seq = 0;
export function newPhone(prefix = '137'): string {
  seq += 1;
  return `${prefix}${String(process.pid % 10000).padStart(4, '0')}${String(seq).padStart(4, '0')}`;
}

let cardSeq = 100;
/** A valid 18-digit ID number (real check character), different each call. */
export function newCardNo(): string {
  cardSeq += 1;
  const first17 = `11010519900101${String(cardSeq % 1000).padStart(3, '0')}`;
  return first17 + cardCheckChar(first17);
}

/** A tiny valid PNG whose bytes (and so identity) differ by `salt`. */
export function pngBytes(salt: string): Buffer {
  const header = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([header, Buffer.from(`provena-test-${salt}`)]);
}

export function identityOf(bytes: Buffer, ext: string): string {
  return `0x${createHash('sha256').update(bytes).digest('hex')}.${ext}`;
}

export function multipartBody(fields: Record<string, string>, file: { name: string; bytes: Buffer; type?: string }) {
  const boundary = `----provena${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`));
  parts.push(file.bytes, Buffer.from(`\r\n--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** §7 upload: ask for upload info, then post the file multipart with body_params. Returns the identity. */
export async function upload(h: Harness, cookie: string, bytes: Buffer, ext: string): Promise<string> {
  const uuid = identityOf(bytes, ext);
  const info = await h.request({ method: 'POST', url: '/api/v1/files/upload-request', body: { uuid }, cookie });
  if (info.statusCode !== 200) throw new Error(`upload-request failed: ${info.body}`);
  const { url, body_params: params } = info.json().data;
  const { payload, contentType } = multipartBody(params, { name: `f.${ext}`, bytes });
  const res = await h.app.inject({ method: 'POST', url, payload, headers: { cookie, 'content-type': contentType } });
  if (res.statusCode !== 200) throw new Error(`upload failed: ${res.body}`);
  return uuid;
}

export async function realAuth(h: Harness, cookie: string, name: string, cardNo = newCardNo()) {
  const res = await h.request({ method: 'POST', url: '/api/v2/users/verified-token', body: { card_no: cardNo, name }, cookie });
  if (res.statusCode !== 200) throw new Error(`real auth failed: ${res.body}`);
  return cardNo;
}

let licenceSeq = 0;
export function newLicence(): string {
  licenceSeq += 1;
  return `91610000${String(process.pid % 1000).padStart(3, '0')}${String(licenceSeq).padStart(6, '0')}X`.slice(0, 18);
}

/** Registers, authenticates and creates an enterprise by channel 1; returns the owner's cookie and the company. */
export async function ownerWithEnterprise(h: Harness, enterpriseName: string) {
  const phone = newPhone('135');
  const cookie = await h.register(phone);
  await realAuth(h, cookie, '张三');
  const licenseImage = await upload(h, cookie, pngBytes(`licence-${enterpriseName}`), 'png');
  await clearRateLimits(h.app);
  const sent = await h.request({ method: 'GET', url: '/api/v1/validation/private-code?type=17', cookie });
  if (sent.statusCode !== 200) throw new Error(`code failed: ${sent.body}`);
  const res = await h.request({
    method: 'POST',
    url: '/api/v1/enterprises/legal-person',
    cookie,
    body: { name: enterpriseName, license: newLicence(), legal_person: '张三', license_image_id: licenseImage, validation_code: await h.latestCode(phone) },
  });
  if (res.statusCode !== 200) throw new Error(`create failed: ${res.body}`);
  return { phone, cookie, company: res.json().data };
}

/** A registered, authenticated user who has applied with the code and been approved, with `role`. */
export async function memberOf(h: Harness, owner: { cookie: string; company: { invitation_code: string } }, role: number) {
  const phone = newPhone('136');
  const cookie = await h.register(phone);
  await realAuth(h, cookie, '李四');
  const joined = await h.request({ method: 'POST', url: '/api/v2/enterprises/employees', body: { invitation_code: owner.company.invitation_code }, cookie });
  if (joined.statusCode !== 200) throw new Error(`join failed: ${joined.body}`);
  const list = await h.request({ method: 'GET', url: '/api/v1/enterprises/employees?status=2', cookie: owner.cookie });
  const employee = list.json().data.items.find((e: { phone: string }) => e.phone === phone);
  await h.request({ method: 'PUT', url: '/api/v1/enterprises/employees', body: { employee_id: employee.employee_id, status: 1 }, cookie: owner.cookie });
  if (role !== 0) await h.request({ method: 'PUT', url: `/api/v2/users/members/${employee.employee_id}`, body: { role }, cookie: owner.cookie });
  return { phone, cookie, employeeId: employee.employee_id as number };
}
