import { sql, type Transaction } from 'kysely';
import { isPostgres } from '../db/dialect.ts';
import type { Db } from '../db/database.ts';
import type { Database, LedgerBlocksTable } from '../db/schema.ts';
import { isUniqueViolation } from '../db/database.ts';
import { insertRows } from '../db/bulk-insert.ts';
import { fromBase64, fromHex, toHex } from '../../core/ledger/bytes.ts';
import { blockHash, encodeHeader, GENESIS_PREV_HASH, signText, type BlockHeader } from '../../core/ledger/block.ts';
import { MerkleLog } from '../../core/ledger/merkle.ts';
import { encodeRecord, KIND_PATTERN } from '../../core/ledger/record.ts';
import { assetDnaOf, fileCommitmentHex, leafHashHex } from './entry-hashes.ts';
import { normalizeDigest } from '../../core/ledger/package.ts';
import { loadActiveBlockKey, loadBlockKey, type PlatformKey } from './signing-key.ts';
import { ensurePlatformKeys, activeKeyId } from '../keys/platform-keys.ts';
import type { LedgerConfig } from './config.ts';
import { checkpointOrigin, signCheckpoint } from '../../core/ledger/checkpoint.ts';
import { compareWithCheckpoints, hasHeadMoved, type CheckpointKey, type CheckpointStore } from './checkpoints.ts';

export type RegisterInput = {
  /** §3 identity (0x + hex + .ext) or bare hex SHA-256. */
  fileHash: string;
  enterpriseName: string;
  registrantUserId: number | null;
  kind: string;
  /** Validity of the first certificate; defaults to the configured one. */
  validMs?: number;
  /** The certificate's main language (the registrant's); zh when unknown. */
  locale?: 'zh' | 'en' | 'ja';
};

export type Registration = { dna: string; file_hash: string; kind: string; enterprise_name: string; registered_at: number };

/**
 * Work the caller does in the same transaction as the ledger entry (charge credits, insert
 * the asset row…): the registration and that work commit together or not at all. A thrown
 * error (an ApiError such as integrals_not_enough) rolls everything back and is rethrown.
 */
export type InTransaction = (trx: Transaction<Database>, registration: Registration) => Promise<void>;

/** Work done in the same transaction as a batch of entries (one credit check and charge, the feature's rows). */
export type InTransactionMany = (trx: Transaction<Database>, registrations: Registration[]) => Promise<void>;

/** A block as stored: the ledger_blocks row. */
export type BlockRow = LedgerBlocksTable;

type Logger = { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void; error(obj: object, msg?: string): void };

export class LedgerError extends Error {}

type PreparedRegistration = { input: RegisterInput; digest: string; enterpriseName: string; identity: string };

type GroupMember = { prepared: PreparedRegistration; inTransaction: InTransaction | undefined; resolve: (r: Registration) => void; reject: (error: unknown) => void; collisions?: number };

/** At most this many registrations share one transaction (bounds how long one COMMIT keeps the others waiting). */
const GROUP_COMMIT_MAX = 256;

class DnaCollision extends Error {
  readonly member: GroupMember;
  constructor(member: GroupMember) {
    super('asset DNA collision');
    this.member = member;
  }
}


/**
 * Salts drawn from a pool filled 64 KiB at a time: one getRandomValues call per entry cost
 * ~30 µs (a tenth of a registration's CPU in a profile of bench:ledger); the bytes are the
 * same CSPRNG's, each handed out once (copied, so no two entries share a buffer).
 */
const SALT_POOL_BYTES = 65_536;
let saltPool = new Uint8Array(0);
let saltAt = 0;
function drawSalt(): Uint8Array {
  if (saltAt + 32 > saltPool.length) {
    saltPool = crypto.getRandomValues(new Uint8Array(SALT_POOL_BYTES));
    saltAt = 0;
  }
  const salt = saltPool.slice(saltAt, saltAt + 32);
  saltPool.fill(0, saltAt, saltAt + 32);
  saltAt += 32;
  return salt;
}

