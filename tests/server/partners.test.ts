import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clearRateLimits, startHarness, type Harness } from './harness.ts';
import { operatorLogin } from './operator-helpers.ts';
import { ownerWithEnterprise } from './enterprise-helpers.ts';
import { DEFAULT_CONFIG, mergeConfig } from '../../core/config.ts';
import { PARTNER_SUBMISSIONS_PER_HOUR } from '../../core/partners.ts';
import { PublicFigures } from '../../server/services/partners.ts';

/** Partner recruitment: total, contracts (§5, §7), rate limit, operator list and export. */
let h: Harness;
let bare: Harness;
beforeAll(async () => {
  h = await startHarness({ cooperation: { name: '西安合作伙伴有限公司' } }, { addressLimitFactor: 1 });
  bare = await startHarness();
});
afterAll(async () => {
  await h?.close();
  await bare?.close();
});

const VALID = { enterprise_name: '秦岭数据科技有限公司', name: '李雷', contract_number: '13800138000', corporation: '渠道合作' };
const post = (harness: Harness, body: unknown, headers?: Record<string, string>) => harness.request({ method: 'POST', url: '/api/v1/partners/contracts', body, headers });
const stored = () => h.app.db.selectFrom('partner_contracts').selectAll().orderBy('id').execute();

describe('without a cooperation company', () => {
  it('answers 404 on both partner routes and stores nothing', async () => {
    const total = await bare.request({ method: 'GET', url: '/api/v1/partners/total' });
    expect(total.statusCode).toBe(404);
    const res = await post(bare, VALID);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'not_found' });
    expect(await bare.app.db.selectFrom('partner_contracts').selectAll().execute()).toEqual([]);
  });

  it('still serves the front-page figures', async () => {
    const res = await bare.request({ method: 'GET', url: '/api/v1/public/figures' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ registrations: 0, enterprises: 0, blocks: expect.any(Number) });
  });
});

describe('the deployment setting', () => {
  it('takes null or an object with a non-empty name, and refuses anything else', () => {
    expect(mergeConfig(DEFAULT_CONFIG, { cooperation: { name: ' 合作公司 ' } })).toMatchObject({ config: { cooperation: { name: '合作公司' } }, issues: [] });
    expect(mergeConfig(DEFAULT_CONFIG, { cooperation: null }).issues).toEqual([]);
    for (const bad of ['name', { name: '' }, { name: 3 }, { name: 'x', phone: '1' }, []]) {
      expect(mergeConfig(DEFAULT_CONFIG, { cooperation: bad }).issues.map((i) => i.path)).toEqual(['cooperation']);
    }
  });
});

describe('GET /api/v1/partners/total', () => {
  it('counts the enterprises, cached', async () => {
    const before = (await h.request({ method: 'GET', url: '/api/v1/partners/total' })).json().data.total;
    expect(before).toBe(0);
    await ownerWithEnterprise(h, `合作统计企业${process.pid}`);
    // A fresh counter sees the new enterprise; the route's cache answers the old figure for a minute.
    expect((await new PublicFigures(h.app.db).get()).enterprises).toBe(1);
    const cached = await h.request({ method: 'GET', url: '/api/v1/partners/total' });
    expect(cached.statusCode).toBe(200);
    expect(cached.json()).toEqual({ data: { total: 0 } });
    expect(cached.headers['cache-control']).toBe('public, max-age=60');
  });

  it('expires the cache after its time', async () => {
    const figures = new PublicFigures(h.app.db, 1000);
    const first = await figures.get(0);
    await h.app.db.insertInto('enterprises').values({ name: `缓存企业${process.pid}`, license_no: `91610000${process.pid}`.slice(0, 18), legal_person: '张三', license_image_id: '', channel: 1, apply_book_id: null, organization_code_certificate_id: null, verify_status: 2, invitation_code: `C${process.pid}`.slice(0, 8).padEnd(8, 'X'), created_by: 1, created_at: Date.now(), updated_at: Date.now() }).execute();
    expect((await figures.get(500)).enterprises).toBe(first.enterprises);
    expect((await figures.get(Date.now() + 5000)).enterprises).toBe(first.enterprises + 1);
  });
});

