import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { startHarness, type Harness } from './harness.ts';
import { ApiError } from '../../server/errors.ts';
import { LedgerError } from '../../server/ledger/ledger.ts';
import { isPostgres } from '../../server/db/dialect.ts';
import { assetDna, encodeRecord, fileCommitment, parseRecord } from '../../core/ledger/record.ts';
import { leafHash } from '../../core/ledger/merkle.ts';
import { fromHex, toHex, utf8 } from '../../core/ledger/bytes.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  await h.app.ledger.stop();
  await h.app.db.schema.createTable('group_test').addColumn('k', 'text', (c) => c.primaryKey()).execute();
});
afterAll(async () => {
  await h?.close();
});

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const entry = (content: string) => ({ fileHash: `0x${sha(content)}.txt`, enterpriseName: '西安测试科技有限公司', registrantUserId: null, kind: 'file' });
const count = async (dnas: string[]) => (dnas.length ? (await h.app.db.selectFrom('ledger_entries').select('dna').where('dna', 'in', dnas).execute()).length : 0);

describe('group commit of concurrent registrations', () => {
  it('gives each of many concurrent callers its own entry, all durable once answered', async () => {
    const registrations = await Promise.all(Array.from({ length: 40 }, (_, i) => h.app.registerEntry(entry(`group-${i}`))));
    const dnas = registrations.map((r) => r.dna);
    expect(new Set(dnas).size).toBe(40);
    expect(registrations.map((r) => r.file_hash)).toEqual(Array.from({ length: 40 }, (_, i) => `0x${sha(`group-${i}`)}.txt`));
    expect(await count(dnas)).toBe(40);
    // Each entry keeps its certificate terms; its proofs row comes with its block (sealed, status 2).
    const terms = await h.app.db.selectFrom('ledger_entries').select(['proof_valid_ms', 'proof_locale']).where('dna', 'in', dnas).execute();
    expect(terms.every((t) => Number(t.proof_valid_ms) === h.app.ledger.config.proofValidityMs && t.proof_locale === 'zh')).toBe(true);
    await h.app.ledger.sealNow();
    const proofs = await h.app.db.selectFrom('proofs').select(['dna', 'status', 'valid_ms', 'locale']).where('dna', 'in', dnas).execute();
    expect(proofs.length).toBe(40);
    expect(proofs.every((p) => p.status === 2 && Number(p.valid_ms) === h.app.ledger.config.proofValidityMs && p.locale === 'zh')).toBe(true);
  });

  it('fails only the caller whose work failed: its entry and its writes roll back, the others commit', async () => {
    const seen: string[] = [];
    const outcomes = await Promise.allSettled(
      Array.from({ length: 12 }, (_, i) =>
        h.app.registerEntry(entry(`partial-${i}`), async (trx, registration) => {
          seen.push(registration.dna);
          // Writes of its own that must vanish with it when it fails.
          await sql`insert into group_test (k) values (${`partial-${i}`})`.execute(trx);
          if (i % 4 === 1) throw new ApiError('integrals_not_enough');
          if (i % 4 === 2) await sql`insert into ledger_entries (dna) values (null)`.execute(trx); // a database error (NOT NULL)
        }),
      ),
    );
    expect(outcomes.map((o) => o.status)).toEqual(Array.from({ length: 12 }, (_, i) => (i % 4 === 1 || i % 4 === 2 ? 'rejected' : 'fulfilled')));
    const refused = outcomes[1] as PromiseRejectedResult;
    expect(refused.reason).toBeInstanceOf(ApiError);
    expect((refused.reason as ApiError).key).toBe('integrals_not_enough');
    const written = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value.dna] : []));
    expect(await count(written)).toBe(6);
    expect(await count(seen.filter((d) => !written.includes(d)))).toBe(0);
    const kept = (await sql<{ k: string }>`select k from group_test order by k`.execute(h.app.db)).rows.map((r) => r.k);
    expect(kept.sort()).toEqual(Array.from({ length: 12 }, (_, i) => i).filter((i) => i % 4 === 0 || i % 4 === 3).map((i) => `partial-${i}`).sort());
    await h.app.ledger.sealNow();
    expect((await h.app.db.selectFrom('proofs').select('dna').where('dna', 'in', written).execute()).length).toBe(6);
    expect(await h.app.db.selectFrom('proofs').select('dna').where('dna', 'in', seen.filter((d) => !written.includes(d))).execute()).toEqual([]);
  });

  it('refuses a bad input at once without touching the group', async () => {
    const outcomes = await Promise.allSettled([h.app.registerEntry(entry('ok-1')), h.app.registerEntry({ ...entry('x'), fileHash: 'nope' }), h.app.registerEntry(entry('ok-2'))]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason).toBeInstanceOf(LedgerError);
  });

  it('a lone registration still commits in its own transaction, and a failure there rolls back', async () => {
    const r = await h.app.registerEntry(entry('lone'));
    expect(await count([r.dna])).toBe(1);
    let dna = '';
    await expect(
      h.app.registerEntry(entry('lone-refused'), async (_trx, registration) => {
        dna = registration.dna;
        throw new ApiError('integrals_not_enough');
      }),
    ).rejects.toBeInstanceOf(ApiError);
    expect(await count([dna])).toBe(0);
  });
  it('writes the members without work of their own in bulk, records byte-identical to one-by-one, beside members with work', async () => {
    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        i % 5 === 0
          ? h.app.registerEntry(entry(`mixed-${i}`), async (trx) => {
              await sql`insert into group_test (k) values (${`mixed-${i}`})`.execute(trx);
              if (i === 5) throw new ApiError('integrals_not_enough');
            })
          : h.app.registerEntry(entry(`mixed-${i}`)),
      ),
    );
    expect(outcomes.map((o) => o.status)).toEqual(Array.from({ length: 20 }, (_, i) => (i === 5 ? 'rejected' : 'fulfilled')));
    const dnas = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value.dna] : []));
    const rows = await h.app.db.selectFrom('ledger_entries').select(['dna', 'record', 'leaf_hash', 'salt', 'file_hash', 'enterprise_name', 'registered_at', 'kind']).where('dna', 'in', dnas).execute();
    expect(rows.length).toBe(19);
    for (const row of rows) {
      // The same bytes the one-by-one path writes: the record re-encoded from its fields, its DNA, its leaf and its commitment.
      const parsed = parseRecord(row.record)!;
      expect(encodeRecord({ v: 1, kind: row.kind, commitment: fileCommitment(fromHex(row.salt), fromHex(row.file_hash.slice(2, 66))), enterprise_name: row.enterprise_name, registered_at: row.registered_at })).toBe(row.record);
      expect(parsed.commitment).toBe(fileCommitment(fromHex(row.salt), fromHex(row.file_hash.slice(2, 66))));
      expect(assetDna(row.record)).toBe(row.dna);
      expect(toHex(leafHash(utf8.encode(row.record)))).toBe(row.leaf_hash);
    }
    expect(new Set(rows.map((r) => r.salt)).size).toBe(19);
    await h.app.ledger.sealNow();
    expect((await h.app.db.selectFrom('proofs').select('dna').where('dna', 'in', dnas).execute()).length).toBe(19);
  });

  it('when the bulk insert of a group fails, its members go again one by one and only the refused one fails', async () => {
    if (isPostgres(h.app.db)) return; // PostgreSQL runs each registration in its own transaction (no groups)
    const refused = `0x${sha('bulk-refused-3')}.txt`;
    await sql.raw(`create trigger bulk_refuse before insert on ledger_entries when new.file_hash = '${refused}' begin select raise(abort, 'refused by test'); end`).execute(h.app.db);
    try {
      const outcomes = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => h.app.registerEntry(entry(`bulk-refused-${i}`))));
      expect(outcomes.map((o) => o.status)).toEqual(Array.from({ length: 8 }, (_, i) => (i === 3 ? 'rejected' : 'fulfilled')));
      const dnas = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value.dna] : []));
      expect(await count(dnas)).toBe(7);
      expect(await h.app.db.selectFrom('ledger_entries').select('dna').where('file_hash', '=', refused).execute()).toEqual([]);
    } finally {
      await sql`drop trigger bulk_refuse`.execute(h.app.db);
    }
  });

  it('writes no proofs row at registration; the sealer creates it with the terms the entry was registered with', async () => {
    const r = await h.app.registerEntry({ ...entry('terms'), validMs: 86_400_000, locale: 'ja' });
    expect(await h.app.db.selectFrom('proofs').select('dna').where('dna', '=', r.dna).execute()).toEqual([]);
    // An entry registered before migration 0043 has a status-1 row and no terms on the entry: the sealer moves that row on.
    const legacy = await h.app.registerEntry(entry('terms-legacy'));
    await h.app.db.updateTable('ledger_entries').set({ proof_valid_ms: null, proof_locale: null }).where('dna', '=', legacy.dna).execute();
    await h.app.db.insertInto('proofs').values({ dna: legacy.dna, status: 1, valid_ms: 123_000, updated_at: Date.now(), locale: 'en' }).execute();
    await h.app.ledger.sealNow();
    const rows = await h.app.db.selectFrom('proofs').select(['dna', 'status', 'valid_ms', 'locale']).where('dna', 'in', [r.dna, legacy.dna]).execute();
    expect(rows.map((p) => ({ ...p, valid_ms: Number(p.valid_ms) })).sort((a, b) => (a.dna < b.dna ? -1 : 1))).toEqual(
      [
        { dna: r.dna, status: 2, valid_ms: 86_400_000, locale: 'ja' },
        { dna: legacy.dna, status: 2, valid_ms: 123_000, locale: 'en' },
      ].sort((a, b) => (a.dna < b.dna ? -1 : 1)),
    );
  });
});