/** A new entry: its salt, record, DNA, leaf hash and what its caller is answered. */
type NewEntry = { p: PreparedRegistration; salt: string; record: string; dna: string; leafHash: string; registration: Registration };

function newEntry(p: PreparedRegistration, registeredAt: number): NewEntry {
  const salt = drawSalt();
  const record = encodeRecord({ v: 1, kind: p.input.kind, commitment: fileCommitmentHex(salt, p.digest), enterprise_name: p.enterpriseName, registered_at: registeredAt });
  const dna = assetDnaOf(record);
  return { p, salt: Buffer.from(salt.buffer, salt.byteOffset, salt.byteLength).toString('hex'), record, dna, leafHash: leafHashHex(record), registration: { dna, file_hash: p.identity, kind: p.input.kind, enterprise_name: p.enterpriseName, registered_at: registeredAt } };
}

/**
 * A registered entry's proof status: waiting for its block. An entry has no `proofs` row until
 * its block is sealed (the sealer creates it, status 2); readers take a missing row as this.
 */
export const PROOF_STATUS_REGISTERED = 1;

const LEDGER_ENTRY_COLUMNS = ['dna', 'record', 'leaf_hash', 'file_hash', 'salt', 'kind', 'enterprise_name', 'registrant_user_id', 'registered_at', 'leaf_index', 'block_height', 'proof_valid_ms', 'proof_locale'] as const;
/** The checks of a registration's input, before it joins a group (a bad input never touches the others). */
function prepareRegistration(input: RegisterInput): PreparedRegistration {
  const digest = normalizeDigest(input.fileHash);
  if (!digest) throw new LedgerError('fileHash must be a SHA-256 digest');
  if (!KIND_PATTERN.test(input.kind)) throw new LedgerError('kind must be lowercase letters');
  const enterpriseName = input.enterpriseName.trim();
  if (!enterpriseName || enterpriseName.length > 200) throw new LedgerError('enterpriseName must be 1–200 characters');
  const extension = /(\.[a-z0-9]{1,16})$/.exec(input.fileHash.trim().toLowerCase())?.[1] ?? '';
  return { input, digest, enterpriseName, identity: `0x${digest}${extension}` };
}

/**
 * The append-only log. A registration is one committed INSERT (durable once the call
 * returns: the acknowledgement). Sealing runs in one transaction that assigns leaf
 * indexes to waiting entries in id order, signs the header and inserts the block; a
 * crash before COMMIT leaves the entries waiting for the next block, and the block's
 * height is the primary key, so no two sealers can ever write two different block N.
 */
export class Ledger {
  readonly db: Db;
  readonly config: LedgerConfig;
  readonly log: Logger;
  key!: PlatformKey;
  private readonly tree = new MerkleLog();
  private head: BlockRow | null = null;
  private sealing: Promise<BlockRow | null> = Promise.resolve(null);
  private timer: ReturnType<typeof setInterval> | undefined;
  private pendingHint = 0;
  private readonly sealedListeners: ((block: BlockRow) => void)[] = [];
  /** Where checkpoints are published (the object store); without one they are only kept in memory. */
  readonly checkpoints: CheckpointStore | null;
  /** Signs checkpoints; unset, the active block-signing key does. */
  customCheckpointKey: CheckpointKey | null = null;
  private readonly keys = new Map<string, Promise<PlatformKey>>();
  private checkpoint: { height: number; treeSize: number; note: string } | null = null;
  private publishing: Promise<void> = Promise.resolve();
  private isCheckpointStored = false;

  constructor(db: Db, config: LedgerConfig, log: Logger, checkpoints: CheckpointStore | null = null) {
    this.db = db;
    this.config = config;
    this.log = log;
    this.checkpoints = checkpoints;
  }

  /** The checkpoint origin line (from PUBLIC_URL). */
  get origin(): string {
    return this.checkpoints?.origin ?? checkpointOrigin(this.config.publicUrl);
  }

