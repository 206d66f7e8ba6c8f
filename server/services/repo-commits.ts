import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import type { DeploymentConfig } from '../../core/config.ts';
import type { Paged } from '../../core/api-types.ts';
import { COMMIT_LEDGER_KIND, COMMIT_PREFIX_PATTERN, REF_NAME_PATTERN, commitRecordDigest, encodeCommitRecord, parseCommitChanges, parseCommitRecord, type CommitBatchResponse, type CommitChanges, type CommitRecord, type RepoCommitDto, type RefsUpdateResponse } from '../../core/repos.ts';
import { DNA_PATTERN } from '../../core/ledger/record.ts';
import { isUniqueViolation, type Db } from '../db/database.ts';
import { ApiError, fail } from '../errors.ts';
import type { CertificateLocale } from '../locale.ts';
import { chargeRegistrations } from './credits.ts';
import { COMMIT_COLUMNS, commitDto, commitGraph, commitRows, reachableFrom, updateRefs, type CommitRow } from './repos.ts';
import { requireManager, type ProjectAccess } from './repo-projects.ts';

/**
 * A project's commits and refs: registering a batch, the filtered list, one commit, the refs
 * a push reports. The routes resolve the caller's access (session or project token).
 */

type Registrar = FastifyInstance['registerEntries'];
type PageWindow = { page: number; size: number; offset: number };
const OID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** The commit ids already registered (the CLI and the browser walk only the others). */
export async function knownCommitIds(db: Db, a: ProjectAccess): Promise<string[]> {
  const rows = await db.selectFrom('repo_commits').select('commit_id').where('project_id', '=', a.project.id).orderBy('id').execute();
  return rows.map((r) => r.commit_id);
}

/**
 * A batch of commit records (oldest first), from the owner or an administrator. Records
 * already registered in the project are answered, not registered again. The new ones become
 * ledger entries of kind `commit` in one transaction, in bulk, with the membership read again
 * and credits.commit charged per commit: all of them or none.
 */
export async function registerCommitBatch(db: Db, config: DeploymentConfig, registerEntries: Registrar, a: ProjectAccess, items: unknown[], locale: CertificateLocale): Promise<CommitBatchResponse> {
  requireManager(a);
  const records = new Map<string, CommitRecord>();
  const changesOf = new Map<string, CommitChanges>();
  for (const [index, item] of items.entries()) {
    const record = parseCommitRecord(item);
    if (!record) fail('invalid_param', `commits[${index}]`);
    records.set(record.commit, record);
    // Changed paths with line counts, beside the record (not part of what is registered).
    const changes = (item as { changes?: unknown }).changes;
    if (changes !== undefined) {
      const parsed = parseCommitChanges(changes);
      if (!parsed) fail('invalid_param', `commits[${index}].changes`);
      changesOf.set(record.commit, parsed);
    }
  }
  const enterprise = await db.selectFrom('enterprises').select(['name']).where('id', '=', a.project.enterprise_id).executeTakeFirstOrThrow();
  for (let attempt = 0; ; attempt++) {
    const ids = [...records.keys()];
    const existing = new Map<string, string>();
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await db.selectFrom('repo_commits').select(['commit_id', 'dna']).where('project_id', '=', a.project.id).where('commit_id', 'in', ids.slice(i, i + 500)).execute();
      for (const r of rows) existing.set(r.commit_id, r.dna);
    }
    const fresh = [...records.values()].filter((r) => !existing.has(r.commit));
    const digests = await Promise.all(fresh.map((r) => commitRecordDigest(r)));
    const created = new Map<string, string>();
    try {
      if (fresh.length) {
        await registerEntries(
          fresh.map((_, i) => ({ fileHash: `0x${digests[i]}`, enterpriseName: enterprise.name, registrantUserId: a.userId, kind: COMMIT_LEDGER_KIND, locale })),
          async (trx, registrations) => {
            // The token may have been revoked, or its creator frozen, since the check above.
            if (a.tokenId !== null) {
              const live = await trx.selectFrom('repo_tokens').select('id').where('id', '=', a.tokenId).where('revoked_at', 'is', null).executeTakeFirst();
              if (!live) throw new ApiError('token_invalid', undefined, 401);
            }
            const { chargedEach } = await chargeRegistrations(trx, config, {
              enterpriseId: a.project.enterprise_id,
              userId: a.userId,
              kind: 'commit',
              items: registrations.map((reg, i) => ({ dna: reg.dna, name: `${a.project.name} @ ${fresh[i]!.commit.slice(0, 12)}` })),
            });
            const now = Date.now();
            const rows = registrations.map((reg, i) => {
              const r = fresh[i]!;
              created.set(r.commit, reg.dna);
              return {
                project_id: a.project.id,
                enterprise_id: a.project.enterprise_id,
                user_id: a.userId,
                commit_id: r.commit,
                tree_id: r.tree,
                record: encodeCommitRecord(r),
                record_sha256: digests[i]!,
                author_name: r.author.name.slice(0, 256),
                author_time: r.author.time * 1000,
                dna: reg.dna,
                credits: chargedEach,
                created_at: now,
                orphaned_at: null,
                changes: changesOf.has(r.commit) ? JSON.stringify(changesOf.get(r.commit)) : null,
              };
            });
            for (let i = 0; i < rows.length; i += 200) await trx.insertInto('repo_commits').values(rows.slice(i, i + 200)).execute();
          },
        );
      }
    } catch (error) {
      // Two pushes of the same commits at once: the unique (project, commit) decides; the loser answers what the winner registered.
      if (!(error instanceof ApiError) && isUniqueViolation(error) && attempt < 2) continue;
      throw error;
    }
    return {
      registered: created.size,
      already: existing.size,
      commits: ids.map((id) => ({ commit_id: id, dip_id: (created.get(id) ?? existing.get(id)) as string, is_new: created.has(id) })),
    };
  }
}

