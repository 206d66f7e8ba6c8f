import { api } from '@/api/client.ts';
import { downloadFile } from '@/api/download.ts';
import type { Paged } from '../../../core/api-types.ts';
import { COMMIT_BATCH_MAX, type CommitBatchResponse, type CommitChanges, type CommitRecord, type RefsUpdateResponse, type RepoRefsDto, type RepoCommitDto, type RepoOverviewDto, type RepoProjectDto, type RepoTokenDto } from '../../../core/repos.ts';

/** The /api/v1/repos calls. */
export const fetchRepos = (query: { page: number; page_size: number; keyword?: string }, signal?: AbortSignal) => api.get<Paged<RepoProjectDto> & { sees_all: boolean }>('/v1/repos', { query, signal });
export const createRepo = (input: { name: string; description: string; url: string }) => api.post<RepoProjectDto>('/v1/repos', input);
export const fetchRepo = (projectId: number, signal?: AbortSignal) => api.get<RepoProjectDto>(`/v1/repos/${projectId}`, { signal });
export type CommitQuery = { page: number; page_size: number; author?: string; ref?: string; q?: string; from?: number; to?: number };
export const fetchCommits = (projectId: number, query: CommitQuery, signal?: AbortSignal) =>
  api.get<Paged<RepoCommitDto>>(`/v1/repos/${projectId}/commits`, { query, signal });
export const fetchCommit = (projectId: number, commitId: string, signal?: AbortSignal) => api.get<RepoCommitDto>(`/v1/repos/${projectId}/commits/${encodeURIComponent(commitId)}`, { signal });
export const fetchKnownCommits = (projectId: number, signal?: AbortSignal) => api.get<string[]>(`/v1/repos/${projectId}/known-commits`, { signal });
export const fetchTokens = (projectId: number, signal?: AbortSignal) => api.get<RepoTokenDto[]>(`/v1/repos/${projectId}/tokens`, { signal });
export const createToken = (projectId: number) => api.post<{ token_id: number; token: string; prefix: string }>(`/v1/repos/${projectId}/tokens`);
export const revokeToken = (projectId: number, tokenId: number) => api.delete<{ revoked: boolean }>(`/v1/repos/${projectId}/tokens/${tokenId}`);

export const fetchRefs = (projectId: number, signal?: AbortSignal) => api.get<RepoRefsDto>(`/v1/repos/${projectId}/refs`, { signal });
/** Reports the repository's branches and tags after its commits (HEAD is left out). */
export const putRefs = (projectId: number, tips: Array<{ ref: string; commit: string }>, signal?: AbortSignal) =>
  api.put<RefsUpdateResponse>(`/v1/repos/${projectId}/refs`, { refs: tips.filter((t) => t.ref !== 'HEAD') }, { signal });

/** Sends records in batches (oldest first), each with its changed paths; resolves with the totals. */
export async function pushRecords(
  projectId: number,
  records: CommitRecord[],
  changes: ReadonlyMap<string, CommitChanges>,
  onBatch?: (sent: number) => void,
  signal?: AbortSignal,
): Promise<{ registered: number; already: number }> {
  let registered = 0;
  let already = 0;
  for (let i = 0; i < records.length; i += COMMIT_BATCH_MAX) {
    const batch = records.slice(i, i + COMMIT_BATCH_MAX).map((r) => ({ ...r, changes: changes.get(r.commit) }));
    const answer = await api.post<CommitBatchResponse>(`/v1/repos/${projectId}/commits`, { commits: batch }, { signal });
    registered += answer.registered;
    already += answer.already;
    onBatch?.(Math.min(records.length, i + batch.length));
  }
  return { registered, already };
}

export const downloadCommitProof = (apiBase: string, projectId: number, commit: { commit_id: string; dip_id: string }) =>
  downloadFile(`${apiBase}/v1/repos/${projectId}/commits/${commit.commit_id}/proof`, `provena-commit-${commit.commit_id.slice(0, 12)}-${commit.dip_id}.pdf`);
export const fetchRepoOverview = (signal?: AbortSignal) => api.get<RepoOverviewDto>('/v1/repos/overview', { signal });
