import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clearRateLimits, startHarness, type Harness } from './harness.ts';
import { identityOf, memberOf, multipartBody, newCardNo, newLicence, newPhone, ownerWithEnterprise, pngBytes, realAuth, upload } from './enterprise-helpers.ts';
import { upsertOperator } from '../../server/services/operators.ts';
import { operatorLogin } from './operator-helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const expect400 = (res: { statusCode: number; json(): unknown }, message: string, field?: string) => {
  expect(res.statusCode).toBe(400);
  expect(res.json()).toEqual({ message, ...(field ? { field_name: field } : {}) });
};
const expect403 = (res: { statusCode: number; json(): unknown }) => {
  expect(res.statusCode).toBe(403);
  expect(res.json()).toEqual({ message: 'forbidden' });
};

async function login(phone: string) {
  await clearRateLimits(h.app);
  return h.request({ method: 'POST', url: '/api/v1/users', body: { login_id: phone, password: 'Passw0rdA' } });
}

describe('real-name authentication (manual)', () => {
  it('checks the ID number pattern and check digit, the name, and consistency with other accounts', async () => {
    const cookie = await h.register(newPhone());
    const post = (body: unknown) => h.request({ method: 'POST', url: '/api/v2/users/verified-token', body, cookie });
    expect400(await post({ card_no: '', name: '王五' }), 'required', 'card_no');
    expect400(await post({ card_no: '110105194912310021', name: '王五' }), 'identity_info_invalid', 'card_no');
    expect400(await post({ card_no: '11010519491231002X', name: ' ' }), 'required', 'name');
    const ok = await post({ card_no: ' 11010519491231002x ', name: '王五' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data).toMatchObject({ card_no: '11010519491231002X', real_name: '王五' });
    // Once proved, the identity does not change; and no other account may claim it.
    expect400(await post({ card_no: newCardNo(), name: '王五' }), 'modified_identity_info_wrong', 'card_no');
    const other = await h.register(newPhone());
    expect400(await h.request({ method: 'POST', url: '/api/v2/users/verified-token', body: { card_no: '11010519491231002X', name: '王五' }, cookie: other }), 'phone_real_name_inconsistent', 'card_no');
    expect((await h.request({ method: 'POST', url: '/api/v2/users/verified-token', body: { card_no: '11010519491231002X', name: '王五' } })).json()).toEqual({ message: 'token_invalid' });
  });
});

describe('small-file upload (§7)', () => {
  it('stores a file under its identity after checking hash, type by content and size', async () => {
    const cookie = await h.register(newPhone());
    const bytes = pngBytes('upload');
    const id = await upload(h, cookie, bytes, 'png');
    expect(id).toMatch(/^0x[0-9a-f]{64}\.png$/);
    const again = await h.request({ method: 'POST', url: '/api/v1/files/upload-request', body: { uuid: id }, cookie });
    expect(again.json().data).toEqual({ url: '/api/v1/files', body_params: { uuid: id }, exists: true });

    const post = async (uuid: string, file: Buffer, name = 'f.png') => {
      const { payload, contentType } = multipartBody({ uuid }, { name, bytes: file });
      return h.app.inject({ method: 'POST', url: '/api/v1/files', payload, headers: { cookie, 'content-type': contentType } });
    };
    // The answer, whole: the identity, the size and the type read from the content.
    const fresh = pngBytes('whole answer');
    expect((await post(identityOf(fresh, 'png'), fresh)).json()).toEqual({ data: { uuid: identityOf(fresh, 'png'), size: fresh.length, type: 'png' } });
    // An HTML page named .png is refused by its content.
    const html = Buffer.from('<html><script>alert(1)</script></html>');
    expect400(await post(identityOf(html, 'png'), html), 'file_type_unsupported', 'file');
    // A PNG claimed as a PDF, and content that does not hash to the identity.
    expect400(await post(identityOf(bytes, 'pdf'), bytes), 'file_type_unsupported', 'file');
    expect400(await post(identityOf(pngBytes('other'), 'png'), bytes), 'hash_mismatch', 'file');
    // 3 MB or more.
    const big = Buffer.concat([pngBytes('big'), Buffer.alloc(3 * 1024 * 1024)]);
    expect400(await post(identityOf(big, 'png'), big), 'file_too_large', 'file');
    expect400(await h.request({ method: 'POST', url: '/api/v1/files/upload-request', body: { uuid: identityOf(bytes, 'exe') }, cookie }), 'file_type_unsupported', 'uuid');
    expect400(await h.request({ method: 'POST', url: '/api/v1/files/upload-request', body: { uuid: 'nope' }, cookie }), 'invalid_param', 'uuid');
    const anonymous = multipartBody({ uuid: id }, { name: 'f.png', bytes });
    expect((await h.app.inject({ method: 'POST', url: '/api/v1/files', payload: anonymous.payload, headers: { 'content-type': anonymous.contentType } })).json()).toEqual({ message: 'token_invalid' });
  });
});

describe('create an enterprise, channel 1 (legal person)', () => {
  it('needs real-name auth, an uploaded licence, the legal person and the SMS code; nothing is half-written', async () => {
    const phone = newPhone();
    const cookie = await h.register(phone);
    const base = { name: '西安测试科技有限公司', license: newLicence(), legal_person: '赵六', validation_code: '123456' };
    const create = (body: unknown) => h.request({ method: 'POST', url: '/api/v1/enterprises/legal-person', body, cookie });
    expect400(await create({ ...base, license_image_id: identityOf(pngBytes('x'), 'png') }), 'user_not_real_name_verified', 'name');
    await realAuth(h, cookie, '赵六');
    expect400(await create({ ...base, license_image_id: identityOf(pngBytes('never-uploaded'), 'png') }), 'license_required', 'license_image_id');
    const image = await upload(h, cookie, pngBytes('licence-c1'), 'png');
    expect400(await create({ ...base, license_image_id: image, license: '123' }), 'len', 'license');
    expect400(await create({ ...base, license_image_id: image, name: '' }), 'required', 'name');
    expect400(await create({ ...base, license_image_id: image, legal_person: '别人' }), 'legal_person_not_match', 'legal_person');
    // OCR: Tesseract is not installed here, so recognition says it is unavailable and the UI asks for typing.
    const ocr = await h.request({ method: 'POST', url: '/api/v1/enterprises/ocr/license', body: { image_id: image }, cookie });
    if (!h.app.licenceOcr.isAvailable) expect400(ocr, 'recognition_unavailable', 'image_id');
    await clearRateLimits(h.app);
    expect((await h.request({ method: 'GET', url: '/api/v1/validation/private-code?type=17', cookie })).statusCode).toBe(200);
    const code = await h.latestCode(phone);
    expect400(await create({ ...base, license_image_id: image, validation_code: code === '000000' ? '111111' : '000000' }), 'validation_code_mismatch', 'validation_code');
    expect(await h.app.db.selectFrom('enterprises').selectAll().where('name', '=', base.name).execute()).toEqual([]);
    const ok = await create({ ...base, license_image_id: image, validation_code: code });
    expect(ok.statusCode).toBe(200);
    const company = ok.json().data;
    expect(company).toMatchObject({ name: base.name, verified: true, role: 1, is_admin: true, member_confirmed_status: 1 });
    expect(company.license).toMatch(/^\w{5}\*{10}\w{3}$/);
    expect(company.invitation_code).toMatch(/^[A-Z2-9]{8}$/);
    expect(company.companies).toEqual([{ enterprise_id: company.enterprise_id, enterprise_name: base.name, locked: false, member_confirmed_status: 1 }]);
    // The name is taken now.
    const other = await ownerWithEnterprise(h, '另一家公司').catch((e: Error) => e);
    expect(other).not.toBeInstanceOf(Error);
  });

  it('serves the channel-2 application form as a PDF', async () => {
    const cookie = await h.register(newPhone());
    const res = await h.request({ method: 'GET', url: `/api/v1/enterprises/application-form?name=${encodeURIComponent('某某公司')}`, cookie });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });
});

describe('join, review, freeze', () => {
  it('plays the story: apply by code, review state, approve, freeze blocks login, unfreeze restores it', async () => {
    const owner = await ownerWithEnterprise(h, '故事公司');
    const phone = newPhone();
    const cookie = await h.register(phone);
    const joinByCode = (code: string) => h.request({ method: 'POST', url: '/api/v2/enterprises/employees', body: { invitation_code: code }, cookie });
    expect400(await joinByCode(owner.company.invitation_code), 'user_not_real_name_verified', 'invitation_code');
    await realAuth(h, cookie, '李四');
    expect400(await joinByCode(''), 'required', 'invitation_code');
    expect400(await joinByCode('ZZZZZZZZ'), 'invitation_code_invalid', 'invitation_code');
    const applied = await joinByCode(owner.company.invitation_code.toLowerCase());
    expect(applied.statusCode).toBe(200);
    expect(applied.json().data).toMatchObject({ name: '故事公司', member_confirmed_status: 2, is_admin: false, invitation_code: '' });
    expect400(await joinByCode(owner.company.invitation_code), 'enterprise_already_join', 'invitation_code');
    // An applicant is no member yet.
    expect403(await h.request({ method: 'GET', url: '/api/v1/enterprises/employees', cookie }));

    const pending = await h.request({ method: 'GET', url: '/api/v1/enterprises/employees?status=2', cookie: owner.cookie });
    const [application] = pending.json().data.items;
    expect(application).toMatchObject({ phone, status: 2, role: 0, real_name: '李四' });
    const setStatus = (status: number, c = owner.cookie) => h.request({ method: 'PUT', url: '/api/v1/enterprises/employees', body: { employee_id: application.employee_id, status }, cookie: c });
    expect400(await setStatus(4), 'invalid_param', 'status');
    expect((await setStatus(1)).statusCode).toBe(200);
    const state = (await h.request({ method: 'GET', url: '/api/v1/enterprises', cookie })).json().data;
    expect(state).toMatchObject({ name: '故事公司', member_confirmed_status: 1 });

    expect((await setStatus(4)).statusCode).toBe(200);
    // Frozen: the session ended and login is refused with the §8 message.
    expect((await h.request({ method: 'GET', url: '/api/v1/users', cookie })).json()).toEqual({ message: 'token_invalid' });
    expect400(await login(phone), 'employee_locked', 'login_id');
    await clearRateLimits(h.app);
    await h.request({ method: 'GET', url: `/api/v1/validation/public-code?phonenumber=${phone}&type=14` });
    expect400(await h.request({ method: 'POST', url: '/api/v2/users', body: { login_id: phone, validation_code: await h.latestCode(phone) } }), 'employee_locked', 'login_id');
    expect((await setStatus(1)).statusCode).toBe(200);
    expect((await login(phone)).statusCode).toBe(200);
  });

  it('declined applicants see state 3 and may apply again; join by name needs an existing company', async () => {
    const owner = await ownerWithEnterprise(h, '按名称加入公司');
    const cookie = await h.register(newPhone());
    await realAuth(h, cookie, '钱七');
    const join = (name: string) => h.request({ method: 'POST', url: '/api/v1/enterprises/employees', body: { name }, cookie });
    expect400(await join(' '), 'required', 'name');
    expect400(await join('不存在的公司'), 'enterprise_not_found', 'name');
    expect((await join('按名称加入公司')).json().data.member_confirmed_status).toBe(2);
    const list = await h.request({ method: 'GET', url: '/api/v1/enterprises/employees?status=2', cookie: owner.cookie });
    const id = list.json().data.items[0].employee_id;
    await h.request({ method: 'PUT', url: '/api/v1/enterprises/employees', body: { employee_id: id, status: 3 }, cookie: owner.cookie });
    expect((await h.request({ method: 'GET', url: '/api/v1/enterprises', cookie })).json().data.member_confirmed_status).toBe(3);
    expect((await join('按名称加入公司')).json().data.member_confirmed_status).toBe(2);
  });
});

describe('members, invitations and codes', () => {
  it('searches and pages members', async () => {
    const owner = await ownerWithEnterprise(h, '分页公司');
    for (let i = 0; i < 3; i++) await memberOf(h, owner, 0);
    const page = await h.request({ method: 'GET', url: '/api/v1/enterprises/employees?page=2&page_size=2', cookie: owner.cookie });
    expect(page.json().data).toMatchObject({ total: 4, page: 2, page_size: 2 });
    expect(page.json().data.items).toHaveLength(2);
    const search = await h.request({ method: 'GET', url: `/api/v1/enterprises/employees?keyword=${encodeURIComponent('张三')}`, cookie: owner.cookie });
    expect(search.json().data.total).toBe(1);
    expect400(await h.request({ method: 'GET', url: '/api/v1/enterprises/employees?page_size=1000', cookie: owner.cookie }), 'lt', 'page_size');
  });

  it('adds a new member directly and invites an existing user, who accepts (2) or refuses (3)', async () => {
    const owner = await ownerWithEnterprise(h, '邀请公司');
    const add = (body: unknown) => h.request({ method: 'POST', url: '/api/v2/users/members', body, cookie: owner.cookie });
    const newbie = newPhone();
    expect400(await add({ phone: '123', name: 'A', password: 'Passw0rdA', role: 0 }), 'phone_invalid', 'phone');
    expect400(await add({ phone: newbie, name: 'A', password: 'weak', role: 0 }), 'password_too_short', 'password');
    expect((await add({ phone: newbie, name: '新人', password: 'Passw0rdA', role: 4 })).json().data).toMatchObject({ outcome: 'added' });
    expect((await login(newbie)).statusCode).toBe(200);
    expect400(await add({ phone: newbie, name: '新人', password: 'Passw0rdA', role: 0 }), 'enterprise_already_join', 'phone');

    const existing = newPhone();
    const cookie = await h.register(existing);
    await realAuth(h, cookie, '孙八');
    expect((await add({ phone: existing, name: '孙八', role: 2 })).json().data).toMatchObject({ outcome: 'invited' });
    const invited = (await h.request({ method: 'GET', url: '/api/v2/users/invitation/enterprise', cookie })).json().data;
    expect(invited).toMatchObject({ enterprise_name: '邀请公司', inviter: '测试用户' });
    const sent = (await h.request({ method: 'GET', url: '/api/v2/enterprises/invitations', cookie: owner.cookie })).json().data;
    expect(sent[0]).toMatchObject({ phone: existing, status: 1, role: 2 });
    // Another user cannot answer it.
    expect403(await h.request({ method: 'PUT', url: `/api/v2/users/invitation/${invited.invitation_id}`, body: { status: 2 }, cookie: owner.cookie }));
    expect400(await h.request({ method: 'PUT', url: `/api/v2/users/invitation/${invited.invitation_id}`, body: { status: 5 }, cookie }), 'invalid_param', 'status');
    const accepted = await h.request({ method: 'PUT', url: `/api/v2/users/invitation/${invited.invitation_id}`, body: { status: 2 }, cookie });
    expect(accepted.json().data).toMatchObject({ name: '邀请公司', role: 2, is_admin: true, member_confirmed_status: 1, invited_company: null });

    const refuser = newPhone();
    const refuserCookie = await h.register(refuser);
    await add({ phone: refuser, name: '周九', role: 0 });
    const inv = (await h.request({ method: 'GET', url: '/api/v2/users/invitation/enterprise', cookie: refuserCookie })).json().data;
    expect((await h.request({ method: 'PUT', url: `/api/v2/users/invitation/${inv.invitation_id}`, body: { status: 3 }, cookie: refuserCookie })).json().data).toMatchObject({ invited_company: null, companies: [] });

    // The name the administrator typed for an existing account (named 测试用户 by itself) is kept: on the invitation, and as the member's name here once accepted.
    const unnamed = newPhone();
    const unnamedCookie = await h.register(unnamed);
    await realAuth(h, unnamedCookie, '王五');
    await add({ phone: unnamed, name: '王经理', role: 0 });
    expect((await h.request({ method: 'GET', url: '/api/v2/enterprises/invitations', cookie: owner.cookie })).json().data[0]).toMatchObject({ phone: unnamed, name: '王经理' });
    const pending = (await h.request({ method: 'GET', url: '/api/v2/users/invitation/enterprise', cookie: unnamedCookie })).json().data;
    expect((await h.request({ method: 'PUT', url: `/api/v2/users/invitation/${pending.invitation_id}`, body: { status: 2 }, cookie: unnamedCookie })).statusCode).toBe(200);
    const members = (await h.request({ method: 'GET', url: `/api/v1/enterprises/employees?keyword=${encodeURIComponent('王经理')}`, cookie: owner.cookie })).json().data;
    expect(members.items).toEqual([expect.objectContaining({ phone: unnamed, name: '王经理' })]);
  });

  it('adds in bulk with a result per row', async () => {
    const owner = await ownerWithEnterprise(h, '批量公司');
    const a = newPhone();
    const res = await h.request({
      method: 'POST',
      url: '/api/v2/users/invitation/members',
      cookie: owner.cookie,
      body: { members: [{ phone: a, name: '甲', role: 0, password: 'Passw0rdA' }, { phone: 'bad', name: '乙', role: 0, password: 'Passw0rdA' }, { phone: a, name: '甲', role: 0, password: 'Passw0rdA' }] },
    });
    // One bad row imports nothing (all or nothing), and every row says what is wrong with it.
    expect(res.json().data).toEqual({
      imported: false,
      results: [
        { row: 1, phone: a, ok: true, outcome: 'added' },
        { row: 2, phone: 'bad', ok: false, message: 'phone_invalid', field_name: 'phone' },
        { row: 3, phone: a, ok: false, message: 'user_already_exist', field_name: 'phone' },
      ],
    });
    expect(await h.app.db.selectFrom('users').select('id').where('phonenumber', '=', a).executeTakeFirst()).toBeUndefined();
    // The corrected file imports every row in one transaction: a new account, and an invitation for an existing one.
    const existing = newPhone();
    await h.register(existing);
    const fixed = await h.request({
      method: 'POST',
      url: '/api/v2/users/invitation/members',
      cookie: owner.cookie,
      body: { members: [{ phone: a, name: '甲', role: 0, password: 'Passw0rdA' }, { phone: existing, name: '丙', role: 3 }] },
    });
    expect(fixed.json().data).toEqual({ imported: true, results: [{ row: 1, phone: a, ok: true, outcome: 'added' }, { row: 2, phone: existing, ok: true, outcome: 'invited' }] });
    const again = await h.request({ method: 'POST', url: '/api/v2/users/invitation/members', cookie: owner.cookie, body: { members: [{ phone: a, name: '甲', role: 9, password: 'x' }] } });
    expect(again.json().data.results).toEqual([{ row: 1, phone: a, ok: false, message: 'invalid_param', field_name: 'role' }]);
  });

  it('names members by user id, only within the displayed company (§7 employees/names)', async () => {
    const owner = await ownerWithEnterprise(h, '点名公司');
    const other = await ownerWithEnterprise(h, '别家公司');
    const m = await memberOf(h, owner, 0);
    const me = (await h.request({ method: 'GET', url: '/api/v1/users', cookie: owner.cookie })).json().data;
    const mine = (await h.request({ method: 'GET', url: '/api/v1/users', cookie: m.cookie })).json().data;
    const outsider = (await h.request({ method: 'GET', url: '/api/v1/users', cookie: other.cookie })).json().data;
    const res = await h.request({ method: 'GET', url: `/api/v1/enterprises/employees/names?user_ids=${mine.id}&user_ids=${me.id}&user_ids=${outsider.id}`, cookie: m.cookie });
    expect(res.json().data).toEqual([
      { user_id: me.id, name: me.name },
      { user_id: mine.id, name: mine.name },
    ].sort((a, b) => a.user_id - b.user_id));
    expect((await h.request({ method: 'GET', url: `/api/v1/enterprises/employees/names?user_ids=${outsider.id}`, cookie: owner.cookie })).json().data).toEqual([]);
    expect((await h.request({ method: 'GET', url: '/api/v1/enterprises/employees/names', cookie: owner.cookie })).statusCode).toBe(400);
    expect400(await h.request({ method: 'GET', url: '/api/v1/enterprises/employees/names?user_ids=abc', cookie: owner.cookie }), 'invalid_param', 'user_ids');
  });

  it('regenerates the invitation code; the old one stops working', async () => {
    const owner = await ownerWithEnterprise(h, '换码公司');
    const res = await h.request({ method: 'PUT', url: '/api/v1/enterprises/invitation-code', cookie: owner.cookie });
    const code = res.json().data.invitation_code;
    expect(code).toMatch(/^[A-Z2-9]{8}$/);
    expect(code).not.toBe(owner.company.invitation_code);
    const cookie = await h.register(newPhone());
    await realAuth(h, cookie, '吴十');
    expect400(await h.request({ method: 'POST', url: '/api/v2/enterprises/employees', body: { invitation_code: owner.company.invitation_code }, cookie }), 'invitation_code_invalid', 'invitation_code');
    expect((await h.request({ method: 'POST', url: '/api/v2/enterprises/employees', body: { invitation_code: code }, cookie })).statusCode).toBe(200);
  });

  it('switches the displayed company; locked ones cannot be chosen; one usable company is enough to log in', async () => {
    const first = await ownerWithEnterprise(h, '第一公司');
    const second = await ownerWithEnterprise(h, '第二公司');
    const m = await memberOf(h, first, 0);
    const joined = await h.request({ method: 'POST', url: '/api/v2/enterprises/employees', body: { invitation_code: second.company.invitation_code }, cookie: m.cookie });
    const secondId = joined.json().data.enterprise_id;
    const list = await h.request({ method: 'GET', url: '/api/v1/enterprises/employees?status=2', cookie: second.cookie });
    await h.request({ method: 'PUT', url: '/api/v1/enterprises/employees', body: { employee_id: list.json().data.items[0].employee_id, status: 1 }, cookie: second.cookie });
    const switched = await h.request({ method: 'PUT', url: '/api/v1/users/switch-enterprise', body: { enterprise_id: first.company.enterprise_id }, cookie: m.cookie });
    expect(switched.json().data.name).toBe('第一公司');
    expect(switched.json().data.companies).toHaveLength(2);
    expect403(await h.request({ method: 'PUT', url: '/api/v1/users/switch-enterprise', body: { enterprise_id: 999999 }, cookie: m.cookie }));
    // Frozen in the first company: it is locked in the list, and the second is displayed.
    await h.request({ method: 'PUT', url: '/api/v1/enterprises/employees', body: { employee_id: m.employeeId, status: 4 }, cookie: first.cookie });
    const state = (await h.request({ method: 'GET', url: '/api/v1/enterprises', cookie: m.cookie })).json().data;
    expect(state.name).toBe('第二公司');
    expect(state.companies.find((c: { enterprise_id: number }) => c.enterprise_id === first.company.enterprise_id).locked).toBe(true);
    expect400(await h.request({ method: 'PUT', url: '/api/v1/users/switch-enterprise', body: { enterprise_id: first.company.enterprise_id }, cookie: m.cookie }), 'employee_locked', 'enterprise_id');
    expect((await login(m.phone)).statusCode).toBe(200);
    expect(secondId).toBe(second.company.enterprise_id);
  });
});

describe('§6 authorisation matrix', () => {
  it('gives each role exactly what §6 allows, and 403 forbidden otherwise', async () => {
    const owner = await ownerWithEnterprise(h, '权限公司');
    const superAdmin = owner;
    const admin = await memberOf(h, owner, 2);
    const officer = await memberOf(h, owner, 3);
    const member = await memberOf(h, owner, 0);
    const member4 = await memberOf(h, owner, 4);
    const target = await memberOf(h, owner, 0);
    const outsiderOwner = await ownerWithEnterprise(h, '外部公司');
    const loner = await h.register(newPhone());
    await h.app.db.deleteFrom('operators').execute();
    const operator = await operatorLogin(h, 'ops-matrix');

    type Call = { name: string; method: string; url: string; body?: unknown };
    const calls: Record<string, Call> = {
      listMembers: { name: 'list members', method: 'GET', url: '/api/v1/enterprises/employees' },
      invitations: { name: 'invitations', method: 'GET', url: '/api/v2/enterprises/invitations' },
      freeze: { name: 'freeze', method: 'PUT', url: '/api/v1/enterprises/employees', body: { employee_id: target.employeeId, status: 4 } },
      unfreeze: { name: 'unfreeze', method: 'PUT', url: '/api/v1/enterprises/employees', body: { employee_id: target.employeeId, status: 1 } },
      role: { name: 'role', method: 'PUT', url: `/api/v2/users/members/${target.employeeId}`, body: { role: 0 } },
      addMember: { name: 'add', method: 'POST', url: '/api/v2/users/members', body: { phone: '12', name: 'x', role: 0 } },
      code: { name: 'code', method: 'PUT', url: '/api/v1/enterprises/invitation-code' },
      operatorList: { name: 'operator list', method: 'GET', url: '/api/v1/operator/applications' },
    };
    const who: Record<string, string> = {
      superAdmin: superAdmin.cookie,
      admin: admin.cookie,
      officer: officer.cookie,
      member: member.cookie,
      member4: member4.cookie,
      outsider: outsiderOwner.cookie,
      noCompany: loner,
      operator,
    };
    // Allowed calls per caller; every other combination must be 403 forbidden.
    const allowed: Record<string, string[]> = {
      superAdmin: ['listMembers', 'invitations', 'freeze', 'unfreeze', 'role', 'addMember', 'code'],
      admin: ['listMembers', 'invitations', 'freeze', 'unfreeze', 'role', 'addMember', 'code'],
      officer: ['listMembers'],
      member: [],
      member4: [],
      // The outsider administers its own company: target is not theirs (not_found), never a leak.
      outsider: ['listMembers', 'invitations', 'addMember', 'code'],
      noCompany: [],
      operator: ['operatorList'],
    };
    for (const [caller, cookie] of Object.entries(who)) {
      for (const [key, call] of Object.entries(calls)) {
        const res = await h.request({ method: call.method, url: call.url, body: call.body, cookie });
        const label = `${caller} → ${call.name}: ${res.statusCode} ${res.body.slice(0, 120)}`;
        if (allowed[caller]!.includes(key)) expect(res.statusCode, label).not.toBe(403);
        else if (caller === 'outsider' && ['freeze', 'unfreeze', 'role'].includes(key)) expect(res.json(), label).toEqual({ message: 'not_found', field_name: 'employee_id' });
        else if (caller === 'operator' && key !== 'operatorList') expect(res.json(), label).toEqual({ message: 'token_invalid' });
        else expect(res.statusCode, label).toBe(403);
      }
    }
    // The confidentiality officer sees all members; an admin cannot touch the super administrator nor grant role 1.
    expect((await h.request({ method: 'GET', url: '/api/v1/enterprises/employees', cookie: officer.cookie })).json().data.total).toBe(6);
    const ownerRow = (await h.request({ method: 'GET', url: '/api/v1/enterprises/employees?keyword=' + superAdmin.phone, cookie: admin.cookie })).json().data.items[0];
    expect403(await h.request({ method: 'PUT', url: '/api/v1/enterprises/employees', body: { employee_id: ownerRow.employee_id, status: 4 }, cookie: admin.cookie }));
    expect403(await h.request({ method: 'PUT', url: `/api/v2/users/members/${target.employeeId}`, body: { role: 1 }, cookie: admin.cookie }));
    expect((await h.request({ method: 'PUT', url: `/api/v2/users/members/${target.employeeId}`, body: { role: 1 }, cookie: superAdmin.cookie })).statusCode).toBe(200);
    // Nobody acts on themselves.
    expect403(await h.request({ method: 'PUT', url: '/api/v1/enterprises/employees', body: { employee_id: ownerRow.employee_id, status: 4 }, cookie: superAdmin.cookie }));
  });
});

describe('channel 2 and the operator console', () => {
  it('applicant uploads the signed form; operator rejects with a reason; recommit; operator approves', async () => {
    const phone = newPhone();
    const cookie = await h.register(phone);
    await realAuth(h, cookie, '代理人');
    const licence = await upload(h, cookie, pngBytes('licence-c2'), 'png');
    const form = await upload(h, cookie, Buffer.from('%PDF-1.4\nsigned form'), 'pdf');
    const base = { name: '渠道二公司', license: newLicence(), legal_person: '法人甲', license_image_id: licence };
    const apply = (body: unknown, method = 'POST', url = '/api/v1/enterprises/agent') => h.request({ method, url, body, cookie });
    expect400(await apply({ ...base, apply_book_id: '' }), 'required', 'apply_book_id');
    expect400(await apply({ ...base, legal_person: '代理人', apply_book_id: form }), 'invalid_param', 'channel');
    const applied = await apply({ ...base, apply_book_id: form, organization_code_certificate_id: null });
    expect(applied.json().data.application).toMatchObject({ name: '渠道二公司', status: 1, reason: '' });
    expect400(await apply({ ...base, apply_book_id: form }), 'application_pending', 'name');

    await upsertOperator(h.app.db, { loginId: 'ops', password: 'OperatorPass1' });
    expect400(await h.request({ method: 'POST', url: '/api/v1/operator/tokens', body: { login_id: 'ops', password: 'wrong' } }), 'invalid_password', 'password');
    const op = await operatorLogin(h, 'ops');
    // A user session is no operator session and vice versa.
    expect403(await h.request({ method: 'GET', url: '/api/v1/operator/applications', cookie }));
    const pending = (await h.request({ method: 'GET', url: '/api/v1/operator/applications?status=1', cookie: op })).json().data;
    const item = pending.find((a: { name: string }) => a.name === '渠道二公司');
    expect(item).toMatchObject({ applicant_phone: phone, apply_book_id: form });
    const file = await h.request({ method: 'GET', url: `/api/v1/operator/files/${form}`, cookie: op });
    expect(file.headers['content-type']).toBe('application/pdf');
    expect400(await h.request({ method: 'PUT', url: `/api/v1/operator/applications/${item.id}`, body: { status: 3 }, cookie: op }), 'required', 'reason');
    await h.request({ method: 'PUT', url: `/api/v1/operator/applications/${item.id}`, body: { status: 3, reason: '公章不清晰' }, cookie: op });
    expect((await h.request({ method: 'GET', url: '/api/v1/enterprises', cookie })).json().data.application).toMatchObject({ status: 3, reason: '公章不清晰' });

    const form2 = await upload(h, cookie, Buffer.from('%PDF-1.4\nsigned form, clearer'), 'pdf');
    expect((await apply({ ...base, apply_book_id: form2 }, 'PUT', '/api/v2/enterprises/agent')).json().data.application).toMatchObject({ status: 1, reason: '' });
    const approved = await h.request({ method: 'PUT', url: `/api/v1/operator/applications/${item.id}`, body: { status: 2 }, cookie: op });
    expect(approved.json().data).toMatchObject({ status: 2 });
    expect((await h.request({ method: 'GET', url: '/api/v1/enterprises', cookie })).json().data).toMatchObject({ name: '渠道二公司', verified: true, role: 1, application: { status: 2 } });
    // §7 employees/files: the enterprise's application files, paged; a plain member may not list them.
    const files = (await h.request({ method: 'GET', url: '/api/v1/enterprises/employees/files?page_id=1&page_size=10', cookie })).json().data;
    expect(files.items.map((f: { file_id: string; kind: string }) => [f.file_id, f.kind])).toEqual(expect.arrayContaining([[licence, 'license'], [form2, 'application_form']]));
    expect(files.items.find((f: { file_id: string }) => f.file_id === form2)).toMatchObject({ type: 'pdf', size: 'signed form, clearer'.length + 9 });
    const firstPage = (await h.request({ method: 'GET', url: '/api/v1/enterprises/employees/files?page_id=1&page_size=1', cookie })).json().data;
    const secondPage = (await h.request({ method: 'GET', url: '/api/v1/enterprises/employees/files?page_id=2&page_size=1', cookie })).json().data;
    expect([firstPage.total, firstPage.items.length, secondPage.items.length]).toEqual([files.total, 1, 1]);
    expect(secondPage.items[0].file_id).not.toBe(firstPage.items[0].file_id);
    expect400(await h.request({ method: 'GET', url: '/api/v1/enterprises/employees/files?page_size=1000', cookie }), 'lt', 'page_size');
    const company = (await h.request({ method: 'GET', url: '/api/v1/enterprises', cookie })).json().data;
    const plain = await memberOf(h, { cookie, company }, 0);
    expect403(await h.request({ method: 'GET', url: '/api/v1/enterprises/employees/files', cookie: plain.cookie }));
    await h.request({ method: 'DELETE', url: '/api/v1/operator/tokens', cookie: op });
    expect403(await h.request({ method: 'GET', url: '/api/v1/operator/me', cookie: op }));
  });
});