export type CommitFilter = { author?: string; from?: number; to?: number; ref?: string; q?: string };

/**
 * The commit list, newest author time first: filtered by ref (the commits reachable from a
 * branch or tag, over the stored graph), author (part of the name), author time (from/to,
 * ms) and commit id prefix (q: 7 to 64 hex digits).
 */
export async function commitPage(db: Db, a: ProjectAccess, w: PageWindow, filter: CommitFilter): Promise<Paged<RepoCommitDto>> {
  const { size, offset } = w;
  let q = commitRows(db, a.project.id);
  const author = filter.author?.trim();
  if (author) q = q.where(sql<boolean>`lower(c.author_name) like lower(${`%${author.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}) escape '\\'`);
  if (filter.from !== undefined) q = q.where('c.author_time', '>=', filter.from);
  if (filter.to !== undefined) q = q.where('c.author_time', '<=', filter.to);
  const prefix = filter.q?.trim().toLowerCase();
  if (prefix) {
    if (!COMMIT_PREFIX_PATTERN.test(prefix)) fail('invalid_param', 'q');
    q = q.where('c.commit_id', 'like', `${prefix}%`);
  }
  const ordered = <T extends typeof q>(query: T) => query.orderBy('c.author_time', 'desc').orderBy('c.id', 'desc');
  let total: number;
  let rows: CommitRow[];
  const refName = filter.ref?.trim();
  if (refName) {
    const ref = await db.selectFrom('repo_refs').select('commit_id').where('project_id', '=', a.project.id).where('name', '=', refName).executeTakeFirst();
    if (!ref) fail('not_found', 'ref');
    const reach = reachableFrom(await commitGraph(db, a.project.id), [ref.commit_id]);
    const ids = (await ordered(q).select(['c.id', 'c.commit_id']).execute()).filter((r) => reach.has(r.commit_id)).map((r) => Number(r.id));
    total = ids.length;
    const pageIds = ids.slice(offset, offset + size);
    rows = pageIds.length ? ((await ordered(commitRows(db, a.project.id).where('c.id', 'in', pageIds)).select([...COMMIT_COLUMNS]).execute()) as CommitRow[]) : [];
  } else {
    total = Number((await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    rows = (await ordered(q).select([...COMMIT_COLUMNS]).limit(size).offset(offset).execute()) as CommitRow[];
  }
  return { items: rows.map(commitDto), page: w.page, page_size: size, total };
}

/** One commit by its id or its DNA (what the search leads to: commitDetail with the DNA); not_found otherwise. */
export async function commitOr404(db: Db, a: ProjectAccess, commitId: string): Promise<CommitRow> {
  const id = commitId.toLowerCase();
  const isDna = DNA_PATTERN.test(id);
  if (!OID.test(id) && !isDna) fail('not_found', 'commit_id');
  const row = (await commitRows(db, a.project.id)
    .select([...COMMIT_COLUMNS, 'c.changes'])
    .where(isDna ? 'c.dna' : 'c.commit_id', '=', id)
    .executeTakeFirst()) as CommitRow | undefined;
  if (!row) fail('not_found', 'commit_id');
  return row;
}

/**
 * The refs a push reports (the owner or an administrator): recorded, and a ref moved off its
 * previous history is a force-push whose orphaned commits are flagged (repos.ts updateRefs).
 */
export async function reportRefs(db: Db, a: ProjectAccess, raw: Array<{ ref: string; commit: string }>): Promise<RefsUpdateResponse> {
  requireManager(a);
  const refs: Array<{ ref: string; commit: string }> = [];
  for (const [index, r] of raw.entries()) {
    const commit = r.commit.toLowerCase();
    if (!REF_NAME_PATTERN.test(r.ref)) fail('invalid_param', `refs[${index}].ref`);
    if (!OID.test(commit)) fail('invalid_param', `refs[${index}].commit`);
    refs.push({ ref: r.ref, commit });
  }
  return updateRefs(db, a.project.id, a.userId, refs);
}
