import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { GPT_ATTACHMENT_MAX_BYTES, GPT_CONTENT_MAX, GPT_TITLE_MAX, type GptAttachment, type GptCitation, type GptConversationDetail, type GptConversationDto, type GptInfo, type GptMessageDto, type GptStreamEvent } from '../../../core/gpt.ts';
import type { Paged } from '../../../core/api-types.ts';
import { normalizeDigest } from '../../../core/ledger/package.ts';
import { fail } from '../../errors.ts';
import type { MemberContext } from '../../plugins/enterprises.ts';
import { requestLocale } from '../../locale.ts';
import { hit } from '../../services/rate-limit.ts';
import { body, idParam, pageOf, paging, SIGNED_IN } from '../schemas.ts';
import { buildHelpIndex } from '../../gpt/help-index.ts';
import { builtinEngine, openaiEngine, type Engine } from '../../gpt/engines.ts';
import type { ToolContext } from '../../gpt/tools.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The chat assistant's engine (built-in unless LLM_BASE_URL is set). */
    gptEngine: Engine;
  }
}

const attachmentSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', maxLength: 255 },
    // base64 of at most GPT_ATTACHMENT_MAX_BYTES
    proof_base64: { type: 'string', maxLength: Math.ceil(GPT_ATTACHMENT_MAX_BYTES / 3) * 4 },
    original_hash: { type: 'string', maxLength: 100 },
  },
  required: ['name', 'proof_base64', 'original_hash'],
  additionalProperties: false,
} as const;

const sendBody = body({ content: { type: 'string', maxLength: GPT_CONTENT_MAX }, attachment: attachmentSchema }, ['content']);
const editBody = body({ content: { type: 'string', maxLength: GPT_CONTENT_MAX } }, ['content']);
const renameBody = body({ title: { type: 'string', maxLength: GPT_TITLE_MAX } }, ['title']);
const listQuery = { type: 'object', properties: { ...paging, keyword: { type: 'string', maxLength: 100 } } } as const;

type ConversationRow = { id: number; title: string; created_at: number; last_message_at: number; user_id: number; enterprise_id: number };

