import fs from 'node:fs';
import readline from 'node:readline';
import { randomUUID } from 'node:crypto';
import { toMs } from '../../core/score/weeks.ts';
import type { Dialect } from '../db/dialect.ts';
import type { ScoreDb } from './schema.ts';
import { bumpDataVersion, insertMany, nextIds, syncSequences } from './store.ts';

/**
 * Import of history that predates the platform (docs/score.md, "Import format"): JSON
 * lines, one record per line, of five types. Keys are local to the file; enterprises
 * are matched to existing ones by uuid, then by exact name, else created.
 *
 *   {"type":"enterprise","key":"acme","name":"Acme 科技有限公司","uuid":"…optional…"}
 *   {"type":"repository","key":"acme/api","enterprise":"acme","name":"api","created_at":"2023-01-05"}
 *   {"type":"developer","key":"alice","name":"alice"}
 *   {"type":"contribution","repository":"acme/api","developer":"alice","from":"2023-01-09","to":"2023-06-30","commits":120}
 *   {"type":"asset","enterprise":"acme","kind":"code","registered_at":"2023-02-01T10:00:00Z"}
 *
 * Times are ISO 8601 strings or numbers (seconds, or ms above 9999999999). The whole
 * file is checked first; any bad line rejects the import with its line number and
 * nothing is written. The imported enterprises' series are recomputed from scratch.
 */

export type ImportStats = { enterprises: number; created: number; repositories: number; developers: number; contributions: number; assets: number };

export class ImportError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`import rejected:\n  ${problems.slice(0, 20).join('\n  ')}${problems.length > 20 ? `\n  … and ${problems.length - 20} more` : ''}`);
    this.problems = problems;
  }
}

type Rec = Record<string, unknown>;
type Parsed = {
  enterprises: { key: string; name: string; uuid?: string }[];
  repositories: { key: string; enterprise: string; name: string; created_at: number }[];
  developers: { key: string; name: string }[];
  contributions: { repository: string; developer: string; from: number; to: number; commits: number }[];
  assets: { enterprise: string; kind: string; registered_at: number }[];
};

function time(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v) && v >= 0) return toMs(v);
  if (typeof v === 'string' && v.trim()) {
    const t = Date.parse(v);
    return Number.isNaN(t) ? null : t;
  }
  return null;
}
const text = (v: unknown, max = 200): string | null => (typeof v === 'string' && v.trim() && v.length <= max ? v.trim() : null);

/** Checks records (one per line, numbered from 1) and resolves their keys. */
export function parseRecords(lines: Iterable<[number, string]>): Parsed {
  const out: Parsed = { enterprises: [], repositories: [], developers: [], contributions: [], assets: [] };
  const problems: string[] = [];
  for (const [line, raw] of lines) {
    if (!raw.trim()) continue;
    let r: Rec;
    try {
      r = JSON.parse(raw) as Rec;
    } catch {
      problems.push(`line ${line}: not JSON`);
      continue;
    }
    const bad = (what: string) => problems.push(`line ${line}: ${what}`);
    switch (r?.type) {
      case 'enterprise': {
        const key = text(r.key);
        const name = text(r.name);
        if (!key || !name) bad('enterprise needs key and name');
        else out.enterprises.push({ key, name, ...(typeof r.uuid === 'string' && r.uuid ? { uuid: r.uuid } : {}) });
        break;
      }
      case 'repository': {
        const key = text(r.key);
        const enterprise = text(r.enterprise);
        const name = text(r.name);
        const created = time(r.created_at);
        if (!key || !enterprise || !name || created === null) bad('repository needs key, enterprise, name and created_at');
        else out.repositories.push({ key, enterprise, name, created_at: created });
        break;
      }
      case 'developer': {
        const key = text(r.key);
        const name = text(r.name) ?? key;
        if (!key || !name) bad('developer needs key');
        else out.developers.push({ key, name });
        break;
      }
      case 'contribution': {
        const repository = text(r.repository);
        const developer = text(r.developer);
        const from = time(r.from);
        const to = time(r.to);
        const commits = r.commits;
        if (!repository || !developer || from === null || to === null) bad('contribution needs repository, developer, from and to');
        else if (to < from) bad('contribution ends before it starts');
        else if (typeof commits !== 'number' || !Number.isInteger(commits) || commits < 1 || commits > 10_000_000) bad('contribution commits must be a whole number ≥ 1');
        else out.contributions.push({ repository, developer, from, to, commits });
        break;
      }
      case 'asset': {
        const enterprise = text(r.enterprise);
        const at = time(r.registered_at);
        if (!enterprise || at === null) bad('asset needs enterprise and registered_at');
        else out.assets.push({ enterprise, kind: text(r.kind, 40) ?? 'other', registered_at: at });
        break;
      }
      default:
        bad(`unknown type ${JSON.stringify(r?.type)}`);
    }
  }
  const enterpriseKeys = new Set(out.enterprises.map((e) => e.key));
  const repoKeys = new Set(out.repositories.map((e) => e.key));
  const devKeys = new Set(out.developers.map((e) => e.key));
  if (enterpriseKeys.size !== out.enterprises.length) problems.push('duplicate enterprise key');
  if (repoKeys.size !== out.repositories.length) problems.push('duplicate repository key');
  if (devKeys.size !== out.developers.length) problems.push('duplicate developer key');
  for (const r of out.repositories) if (!enterpriseKeys.has(r.enterprise)) problems.push(`repository ${r.key}: unknown enterprise ${r.enterprise}`);
  for (const a of out.assets) if (!enterpriseKeys.has(a.enterprise)) problems.push(`asset: unknown enterprise ${a.enterprise}`);
  for (const c of out.contributions) {
    if (!repoKeys.has(c.repository)) problems.push(`contribution: unknown repository ${c.repository}`);
    if (!devKeys.has(c.developer)) problems.push(`contribution: unknown developer ${c.developer}`);
  }
  if (problems.length) throw new ImportError(problems);
  return out;
}

