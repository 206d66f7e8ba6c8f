import { randomBytes, createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGREEMENT_TEXT, DISCLOSURE_SMS_TYPES } from '../../core/disclosure.ts';
import { clearRateLimits, startHarness, type Harness } from './harness.ts';
import { identityOf, memberOf, newPhone, ownerWithEnterprise } from './enterprise-helpers.ts';
import { listen, tusUpload } from './storage-helpers.ts';
import { creditsForAssets, registerAsset } from './credit-helpers.ts';

type Owner = Awaited<ReturnType<typeof ownerWithEnterprise>>;

/** The newest code of a type sent to a phone. */
async function codeOf(h: Harness, phone: string, type: number): Promise<string> {
  const rows = await h.app.db.selectFrom('sms_outbox').select(['code', 'type']).where('phone', '=', phone).where('type', '=', type).orderBy('id', 'desc').execute();
  if (!rows[0]) throw new Error(`no SMS of type ${type} for ${phone}`);
  return rows[0].code;
}

const receiptCookie = (res: { cookies: Array<{ name: string; value: string }> }, id: string) => {
  const c = res.cookies.find((x) => x.name === `provena_receipt_${id}`);
  if (!c) throw new Error('no receipt cookie');
  return `provena_receipt_${id}=${c.value}`;
};