describe('POST /api/v1/partners/contracts', () => {
  it('stores a valid application, trimmed', async () => {
    await clearRateLimits(h.app);
    const res = await post(h, { ...VALID, name: '  李雷  ' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ data: null });
    const rows = await stored();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ ...VALID, name: '李雷' });
  });

  it('§5: each of the four fields is required, answered on its field', async () => {
    await clearRateLimits(h.app);
    for (const field of ['enterprise_name', 'name', 'contract_number', 'corporation'] as const) {
      for (const value of [undefined, '', '   ']) {
        const body: Record<string, unknown> = { ...VALID };
        if (value === undefined) delete body[field];
        else body[field] = value;
        const res = await post(h, body);
        expect(res.statusCode, `${field}=${String(value)}`).toBe(400);
        expect(res.json()).toEqual({ message: 'required', field_name: field });
      }
    }
    expect(await stored()).toHaveLength(1);
  });

  it('§5: the phone is exactly 11 digits', async () => {
    for (const phone of ['1380013800', '138001380000', '1380013800a', '+8613800138000', '138 0013 8000']) {
      const res = await post(h, { ...VALID, contract_number: phone });
      expect(res.statusCode, phone).toBe(400);
      expect(res.json()).toEqual({ message: 'phone_invalid', field_name: 'contract_number' });
    }
  });

  it('refuses overlong text, unknown fields and wrong types without a 500', async () => {
    expect((await post(h, { ...VALID, enterprise_name: '企'.repeat(101) })).json()).toEqual({ message: 'lt', field_name: 'enterprise_name' });
    expect((await post(h, { ...VALID, extra: 1 })).statusCode).toBe(400);
    expect((await post(h, { ...VALID, name: { $ne: 1 } })).statusCode).toBe(400);
    expect((await post(h, 'garbage', { 'content-type': 'application/json' })).statusCode).toBe(400);
    expect(await stored()).toHaveLength(1);
  });

  it('is rate-limited per address', async () => {
    await clearRateLimits(h.app);
    const before = (await stored()).length;
    for (let i = 0; i < PARTNER_SUBMISSIONS_PER_HOUR; i++) expect((await post(h, { ...VALID, name: `联系人${i}` })).statusCode).toBe(200);
    const refused = await post(h, VALID);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ message: 'too_frequent_operation' });
    expect(await stored()).toHaveLength(before + PARTNER_SUBMISSIONS_PER_HOUR);
  });
});

describe('the operator console', () => {
  let operator: string;
  beforeAll(async () => {
    operator = await operatorLogin(h, `partners-op-${process.pid}`);
    await clearRateLimits(h.app);
    await post(h, { ...VALID, enterprise_name: '=HYPERLINK("http://x")', name: '逗号,"引号"' });
  });

  it('is for operators only', async () => {
    expect((await h.request({ method: 'GET', url: '/api/v1/operator/partner-contracts' })).statusCode).toBeGreaterThanOrEqual(400);
    expect((await h.request({ method: 'GET', url: '/api/v1/operator/partner-contracts/export?format=csv' })).statusCode).toBeGreaterThanOrEqual(400);
  });

  it('lists the applications newest first, paged', async () => {
    const res = await h.request({ method: 'GET', url: '/api/v1/operator/partner-contracts?page=1&page_size=2', cookie: operator });
    expect(res.statusCode, res.body).toBe(200);
    const { items, total } = res.json().data;
    expect(total).toBe((await stored()).length);
    expect(items).toHaveLength(2);
    expect(items[0]).toMatchObject({ enterprise_name: '=HYPERLINK("http://x")', contract_number: VALID.contract_number });
    expect(Object.keys(res.json().data).sort()).toEqual(['items', 'page', 'page_size', 'total']);
    expect(items[0]).toEqual({ id: expect.any(Number), enterprise_name: expect.any(String), name: expect.any(String), contract_number: expect.any(String), corporation: expect.any(String), created_at: expect.any(Number) });
  });

  it('exports CSV (quoted, formulas neutralised) and XLSX, and audits the export', async () => {
    const csv = await h.request({ method: 'GET', url: '/api/v1/operator/partner-contracts/export?format=csv', cookie: operator });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['content-disposition']).toMatch(/attachment; filename="partners-\d{4}-\d{2}-\d{2}\.csv"/);
    const lines = csv.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe('id,created_at,enterprise_name,name,contract_number,corporation');
    expect(lines).toHaveLength((await stored()).length + 1);
    expect(lines[1]).toContain(`"'=HYPERLINK(""http://x"")","逗号,""引号""",13800138000,渠道合作`);

    const xlsx = await h.request({ method: 'GET', url: '/api/v1/operator/partner-contracts/export?format=xlsx', cookie: operator });
    expect(xlsx.statusCode).toBe(200);
    const XLSX = await import('@e965/xlsx');
    const book = XLSX.read(xlsx.rawPayload, { type: 'buffer' });
    const rows = XLSX.utils.sheet_to_json<string[]>(book.Sheets[book.SheetNames[0]!]!, { header: 1 });
    expect(rows[0]).toEqual(['id', 'created_at', 'enterprise_name', 'name', 'contract_number', 'corporation']);
    expect(rows[1]?.[2]).toBe(`'=HYPERLINK("http://x")`);
    expect(rows).toHaveLength((await stored()).length + 1);

    const audit = await h.app.db.selectFrom('operator_audit').select(['action', 'detail']).where('action', '=', 'partner_contracts_exported').execute();
    expect(audit).toHaveLength(2);

    expect((await h.request({ method: 'GET', url: '/api/v1/operator/partner-contracts/export?format=pdf', cookie: operator })).statusCode).toBe(400);
  });
});
