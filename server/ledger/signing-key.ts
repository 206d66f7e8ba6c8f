import type { Db } from '../db/database.ts';
import { fromBase64, toBase64 } from '../../core/ledger/bytes.ts';
import { keyId } from '../../core/ledger/block.ts';

export type PlatformKey = { keyId: string; spki: Uint8Array; privateKey: CryptoKey; publicKey: CryptoKey };

const ECDSA = { name: 'ECDSA', namedCurve: 'P-256' } as const;

/**
 * The platform's block-signing key: P-256, created on first boot and kept in the database
 * so every API process signs with the same key. The oldest key is the active one.
 * (Keeping it in an HSM or KMS is the production path; the key id is what verifiers pin.)
 */
export async function loadOrCreatePlatformKey(db: Db): Promise<PlatformKey> {
  let row = await db.selectFrom('ledger_keys').selectAll().orderBy('created_at').orderBy('key_id').executeTakeFirst();
  if (!row) {
    const pair = await crypto.subtle.generateKey(ECDSA, true, ['sign', 'verify']);
    const spki = new Uint8Array(await crypto.subtle.exportKey('spki', pair.publicKey));
    const pkcs8 = new Uint8Array(await crypto.subtle.exportKey('pkcs8', pair.privateKey));
    await db
      .insertInto('ledger_keys')
      .values({ key_id: keyId(spki), spki: toBase64(spki), pkcs8: toBase64(pkcs8), created_at: Date.now() })
      .onConflict((oc) => oc.doNothing())
      .execute();
    // Another process may have won the race: whatever is oldest now is the key.
    row = await db.selectFrom('ledger_keys').selectAll().orderBy('created_at').orderBy('key_id').executeTakeFirstOrThrow();
  }
  const spki = fromBase64(row.spki);
  const privateKey = await crypto.subtle.importKey('pkcs8', fromBase64(row.pkcs8) as Uint8Array<ArrayBuffer>, ECDSA, false, ['sign']);
  const publicKey = await crypto.subtle.importKey('spki', spki as Uint8Array<ArrayBuffer>, ECDSA, true, ['verify']);
  return { keyId: row.key_id, spki, privateKey, publicKey };
}
