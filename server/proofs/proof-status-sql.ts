import { sql, type AliasedRawBuilder } from 'kysely';

/**
 * An entry's proof status in a query that left-joins `proofs` (aliased `table`): an entry has
 * no `proofs` row until its block is sealed (the sealer creates it, server/ledger/ledger.ts),
 * and until then its status is 1, registered. Every list that shows a proof status reads it
 * through this, so an entry registered a moment ago is listed like one before migration 0043.
 */
export function proofStatusColumn(table: 'pr' | 'proofs'): AliasedRawBuilder<number, 'status'> {
  return sql<number>`coalesce(${sql.ref(`${table}.status`)}, 1)`.as('status');
}
