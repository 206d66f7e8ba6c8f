import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GPT_ATTACHMENT_MAX_BYTES, GPT_CONTENT_MAX, GPT_TITLE_MAX, type GptAttachment, type GptCitation, type GptInfo, type GptStreamEvent } from '../../../core/gpt.ts';
import type { MemberContext } from '../../plugins/enterprises.ts';
import { requestLocale } from '../../locale.ts';
import {
  addQuestion,
  admitQuestion,
  checkAttachment,
  cleanContent,
  conversationDetail,
  conversationOf,
  conversationPage,
  createConversation,
  deleteConversation,
  dropAnswerAfter,
  editLastQuestion,
  lastQuestionOf,
  messagesOf,
  renameConversation,
  storeAnswer,
  type ConversationRow,
} from '../../services/gpt-conversations.ts';
import { anyObject, arrayOf, body, bool, idParam, nullableStr, num, obj, ok, pageOf, pageSchema, paging, SIGNED_IN, str } from '../schemas.ts';
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
// Response schemas (core/gpt.ts DTOs). A citation is kept whole: its fields depend on its kind.
const conversationFields = { id: num, title: str, created_at: num, last_message_at: num, message_count: num };
const messageSchema = obj({ id: num, role: str, content: str, citations: arrayOf(anyObject), status: str, engine: nullableStr, created_at: num });
const infoResponse = ok(obj({ engine: str, model: nullableStr, sends_enterprise_data: bool }));
const idResponse = ok(obj({ id: num }));
const listResponse = ok(pageSchema(obj(conversationFields)));
const detailResponse = ok(obj({ ...conversationFields, messages: arrayOf(messageSchema) }));
const renameResponse = ok(obj({ id: num, title: str }));
const listQuery = { type: 'object', properties: { ...paging, keyword: { type: 'string', maxLength: 100 } } } as const;

/**
 * The chat assistant (conversations and their storage: services/gpt-conversations.ts). A question is answered as Server-Sent Events: `data:` lines with JSON
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

  app.get('/api/v1/gpt/info', { config: SIGNED_IN, schema: { response: infoResponse } }, async (request) => {
    await app.requireMember(request, 'member');
    const engine = app.gptEngine;
    const data: GptInfo = { engine: engine.name, model: engine.model, sends_enterprise_data: engine.sendsEnterpriseData };
    return { data };
  });

  /** A new, empty conversation (its title comes from the first question). Takes no input. */
  app.post('/api/v1/gpt/conversations', { config: SIGNED_IN, schema: { response: idResponse } }, async (request) => {
    return { data: await createConversation(db, await app.requireMember(request, 'member')) };
  });

  app.get<{ Querystring: { page?: number; page_size?: number; keyword?: string } }>('/api/v1/gpt/conversations', { config: SIGNED_IN, schema: { querystring: listQuery, response: listResponse } }, async (request) => {
    const m = await app.requireMember(request, 'member');
    return { data: await conversationPage(db, m, pageOf(request.query, app.config.tablePageSize), request.query.keyword) };
  });

  app.get<{ Params: { id: number } }>('/api/v1/gpt/conversations/:id', { config: SIGNED_IN, schema: { params: idParam('id'), response: detailResponse } }, async (request) => {
    const m = await app.requireMember(request, 'member');
    return { data: await conversationDetail(db, m, request.params.id) };
  });

  app.put<{ Params: { id: number }; Body: { title: string } }>('/api/v1/gpt/conversations/:id', { config: SIGNED_IN, schema: { params: idParam('id'), body: renameBody, response: renameResponse } }, async (request) => {
    const m = await app.requireMember(request, 'member');
    return { data: await renameConversation(db, m, request.params.id, request.body.title) };
  });

  app.delete<{ Params: { id: number } }>('/api/v1/gpt/conversations/:id', { config: SIGNED_IN, schema: { params: idParam('id'), response: idResponse } }, async (request) => {
    const m = await app.requireMember(request, 'member');
    return { data: await deleteConversation(db, m, request.params.id) };
  });

  /**
   * Answers the conversation's last question as an event stream and stores the answer. The
   * user's message is already stored. Nothing is thrown once the stream has begun: a fault
   * becomes an `{error}` event and an answer with status 'error'.
   */
  async function stream(request: FastifyRequest, reply: FastifyReply, m: MemberContext, c: ConversationRow, question: string, attachment: GptAttachment | undefined) {
    const locale = requestLocale(request);
    const history = (await messagesOf(db, c.id)).filter((x) => x.status !== 'error');
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
    if (usage.completionTokens === 0 && content) usage.completionTokens = Math.ceil(content.length / 2);
    try {
      const saved = await storeAnswer(db, m, c, { content, citations, status, engine: engine.name, model: engine.model, ...usage });
      if (status !== 'error') send({ done: true, message_id: Number(saved.id), citations, status });
    } catch (error) {
      // The conversation was deleted while it answered (or the database failed): the stream still ends.
      request.log.warn({ err: error }, 'assistant answer not stored');
      send({ error: 'server error' });
    } finally {
      raw.end();
    }
  }

  app.post<{ Params: { id: number }; Body: { content: string; attachment?: GptAttachment } }>(
    '/api/v1/gpt/conversations/:id/messages',
    { config: SIGNED_IN, bodyLimit: GPT_ATTACHMENT_MAX_BYTES * 2, schema: { params: idParam('id'), body: sendBody } },
    async (request, reply) => {
      const m = await app.requireMember(request, 'member');
      const content = cleanContent(request.body.content);
      const attachment = checkAttachment(request.body.attachment);
      const c = await conversationOf(db, m, request.params.id);
      await admitQuestion(db, env.llm, m);
      await addQuestion(db, c, content);
      await stream(request, reply, m, c, content, attachment);
    },
  );

  /** Answers the last question again: the answer after it (if any) is replaced. */
  app.post<{ Params: { id: number } }>('/api/v1/gpt/conversations/:id/regenerate', { config: SIGNED_IN, schema: { params: idParam('id') } }, async (request, reply) => {
    const m = await app.requireMember(request, 'member');
    const c = await conversationOf(db, m, request.params.id);
    const lastQuestion = await lastQuestionOf(db, c);
    await admitQuestion(db, env.llm, m);
    await dropAnswerAfter(db, c, lastQuestion.id);
    await stream(request, reply, m, c, lastQuestion.content, undefined);
  });

  /** Edits the last question and answers it afresh (the old answer goes). */
  app.put<{ Params: { id: number }; Body: { content: string } }>(
    '/api/v1/gpt/conversations/:id/messages/last',
    { config: SIGNED_IN, schema: { params: idParam('id'), body: editBody } },
    async (request, reply) => {
      const m = await app.requireMember(request, 'member');
      const content = cleanContent(request.body.content);
      const c = await conversationOf(db, m, request.params.id);
      const lastQuestion = await lastQuestionOf(db, c);
      await admitQuestion(db, env.llm, m);
      await editLastQuestion(db, c, lastQuestion.id, content);
      await stream(request, reply, m, c, content, undefined);
    },
  );

}
