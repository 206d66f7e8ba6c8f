/// <reference lib="webworker" />
import './buffer-shim.ts';
import { expose } from 'comlink';
import { memoryFs, readCommitRecords, RepoReadError, type RecordProgress, type RepoReadReason } from '../../core/repos-git.ts';
import type { CommitChanges, CommitRecord } from '../../core/repos.ts';

/** One picked file: its path inside the picked folder (webkitRelativePath) and the File. */
export type PickedFile = { path: string; file: File };

export type ComputeResult =
  | { ok: true; records: CommitRecord[]; tips: Array<{ ref: string; commit: string }>; changes: Map<string, CommitChanges>; ms: number; bytes: number }
  | { ok: false; reason: RepoReadReason; detail: string };

/**
 * Where the repository's git directory is among the picked files: `<folder>/.git` of a working
 * tree, the `.git` folder itself, or a bare repository (HEAD and objects/ at its root).
 */
export function findPickedGitdir(paths: string[]): string | null {
  let best: string | null = null;
  for (const p of paths) {
    const parts = p.split('/');
    const at = parts.indexOf('.git');
    if (at >= 0) {
      const dir = parts.slice(0, at + 1).join('/');
      if (best === null || dir.length < best.length) best = dir;
    }
  }
  if (best) return best;
  for (const p of paths) {
    const parts = p.split('/');
    if (parts.length === 2 && parts[1] === 'HEAD' && paths.some((q) => q.startsWith(`${parts[0]}/objects/`))) return parts[0] as string;
  }
  return null;
}

const api = {
  /** Reads `.git` from the picked files and computes the record of every commit not in `known`, oldest first. */
  async compute(files: PickedFile[], known: string[], onProgress?: (p: RecordProgress) => void): Promise<ComputeResult> {
    const started = performance.now();
    const gitdir = findPickedGitdir(files.map((f) => f.path));
    if (!gitdir) return { ok: false, reason: 'not_a_repository', detail: 'no .git folder among the picked files' };
    const fs = memoryFs(files.filter((f) => f.path.startsWith(`${gitdir}/`)).map((f) => ({ path: f.path, size: f.file.size, read: async () => new Uint8Array(await f.file.arrayBuffer()) })));
    let bytes = 0;
    try {
      const { records, tips, changes } = await readCommitRecords({
        fs,
        gitdir: `/${gitdir}`,
        known: new Set(known),
        withChanges: true,
        onProgress: (p) => {
          bytes = p.bytes;
          // At most ~20 messages a second to the page.
          if (p.done === p.total || p.done % 25 === 0) onProgress?.(p);
        },
      });
      return { ok: true, records, tips, changes, ms: performance.now() - started, bytes };
    } catch (error) {
      if (error instanceof RepoReadError) return { ok: false, reason: error.reason, detail: error.message };
      return { ok: false, reason: 'not_a_repository', detail: error instanceof Error ? error.message : String(error) };
    }
  },
  ping(): true {
    return true;
  },
};

export type RepoWorkerApi = typeof api;
expose(api);
