import type { Generated, Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Db } from '../db/database.ts';

/** Tables of migration 0008-score (times in ms; flags 0/1). */
export type ScoreEnterprisesTable = {
  id: Generated<number>;
  uuid: string;
  name: string;
  enterprise_id: number | null;
  activated: Generated<number>;
  activated_at: number | null;
  is_demo: Generated<number>;
  created_at: number;
  updated_at: number;
};
export type ScoreRepositoriesTable = { id: Generated<number>; score_enterprise_id: number; name: string; created_at: number; is_demo: Generated<number>; /** the platform's repo project it stands for (migration 0035) */ project_id: Generated<number | null> };
export type ScoreDevelopersTable = { id: Generated<number>; name: string; is_demo: Generated<number>; /** a platform commit author, by the SHA-256 of the e-mail (migration 0035) */ email_sha256: Generated<string | null> };
export type ScoreContributionsTable = { id: Generated<number>; repository_id: number; developer_id: number; from_at: number; to_at: number; commits: number };
export type ScoreAssetsTable = { id: Generated<number>; score_enterprise_id: number; kind: string; registered_at: number };
export type ScoreSeriesTable = { score_enterprise_id: number; first_week: number; last_week: number; points: string; capital: number; computed_at: number };
export type ScoreLinksTable = { a: number; b: number; weight: number };
export type ScoreMetaTable = { key: string; value: string };

export type ScoreTables = {
  score_enterprises: ScoreEnterprisesTable;
  score_repositories: ScoreRepositoriesTable;
  score_developers: ScoreDevelopersTable;
  score_contributions: ScoreContributionsTable;
  score_assets: ScoreAssetsTable;
  score_series: ScoreSeriesTable;
  score_links: ScoreLinksTable;
  score_meta: ScoreMetaTable;
};

/** The score service's view of the database: its own tables plus the platform tables it reads. */
export type ScoreDatabase = ScoreTables & Pick<Database, 'enterprises' | 'ledger_entries' | 'repo_projects' | 'repo_commits'>;
export type ScoreDb = Kysely<ScoreDatabase>;

/** The same connection, typed for the score tables (kept out of the shared schema.ts to avoid churn there). */
export function scoreDb(db: Db): ScoreDb {
  return db as unknown as ScoreDb;
}
