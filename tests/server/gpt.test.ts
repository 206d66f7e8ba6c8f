import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { clearRateLimits, startHarness, type Harness } from './harness.ts';
import { memberOf, ownerWithEnterprise } from './enterprise-helpers.ts';
import { giveCredits } from './credit-helpers.ts';
import { createApplication } from './application-helpers.ts';
import { SMS_TYPES } from '../../core/constants.ts';
import { readLlmEnv } from '../../server/gpt/config.ts';
import { maskSensitive } from '../../server/gpt/mask.ts';
import { tokenize } from '../../server/gpt/help-index.ts';
import type { GptCitation, GptStreamEvent } from '../../core/gpt.ts';

/**
 * The chat assistant on a real server and database: the built-in engine in zh, en
 * and ja, the OpenAI-compatible engine against a local HTTP server that streams chunks and
 * tool calls (the only test double: no model is reachable here), every tool scoped to the
 * caller (§6), masking before any outside call, limits and the conversation API.
 */
vi.setConfig({ testTimeout: 120_000, hookTimeout: 180_000 });

type Who = { cookie: string; phone: string };

function newIdentity(ext: string): string {
  return `0x${createHash('sha256').update(randomBytes(16)).digest('hex')}${ext}`;
}

/** The `data:` events of an event-stream body, and whether it carried keep-alive comments. */
function events(body: string): GptStreamEvent[] {
  return body
    .split('\n')
    .filter((l) => l.startsWith('data: '))
    .map((l) => JSON.parse(l.slice(6)) as GptStreamEvent);
}
function answerOf(body: string): { text: string; done: Extract<GptStreamEvent, { done: true }> | undefined; tools: string[] } {
  const list = events(body);
  return {
    text: list.map((e) => ('delta' in e ? e.delta : '')).join(''),
    done: list.find((e): e is Extract<GptStreamEvent, { done: true }> => 'done' in e),
    tools: list.flatMap((e) => ('tool' in e ? [e.tool] : [])),
  };
}

