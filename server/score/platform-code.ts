import { WEEK_MS, weekOf, weekStart } from '../../core/score/weeks.ts';
import type { ScoreDb } from './schema.ts';
import { insertMany } from './store.ts';

/**
 * The platform's registered source code in the score graph: each repo project of a platform
 * enterprise is a score repository, each commit author (known by the SHA-256 of the e-mail,
 * so the same person in two enterprises is one developer and links them) a score developer,
 * and their commits, counted per week of author time, one-week contributions. Run before
 * each recompute; it rewrites only what changed, and an enterprise whose contributions
 * changed loses its stored series so that the recompute computes it from its first week
 * (history registered today may reach back years).
 *
 * Every commit record is read on each run (the e-mail digest lives in the registered record
 * only): about 50 ms per 10 000 commits here, beside a recompute that takes seconds.
 */
export async function syncPlatformCode(db: ScoreDb): Promise<{ repositories: number; developers: number; contributions: number; enterprisesChanged: number }> {
  const nodes = new Map((await db.selectFrom('score_enterprises').select(['id', 'enterprise_id']).where('enterprise_id', 'is not', null).execute()).map((r) => [r.enterprise_id!, r.id]));
  const projects = (await db.selectFrom('repo_projects').select(['id', 'enterprise_id', 'name', 'created_at']).execute()).filter((p) => nodes.has(p.enterprise_id));

  // Repositories: one per project of an enterprise that has a node.
  const known = new Map((await db.selectFrom('score_repositories').select(['id', 'project_id', 'name', 'score_enterprise_id']).where('project_id', 'is not', null).execute()).map((r) => [r.project_id!, r]));
  const repoOf = new Map<number, { id: number; node: number }>();
  for (const p of projects) {
    const node = nodes.get(p.enterprise_id)!;
    const row = known.get(p.id);
    if (!row) {
      const inserted = await db.insertInto('score_repositories').values({ score_enterprise_id: node, name: p.name, created_at: Number(p.created_at), project_id: p.id }).returning('id').executeTakeFirstOrThrow();
      repoOf.set(p.id, { id: inserted.id, node });
    } else {
      if (row.name !== p.name || row.score_enterprise_id !== node) await db.updateTable('score_repositories').set({ name: p.name, score_enterprise_id: node }).where('id', '=', row.id).execute();
      repoOf.set(p.id, { id: row.id, node });
    }
  }

  // Commits per (project, author e-mail, week); the newest name an address used names the developer.
  type Key = string;
  const weekly = new Map<Key, { project: number; email: string; week: number; commits: number }>();
  const names = new Map<string, { name: string; time: number }>();
  const commits = await db.selectFrom('repo_commits').select(['project_id', 'record', 'author_name', 'author_time']).where('project_id', 'in', projects.length ? projects.map((p) => p.id) : [-1]).execute();
  for (const c of commits) {
    const email = emailOf(c.record);
    if (!email) continue;
    const time = Number(c.author_time);
    const week = weekOf(time);
    const key = `${c.project_id}:${email}:${week}`;
    const cell = weekly.get(key);
    if (cell) cell.commits += 1;
    else weekly.set(key, { project: c.project_id, email, week, commits: 1 });
    const seen = names.get(email);
    if (!seen || seen.time < time) names.set(email, { name: c.author_name, time });
  }

  // Developers: one per address.
  const developers = new Map((await db.selectFrom('score_developers').select(['id', 'email_sha256', 'name']).where('email_sha256', 'is not', null).execute()).map((d) => [d.email_sha256!, d]));
  const developerId = new Map<string, number>();
  for (const [email, { name }] of names) {
    const row = developers.get(email);
    if (!row) {
      const inserted = await db.insertInto('score_developers').values({ name: name.slice(0, 200), email_sha256: email }).returning('id').executeTakeFirstOrThrow();
      developerId.set(email, inserted.id);
    } else {
      if (row.name !== name) await db.updateTable('score_developers').set({ name: name.slice(0, 200) }).where('id', '=', row.id).execute();
      developerId.set(email, row.id);
    }
  }

  // Contributions, compared per enterprise with what is stored; only a changed enterprise is rewritten.
  const wanted = new Map<number, { repository_id: number; developer_id: number; from_at: number; to_at: number; commits: number }[]>();
  for (const cell of weekly.values()) {
    const repo = repoOf.get(cell.project)!;
    const list = wanted.get(repo.node) ?? [];
    list.push({ repository_id: repo.id, developer_id: developerId.get(cell.email)!, from_at: weekStart(cell.week), to_at: weekStart(cell.week) + WEEK_MS - 1, commits: cell.commits });
    wanted.set(repo.node, list);
  }
  const platformRepoIds = [...repoOf.values()].map((r) => r.id);
  const stored = new Map<number, string[]>();
  const storedRows = platformRepoIds.length
    ? await db.selectFrom('score_contributions as c').innerJoin('score_repositories as r', 'r.id', 'c.repository_id').select(['r.score_enterprise_id as node', 'c.repository_id', 'c.developer_id', 'c.from_at', 'c.to_at', 'c.commits']).where('c.repository_id', 'in', platformRepoIds).execute()
    : [];
  const keyOf = (c: { repository_id: number; developer_id: number; from_at: number; to_at: number; commits: number }) => `${c.repository_id}:${c.developer_id}:${Number(c.from_at)}:${Number(c.to_at)}:${c.commits}`;
  for (const r of storedRows) stored.set(r.node, [...(stored.get(r.node) ?? []), keyOf(r)]);
  let enterprisesChanged = 0;
  let contributions = 0;
  for (const node of new Set([...wanted.keys(), ...stored.keys()])) {
    const next = wanted.get(node) ?? [];
    contributions += next.length;
    const same = (stored.get(node) ?? []).sort().join('|') === next.map(keyOf).sort().join('|');
    if (same) continue;
    enterprisesChanged += 1;
    await db.transaction().execute(async (trx) => {
      const repoIds = [...repoOf.values()].filter((r) => r.node === node).map((r) => r.id);
      if (repoIds.length) await trx.deleteFrom('score_contributions').where('repository_id', 'in', repoIds).execute();
      await insertMany(trx, 'score_contributions', next);
      // Its stored series no longer matches its history: computed again from its first week.
      await trx.deleteFrom('score_series').where('score_enterprise_id', '=', node).execute();
    });
  }
  return { repositories: repoOf.size, developers: developerId.size, contributions, enterprisesChanged };
}

/** The author's e-mail digest from a registered commit record, or null for a record without one. */
function emailOf(record: string): string | null {
  try {
    const email = (JSON.parse(record) as { author?: { email_sha256?: unknown } }).author?.email_sha256;
    return typeof email === 'string' && /^[0-9a-f]{64}$/.test(email) ? email : null;
  } catch {
    return null;
  }
}