function escapeLike(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function monthStart(now: number): number {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}

/**
 * The chat assistant. A member's conversations belong to them in their current
 * enterprise: nobody else reads, renames, continues or deletes them (another's id is
 * not_found). A question is answered as Server-Sent Events: `data:` lines with JSON
 * `{delta}` (and `{tool}` while a tool runs), then `{done, message_id, citations, status}`;
 * comment lines keep proxies from cutting a quiet stream. When the client goes away the
 * engine is aborted (the outside model's request too) and what came is kept as 'stopped'.
 */
export default async function gptRoutes(app: FastifyInstance) {
  const { db, env } = app;
  const help = buildHelpIndex(app.config);
  // The built-in answer is composed at once; it is sent in pieces at about the pace a language model writes (GPT_BUILTIN_CHUNK_MS between pieces).
  const chunkMs = Number(process.env.GPT_BUILTIN_CHUNK_MS ?? 25);
  app.decorate('gptEngine', env.llm.baseUrl ? openaiEngine(help, env.llm) : builtinEngine(help, { chunkMs: Number.isFinite(chunkMs) && chunkMs >= 0 ? chunkMs : 25 }));

  async function conversationOf(m: MemberContext, id: number): Promise<ConversationRow> {
    const row = await db
      .selectFrom('gpt_conversations')
      .select(['id', 'title', 'created_at', 'last_message_at', 'user_id', 'enterprise_id'])
      .where('id', '=', id)
      .where('user_id', '=', m.user.id)
      .where('enterprise_id', '=', m.employee.enterprise_id)
      .executeTakeFirst();
    if (!row) fail('not_found', 'id');
    return row;
  }

  async function messagesOf(conversationId: number): Promise<GptMessageDto[]> {
    const rows = await db.selectFrom('gpt_messages').selectAll().where('conversation_id', '=', conversationId).orderBy('id').execute();
    return rows.map((r) => ({
      id: Number(r.id),
      role: r.role as 'user' | 'assistant',
      content: r.content,
      citations: JSON.parse(r.citations) as GptCitation[],
      status: r.status as GptMessageDto['status'],
      engine: (r.engine as GptMessageDto['engine']) ?? null,
      created_at: Number(r.created_at),
    }));
  }

  app.get('/api/v1/gpt/info', { config: SIGNED_IN }, async (request) => {
    await app.requireMember(request, 'member');
    const engine = app.gptEngine;
    const data: GptInfo = { engine: engine.name, model: engine.model, sends_enterprise_data: engine.sendsEnterpriseData };
    return { data };
  });

  /** A new, empty conversation (its title comes from the first question). Takes no input. */
  app.post('/api/v1/gpt/conversations', { config: SIGNED_IN }, async (request) => {
    const m = await app.requireMember(request, 'member');
    const now = Date.now();
    const row = await db
      .insertInto('gpt_conversations')
      .values({ enterprise_id: m.employee.enterprise_id, user_id: m.user.id, title: '', created_at: now, last_message_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { data: { id: Number(row.id) } };
  });

  app.get<{ Querystring: { page?: number; page_size?: number; keyword?: string } }>('/api/v1/gpt/conversations', { config: SIGNED_IN, schema: { querystring: listQuery } }, async (request) => {
    const m = await app.requireMember(request, 'member');
    const { page, size, offset } = pageOf(request.query, app.config.tablePageSize);
    let q = db.selectFrom('gpt_conversations as c').where('c.user_id', '=', m.user.id).where('c.enterprise_id', '=', m.employee.enterprise_id);
    const keyword = request.query.keyword?.trim();
    if (keyword) {
      const like = escapeLike(keyword.toLowerCase());
      q = q.where((eb) =>
        eb.or([
          eb(sql`lower(c.title)`, 'like', sql`${like} escape '\\'`),
          eb.exists(eb.selectFrom('gpt_messages as gm').select('gm.id').whereRef('gm.conversation_id', '=', 'c.id').where(sql<boolean>`lower(gm.content) like ${like} escape '\\'`)),
        ]),
      );
    }
    const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const rows = await q
      .select(['c.id', 'c.title', 'c.created_at', 'c.last_message_at', (eb) => eb.selectFrom('gpt_messages as gm').select((e) => e.fn.countAll<number>().as('n')).whereRef('gm.conversation_id', '=', 'c.id').as('message_count')])
      .orderBy('c.last_message_at', 'desc')
      .orderBy('c.id', 'desc')
      .limit(size)
      .offset(offset)
      .execute();
    const items: GptConversationDto[] = rows.map((r) => ({ id: Number(r.id), title: r.title, created_at: Number(r.created_at), last_message_at: Number(r.last_message_at), message_count: Number(r.message_count ?? 0) }));
    const data: Paged<GptConversationDto> = { items, page, page_size: size, total: Number(total.n) };
    return { data };
  });

  app.get<{ Params: { id: number } }>('/api/v1/gpt/conversations/:id', { config: SIGNED_IN, schema: { params: idParam('id') } }, async (request) => {
    const m = await app.requireMember(request, 'member');
    const c = await conversationOf(m, request.params.id);
    const messages = await messagesOf(c.id);
    const data: GptConversationDetail = { id: Number(c.id), title: c.title, created_at: Number(c.created_at), last_message_at: Number(c.last_message_at), message_count: messages.length, messages };
    return { data };
  });

  app.put<{ Params: { id: number }; Body: { title: string } }>('/api/v1/gpt/conversations/:id', { config: SIGNED_IN, schema: { params: idParam('id'), body: renameBody } }, async (request) => {
    const m = await app.requireMember(request, 'member');
    const title = request.body.title.trim();
    if (!title) fail('required', 'title');
    const c = await conversationOf(m, request.params.id);
    await db.updateTable('gpt_conversations').set({ title }).where('id', '=', c.id).execute();
    return { data: { id: Number(c.id), title } };
  });

  app.delete<{ Params: { id: number } }>('/api/v1/gpt/conversations/:id', { config: SIGNED_IN, schema: { params: idParam('id') } }, async (request) => {
    const m = await app.requireMember(request, 'member');
    const c = await conversationOf(m, request.params.id);
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('gpt_messages').where('conversation_id', '=', c.id).execute();
      await trx.deleteFrom('gpt_conversations').where('id', '=', c.id).execute();
    });
    return { data: { id: Number(c.id) } };
  });

  /** Per-user and per-enterprise questions a minute, and the enterprise's tokens this month. */
  async function admit(m: MemberContext): Promise<void> {
    const now = Date.now();
    if (!(await hit(db, `gpt:user:${m.user.id}`, env.llm.userPerMinute, 60_000, now))) fail('too_frequent_operation', 'content');
    if (!(await hit(db, `gpt:enterprise:${m.employee.enterprise_id}`, env.llm.enterprisePerMinute, 60_000, now))) fail('too_frequent_operation', 'content');
    const used = await db
      .selectFrom('gpt_usage')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>(sql`prompt_tokens + completion_tokens`), sql<number>`0`).as('n'))
      .where('enterprise_id', '=', m.employee.enterprise_id)
      .where('created_at', '>=', monthStart(now))
      .executeTakeFirstOrThrow();
    if (Number(used.n) >= env.llm.monthlyTokens) fail('assistant_budget_exhausted', 'content');
  }

  function checkAttachment(a: GptAttachment | undefined): GptAttachment | undefined {
    if (!a) return undefined;
    if (!normalizeDigest(a.original_hash)) fail('verify_file_not_found', 'original_hash');
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(a.proof_base64) || a.proof_base64.length === 0) fail('no_proof_package', 'proof_base64');
    return a;
  }

  /**
   * Answers the conversation's last question as an event stream and stores the answer. The
   * user's message is already stored. Nothing is thrown once the stream has begun: a fault
   * becomes an `{error}` event and an answer with status 'error'.
   */
  async function stream(request: FastifyRequest, reply: FastifyReply, m: MemberContext, c: ConversationRow, question: string, attachment: GptAttachment | undefined) {
    const locale = requestLocale(request);
    const history = (await messagesOf(c.id)).filter((x) => x.status !== 'error');
    // The question itself is the last stored message; the engine gets what came before it.
    history.pop();
    const engine = app.gptEngine;
    const ctx: ToolContext = { db, config: app.config, userId: m.user.id, enterpriseId: m.employee.enterprise_id, role: m.employee.role, locale, attachment, redactEnterpriseData: false };

    const controller = new AbortController();
    reply.hijack();
    const raw = reply.raw;
    const headers: Record<string, string | number | string[]> = {};
    for (const [k, v] of Object.entries(reply.getHeaders())) if (v !== undefined) headers[k] = v as string | number | string[];
    raw.writeHead(200, { ...headers, 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache, no-store', connection: 'keep-alive', 'x-accel-buffering': 'no' });
    raw.on('close', () => {
      if (!raw.writableFinished) controller.abort();
    });
    const send = (event: GptStreamEvent) => {
      if (!raw.destroyed) raw.write(`data: ${JSON.stringify(event)}\n\n`);
    };
    raw.write(': open\n\n');
    const keepAlive = setInterval(() => {
      if (!raw.destroyed) raw.write(': keep-alive\n\n');
    }, env.llm.keepAliveMs);

    let content = '';
    let citations: GptCitation[] = [];
    let usage = { promptTokens: 0, completionTokens: 0 };
    let status: 'done' | 'stopped' | 'error' = 'done';
    try {
      for await (const event of engine.answer({ question, history: history.map((x) => ({ role: x.role, content: x.content })), ctx, locale, signal: controller.signal })) {
        if (event.type === 'delta') {
          content += event.text;
          send({ delta: event.text });
        } else if (event.type === 'tool') send({ tool: event.name });
        else if (event.type === 'citations') citations = event.citations;
        else usage = { promptTokens: event.promptTokens, completionTokens: event.completionTokens };
        if (controller.signal.aborted) break;
      }
      if (controller.signal.aborted) status = 'stopped';
    } catch (error) {
      if (controller.signal.aborted) status = 'stopped';
      else {
        status = 'error';
        request.log.error({ err: error }, 'assistant answer failed');
        send({ error: 'server error' });
      }
    } finally {
      clearInterval(keepAlive);
    }
    const now = Date.now();
    if (usage.completionTokens === 0 && content) usage.completionTokens = Math.ceil(content.length / 2);
    try {
      const saved = await db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto('gpt_messages')
          .values({ conversation_id: c.id, role: 'assistant', content, citations: JSON.stringify(citations), status, engine: engine.name, created_at: now })
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx.updateTable('gpt_conversations').set({ last_message_at: now }).where('id', '=', c.id).execute();
        await trx
          .insertInto('gpt_usage')
          .values({ enterprise_id: m.employee.enterprise_id, user_id: m.user.id, conversation_id: c.id, engine: engine.name, model: engine.model ?? '', prompt_tokens: usage.promptTokens, completion_tokens: usage.completionTokens, created_at: now })
          .execute();
        return row;
      });
      if (status !== 'error') send({ done: true, message_id: Number(saved.id), citations, status });
    } catch (error) {
      // The conversation was deleted while it answered (or the database failed): the stream still ends.
      request.log.warn({ err: error }, 'assistant answer not stored');
      send({ error: 'server error' });
    } finally {
      raw.end();
    }
  }

  async function addQuestion(c: ConversationRow, content: string): Promise<void> {
    const now = Date.now();
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('gpt_messages').values({ conversation_id: c.id, role: 'user', content, citations: '[]', status: 'done', engine: null, created_at: now }).execute();
      const title = c.title || Array.from(content.replace(/\s+/g, ' ').trim()).slice(0, 40).join('');
      await trx.updateTable('gpt_conversations').set({ last_message_at: now, title }).where('id', '=', c.id).execute();
    });
  }

  function cleanContent(raw: string): string {
    const content = raw.trim();
    if (!content) fail('required', 'content');
    return content;
  }

  app.post<{ Params: { id: number }; Body: { content: string; attachment?: GptAttachment } }>(
    '/api/v1/gpt/conversations/:id/messages',
    { config: SIGNED_IN, bodyLimit: GPT_ATTACHMENT_MAX_BYTES * 2, schema: { params: idParam('id'), body: sendBody } },
    async (request, reply) => {
      const m = await app.requireMember(request, 'member');
      const content = cleanContent(request.body.content);
      const attachment = checkAttachment(request.body.attachment);
      const c = await conversationOf(m, request.params.id);
      await admit(m);
      await addQuestion(c, content);
      await stream(request, reply, m, c, content, attachment);
    },
  );

  /** Answers the last question again: the answer after it (if any) is replaced. */
  app.post<{ Params: { id: number } }>('/api/v1/gpt/conversations/:id/regenerate', { config: SIGNED_IN, schema: { params: idParam('id') } }, async (request, reply) => {
    const m = await app.requireMember(request, 'member');
    const c = await conversationOf(m, request.params.id);
    const lastQuestion = await db.selectFrom('gpt_messages').select(['id', 'content']).where('conversation_id', '=', c.id).where('role', '=', 'user').orderBy('id', 'desc').executeTakeFirst();
    if (!lastQuestion) fail('not_found', 'id');
    await admit(m);
    await db.deleteFrom('gpt_messages').where('conversation_id', '=', c.id).where('id', '>', lastQuestion.id).execute();
    await stream(request, reply, m, c, lastQuestion.content, undefined);
  });

  /** Edits the last question and answers it afresh (the old answer goes). */
  app.put<{ Params: { id: number }; Body: { content: string } }>(
    '/api/v1/gpt/conversations/:id/messages/last',
    { config: SIGNED_IN, schema: { params: idParam('id'), body: editBody } },
    async (request, reply) => {
      const m = await app.requireMember(request, 'member');
      const content = cleanContent(request.body.content);
      const c = await conversationOf(m, request.params.id);
      const lastQuestion = await db.selectFrom('gpt_messages').select('id').where('conversation_id', '=', c.id).where('role', '=', 'user').orderBy('id', 'desc').executeTakeFirst();
      if (!lastQuestion) fail('not_found', 'id');
      await admit(m);
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('gpt_messages').where('conversation_id', '=', c.id).where('id', '>', lastQuestion.id).execute();
        await trx.updateTable('gpt_messages').set({ content, created_at: Date.now() }).where('id', '=', lastQuestion.id).execute();
      });
      await stream(request, reply, m, c, content, undefined);
    },
  );

}