async function setUp(h: Harness, tag: string) {
  const owner = await ownerWithEnterprise(h, `助手测试企业${process.pid}-${tag}`);
  const alice = await memberOf(h, owner, 0);
  const bob = await memberOf(h, owner, 0);
  for (const who of [alice, bob]) await giveCredits(h, owner, who, 2 * h.app.config.credits.assetRegistration + h.app.config.credits.vaultFile);
  const register = async (who: Who, name: string) => {
    const res = await h.request({ method: 'POST', url: '/api/v1/assets', cookie: who.cookie, body: { name, type: 1, file_hash: newIdentity('.bin'), size: 10 } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { dip_id: string; file_hash: string };
  };
  const aliceAsset = await register(alice, '合同草案.bin');
  const bobAsset = await register(bob, 'bob-design.psd');
  // Alice's vault: unlocked with her SMS code, a project, one file.
  await clearRateLimits(h.app);
  await h.request({ method: 'GET', url: `/api/v1/validation/private-code?type=${SMS_TYPES.vaultUnlock}`, cookie: alice.cookie });
  const unlocked = await h.request({ method: 'POST', url: '/api/v1/vault/authorization', cookie: alice.cookie, body: { new_phone_number: alice.phone, validation_code: await h.latestCode(alice.phone) } });
  expect(unlocked.statusCode, unlocked.body).toBe(200);
  const project = await h.request({ method: 'POST', url: '/api/v1/vault/projects', cookie: alice.cookie, body: { name: '秘方项目', description: '' } });
  expect(project.statusCode, project.body).toBe(200);
  const projectId = project.json().data.project_id ?? project.json().data.id;
  const file = await h.request({ method: 'POST', url: `/api/v1/vault/projects/${projectId}/files`, cookie: alice.cookie, body: { name: '配方说明.docx', file_hash: newIdentity('.docx'), size: 99 } });
  expect(file.statusCode, file.body).toBe(200);
  await h.app.ledger.sealNow();
  await h.app.proofs.drain();
  return { owner, alice, bob, aliceAsset, bobAsset };
}

async function newConversation(h: Harness, who: Who): Promise<number> {
  const res = await h.request({ method: 'POST', url: '/api/v1/gpt/conversations', cookie: who.cookie });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.id;
}

async function ask(h: Harness, who: Who, content: string, lang: 'zh' | 'en' | 'ja', extra: Record<string, unknown> = {}, id?: number) {
  await clearRateLimits(h.app);
  const conversation = id ?? (await newConversation(h, who));
  const res = await h.request({ method: 'POST', url: `/api/v1/gpt/conversations/${conversation}/messages`, cookie: who.cookie, body: { content, ...extra }, headers: { 'accept-language': lang } });
  expect(res.statusCode, res.body).toBe(200);
  return { ...answerOf(res.body), res, conversation };
}

describe('the built-in engine (help pages and tools, no outside service)', () => {
  let h: Harness;
  let d: Awaited<ReturnType<typeof setUp>>;
  beforeAll(async () => {
    process.env.GPT_BUILTIN_CHUNK_MS = '0';
    h = await startHarness({}, {});
    await h.app.ledger.stop();
    d = await setUp(h, 'builtin');
  });
  afterAll(async () => {
    await h?.close();
  });

  it('says what it is', async () => {
    const info = await h.request({ method: 'GET', url: '/api/v1/gpt/info', cookie: d.alice.cookie });
    expect(info.json().data).toEqual({ engine: 'builtin', model: null, sends_enterprise_data: false });
  });

  it('answers §8 errors, credits and verification in zh, en and ja from the help pages, citing them', async () => {
    const zh = await ask(h, d.alice, '提示“原文件与存证文件不匹配”是什么意思？怎么办？', 'zh');
    expect(zh.text).toContain('原文件与存证文件不匹配');
    expect(zh.text).toContain('请选择登记时的原始文件');
    expect(zh.done?.citations.some((c: GptCitation) => c.kind === 'help' && c.link === '/verify-file')).toBe(true);
    expect(zh.res.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(zh.res.body.startsWith(': open')).toBe(true);

    const zhCredits = await ask(h, d.alice, '登记一个资产要花多少积分？', 'zh');
    expect(zhCredits.text).toContain(`${h.app.config.credits.assetRegistration} 积分`);

    const en = await ask(h, d.alice, 'What does "Not enough credits, please top up" mean?', 'en');
    expect(en.text).toContain('Not enough credits, please top up');
    expect(en.text).toMatch(/administrator/);
    const enVerify = await ask(h, d.alice, 'How does verification work?', 'en');
    expect(enVerify.text).toContain('verification centre');
    expect(enVerify.text).toContain('PDF proof');

    const ja = await ask(h, d.alice, '検証はどのように行われますか？', 'ja');
    expect(ja.text).toContain('検証センター');
    expect(ja.done?.citations[0]).toMatchObject({ kind: 'help', link: '/verify-file' });
    const jaCredits = await ask(h, d.alice, 'クレジットが不足していますと表示されました。どうすればいいですか', 'ja');
    expect(jaCredits.text).toContain('クレジットが不足しています');
    expect(jaCredits.text).toContain('管理者');
    const jaLogin = await ask(h, d.alice, 'アカウントは凍結されていますと出ました', 'ja');
    expect(jaLogin.text).toContain('凍結');
  });

  it('answers "my latest proof" in each language with the asset name, DNA, proof date and link', async () => {
    const zh = await ask(h, d.alice, '我最新的存证是什么？', 'zh');
    expect(zh.tools).toContain('search_my_registrations');
    // Alice's newest registration is her vault file; ask for assets by name too.
    expect(zh.text).toMatch(/配方说明\.docx|合同草案\.bin/);
    const asset = zh.done!.citations.find((c) => c.dna);
    expect(asset?.link).toMatch(/^\/dashboard\/(asset\/detail\/pv|vault\/project\/\d+)/);
    expect(asset?.proof_at).toBeGreaterThan(0);
    expect(zh.text).toContain('证书已于');

    const en = await ask(h, d.alice, 'Show my latest proof', 'en');
    expect(en.text).toContain('Your latest registration');
    expect(en.text).toContain('proof generated');
    const ja = await ask(h, d.alice, '最新の証明書を教えて', 'ja');
    expect(ja.text).toContain('最新の登録');

    const byName = await ask(h, d.alice, '找一下名为“合同草案”的资产', 'zh');
    expect(byName.text).toContain('合同草案.bin');
    expect(byName.text).toContain(d.aliceAsset.dip_id);
    expect(byName.text).toContain(`/dashboard/asset/detail/${d.aliceAsset.dip_id}`);
  });

  describe('every tool runs as the caller: a member never receives another member’s data', () => {
    it('search_my_registrations', async () => {
      const r = await ask(h, d.bob, '找一下名为“合同草案”的资产', 'zh');
      expect(r.tools).toEqual(['search_my_registrations']);
      expect(r.text).not.toContain('合同草案.bin');
      expect(r.text).not.toContain(d.aliceAsset.dip_id);
      expect(r.done?.citations.filter((c) => c.dna)).toEqual([]);
      const mine = await ask(h, d.bob, 'my recent assets', 'en');
      expect(mine.text).toContain('bob-design.psd');
      expect(mine.text).not.toMatch(/合同草案|配方说明/);
    });

    it('proof_status', async () => {
      const theirs = await ask(h, d.bob, `DNA ${d.aliceAsset.dip_id} 的状态？`, 'zh');
      expect(theirs.tools).toEqual(['proof_status']);
      expect(theirs.text).not.toContain('合同草案');
      expect(theirs.text).toContain('没有找到');
      const own = await ask(h, d.alice, `status of ${d.aliceAsset.dip_id}`, 'en');
      expect(own.text).toContain('合同草案.bin');
      expect(own.text).toContain('valid until');
      // The owner (role 1) sees the whole company's, as on the asset screens.
      const admin = await ask(h, d.owner, `${d.aliceAsset.dip_id} の状態`, 'ja');
      expect(admin.text).toContain('合同草案.bin');
    });

    it('credit_balance', async () => {
      const bob = await ask(h, d.bob, '我的积分余额和记录', 'zh');
      expect(bob.tools).toEqual(['credit_balance']);
      const expected = 2 * h.app.config.credits.assetRegistration + h.app.config.credits.vaultFile - h.app.config.credits.assetRegistration;
      expect(bob.text).toContain(`**${expected}**`);
      expect(bob.text).toContain('bob-design.psd');
      expect(bob.text).not.toMatch(/合同草案|配方说明/);
      const alice = await ask(h, d.alice, 'my credit history', 'en');
      expect(alice.text).toContain('合同草案.bin');
      expect(alice.text).not.toContain('bob-design');
    });

    it('vault_activity (roles 1, 2 and 3 only)', async () => {
      const bob = await ask(h, d.bob, '保险箱最近的操作记录', 'zh');
      expect(bob.tools).toEqual(['vault_activity']);
      expect(bob.text).toContain('只有管理员');
      expect(bob.text).not.toContain('秘方项目');
      const owner = await ask(h, d.owner, 'recent vault activity', 'en');
      expect(owner.text).toContain('秘方项目');
      expect(owner.text).toContain('registered a file');
    });

    it('application_states (a member sees only the applications they own)', async () => {
      await createApplication(h, d.owner.cookie, { name: '产线数据采集' });
      const bob = await ask(h, d.bob, '我的外部应用状态怎么样？', 'zh');
      expect(bob.tools).toEqual(['application_states']);
      expect(bob.text).not.toContain('产线数据采集');
      expect(bob.text).toContain('没有可查看的外部应用');
      const owner = await ask(h, d.owner, 'What is the status of my applications?', 'en');
      expect(owner.tools).toEqual(['application_states']);
      expect(owner.text).toContain('产线数据采集');
      expect(owner.text).toContain('not connected');
      expect(owner.done?.citations.find((c) => c.kind === 'application')?.link).toMatch(/^\/dashboard\/application\/detail\/\d+$/);
      const ja = await ask(h, d.owner, '外部アプリの接続状態は？', 'ja');
      expect(ja.text).toContain('未接続');
    });

    it('explain_verification runs the real verifier on the attached proof and tells nothing of the registrant', async () => {
      const pdf = await h.request({ method: 'GET', url: `/api/v1/assets/${d.aliceAsset.dip_id}/proof`, cookie: d.alice.cookie });
      expect(pdf.statusCode).toBe(200);
      const proof_base64 = Buffer.from(pdf.rawPayload).toString('base64');
      const good = await ask(h, d.alice, '这个证书为什么验证不通过？', 'zh', { attachment: { name: 'proof.pdf', proof_base64, original_hash: d.aliceAsset.file_hash } });
      expect(good.tools).toContain('explain_verification');
      expect(good.text).toMatch(/全部 \d+ 项检查通过/);
      expect(good.text).toContain(d.aliceAsset.dip_id);
      // Bob holds Alice's certificate but not her file: the verifier says they do not match, and nothing of hers from the database.
      const bad = await ask(h, d.bob, 'Why does this proof fail?', 'en', { attachment: { name: 'proof.pdf', proof_base64, original_hash: newIdentity('.bin') } });
      expect(bad.text).toContain('The original file and the proof file do not match');
      expect(bad.text).toContain('`file_hash`');
      expect(bad.text).not.toContain('合同草案');
      const broken = await ask(h, d.bob, '検証に失敗した理由は？', 'ja', { attachment: { name: 'x.pdf', proof_base64: Buffer.from('%PDF-1.4 nothing').toString('base64'), original_hash: newIdentity('.bin') } });
      expect(broken.text).toMatch(/証明書を解析できません|証明ファイルがないか/);
    });
  });

  it('lists, searches, renames, continues and deletes only the caller’s own conversations', async () => {
    const first = await ask(h, d.alice, 'How does verification work?', 'en');
    const list = await h.request({ method: 'GET', url: '/api/v1/gpt/conversations?keyword=verification', cookie: d.alice.cookie });
    const item = list.json().data.items.find((c: { id: number }) => c.id === first.conversation);
    expect(item).toMatchObject({ title: 'How does verification work?', message_count: 2 });
    expect(item.last_message_at).toBeGreaterThan(0);
    // Search reads the messages too.
    expect((await h.request({ method: 'GET', url: '/api/v1/gpt/conversations?keyword=PDF%20proof', cookie: d.alice.cookie })).json().data.items.map((c: { id: number }) => c.id)).toContain(first.conversation);
    expect((await h.request({ method: 'GET', url: '/api/v1/gpt/conversations?keyword=nothing-like-this', cookie: d.alice.cookie })).json().data.total).toBe(0);
    // Bob sees none of Alice's, and cannot read, rename, continue, regenerate or delete them.
    expect((await h.request({ method: 'GET', url: '/api/v1/gpt/conversations', cookie: d.bob.cookie })).json().data.items.map((c: { id: number }) => c.id)).not.toContain(first.conversation);
    const url = `/api/v1/gpt/conversations/${first.conversation}`;
    for (const [method, path, body] of [
      ['GET', url, undefined],
      ['PUT', url, { title: 'mine' }],
      ['POST', `${url}/messages`, { content: 'hi' }],
      ['POST', `${url}/regenerate`, undefined],
      ['PUT', `${url}/messages/last`, { content: 'hi' }],
      ['DELETE', url, undefined],
    ] as const) {
      const res = await h.request({ method, url: path, cookie: d.bob.cookie, ...(body ? { body } : {}) });
      expect(res.statusCode, `${method} ${path}`).toBe(400);
      expect(res.json()).toEqual({ message: 'not_found', field_name: 'id' });
    }
    // Rename (a blank title is refused on its field), then detail.
    expect((await h.request({ method: 'PUT', url, cookie: d.alice.cookie, body: { title: '  ' } })).json()).toEqual({ message: 'required', field_name: 'title' });
    expect((await h.request({ method: 'PUT', url, cookie: d.alice.cookie, body: { title: '验证问题' } })).statusCode).toBe(200);
    const detail = (await h.request({ method: 'GET', url, cookie: d.alice.cookie })).json().data;
    expect(detail.title).toBe('验证问题');
    expect(detail.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant']);
    expect(detail.messages[1]).toMatchObject({ status: 'done', engine: 'builtin' });
    expect(detail.messages[1].citations.length).toBeGreaterThan(0);

    // Regenerate replaces the last answer; editing the last question replaces both.
    await clearRateLimits(h.app);
    const again = await h.request({ method: 'POST', url: `${url}/regenerate`, cookie: d.alice.cookie, headers: { 'accept-language': 'en' } });
    expect(answerOf(again.body).done?.status).toBe('done');
    const afterRegenerate = (await h.request({ method: 'GET', url, cookie: d.alice.cookie })).json().data.messages;
    expect(afterRegenerate).toHaveLength(2);
    expect(afterRegenerate[1].id).toBe(answerOf(again.body).done?.message_id);
    const edited = await h.request({ method: 'PUT', url: `${url}/messages/last`, cookie: d.alice.cookie, body: { content: 'What do credits cost?' }, headers: { 'accept-language': 'en' } });
    expect(answerOf(edited.body).text).toContain(`${h.app.config.credits.assetRegistration} credits`);
    const afterEdit = (await h.request({ method: 'GET', url, cookie: d.alice.cookie })).json().data.messages;
    expect(afterEdit.map((m: { content: string }) => m.content)[0]).toBe('What do credits cost?');
    expect(afterEdit).toHaveLength(2);

    expect((await h.request({ method: 'DELETE', url, cookie: d.alice.cookie })).statusCode).toBe(200);
    expect((await h.request({ method: 'GET', url, cookie: d.alice.cookie })).statusCode).toBe(400);
    // Usage was recorded for every answer.
    const usage = await h.app.db.selectFrom('gpt_usage').select((eb) => eb.fn.countAll<number>().as('n')).where('engine', '=', 'builtin').executeTakeFirstOrThrow();
    expect(Number(usage.n)).toBeGreaterThan(10);
  });

  it('refuses bad input on its field, and a caller over the limits, before any answer', async () => {
    const id = await newConversation(h, d.alice);
    const post = (body: unknown) => h.request({ method: 'POST', url: `/api/v1/gpt/conversations/${id}/messages`, cookie: d.alice.cookie, body });
    expect((await post({ content: '   ' })).json()).toEqual({ message: 'required', field_name: 'content' });
    expect((await post({})).json()).toEqual({ message: 'required', field_name: 'content' });
    expect((await post({ content: 'x'.repeat(4001) })).json()).toEqual({ message: 'lt', field_name: 'content' });
    expect((await post({ content: 'why', attachment: { name: 'p.pdf', proof_base64: 'AAAA', original_hash: 'nope' } })).json()).toEqual({ message: 'verify_file_not_found', field_name: 'original_hash' });
    expect((await h.request({ method: 'POST', url: '/api/v1/gpt/conversations/abc/messages', cookie: d.alice.cookie, body: { content: 'x' } })).statusCode).toBe(400);
    expect((await h.request({ method: 'POST', url: `/api/v1/gpt/conversations/${id}/messages`, body: { content: 'x' } })).json()).toMatchObject({ message: 'token_invalid' });

    // Per-user questions a minute.
    const user = await h.app.db.selectFrom('users').select('id').where('phonenumber', '=', d.alice.phone).executeTakeFirstOrThrow();
    await clearRateLimits(h.app);
    await h.app.db.insertInto('rate_limits').values({ key: `gpt:user:${user.id}`, window_start: Date.now(), count: h.app.env.llm.userPerMinute }).execute();
    expect((await post({ content: 'hello' })).json()).toEqual({ message: 'too_frequent_operation', field_name: 'content' });
    await clearRateLimits(h.app);
    // The enterprise's monthly token budget.
    const employee = await h.app.db.selectFrom('employees').select(['enterprise_id', 'user_id']).where('user_id', '=', user.id).executeTakeFirstOrThrow();
    const row = await h.app.db
      .insertInto('gpt_usage')
      .values({ enterprise_id: employee.enterprise_id, user_id: employee.user_id, conversation_id: null, engine: 'openai', model: 'm', prompt_tokens: h.app.env.llm.monthlyTokens, completion_tokens: 0, created_at: Date.now() })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect((await post({ content: 'hello' })).json()).toEqual({ message: 'assistant_budget_exhausted', field_name: 'content' });
    await h.app.db.deleteFrom('gpt_usage').where('id', '=', row.id).execute();
    // Nothing was stored for the refused questions.
    expect((await h.request({ method: 'GET', url: `/api/v1/gpt/conversations/${id}`, cookie: d.alice.cookie })).json().data.messages).toEqual([]);
  });

  it('a client that goes away stops the answer, which is kept as stopped', async () => {
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (h.app.server.address() as AddressInfo).port;
    const id = await newConversation(h, d.alice);
    await clearRateLimits(h.app);
    // The built-in engine paces its pieces here (GPT_BUILTIN_CHUNK_MS is 0 in this suite): a long answer still streams in many writes.
    const controller = new AbortController();
    const res = await fetch(`http://127.0.0.1:${port}/api/v1/gpt/conversations/${id}/messages`, {
      method: 'POST',
      signal: controller.signal,
      headers: { cookie: d.alice.cookie, 'content-type': 'application/json', 'accept-language': 'en' },
      body: JSON.stringify({ content: 'How does verification work?' }),
    });
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    const reader = res.body!.getReader();
    await reader.read();
    controller.abort();
    await expect.poll(async () => (await h.request({ method: 'GET', url: `/api/v1/gpt/conversations/${id}`, cookie: d.alice.cookie })).json().data.messages.length, { timeout: 5000 }).toBe(2);
    const [, answer] = (await h.request({ method: 'GET', url: `/api/v1/gpt/conversations/${id}`, cookie: d.alice.cookie })).json().data.messages;
    expect(['stopped', 'done']).toContain(answer.status);
  });
});

// ---- a local OpenAI-compatible server -------------------------------------------------

type Scripted = { chunks: unknown[]; delayMs?: number };
type FakeLlm = { url: string; requests: any[]; closedEarly: number; script: (body: any) => Scripted; close(): Promise<void> };

async function fakeLlm(): Promise<FakeLlm> {
  const fake: FakeLlm = {
    url: '',
    requests: [],
    closedEarly: 0,
    script: () => ({ chunks: [] }),
    close: async () => {},
  };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', async () => {
      if (req.url !== '/v1/chat/completions' || req.headers.authorization !== 'Bearer test-key') {
        res.writeHead(401).end('{"error":"unauthorized"}');
        return;
      }
      const body = JSON.parse(raw);
      fake.requests.push(body);
      const { chunks, delayMs = 0 } = fake.script(body);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let finished = false;
      res.on('close', () => {
        if (!finished) fake.closedEarly += 1;
      });
      for (const chunk of chunks) {
        if (res.destroyed) return;
        res.write(`data: ${JSON.stringify(chunk)}\n\n`);
        if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
      }
      res.write('data: [DONE]\n\n');
      finished = true;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  fake.close = () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); });
  return fake;
}

const text = (t: string) => ({ choices: [{ index: 0, delta: { content: t } }] });
/** A tool call streamed the way OpenAI does: id and name first, the arguments in pieces. */
const toolCall = (name: string, args: Record<string, unknown>) => {
  const json = JSON.stringify(args);
  const half = Math.floor(json.length / 2);
  return [
    { choices: [{ index: 0, delta: { role: 'assistant', tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name, arguments: '' } }] } }] },
    { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: json.slice(0, half) } }] } }] },
    { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: json.slice(half) } }] } }] },
    { choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
  ];
};
const usage = { choices: [], usage: { prompt_tokens: 120, completion_tokens: 30 } };

