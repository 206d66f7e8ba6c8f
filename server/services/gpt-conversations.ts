import { sql } from 'kysely';
import type { Paged } from '../../core/api-types.ts';
import type { GptAttachment, GptCitation, GptConversationDetail, GptConversationDto, GptMessageDto } from '../../core/gpt.ts';
import { normalizeDigest } from '../../core/ledger/package.ts';
import type { Db } from '../db/database.ts';
import { fail } from '../errors.ts';
import type { LlmEnv } from '../gpt/config.ts';
import type { MemberContext } from '../plugins/enterprises.ts';
import { hit } from './rate-limit.ts';

/**
 * The chat assistant's conversations and messages. A member's conversations belong to them in
 * their current enterprise: nobody else reads, renames, continues or deletes them (another's id
 * is not_found). The routes check the member and stream the answers; these functions read and write.
 */

export type ConversationRow = { id: number; title: string; created_at: number; last_message_at: number; user_id: number; enterprise_id: number };
type PageWindow = { page: number; size: number; offset: number };

function escapeLike(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function monthStart(now: number): number {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}

export async function conversationOf(db: Db, m: MemberContext, id: number): Promise<ConversationRow> {
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

export async function messagesOf(db: Db, conversationId: number): Promise<GptMessageDto[]> {
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

/** A new, empty conversation (its title comes from the first question). */
export async function createConversation(db: Db, m: MemberContext): Promise<{ id: number }> {
  const now = Date.now();
  const row = await db
    .insertInto('gpt_conversations')
    .values({ enterprise_id: m.employee.enterprise_id, user_id: m.user.id, title: '', created_at: now, last_message_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: Number(row.id) };
}

/** The member's conversations, last active first; the keyword matches the title or any message. */
export async function conversationPage(db: Db, m: MemberContext, w: PageWindow, rawKeyword: string | undefined): Promise<Paged<GptConversationDto>> {
  let q = db.selectFrom('gpt_conversations as c').where('c.user_id', '=', m.user.id).where('c.enterprise_id', '=', m.employee.enterprise_id);
  const keyword = rawKeyword?.trim();
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
    .limit(w.size)
    .offset(w.offset)
    .execute();
  const items: GptConversationDto[] = rows.map((r) => ({ id: Number(r.id), title: r.title, created_at: Number(r.created_at), last_message_at: Number(r.last_message_at), message_count: Number(r.message_count ?? 0) }));
  return { items, page: w.page, page_size: w.size, total: Number(total.n) };
}

export async function conversationDetail(db: Db, m: MemberContext, id: number): Promise<GptConversationDetail> {
  const c = await conversationOf(db, m, id);
  const messages = await messagesOf(db, c.id);
  return { id: Number(c.id), title: c.title, created_at: Number(c.created_at), last_message_at: Number(c.last_message_at), message_count: messages.length, messages };
}

export async function renameConversation(db: Db, m: MemberContext, id: number, rawTitle: string): Promise<{ id: number; title: string }> {
  const title = rawTitle.trim();
  if (!title) fail('required', 'title');
  const c = await conversationOf(db, m, id);
  await db.updateTable('gpt_conversations').set({ title }).where('id', '=', c.id).execute();
  return { id: Number(c.id), title };
}

export async function deleteConversation(db: Db, m: MemberContext, id: number): Promise<{ id: number }> {
  const c = await conversationOf(db, m, id);
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('gpt_messages').where('conversation_id', '=', c.id).execute();
    await trx.deleteFrom('gpt_conversations').where('id', '=', c.id).execute();
  });
  return { id: Number(c.id) };
}

/** Per-user and per-enterprise questions a minute, and the enterprise's tokens this month. */
export async function admitQuestion(db: Db, llm: LlmEnv, m: MemberContext): Promise<void> {
  const now = Date.now();
  if (!(await hit(db, `gpt:user:${m.user.id}`, llm.userPerMinute, 60_000, now))) fail('too_frequent_operation', 'content');
  if (!(await hit(db, `gpt:enterprise:${m.employee.enterprise_id}`, llm.enterprisePerMinute, 60_000, now))) fail('too_frequent_operation', 'content');
  const used = await db
    .selectFrom('gpt_usage')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>(sql`prompt_tokens + completion_tokens`), sql<number>`0`).as('n'))
    .where('enterprise_id', '=', m.employee.enterprise_id)
    .where('created_at', '>=', monthStart(now))
    .executeTakeFirstOrThrow();
  if (Number(used.n) >= llm.monthlyTokens) fail('assistant_budget_exhausted', 'content');
}

