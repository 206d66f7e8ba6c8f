import type { ObjectDriver } from '../storage/drivers.ts';
import type { Db } from '../db/database.ts';
import { toHex } from '../../core/ledger/bytes.ts';
import { parseCheckpointBody, parseSignedNote, signCheckpoint, verifyCheckpoint, type CheckpointBody, type P1363Sign } from '../../core/ledger/checkpoint.ts';

/** The key that signs checkpoints: a P1363 signing callback (software key or HSM) and its public key. */
export type CheckpointKey = { spki: Uint8Array; sign: P1363Sign };

export type StoredCheckpoint = { height: number; key: string; note: string; body: CheckpointBody };

/** `checkpoints/000000000042`: one object per sealed block height, written once. */
export const checkpointKeyOf = (height: number) => `checkpoints/${String(height).padStart(12, '0')}`;

async function readAll(driver: ObjectDriver, key: string): Promise<string | null> {
  const stream = await driver.get(key);
  if (!stream) return null;
  const parts: Buffer[] = [];
  for await (const chunk of stream) parts.push(chunk as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

/**
 * The checkpoints in the object store, outside the database: a database that loses its
 * tail (a restored backup, a deleted block) is caught by comparing it with them.
 *
 * Names are the block height, zero-padded, and an object is never replaced (a name that
 * exists is left alone): the store holds the log's history, append-only. Heights are
 * written in order, so the newest is found by probing upward (exponential then binary
 * search): no listing, which S3-compatible stores make slow and paged.
 */
export class CheckpointStore {
  readonly driver: ObjectDriver;
  readonly origin: string;

  constructor(driver: ObjectDriver, origin: string) {
    this.driver = driver;
    this.origin = origin;
  }

  async has(height: number): Promise<boolean> {
    return (await this.driver.size(checkpointKeyOf(height))) !== null;
  }

  async read(height: number): Promise<StoredCheckpoint | null> {
    const key = checkpointKeyOf(height);
    const note = await readAll(this.driver, key);
    if (note === null) return null;
    const signed = parseSignedNote(note);
    const body = signed ? parseCheckpointBody(signed.text) : null;
    if (!body) throw new Error(`${key} is not a signed checkpoint`);
    return { height, key, note, body };
  }

  /** Writes a checkpoint for `height` unless one is stored there already (write-once); returns the stored note. */
  async publish(height: number, body: CheckpointBody, key: CheckpointKey): Promise<string> {
    const objectKey = checkpointKeyOf(height);
    const existing = await readAll(this.driver, objectKey);
    if (existing !== null) return existing;
    const note = await signCheckpoint(body, key);
    if (await this.driver.create(objectKey, Buffer.from(note, 'utf8'))) return note;
    // Another writer got there first: theirs is the checkpoint.
    return (await readAll(this.driver, objectKey)) ?? note;
  }

  /** The highest stored height ≥ `from` (0 when none is stored at or above it, from = 1). */
  async newestFrom(from: number): Promise<number> {
    if (!(await this.has(from))) return from - 1;
    let low = from;
    let step = 1;
    let high = low + step;
    while (await this.has(high)) {
      low = high;
      step *= 2;
      high = low + step;
    }
    // low is stored, high is not: binary search between.
    while (high - low > 1) {
      const mid = Math.floor((low + high) / 2);
      if (await this.has(mid)) low = mid;
      else high = mid;
    }
    return low;
  }
}

export type TailCheck = { isOk: true; detail: string } | { isOk: false; problem: string };

/**
 * Compares the database's head block with the stored checkpoints: the checkpoint at the
 * head's height (if stored) must verify and state the head's tree size and root, and no
 * checkpoint may exist above the head. Names the missing range otherwise.
 */
export async function compareWithCheckpoints(
  store: CheckpointStore,
  head: { height: number; tree_size: number; root: string } | null,
  spkis: Uint8Array[],
): Promise<TailCheck> {
  const headHeight = head?.height ?? 0;
  const newest = await store.newestFrom(headHeight + 1);
  if (newest > headHeight) {
    const cp = await store.read(newest);
    const size = cp?.body.treeSize ?? 0;
    const isSigned = cp ? await isSignedByAny(cp.note, spkis) : false;
    return {
      isOk: false,
      problem:
        `the database ends at block ${headHeight} (tree size ${head?.tree_size ?? 0}) but the object store holds a${isSigned ? ' signed' : 'n UNVERIFIED'} checkpoint for block ${newest} (tree size ${size}): ` +
        `blocks ${headHeight + 1}–${newest} (leaves ${head?.tree_size ?? 0}–${size - 1}) are missing from the database`,
    };
  }
  if (!head) return { isOk: true, detail: 'no blocks and no checkpoints' };
  const cp = await store.read(head.height);
  if (!cp) return { isOk: true, detail: `no checkpoint stored for block ${head.height} yet` };
  if (!(await isSignedByAny(cp.note, spkis))) return { isOk: false, problem: `${cp.key} is not signed by a platform key` };
  if (cp.body.treeSize !== Number(head.tree_size) || toHex(cp.body.root) !== head.root) {
    return { isOk: false, problem: `${cp.key} states tree size ${cp.body.treeSize}, the database's block ${head.height} has ${head.tree_size} with another root: the database's tail was rewritten` };
  }
  return { isOk: true, detail: `matches ${cp.key} (tree size ${cp.body.treeSize})` };
}

/**
 * True when the database's head is no longer `checkedHeight`: another process sealed a block
 * (and published its checkpoint, always after its commit) since the head that a failed
 * compareWithCheckpoints was given was read. Then the check is worth running again on a fresh
 * read; when the head did not move, a store ahead of it means the database lost its tail.
 */
export async function hasHeadMoved(db: Db, checkedHeight: number): Promise<boolean> {
  const now = await db.selectFrom('ledger_blocks').select(['height']).orderBy('height', 'desc').limit(1).executeTakeFirst();
  return (now?.height ?? 0) !== checkedHeight;
}

async function isSignedByAny(note: string, spkis: Uint8Array[]): Promise<boolean> {
  for (const spki of spkis) if ((await verifyCheckpoint(note, spki)).isOk) return true;
  return false;
}