/** Writes checked records in one transaction; the touched enterprises' series are dropped for a full recompute. */
export async function importParsed(db: ScoreDb, dialect: Dialect, p: Parsed): Promise<ImportStats> {
  const now = Date.now();
  let created = 0;
  await db.transaction().execute(async (trx) => {
    const t = trx as unknown as ScoreDb;
    const ids = await nextIds(t);
    const enterpriseId = new Map<string, number>();
    const newEnterprises: Record<string, unknown>[] = [];
    for (const e of p.enterprises) {
      const existing =
        (e.uuid ? await t.selectFrom('score_enterprises').select('id').where('uuid', '=', e.uuid).executeTakeFirst() : undefined) ??
        (await t.selectFrom('score_enterprises').select('id').where('name', '=', e.name).executeTakeFirst());
      if (existing) {
        enterpriseId.set(e.key, existing.id);
      } else {
        const id = ids.enterprise + newEnterprises.length;
        enterpriseId.set(e.key, id);
        newEnterprises.push({ id, uuid: e.uuid ?? randomUUID(), name: e.name, enterprise_id: null, activated: 0, activated_at: null, is_demo: 0, created_at: now, updated_at: now });
      }
    }
    created = newEnterprises.length;
    await insertMany(t, 'score_enterprises', newEnterprises);
    const repoId = new Map(p.repositories.map((r, k) => [r.key, ids.repository + k]));
    await insertMany(
      t,
      'score_repositories',
      p.repositories.map((r) => ({ id: repoId.get(r.key), score_enterprise_id: enterpriseId.get(r.enterprise), name: r.name, created_at: r.created_at, is_demo: 0 })),
    );
    const devId = new Map(p.developers.map((d, k) => [d.key, ids.developer + k]));
    await insertMany(t, 'score_developers', p.developers.map((d) => ({ id: devId.get(d.key), name: d.name, is_demo: 0 })));
    await insertMany(
      t,
      'score_contributions',
      p.contributions.map((c, k) => ({ id: ids.contribution + k, repository_id: repoId.get(c.repository), developer_id: devId.get(c.developer), from_at: c.from, to_at: c.to, commits: c.commits })),
    );
    await insertMany(t, 'score_assets', p.assets.map((a, k) => ({ id: ids.asset + k, score_enterprise_id: enterpriseId.get(a.enterprise), kind: a.kind, registered_at: a.registered_at })));
    const touched = [...new Set(enterpriseId.values())];
    if (touched.length) await t.deleteFrom('score_series').where('score_enterprise_id', 'in', touched).execute();
    await syncSequences(t, dialect);
    await bumpDataVersion(t);
  });
  return { enterprises: p.enterprises.length, created, repositories: p.repositories.length, developers: p.developers.length, contributions: p.contributions.length, assets: p.assets.length };
}

/** Imports a JSON-lines file. */
export async function importHistory(db: ScoreDb, dialect: Dialect, file: string): Promise<ImportStats> {
  const lines: [number, string][] = [];
  const reader = readline.createInterface({ input: fs.createReadStream(file, 'utf8'), crlfDelay: Infinity });
  let n = 0;
  for await (const line of reader) lines.push([++n, line]);
  return importParsed(db, dialect, parseRecords(lines));
}

/** Imports JSON lines given as text (tests, the API of tools). */
export async function importText(db: ScoreDb, dialect: Dialect, body: string): Promise<ImportStats> {
  return importParsed(db, dialect, parseRecords(body.split('\n').map((line, k) => [k + 1, line] as [number, string])));
}