export function checkAttachment(a: GptAttachment | undefined): GptAttachment | undefined {
  if (!a) return undefined;
  if (!normalizeDigest(a.original_hash)) fail('verify_file_not_found', 'original_hash');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(a.proof_base64) || a.proof_base64.length === 0) fail('no_proof_package', 'proof_base64');
  return a;
}

export function cleanContent(raw: string): string {
  const content = raw.trim();
  if (!content) fail('required', 'content');
  return content;
}

/** Stores a question; the conversation's title is its first question's first 40 characters. */
export async function addQuestion(db: Db, c: ConversationRow, content: string): Promise<void> {
  const now = Date.now();
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('gpt_messages').values({ conversation_id: c.id, role: 'user', content, citations: '[]', status: 'done', engine: null, created_at: now }).execute();
    const title = c.title || Array.from(content.replace(/\s+/g, ' ').trim()).slice(0, 40).join('');
    await trx.updateTable('gpt_conversations').set({ last_message_at: now, title }).where('id', '=', c.id).execute();
  });
}

/** The conversation's last question, or not_found. */
export async function lastQuestionOf(db: Db, c: ConversationRow): Promise<{ id: number; content: string }> {
  const last = await db.selectFrom('gpt_messages').select(['id', 'content']).where('conversation_id', '=', c.id).where('role', '=', 'user').orderBy('id', 'desc').executeTakeFirst();
  if (!last) fail('not_found', 'id');
  return last;
}

/** Removes what came after the last question (its answer), to answer it again. */
export async function dropAnswerAfter(db: Db, c: ConversationRow, questionId: number): Promise<void> {
  await db.deleteFrom('gpt_messages').where('conversation_id', '=', c.id).where('id', '>', questionId).execute();
}

/** Replaces the last question's text and drops its answer. */
export async function editLastQuestion(db: Db, c: ConversationRow, questionId: number, content: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('gpt_messages').where('conversation_id', '=', c.id).where('id', '>', questionId).execute();
    await trx.updateTable('gpt_messages').set({ content, created_at: Date.now() }).where('id', '=', questionId).execute();
  });
}

/** Stores an answer with its status and counts its tokens against the enterprise, in one transaction. */
export async function storeAnswer(
  db: Db,
  m: MemberContext,
  c: ConversationRow,
  answer: { content: string; citations: GptCitation[]; status: 'done' | 'stopped' | 'error'; engine: string; model: string | null; promptTokens: number; completionTokens: number },
): Promise<{ id: number }> {
  const now = Date.now();
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('gpt_messages')
      .values({ conversation_id: c.id, role: 'assistant', content: answer.content, citations: JSON.stringify(answer.citations), status: answer.status, engine: answer.engine, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx.updateTable('gpt_conversations').set({ last_message_at: now }).where('id', '=', c.id).execute();
    await trx
      .insertInto('gpt_usage')
      .values({ enterprise_id: m.employee.enterprise_id, user_id: m.user.id, conversation_id: c.id, engine: answer.engine, model: answer.model ?? '', prompt_tokens: answer.promptTokens, completion_tokens: answer.completionTokens, created_at: now })
      .execute();
    return { id: Number(row.id) };
  });
}
