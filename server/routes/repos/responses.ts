import { anyObject, arrayOf, bool, nullableNum, num, obj, ok, pageSchema, str } from '../schemas.ts';

/**
 * The 2xx answers of the repos routes (core/repos.ts DTOs). A commit's record and its changed
 * paths are kept whole (open objects): the record is the canonical registered text's content.
 */

const project = obj({
  project_id: num,
  dip_id: str,
  name: str,
  description: str,
  url: str,
  owner_user_id: num,
  owner_name: str,
  commit_count: num,
  last_commit_at: nullableNum,
  created_at: num,
  can_manage: bool,
});

const commit = obj({
  commit_id: str,
  dip_id: str,
  tree_id: str,
  parents: arrayOf(str),
  author_name: str,
  author_time: num,
  author_tz: str,
  committer_name: str,
  committer_time: num,
  message_sha256: str,
  tree_sha256: str,
  file_count: num,
  record_sha256: str,
  record: anyObject,
  proof_status: num,
  is_generated: bool,
  block_height: nullableNum,
  registered_at: num,
  registrant_name: str,
  orphaned_at: nullableNum,
  changes: { type: ['object', 'null'], additionalProperties: true },
});

const token = obj({ token_id: num, prefix: str, created_by_name: str, created_at: num, revoked_at: nullableNum, last_used_at: nullableNum });

export const projectResponse = ok(project);
export const projectPageResponse = ok({ ...pageSchema(project), properties: { ...pageSchema(project).properties, sees_all: bool } });
export const overviewResponse = ok(
  obj({
    projects: num,
    commits: num,
    developers: num,
    weeks: arrayOf(obj({ week: num, commits: num })),
    by_developer: arrayOf(obj({ name: str, commits: num, projects: num, last_commit_at: num })),
    by_project: arrayOf(obj({ project_id: num, name: str, commits: num, developers: num, last_commit_at: nullableNum })),
  }),
);
export const newTokenResponse = ok(obj({ token_id: num, token: str, prefix: str }));
export const tokensResponse = ok(arrayOf(token));
export const revokedResponse = ok(obj({ revoked: bool }));
export const knownCommitsResponse = ok(arrayOf(str));
export const batchResponse = ok(obj({ registered: num, already: num, commits: arrayOf(obj({ commit_id: str, dip_id: str, is_new: bool })) }));
export const commitPageResponse = ok(pageSchema(commit));
export const commitResponse = ok(commit);
export const refsResponse = ok(
  obj({
    refs: arrayOf(obj({ name: str, kind: str, short_name: str, commit_id: str, updated_at: num })),
    force_pushes: arrayOf(obj({ ref_name: str, old_commit: str, new_commit: str, orphaned: arrayOf(str), detected_at: num, user_name: str })),
    orphaned_count: num,
  }),
);
export const refsUpdateResponse = ok(obj({ updated: num, skipped: arrayOf(str), force_pushes: arrayOf(obj({ ref_name: str, orphaned: num })) }));
