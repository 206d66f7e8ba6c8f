import { ASSET_BATCH_MAX, nameFromFileName, type AssetBatchResponse, type AssetDto, type AssetRegisterInput } from '../../../core/assets.ts';
import type { FilesHashOptions, HashProgress, HashResult } from '../../../workers/hash/hash-service.ts';

/**
 * Batch registration: the files are hashed in the worker pool, and each fingerprint
 * is sent as soon as it is known — whatever has queued up while the previous call was in
 * flight goes in the next call (at most ASSET_BATCH_MAX). Every file ends with its own outcome;
 * a refused or unreadable file never stops the others, and cancelling stops the work not yet
 * sent (a call already in flight finishes: its items are registered or refused on the server).
 */
export type BatchRowStatus = 'waiting' | 'hashing' | 'queued' | 'sending' | 'registered' | 'refused' | 'failed' | 'cancelled';

export type BatchFile = { name: string; size: number; webkitRelativePath?: string };

export type BatchRow = {
  file: BatchFile;
  name: string;
  status: BatchRowStatus;
  /** Bytes hashed so far. */
  bytes: number;
  identity?: string;
  asset?: AssetDto;
  /** A refusal's §8 key (or the server's text), or the error of a failed call. */
  message?: string;
  error?: unknown;
};

export type BatchDeps<F extends BatchFile> = {
  hashFiles: (files: readonly F[], options: FilesHashOptions) => Promise<HashResult[]>;
  register: (items: AssetRegisterInput[]) => Promise<AssetBatchResponse>;
};

export type BatchOptions = {
  type: number;
  signal: AbortSignal;
  onRows: (rows: readonly BatchRow[]) => void;
  onProgress?: (progress: HashProgress) => void;
};

export function newBatchRows(files: readonly BatchFile[]): BatchRow[] {
  return files.map((file) => ({ file, name: nameFromFileName(file.name) || 'file', status: 'waiting', bytes: 0 }));
}

export function isFinished(status: BatchRowStatus): boolean {
  return status === 'registered' || status === 'refused' || status === 'failed' || status === 'cancelled';
}

/** Runs a batch to its end; resolves with every row finished. */
export async function runBatch<F extends BatchFile>(files: readonly F[], initial: readonly BatchRow[], deps: BatchDeps<F>, options: BatchOptions): Promise<BatchRow[]> {
  const rows = initial.map((r) => ({ ...r }));
  const set = (index: number, patch: Partial<BatchRow>) => {
    rows[index] = { ...(rows[index] as BatchRow), ...patch };
  };
  const emit = () => options.onRows(rows.slice());
  const queue: number[] = [];
  let isHashingOver = false;
  let wake: (() => void) | null = null;
  const nudge = () => {
    wake?.();
    wake = null;
  };
  options.signal.addEventListener('abort', nudge, { once: true });

  const callbacks = (toRow: (index: number) => number): FilesHashOptions => ({
    signal: options.signal,
    onFileProgress: (index, bytes) => {
      set(toRow(index), { status: 'hashing', bytes });
      emit();
    },
    onFileHashed: (index, result) => {
      const i = toRow(index);
      set(i, { status: 'queued', bytes: result.bytes, identity: result.identity });
      queue.push(i);
      emit();
      nudge();
    },
  });
  const isAbort = (error: unknown) => (error as Error)?.name === 'AbortError';
  const hashing = (async () => {
    try {
      await deps.hashFiles(files, { ...callbacks((i) => i), onProgress: options.onProgress });
    } catch (error) {
      if (isAbort(error)) return;
      // One unreadable file stops the pool: the files not hashed yet go one by one, so that only it fails.
      for (const [i, row] of rows.entries()) {
        if (options.signal.aborted) return;
        if (row.status !== 'waiting' && row.status !== 'hashing') continue;
        try {
          await deps.hashFiles([files[i] as F], callbacks(() => i));
        } catch (each) {
          if (isAbort(each)) return;
          set(i, { status: 'failed', error: each });
          emit();
        }
      }
    }
  })().finally(() => {
    isHashingOver = true;
    nudge();
  });

  for (;;) {
    if (options.signal.aborted) break;
    if (queue.length === 0) {
      if (isHashingOver) break;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
      continue;
    }
    const sent = queue.splice(0, ASSET_BATCH_MAX);
    for (const i of sent) set(i, { status: 'sending' });
    emit();
    const items = sent.map((i) => {
      const row = rows[i] as BatchRow;
      return { name: row.name, type: options.type, file_hash: row.identity as string, size: row.file.size };
    });
    try {
      const response = await deps.register(items);
      for (const result of response.results) {
        const index = sent[result.index];
        if (index === undefined) continue;
        if (result.ok) set(index, { status: 'registered', asset: result.asset });
        else set(index, { status: 'refused', message: result.message });
      }
      // An item the server did not answer (it should answer all) is not left spinning.
      for (const i of sent) if (rows[i]?.status === 'sending') set(i, { status: 'failed' });
    } catch (error) {
      for (const i of sent) set(i, { status: 'failed', error });
    }
    emit();
  }
  await hashing;
  for (const [i, row] of rows.entries()) {
    if (isFinished(row.status)) continue;
    set(i, options.signal.aborted ? { status: 'cancelled' } : { status: 'failed' });
  }
  options.signal.removeEventListener('abort', nudge);
  emit();
  return rows;
}
