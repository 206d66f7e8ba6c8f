import type { Db } from '../db/database.ts';
import { fromBase64, fromHex, toHex, utf8 } from '../../core/ledger/bytes.ts';
import { blockHash, encodeHeader, GENESIS_PREV_HASH, importPublicKey, isBlockHeader, keyId, verifyText } from '../../core/ledger/block.ts';
import { leafHash, MerkleLog } from '../../core/ledger/merkle.ts';
import { assetDna, fileCommitment, parseRecord } from '../../core/ledger/record.ts';
import { normalizeDigest } from '../../core/ledger/package.ts';

export type AuditResult = { isOk: true; blocks: number; entries: number; pending: number } | { isOk: false; problem: string; blocks: number; entries: number };

/**
 * Re-checks the whole chain from the database, trusting nothing stored as derived data:
 * every record's leaf hash, DNA and commitment, every block's position, hash, chain link,
 * tree size, root and signature. Stops at the first inconsistency and names it.
 */
export async function auditLedger(db: Db, onProgress?: (height: number) => void): Promise<AuditResult> {
  const keys = new Map<string, CryptoKey>();
  for (const k of await db.selectFrom('ledger_keys').selectAll().execute()) {
    const spki = fromBase64(k.spki);
    if (keyId(spki) !== k.key_id) return { isOk: false, problem: `platform key ${k.key_id} does not match its stored public key`, blocks: 0, entries: 0 };
    keys.set(k.key_id, await importPublicKey(spki));
  }
  const tree = new MerkleLog();
  let prevHash = GENESIS_PREV_HASH;
  let blocks = 0;
  const failAt = (problem: string): AuditResult => ({ isOk: false, problem, blocks, entries: tree.size });
  for (let from = 1; ; from += 500) {
    const rows = await db.selectFrom('ledger_blocks').selectAll().where('height', '>=', from).where('height', '<', from + 500).orderBy('height').execute();
    for (const b of rows) {
      const where = `block ${b.height}`;
      if (b.height !== blocks + 1) return failAt(`block ${blocks + 1} is missing (next stored block is ${b.height})`);
      let header: unknown;
      try {
        header = JSON.parse(b.header);
      } catch {
        return failAt(`${where}: stored header is not JSON`);
      }
      if (!isBlockHeader(header) || encodeHeader(header) !== b.header) return failAt(`${where}: stored header is not a canonical v1 header`);
      if (header.height !== b.height || header.prev_hash !== b.prev_hash || header.tree_size !== Number(b.tree_size) || header.root !== b.root || header.sealed_at !== Number(b.sealed_at) || header.key_id !== b.key_id) {
        return failAt(`${where}: columns disagree with the signed header`);
      }
      if (blockHash(header) !== b.hash) return failAt(`${where}: header hashes to ${blockHash(header)}, stored hash is ${b.hash}`);
      if (header.prev_hash !== prevHash) return failAt(`${where}: previous hash ${header.prev_hash} does not link to block ${b.height - 1} (${prevHash})`);
      const key = keys.get(header.key_id);
      if (!key) return failAt(`${where}: signed by unknown key ${header.key_id}`);
      if (!(await verifyText(key, b.header, b.signature))) return failAt(`${where}: signature does not verify`);

      const entries = await db.selectFrom('ledger_entries').selectAll().where('block_height', '=', b.height).orderBy('leaf_index').execute();
      if (entries.length !== b.entry_count || tree.size + entries.length !== header.tree_size) {
        return failAt(`${where}: holds ${entries.length} entries, header grows the log from ${tree.size} to ${header.tree_size}`);
      }
      for (const e of entries) {
        const at = `${where}, entry ${e.dna}`;
        if (Number(e.leaf_index) !== tree.size) return failAt(`${at}: leaf index ${e.leaf_index}, expected ${tree.size}`);
        const record = parseRecord(e.record);
        if (!record) return failAt(`${at}: record is not canonical`);
        const leaf = leafHash(utf8.encode(e.record));
        if (toHex(leaf) !== e.leaf_hash) return failAt(`${at}: record hashes to ${toHex(leaf)}, stored leaf hash is ${e.leaf_hash}`);
        if (assetDna(e.record) !== e.dna) return failAt(`${at}: record gives DNA ${assetDna(e.record)}`);
        const digest = normalizeDigest(e.file_hash);
        if (!digest || !/^[0-9a-f]{64}$/.test(e.salt) || fileCommitment(fromHex(e.salt), fromHex(digest)) !== record.commitment) return failAt(`${at}: file hash and salt do not open the record's commitment`);
        if (record.enterprise_name !== e.enterprise_name || record.kind !== e.kind || record.registered_at !== Number(e.registered_at)) return failAt(`${at}: columns disagree with the record`);
        tree.append(leaf);
      }
      if (toHex(tree.root()) !== header.root) return failAt(`${where}: entries give root ${toHex(tree.root())}, header says ${header.root}`);
      prevHash = b.hash;
      blocks += 1;
      onProgress?.(b.height);
    }
    if (rows.length < 500) break;
  }
  const stray = await db.selectFrom('ledger_entries').select(['dna', 'leaf_index', 'block_height']).where((eb) => eb.or([eb('leaf_index', 'is not', null), eb('block_height', 'is not', null)])).where((eb) => eb.or([eb('leaf_index', '>=', tree.size), eb('block_height', 'is', null), eb('leaf_index', 'is', null)])).executeTakeFirst();
  if (stray) return failAt(`entry ${stray.dna} claims leaf ${stray.leaf_index} in block ${stray.block_height}, outside the sealed chain`);
  const pending = await db.selectFrom('ledger_entries').select((eb) => eb.fn.countAll<number>().as('n')).where('leaf_index', 'is', null).executeTakeFirstOrThrow();
  return { isOk: true, blocks, entries: tree.size, pending: Number(pending.n) };
}