  /** What signs checkpoints: a key set by the caller, or the active block-signing key. */
  get checkpointKey(): CheckpointKey {
    return this.customCheckpointKey ?? { spki: this.key.spki, sign: this.key.signer.sign };
  }

  set checkpointKey(key: CheckpointKey) {
    this.customCheckpointKey = key;
  }

  /** A block-signing key by id (retired keys included): proofs of a block are signed by the key that signed it. */
  keyFor(keyId: string): Promise<PlatformKey> {
    let pending = this.keys.get(keyId);
    if (!pending) {
      pending = loadBlockKey(this.db, keyId);
      pending.catch(() => this.keys.delete(keyId));
      this.keys.set(keyId, pending);
    }
    return pending;
  }

  /** Loads the key and every sealed leaf, and refuses to start if they do not give the head block's root. */
  async start(options: { isSealingTimerOn?: boolean } = {}): Promise<void> {
    await ensurePlatformKeys(this.db, this.log);
    this.key = await loadActiveBlockKey(this.db);
    this.keys.set(this.key.keyId, Promise.resolve(this.key));
    await this.reload();
    if (this.checkpoints) {
      // A database behind its own published checkpoints lost its tail (a restored backup, a
      // deleted block): sealing on it would fork the log under the same key. Refuse.
      // Another process may seal (and publish the block's checkpoint, always after its commit)
      // between this process reading the database's head and reading the store: when the head
      // moved meanwhile, the database is read again (a few times at most). A database that lost
      // its tail fails at once.
      for (let attempt = 1; ; attempt++) {
        const keys = await this.db.selectFrom('ledger_keys').select(['spki']).execute();
        const tail = await compareWithCheckpoints(this.checkpoints, this.head, keys.map((k) => fromBase64(k.spki)));
        if (tail.isOk) break;
        if (attempt >= 4 || !(await hasHeadMoved(this.db, this.head?.height ?? 0))) {
          throw new LedgerError(`refusing to start the ledger: ${tail.problem}. Restore the database from a copy that holds these blocks; do not delete checkpoints to get past this.`);
        }
        await this.reload();
      }
    }
    await this.publishCheckpoint();
    if (options.isSealingTimerOn !== false) {
      this.timer = setInterval(() => void this.sealSoon(), this.config.blockIntervalMs);
      this.timer.unref?.();
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    // Registrations already accepted into a group are answered before the caller closes the database.
    while (this.group.length || this.isGroupScheduled || this.isGroupRunning) await new Promise((resolve) => setTimeout(resolve, 2));
    await this.sealing.catch(() => null);
  }

  /**
   * Whether this process may seal on its own (the timer, a full block's hint). An API replica
   * (`provena serve`) and a standby worker are not sealers; the elected leader is.
   */
  get isSealer(): boolean {
    return this.sealerFlag;
  }

  private sealerFlag = true;

  /**
   * Becomes the sealer (this process won the leader lock): the tree is rebuilt from the
   * database first (never memory it did not load itself), then the timer seals.
   */
  async startSealing(): Promise<void> {
    this.sealerFlag = true;
    const reloaded = this.sealing.catch(() => null).then(async () => {
      await this.reload();
      return this.head;
    });
    this.sealing = reloaded;
    await reloaded;
    // What the previous leader left waiting is sealed before this resolves (awaited: a caller's
    // own sealNow right after never races a seal it did not ask for).
    await this.sealSoon();
    if (!this.timer && this.sealerFlag) {
      this.timer = setInterval(() => void this.sealSoon(), this.config.blockIntervalMs);
      this.timer.unref?.();
    }
  }

  /** Stops sealing (the leader lock was lost, or this process never had it). Waits for a seal in progress. */
  async stopSealing(): Promise<void> {
    this.sealerFlag = false;
    clearInterval(this.timer);
    this.timer = undefined;
    await this.sealing.catch(() => null);
  }

  /**
   * Follows blocks another process sealed: appends their leaves to the tree and moves the head
   * (API replicas, standby workers, before a certificate pass). A tree that does not give the
   * new head's root is thrown away and loaded again from the database.
   */
  catchUp(): Promise<BlockRow | null> {
    const next = this.sealing.catch(() => null).then(() => this.catchUpOnce());
    this.sealing = next;
    return next;
  }

  private async catchUpOnce(): Promise<BlockRow | null> {
    const dbHead = (await this.db.selectFrom('ledger_blocks').selectAll().orderBy('height', 'desc').limit(1).executeTakeFirst()) as BlockRow | undefined;
    if (!dbHead || dbHead.hash === this.head?.hash) return this.head;
    const before = this.tree.size;
    const target = Number(dbHead.tree_size);
    try {
      for (let from = before; from < target; from += 50_000) {
        const rows = await this.db
          .selectFrom('ledger_entries')
          .select(['leaf_index', 'leaf_hash'])
          .where('leaf_index', '>=', from)
          .where('leaf_index', '<', Math.min(target, from + 50_000))
          .orderBy('leaf_index')
          .execute();
        for (const r of rows) {
          if (Number(r.leaf_index) !== this.tree.size) throw new LedgerError(`ledger leaf ${this.tree.size} is missing`);
          this.tree.append(fromHex(r.leaf_hash));
        }
      }
      if (this.tree.size !== target || toHex(this.tree.root()) !== dbHead.root) throw new LedgerError('the followed tree does not give the head root');
      this.head = dbHead;
    } catch {
      await this.reload();
    }
    return this.head;
  }

  onSealed(listener: (block: BlockRow) => void): void {
    this.sealedListeners.push(listener);
  }

  get headBlock(): BlockRow | null {
    return this.head;
  }

  get treeSize(): number {
    return this.tree.size;
  }

  /** Re-reads the sealed log from the database (at boot, and when another process sealed first). */
  private async reload(): Promise<void> {
    this.tree.truncate(0);
    // The head first, then exactly its leaves: a block another process commits meanwhile
    // (its leaves and its row in one transaction) is not half-seen; catchUp takes it next.
    const head = ((await this.db.selectFrom('ledger_blocks').selectAll().orderBy('height', 'desc').limit(1).executeTakeFirst()) as BlockRow | undefined) ?? null;
    const headSize = head ? Number(head.tree_size) : 0;
    const pageSize = 50_000;
    for (let from = 0; from < headSize; from += pageSize) {
      const rows = await this.db
        .selectFrom('ledger_entries')
        .select(['leaf_index', 'leaf_hash'])
        .where('leaf_index', 'is not', null)
        .where('leaf_index', '>=', from)
        .where('leaf_index', '<', Math.min(headSize, from + pageSize))
        .orderBy('leaf_index')
        .execute();
      for (const r of rows) {
        if (Number(r.leaf_index) !== this.tree.size) throw new LedgerError(`ledger leaf ${this.tree.size} is missing`);
        this.tree.append(fromHex(r.leaf_hash));
      }
      if (rows.length < pageSize) break;
    }
    this.head = head;
    if (headSize !== this.tree.size) throw new LedgerError(`ledger has ${this.tree.size} sealed leaves but block ${this.head?.height} says ${headSize}`);
    // Leaves beyond the head's size (a block committed after the head was read) are fine; leaves without any block are not.
    const beyond = await this.db.selectFrom('ledger_entries').select(['leaf_index']).where('leaf_index', '>=', headSize).orderBy('leaf_index').limit(1).executeTakeFirst();
    if (beyond) {
      const later = await this.db.selectFrom('ledger_blocks').select(['height']).where('height', '>', head?.height ?? 0).limit(1).executeTakeFirst();
      if (!later) throw new LedgerError(`ledger has sealed leaves past block ${this.head?.height ?? 0} that no block holds`);
    }
    if (this.head && toHex(this.tree.root()) !== this.head.root) throw new LedgerError(`ledger leaves do not give the root of block ${this.head.height}`);
  }

  /**
   * Records a registration durably and returns its asset DNA. The entry joins the next block.
   *
   * Group commit: registrations that arrive while another group is being written (or within
   * the same turn of the event loop) share ONE transaction, so that N concurrent callers cost
   * one BEGIN/COMMIT (one WAL append or one PostgreSQL commit) instead of N. Each caller keeps
   * its own outcome: its entry (with its certificate terms) and its `inTransaction` work (membership check,
   * credit charge, the feature's row) run inside a savepoint of their own, so an error in one
   * (integrals_not_enough, a unique violation) rolls back that registration only and is
   * thrown to that caller alone. Every caller is answered after the group's COMMIT: a
   * resolved registration is durable, and a refused one can read what the others committed.
   * A failed COMMIT fails every registration of the group (none of them was written).
   */
  register(input: RegisterInput, inTransaction?: InTransaction): Promise<Registration> {
    let prepared: PreparedRegistration;
    try {
      prepared = prepareRegistration(input);
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise<Registration>((resolve, reject) => {
      const member = { prepared, inTransaction, resolve, reject };
      if (!this.isGroupCommit) {
        // PostgreSQL: concurrent registrations run in parallel on the pool's connections, one
        // transaction each (the server already flushes concurrent commits together); one shared
        // transaction would make every statement of every caller one serial round trip.
        void this.commitGroup([member]);
        return;
      }
      this.group.push(member);
      this.scheduleGroup();
    });
  }

  /** SQLite: one connection on the event loop, so registrations share transactions; PostgreSQL: see register. */
  private get isGroupCommit(): boolean {
    return !isPostgres(this.db);
  }

  private group: GroupMember[] = [];
  private isGroupScheduled = false;
  private isGroupRunning = false;

  private scheduleGroup(): void {
    if (this.isGroupScheduled || this.isGroupRunning) return;
    this.isGroupScheduled = true;
    // setImmediate: the callers of this turn of the event loop (a burst of requests, a Promise.all) join.
    setImmediate(() => {
      this.isGroupScheduled = false;
      void this.runGroups();
    });
  }

  private async runGroups(): Promise<void> {
    if (this.isGroupRunning) return;
    this.isGroupRunning = true;
    try {
      while (this.group.length) {
        const members = this.group.splice(0, GROUP_COMMIT_MAX);
        await this.commitGroup(members);
      }
    } finally {
      this.isGroupRunning = false;
      if (this.group.length) this.scheduleGroup();
    }
  }

  /** One transaction for the whole group; a savepoint per member when there are several. */
  private async commitGroup(members: GroupMember[]): Promise<void> {
    const outcomes: Array<{ ok: true; registration: Registration } | { ok: false; error: unknown }> = [];
    const isAlone = members.length === 1;
    try {
      await this.db.transaction().execute(async (trx) => {
        // Members with no work of their own (no inTransaction) go in one multi-row INSERT per
        // table under one savepoint: 2 statements for the lot instead of 4 per entry. Should it
        // fail (a DNA collision, 2^-100 per pair), it is rolled back and they go one by one below.
        const plain = isAlone ? [] : members.filter((m) => !m.inTransaction);
        const bulk = plain.length >= 2 ? await this.insertPlainBulk(trx, plain) : null;
        for (const member of members) {
          const own = bulk?.get(member);
          if (own) {
            outcomes.push({ ok: true, registration: own });
            continue;
          }
          if (isAlone) {
            outcomes.push({ ok: true, registration: await this.insertEntry(trx, member, false) });
            continue;
          }
          try {
            outcomes.push({ ok: true, registration: await this.insertEntry(trx, member, true) });
          } catch (error) {
            outcomes.push({ ok: false, error });
          }
        }
      });
    } catch (error) {
      if (error instanceof DnaCollision) {
        // A lone registration's DNA collided: nothing was written; it goes again with a fresh salt.
        this.group.unshift(error.member);
        this.scheduleGroup();
        return;
      }
      // The group's transaction did not commit: nothing of it was written.
      members.forEach((m, i) => {
        const own = outcomes[i];
        m.reject(own && !own.ok ? own.error : error);
      });
      return;
    }
    let written = 0;
    members.forEach((m, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) {
        written += 1;
        m.resolve(outcome.registration);
      } else m.reject(outcome.error);
    });
    this.pendingHint += written;
    if (this.pendingHint >= this.config.maxBlockEntries) void this.sealSoon();
  }

  /**
   * Ledger entries in bulk, in chunks that stay under SQLite's bound-parameter limit. Their
   * certificate terms ride on the entry: the `proofs` row is the sealer's (sealOnce), so a
   * registration's COMMIT writes no page of the proofs table and its primary-key index.
   */
  private async insertEntries(trx: Transaction<Database>, rows: readonly NewEntry[], registeredAt: number): Promise<void> {
    for (let i = 0; i < rows.length; i += 200) {
      const chunk = rows.slice(i, i + 200);
      await insertRows(
        trx,
        'ledger_entries',
        LEDGER_ENTRY_COLUMNS,
        chunk.map((r) => ({
          dna: r.dna,
          record: r.record,
          leaf_hash: r.leafHash,
          file_hash: r.p.identity,
          salt: r.salt,
          kind: r.p.input.kind,
          enterprise_name: r.p.enterpriseName,
          registrant_user_id: r.p.input.registrantUserId,
          registered_at: registeredAt,
          leaf_index: null,
          block_height: null,
          proof_valid_ms: r.p.input.validMs ?? this.config.proofValidityMs,
          proof_locale: r.p.input.locale ?? 'zh',
        })),
      );
    }
  }

  /** Entries of members without caller work, in bulk; null (nothing written) when the bulk insert failed. */
  private async insertPlainBulk(trx: Transaction<Database>, members: GroupMember[]): Promise<Map<GroupMember, Registration> | null> {
    const registeredAt = Date.now();
    const rows = members.map((member) => newEntry(member.prepared, registeredAt));
    await sql`savepoint provena_registration_bulk`.execute(trx);
    try {
      await this.insertEntries(trx, rows, registeredAt);
    } catch {
      await sql`rollback to savepoint provena_registration_bulk`.execute(trx);
      await sql`release savepoint provena_registration_bulk`.execute(trx);
      // Nothing of the lot was written: each goes again alone, with its own outcome.
      return null;
    }
    await sql`release savepoint provena_registration_bulk`.execute(trx);
    return new Map(members.map((member, i) => [member, rows[i]!.registration]));
  }

  /** The entry and the caller's work; a DNA collision (2^-100 per pair) gets a fresh salt. */
  private async insertEntry(trx: Transaction<Database>, member: GroupMember, isSavepoint: boolean): Promise<Registration> {
    const { prepared: p, inTransaction } = member;
    for (let attempt = 0; ; attempt++) {
      const entry = newEntry(p, Date.now());
      const { registration } = entry;
      let isDnaCollision = false;
      if (isSavepoint) await sql`savepoint provena_registration`.execute(trx);
      try {
        await this.insertEntries(trx, [entry], registration.registered_at).catch((error: unknown) => {
          isDnaCollision = isUniqueViolation(error);
          throw error;
        });
        await inTransaction?.(trx, registration);
        if (isSavepoint) await sql`release savepoint provena_registration`.execute(trx);
        return registration;
      } catch (error) {
        if (!isSavepoint) {
          // Alone in its transaction: the whole transaction rolls back; a collision retries in a new one.
          if (isDnaCollision && (member.collisions ?? 0) < 3) {
            member.collisions = (member.collisions ?? 0) + 1;
            throw new DnaCollision(member);
          }
          throw error;
        }
        await sql`rollback to savepoint provena_registration`.execute(trx);
        await sql`release savepoint provena_registration`.execute(trx);
        if (isDnaCollision && attempt < 3) continue;
        throw error;
      }
    }
  }

  /**
   * Records many registrations in ONE transaction (a pushed git history: thousands of commits),
   * inserted in bulk: all of them and the caller's work commit together, or none does.
   */
  async registerMany(inputs: RegisterInput[], inTransaction?: InTransactionMany): Promise<Registration[]> {
    const prepared = inputs.map(prepareRegistration);
    for (let attempt = 0; ; attempt++) {
      const registeredAt = Date.now();
      const rows = prepared.map((p) => newEntry(p, registeredAt));
      const registrations = rows.map((r) => r.registration);
      let isDnaCollision = false;
      try {
        await this.db.transaction().execute(async (trx) => {
          await this.insertEntries(trx, rows, registeredAt).catch((error: unknown) => {
            isDnaCollision = isUniqueViolation(error);
            throw error;
          });
          await inTransaction?.(trx, registrations);
        });
      } catch (error) {
        if (isDnaCollision && attempt < 3) continue;
        throw error;
      }
      this.pendingHint += rows.length;
      if (this.pendingHint >= this.config.maxBlockEntries) void this.sealSoon();
      return registrations;
    }
  }

  /** Seals at most one block now (serialised with any sealing in progress). */
  sealNow(): Promise<BlockRow | null> {
    const next = this.sealing.catch(() => null).then(() => this.sealOnce());
    this.sealing = next;
    return next;
  }

  /** Seals until nothing waits; errors are logged, not thrown (the timer calls this). */
  async sealSoon(): Promise<void> {
    if (!this.sealerFlag) return;
    try {
      // Keep sealing while full blocks come out: a backlog drains at once, not one block per tick.
      for (let block = await this.sealNow(); block && block.entry_count >= this.config.maxBlockEntries; block = await this.sealNow()) {
        /* next block */
      }
    } catch (error) {
      this.log.error({ err: error }, 'sealing failed; entries stay waiting for the next block');
    }
  }

  private async sealOnce(): Promise<BlockRow | null> {
    const before = this.tree.size;
    // A key rotated by `provena keys rotate` (another process) takes over from the next block.
    const active = await activeKeyId(this.db, 'block');
    if (active && active !== this.key.keyId) this.key = await this.keyFor(active);
    let sealed: BlockRow | null = null;
    try {
      sealed = await this.db.transaction().execute(async (trx) => {
        const dbHead = await trx.selectFrom('ledger_blocks').select(['height', 'hash']).orderBy('height', 'desc').limit(1).executeTakeFirst();
        if ((dbHead?.hash ?? null) !== (this.head?.hash ?? null)) throw new StaleHead();
        const pending = await trx
          .selectFrom('ledger_entries')
          .select(['id', 'dna', 'leaf_hash', 'proof_valid_ms', 'proof_locale'])
          .where('leaf_index', 'is', null)
          .orderBy('id')
          .limit(this.config.maxBlockEntries)
          .execute();
        if (pending.length === 0) return null;
        const height = (this.head?.height ?? 0) + 1;
        for (const p of pending) this.tree.append(fromHex(p.leaf_hash));
        const header: BlockHeader = {
          v: 1,
          height,
          prev_hash: this.head?.hash ?? GENESIS_PREV_HASH,
          tree_size: this.tree.size,
          root: toHex(this.tree.root()),
          sealed_at: Math.max(Date.now(), (this.head?.sealed_at ?? 0) + 1),
          key_id: this.key.keyId,
        };
        const text = encodeHeader(header);
        const row: BlockRow = {
          height,
          hash: blockHash(header),
          prev_hash: header.prev_hash,
          tree_size: header.tree_size,
          root: header.root,
          sealed_at: header.sealed_at,
          key_id: header.key_id,
          header: text,
          signature: await signText(this.key.signer.sign, text),
          entry_count: pending.length,
        };
        await trx.insertInto('ledger_blocks').values(row).execute();
        for (let i = 0; i < pending.length; i++) {
          const p = pending[i] as (typeof pending)[number];
          const result = await trx
            .updateTable('ledger_entries')
            .set({ leaf_index: before + i, block_height: height })
            .where('id', '=', p.id)
            .where('leaf_index', 'is', null)
            .executeTakeFirst();
          if (Number(result.numUpdatedRows) !== 1) throw new StaleHead();
        }
        // The entries' proof rows, sealed (2): created here, with the terms their registration
        // kept on the entry; an entry registered before migration 0043 has its row already
        // (status 1), which moves on to 2 as it always did.
        const updatedAt = Date.now();
        for (let i = 0; i < pending.length; i += 500) {
          await trx
            .insertInto('proofs')
            .values(
              pending.slice(i, i + 500).map((p) => ({
                dna: p.dna,
                status: 2,
                valid_ms: p.proof_valid_ms ?? this.config.proofValidityMs,
                updated_at: updatedAt,
                locale: p.proof_locale ?? 'zh',
              })),
            )
            .onConflict((oc) => oc.column('dna').doUpdateSet({ status: 2, updated_at: updatedAt }).where('proofs.status', '=', PROOF_STATUS_REGISTERED))
            .execute();
        }
        return row;
      });
    } catch (error) {
      this.tree.truncate(before);
      if (error instanceof StaleHead || isUniqueViolation(error)) {
        // Another process sealed first: adopt its chain and let the caller try again.
        await this.reload();
        return this.sealOnce();
      }
      throw error;
    }
    if (!sealed) return null;
    this.head = sealed;
    this.pendingHint = Math.max(0, this.pendingHint - sealed.entry_count);
    await this.publishCheckpoint();
    for (const listener of this.sealedListeners) listener(sealed);
    return sealed;
  }

  /**
   * Signs the head's checkpoint and stores it (once per height). Never throws: a storage
   * failure is logged, the block stays sealed, and storing is tried again on the next call.
   */
  private publishCheckpoint(): Promise<void> {
    // One at a time: the seal and a reader asking for the current checkpoint share one signature.
    const next = this.publishing.then(() => this.publishHeadCheckpoint()).catch((error: unknown) => this.log.error({ err: error }, 'checkpoint could not be signed'));
    this.publishing = next;
    return next;
  }

  private async publishHeadCheckpoint(): Promise<void> {
    const head = this.head;
    if (!head || (this.checkpoint?.height === head.height && this.isCheckpointStored)) return;
    const body = { origin: this.origin, treeSize: Number(head.tree_size), root: fromHex(head.root) };
    let note: string;
    let isStored = false;
    try {
      if (!this.checkpoints) throw new Error('no checkpoint store');
      note = await this.checkpoints.publish(head.height, body, this.checkpointKey);
      isStored = true;
    } catch (error) {
      if (this.checkpoints) this.log.error({ err: error, height: head.height }, 'checkpoint could not be stored; certificates use it signed, and storing is tried again');
      // Certificates still get a signed checkpoint; storing is retried on the next call.
      note = this.checkpoint?.height === head.height ? this.checkpoint.note : await signCheckpoint(body, this.checkpointKey);
    }
    if (this.head === head) {
      this.checkpoint = { height: head.height, treeSize: body.treeSize, note };
      this.isCheckpointStored = isStored || !this.checkpoints;
    }
  }

  /** The head's checkpoint (signed, and stored when there is a store); null before the first block. */
  async currentCheckpoint(): Promise<{ height: number; treeSize: number; note: string } | null> {
    await this.publishCheckpoint();
    return this.checkpoint;
  }

  // ---- reads -----------------------------------------------------------------------

  inclusionProof(leafIndex: number, treeSize: number): string[] {
    return this.tree.inclusionProof(leafIndex, treeSize).map(toHex);
  }

  consistencyProof(first: number, second: number): string[] {
    return this.tree.consistencyProof(first, second).map(toHex);
  }

  rootAt(size: number): string {
    return toHex(this.tree.root(size));
  }

  async block(heightOrHash: number | string): Promise<BlockRow | undefined> {
    const q = this.db.selectFrom('ledger_blocks').selectAll();
    return (await (typeof heightOrHash === 'number' ? q.where('height', '=', heightOrHash) : q.where('hash', '=', heightOrHash)).executeTakeFirst()) as BlockRow | undefined;
  }
}

class StaleHead extends Error {}
