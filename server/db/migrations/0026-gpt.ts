import type { Kysely } from 'kysely';
import { primaryId, type Dialect } from '../dialect.ts';

/**
 * The chat assistant: a member's conversations in an enterprise, their messages
 * (with the citations an answer rests on), and the tokens each answer used, for the
 * per-enterprise monthly budget.
 */
export function gpt(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('gpt_conversations')
        .addColumn('id', 'integer', primaryId(dialect))
        .addColumn('enterprise_id', 'integer', (c) => c.notNull().references('enterprises.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('last_message_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('gpt_conversations_owner').on('gpt_conversations').columns(['user_id', 'enterprise_id', 'last_message_at']).execute();
      await db.schema
        .createTable('gpt_messages')
        .addColumn('id', 'integer', primaryId(dialect))
        .addColumn('conversation_id', 'integer', (c) => c.notNull().references('gpt_conversations.id').onDelete('cascade'))
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('citations', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('done'))
        .addColumn('engine', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('gpt_messages_conversation').on('gpt_messages').columns(['conversation_id', 'id']).execute();
      await db.schema
        .createTable('gpt_usage')
        .addColumn('id', 'integer', primaryId(dialect))
        .addColumn('enterprise_id', 'integer', (c) => c.notNull().references('enterprises.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('conversation_id', 'integer')
        .addColumn('engine', 'text', (c) => c.notNull())
        .addColumn('model', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('prompt_tokens', 'integer', (c) => c.notNull())
        .addColumn('completion_tokens', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('gpt_usage_enterprise_time').on('gpt_usage').columns(['enterprise_id', 'created_at']).execute();
    },
  };
}