describe('the openai engine (an OpenAI-compatible endpoint, streaming, with tool calls)', () => {
  let h: Harness;
  let llm: FakeLlm;
  let d: Awaited<ReturnType<typeof setUp>>;
  beforeAll(async () => {
    llm = await fakeLlm();
    const llmEnv = readLlmEnv({ LLM_BASE_URL: llm.url, LLM_API_KEY: 'test-key', LLM_MODEL: 'test-model', GPT_KEEPALIVE_MS: '100' }, []);
    h = await startHarness({}, { llm: llmEnv });
    await h.app.ledger.stop();
    d = await setUp(h, 'openai');
  });
  afterAll(async () => {
    await h?.close();
    await llm?.close();
  });

  it('streams the model’s text, runs its tool calls as the caller and cites the results', async () => {
    llm.requests = [];
    llm.script = (body) => (body.messages.some((m: { role: string }) => m.role === 'tool') ? { chunks: [text('Your latest '), text('proof is '), text('ready.'), usage] } : { chunks: [...toolCall('search_my_registrations', { limit: 1 }), usage] });
    const r = await ask(h, d.alice, 'What is my latest proof?', 'en');
    expect(r.text).toBe('Your latest proof is ready.');
    expect(r.tools).toEqual(['search_my_registrations']);
    expect(r.done?.citations.find((c) => c.dna)).toMatchObject({ title: '合同草案.bin', link: `/dashboard/asset/detail/${d.aliceAsset.dip_id}` });
    expect(llm.requests).toHaveLength(2);
    const [first, second] = llm.requests;
    expect(first).toMatchObject({ model: 'test-model', stream: true });
    expect(first.tools.map((t: { function: { name: string } }) => t.function.name).sort()).toEqual(['application_states', 'credit_balance', 'proof_status', 'search_my_registrations']);
    expect(first.messages[0].content).toContain('Answer in English');
    // The tool result went back to the model, and (without LLM_ALLOW_ENTERPRISE_DATA) without the file name.
    const toolMessage = second.messages.find((m: { role: string }) => m.role === 'tool');
    expect(toolMessage.tool_call_id).toBe('call_1');
    expect(toolMessage.content).toContain(d.aliceAsset.dip_id);
    expect(JSON.stringify(llm.requests)).not.toContain('合同草案');
    expect(JSON.stringify(llm.requests)).not.toContain('配方说明');
    // Usage as the model reported it.
    const row = await h.app.db.selectFrom('gpt_usage').selectAll().where('conversation_id', '=', r.conversation).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ engine: 'openai', model: 'test-model', prompt_tokens: 240, completion_tokens: 60 });
    const info = await h.request({ method: 'GET', url: '/api/v1/gpt/info', cookie: d.alice.cookie });
    expect(info.json().data).toEqual({ engine: 'openai', model: 'test-model', sends_enterprise_data: false });
  });

  it('masks phones and ID numbers before the outside call', async () => {
    llm.requests = [];
    llm.script = () => ({ chunks: [text('ok')] });
    await ask(h, d.alice, '我的手机 13812345678，身份证 110105199001011234，怎么实名认证？', 'zh');
    const sent = JSON.stringify(llm.requests);
    expect(sent).not.toContain('13812345678');
    expect(sent).not.toContain('110105199001011234');
    expect(sent).toContain('138****5678');
    expect(sent).toContain('110***********1234');
    expect(maskSensitive('call +86 13912345678 or 13912345678; id 11010519900101123X; dna pv0123456789012345678901')).toBe('call +86 139****5678 or 139****5678; id 110***********123X; dna pv0123456789012345678901');
  });

  it('a tool the model asks for with another member’s DNA answers not found; tools the caller may not use are not offered', async () => {
    for (const [tool, args] of [
      ['proof_status', { dna: d.aliceAsset.dip_id }],
      ['search_my_registrations', { keyword: '合同' }],
      ['credit_balance', { history: 20 }],
      ['vault_activity', {}],
      ['explain_verification', {}],
    ] as const) {
      llm.requests = [];
      llm.script = (body) => (body.messages.some((m: { role: string }) => m.role === 'tool') ? { chunks: [text('done')] } : { chunks: toolCall(tool, args) });
      const r = await ask(h, d.bob, 'anything', 'en');
      expect(r.text).toBe('done');
      const toolContents = llm.requests.flatMap((b) => b.messages.filter((m: { role: string }) => m.role === 'tool').map((m: { content: string }) => m.content)).join('\n');
      expect(toolContents, tool).not.toContain(d.aliceAsset.dip_id);
      expect(JSON.stringify(llm.requests), tool).not.toContain('合同草案');
      expect(r.done?.citations.some((c) => c.dna === d.aliceAsset.dip_id)).toBe(false);
      const toolMessage = llm.requests[1].messages.find((m: { role: string }) => m.role === 'tool');
      if (tool === 'proof_status') expect(JSON.parse(toolMessage.content)).toEqual({ found: false });
      if (tool === 'search_my_registrations') expect(JSON.parse(toolMessage.content)).toEqual({ registrations: [] });
      if (tool === 'credit_balance') expect(JSON.parse(toolMessage.content).movements.every((m: { detail?: string }) => m.detail === undefined)).toBe(true);
      if (tool === 'vault_activity' || tool === 'explain_verification') expect(toolMessage.content).toContain('no tool named');
    }
  });

  it('stopping the answer cancels the request to the model, and keeps what came', async () => {
    llm.closedEarly = 0;
    llm.script = () => ({ chunks: Array.from({ length: 200 }, (_, i) => text(`word${i} `)), delayMs: 20 });
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (h.app.server.address() as AddressInfo).port;
    const id = await newConversation(h, d.alice);
    await clearRateLimits(h.app);
    const controller = new AbortController();
    const res = await fetch(`http://127.0.0.1:${port}/api/v1/gpt/conversations/${id}/messages`, {
      method: 'POST',
      signal: controller.signal,
      headers: { cookie: d.alice.cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ content: 'Tell me a long story' }),
    });
    const reader = res.body!.getReader();
    let got = '';
    const decoder = new TextDecoder();
    while (!got.includes('word3 ')) got += decoder.decode((await reader.read()).value);
    // Keep-alive comments arrive while the stream is open.
    await new Promise((r) => setTimeout(r, 150));
    while (!got.includes(': keep-alive')) got += decoder.decode((await reader.read()).value);
    controller.abort();
    await expect.poll(() => llm.closedEarly, { timeout: 5000 }).toBe(1);
    await expect.poll(async () => (await h.request({ method: 'GET', url: `/api/v1/gpt/conversations/${id}`, cookie: d.alice.cookie })).json().data.messages.length, { timeout: 5000 }).toBe(2);
    const answer = (await h.request({ method: 'GET', url: `/api/v1/gpt/conversations/${id}`, cookie: d.alice.cookie })).json().data.messages[1];
    expect(answer.status).toBe('stopped');
    expect(answer.content).toMatch(/^word0 word1 word2 word3 /);
    expect(answer.content).not.toContain('word199');
  });

  it('a failing endpoint gives an error event, never a hung stream', async () => {
    const broken = readLlmEnv({ LLM_BASE_URL: 'http://127.0.0.1:9/v1', LLM_MODEL: 'x' }, []);
    const h2 = await startHarness({}, { llm: broken });
    try {
      const owner = await ownerWithEnterprise(h2, `助手故障企业${process.pid}`);
      const r = await ask(h2, owner, 'hello', 'en');
      expect(events(r.res.body)).toContainEqual({ error: 'server error' });
      const detail = (await h2.request({ method: 'GET', url: `/api/v1/gpt/conversations/${r.conversation}`, cookie: owner.cookie })).json().data;
      expect(detail.messages[1].status).toBe('error');
    } finally {
      await h2.close();
    }
  });
});

describe('tokenizing Chinese and Japanese', () => {
  it('cuts CJK runs into characters and bigrams, Latin into words', () => {
    expect(tokenize('存证 Proofs')).toEqual(['存', '存证', '证', 'proof']);
    expect(tokenize('検証')).toEqual(['検', '検証', '証']);
  });
});