describe('disclosures', () => {
  let h: Harness;
  let base: string;
  let owner: Owner;
  let bytes: Buffer;
  let identity: string;

  beforeAll(async () => {
    h = await startHarness();
    base = await listen(h);
    owner = await ownerWithEnterprise(h, '披露测试有限公司');
    bytes = randomBytes(2 * 1024 * 1024 + 77);
    identity = identityOf(bytes, 'pdf');
    await creditsForAssets(h, owner, owner, 1);
    await registerAsset(h, owner, identity);
    const stored = await tusUpload(base, owner.cookie, bytes, identity, { filename: '设计图.pdf' });
    expect(stored.error).toBeNull();
  }, 60_000);
  afterAll(async () => h.close());

  async function create(overrides: Record<string, unknown> = {}, cookie = owner.cookie, phone = owner.phone, headers: Record<string, string> = {}) {
    await clearRateLimits(h.app);
    const sent = await h.request({ method: 'GET', url: '/api/v2/disclosures/validation-code', cookie });
    expect(sent.statusCode).toBe(200);
    const receiver = newPhone('158');
    const res = await h.request({
      method: 'POST',
      url: '/api/v2/disclosures',
      cookie,
      headers,
      body: { hash: identity, name: '设计图', received_phone: receiver, store_name: '华东仓', type: 2, store_forever: true, validation_code: await codeOf(h, phone, DISCLOSURE_SMS_TYPES.senderConfirm), ...overrides },
    });
    return { res, receiver };
  }

  async function verify(id: string, receiver: string) {
    await clearRateLimits(h.app);
    expect((await h.request({ method: 'POST', url: `/api/v2/disclosures/records/${id}/validation-code` })).statusCode).toBe(200);
    const res = await h.request({ method: 'PUT', url: '/api/v2/disclosures/check-identify', body: { disclosure_id: id, validation_code: await codeOf(h, receiver, 8) } });
    expect(res.statusCode).toBe(200);
    return receiptCookie(res, id);
  }

  it('sender creates with their own code; the receiver gets a link by SMS; list and detail show it', async () => {
    const { res, receiver } = await create();
    expect(res.statusCode).toBe(200);
    const record = res.json().data;
    expect(record.disclosure_id).toMatch(/^[a-z2-7]{26}$/);
    expect(record).toMatchObject({ disclosure_status: 1, hash: identity, received_phone: receiver, store_forever: true, size: bytes.length, events: [{ kind: 'sent' }] });
    const sms = await h.app.db.selectFrom('sms_outbox').select(['body', 'type']).where('phone', '=', receiver).executeTakeFirstOrThrow();
    expect(sms.type).toBe(DISCLOSURE_SMS_TYPES.receiverLink);
    expect(sms.body).toMatch(new RegExp(`https?://[^ ]+/disclosures/${record.disclosure_id}`));
    expect(record.link).toMatch(/^http:\/\/localhost/);
    const list = await h.request({ method: 'GET', url: '/api/v2/disclosures/records', cookie: owner.cookie });
    expect(list.json().data.items.map((r: { disclosure_id: string }) => r.disclosure_id)).toContain(record.disclosure_id);
    // Anyone with the link sees only the last 4 digits; the sender also gets the record.
    const pub = await h.request({ method: 'GET', url: `/api/v2/disclosures/records/${record.disclosure_id}` });
    expect(pub.json().data).toMatchObject({ disclosure_status: 1, received_phone: `*******${receiver.slice(-4)}`, name: '设计图', enterprise_name: '披露测试有限公司', step: 0 });
    expect(pub.json().data.record).toBeUndefined();
    const mine = await h.request({ method: 'GET', url: `/api/v2/disclosures/records/${record.disclosure_id}`, cookie: owner.cookie });
    expect(mine.json().data.record.received_phone).toBe(receiver);
  });

  it('the SMS link is built from PUBLIC_URL, whatever Host, Origin or X-Forwarded-Host the request names', async () => {
    const { res, receiver } = await create({}, owner.cookie, owner.phone, { host: 'evil.example', origin: 'http://evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' });
    expect(res.statusCode).toBe(200);
    const id = res.json().data.disclosure_id;
    const sms = await h.app.db.selectFrom('sms_outbox').select('body').where('phone', '=', receiver).executeTakeFirstOrThrow();
    expect(sms.body).not.toContain('evil.example');
    expect(sms.body).toContain(`${h.app.env.publicUrl}/disclosures/${id}`);
    expect(res.json().data.link).toBe(`${h.app.env.publicUrl}/disclosures/${id}`);
  });

  it('refuses a wrong sender code, an unstored or unregistered file, a bad phone and a missing expiry, on their fields', async () => {
    const wrong = await create({ validation_code: 'abcdef' });
    expect(wrong.res.json()).toEqual({ message: 'validation_code_mismatch', field_name: 'validation_code' });
    expect((await create({ hash: identityOf(randomBytes(9), 'pdf') })).res.json()).toEqual({ message: 'not_found', field_name: 'hash' });
    expect((await create({ received_phone: '123' })).res.json()).toEqual({ message: 'phone_invalid', field_name: 'received_phone' });
    expect((await create({ store_forever: false })).res.json()).toEqual({ message: 'required', field_name: 'expires_at' });
    expect((await create({ store_forever: false, expires_at: Date.now() - 1 })).res.json()).toEqual({ message: 'invalid_param', field_name: 'expires_at' });
    expect((await create({ store_name: ' ' })).res.json()).toEqual({ message: 'required', field_name: 'store_name' });
    expect((await create({ type: 99 })).res.json()).toEqual({ message: 'invalid_param', field_name: 'type' });
    // A member who did not register the file cannot disclose it.
    const member = await memberOf(h, owner, 0);
    expect((await create({}, member.cookie, member.phone)).res.json()).toEqual({ message: 'not_found', field_name: 'hash' });
  });

  it('receipt: wrong code on validation_code; verify, accept, link bound to this browser; download bytes equal; receipt on the ledger', async () => {
    const { res, receiver } = await create();
    const id = res.json().data.disclosure_id as string;
    await clearRateLimits(h.app);
    await h.request({ method: 'POST', url: `/api/v2/disclosures/records/${id}/validation-code` });
    const bad = await h.request({ method: 'PUT', url: '/api/v2/disclosures/check-identify', body: { disclosure_id: id, validation_code: (await codeOf(h, receiver, 8)) === '123456' ? '654321' : '123456' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ message: 'validation_code_mismatch', field_name: 'validation_code' });
    // Before verifying: no accept, no link.
    expect((await h.request({ method: 'PUT', url: `/api/v2/disclosures/receive/${id}` })).statusCode).toBe(400);
    expect((await h.request({ method: 'GET', url: `/api/v2/disclosures/records/${id}/file-link` })).statusCode).toBe(400);
    const cookie = await verify(id, receiver);
    // Verified but not accepted: still no link.
    expect((await h.request({ method: 'GET', url: `/api/v2/disclosures/records/${id}/file-link`, cookie })).statusCode).toBe(400);
    expect((await h.request({ method: 'PUT', url: `/api/v2/disclosures/receive/${id}`, cookie })).statusCode).toBe(200);
    expect((await h.request({ method: 'GET', url: `/api/v2/disclosures/records/${id}`, cookie })).json().data).toMatchObject({ step: 3, disclosure_status: 3 });
    const link = (await h.request({ method: 'GET', url: `/api/v2/disclosures/records/${id}/file-link`, cookie })).json().data.file_link as string;
    expect(link).toMatch(/^\/api\/v2\/disclosures\/files\//);
    // The link alone, or with another browser's session for the same disclosure, gets nothing.
    expect((await fetch(`${base}${link}`)).status).toBe(404);
    const otherCookie = await verify(id, receiver);
    await h.request({ method: 'PUT', url: `/api/v2/disclosures/receive/${id}`, cookie: otherCookie });
    expect((await fetch(`${base}${link}`, { headers: { cookie: otherCookie } })).status).toBe(404);
    // This browser downloads the file itself.
    const download = await fetch(`${base}${link}`, { headers: { cookie } });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toContain("filename*=UTF-8''%E8%AE%BE%E8%AE%A1%E5%9B%BE.pdf");
    const got = Buffer.from(await download.arrayBuffer());
    expect(createHash('sha256').update(got).digest('hex')).toBe(identity.slice(2, 66));
    const receipt = await h.app.db.selectFrom('disclosure_receipts').selectAll().where('disclosure_id', '=', id).executeTakeFirstOrThrow();
    expect(receipt).toMatchObject({ file_hash: identity, receiver_phone: receiver, agreement_hash: createHash('sha256').update(AGREEMENT_TEXT).digest('hex') });
    const entry = await h.app.db.selectFrom('ledger_entries').selectAll().where('dna', '=', receipt.dna).executeTakeFirstOrThrow();
    expect(entry).toMatchObject({ kind: 'receipt', file_hash: identity, registrant_user_id: null, enterprise_name: '披露测试有限公司' });
    const detail = await h.request({ method: 'GET', url: `/api/v2/disclosures/records/${id}`, cookie: owner.cookie });
    expect(detail.json().data.record.events.map((e: { kind: string }) => e.kind)).toEqual(['sent', 'identity_verified', 'agreement_accepted', 'identity_verified', 'agreement_accepted', 'downloaded']);
    expect(detail.json().data.disclosure_status).toBe(4);
    expect(detail.json().data.record.events.at(-1).receipt_dna).toBe(receipt.dna);
  });

  it('revoked and expired disclosures are dead (status above 4): no code, no link, old links stop working', async () => {
    const { res, receiver } = await create();
    const id = res.json().data.disclosure_id as string;
    const cookie = await verify(id, receiver);
    await h.request({ method: 'PUT', url: `/api/v2/disclosures/receive/${id}`, cookie });
    const link = (await h.request({ method: 'GET', url: `/api/v2/disclosures/records/${id}/file-link`, cookie })).json().data.file_link as string;
    const revoked = await h.request({ method: 'PUT', url: `/api/v2/disclosures/records/${id}/revoke`, cookie: owner.cookie });
    expect(revoked.json().data.disclosure_status).toBe(6);
    expect((await fetch(`${base}${link}`, { headers: { cookie } })).status).toBe(404);
    expect((await h.request({ method: 'GET', url: `/api/v2/disclosures/records/${id}` })).json().data.disclosure_status).toBe(6);
    expect((await h.request({ method: 'POST', url: `/api/v2/disclosures/records/${id}/validation-code` })).statusCode).toBe(400);

    const dated = await create({ store_forever: false, expires_at: Date.now() + 400 });
    const datedId = dated.res.json().data.disclosure_id as string;
    expect((await h.request({ method: 'GET', url: `/api/v2/disclosures/records/${datedId}` })).json().data.disclosure_status).toBe(1);
    await new Promise((r) => setTimeout(r, 500));
    expect((await h.request({ method: 'GET', url: `/api/v2/disclosures/records/${datedId}` })).json().data.disclosure_status).toBe(5);
    const events = (await h.request({ method: 'GET', url: `/api/v2/disclosures/records/${datedId}`, cookie: owner.cookie })).json().data.record.events;
    expect(events.map((e: { kind: string }) => e.kind)).toEqual(['sent', 'expired']);
  });

  it('guessed ids get 404, and an address that keeps guessing is slowed down', async () => {
    await clearRateLimits(h.app);
    expect((await h.request({ method: 'GET', url: '/api/v2/disclosures/records/aaaaaaaaaaaaaaaaaaaaaaaaaa' })).statusCode).toBe(404);
    expect((await h.request({ method: 'GET', url: '/api/v2/disclosures/records/1' })).statusCode).toBe(404);
    let last = 0;
    for (let i = 0; i < 70; i++) last = (await h.request({ method: 'GET', url: `/api/v2/disclosures/records/x${i}` })).statusCode;
    expect(last).toBe(429);
    // Someone else's disclosure cannot be revoked.
    await clearRateLimits(h.app);
    const { res } = await create();
    const other = await ownerWithEnterprise(h, '别家有限公司');
    expect((await h.request({ method: 'PUT', url: `/api/v2/disclosures/records/${res.json().data.disclosure_id}/revoke`, cookie: other.cookie })).statusCode).toBe(404);
  });
});
