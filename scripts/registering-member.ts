/**
 * A member who can register files on a running server, made over plain HTTP the way a
 * person would (for the crash test and the benches, which start their own server): an
 * account, real-name authentication, an enterprise created by the legal-person route, so
 * registrations go through the digital-asset feature. The server must answer the dev SMS
 * outbox (loopback) and, for free registrations, run with a configuration whose price is 0
 * (`registrationFreeConfig`); otherwise give the member credits first.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { cardCheckChar } from '../core/identity.ts';

export type Member = {
  cookie: string;
  enterpriseName: string;
  register(fileHash: string, name?: string): Promise<{ dna: string; file_hash: string }>;
  /** The same member (same database, same session) on a restarted server at another address. */
  useServer(base: string): void;
};

/** A PROVENA_CONFIG file that makes registrations free (§9 integralRequired off), written under `dir`. */
export function registrationFreeConfig(dir: string): string {
  const file = path.join(dir, 'provena-config.json');
  fs.writeFileSync(file, JSON.stringify({ integralRequired: false }), { mode: 0o600 });
  return file;
}

export async function registeringMember(firstBase: string, opts: { phone: string; enterpriseName: string }): Promise<Member> {
  let base = firstBase;
  let cookie = '';
  const call = async (method: string, url: string, body?: unknown): Promise<any> => {
    const isForm = body instanceof FormData;
    const res = await fetch(`${base}${url}`, {
      method,
      headers: { ...(cookie ? { cookie } : {}), ...(body !== undefined && !isForm ? { 'content-type': 'application/json' } : {}) },
      body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
    });
    for (const c of res.headers.getSetCookie()) {
      const pair = c.split(';')[0]!;
      const name = pair.split('=')[0]!;
      cookie = [...cookie.split('; ').filter((x) => x && !x.startsWith(`${name}=`)), pair].join('; ');
    }
    const text = await res.text();
    if (res.status !== 200) throw new Error(`${method} ${url}: ${res.status} ${text}`);
    return text ? JSON.parse(text).data : null;
  };
  const code = async (type: number) => {
    const rows = (await (await fetch(`${base}/api/dev/sms-outbox?phone=${opts.phone}`)).json()).data as Array<{ code: string; type: number }>;
    const row = rows.find((r) => r.type === type);
    if (!row) throw new Error(`no SMS code of type ${type} for ${opts.phone}`);
    return row.code;
  };
  await call('GET', `/api/v1/validation/public-code?phonenumber=${opts.phone}&type=1`);
  await call('POST', '/api/v1/users/tokens', { phonenumber: opts.phone, password: 'Passw0rdA', validation_code: await code(1), name: '测试' });
  const first17 = `11010519900101${String(Date.now()).slice(-3)}`;
  await call('POST', '/api/v2/users/verified-token', { card_no: first17 + cardCheckChar(first17), name: '张三' });
  const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(32)]);
  const uuid = `0x${createHash('sha256').update(png).digest('hex')}.png`;
  const info = await call('POST', '/api/v1/files/upload-request', { uuid });
  const form = new FormData();
  for (const [k, v] of Object.entries(info.body_params as Record<string, string>)) form.append(k, v);
  form.append('file', new Blob([png]), 'licence.png');
  await call('POST', info.url, form);
  await call('GET', '/api/v1/validation/private-code?type=17');
  const company = await call('POST', '/api/v1/enterprises/legal-person', {
    name: opts.enterpriseName,
    license: `91610000${String(Date.now()).slice(-9)}X`,
    legal_person: '张三',
    license_image_id: uuid,
    validation_code: await code(17),
  });
  return {
    get cookie() {
      return cookie;
    },
    enterpriseName: company.name ?? opts.enterpriseName,
    useServer(next) {
      base = next;
    },
    async register(fileHash, name = 'file') {
      const asset = await call('POST', '/api/v1/assets', { name, type: 1, file_hash: fileHash, size: 1 });
      return { dna: asset.dip_id as string, file_hash: asset.file_hash as string };
    },
  };
}
