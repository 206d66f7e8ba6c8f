import type { Db } from '../db/database.ts';
import { fromBase64 } from '../../core/ledger/bytes.ts';
import { activeKeyId, keyringOf } from '../keys/platform-keys.ts';
import type { Signer } from '../keys/signer.ts';

export type PlatformKey = {
  keyId: string;
  spki: Uint8Array;
  publicKey: CryptoKey;
  /** Signs with the block key wherever it lives (sealed software key, HSM); never a raw private key. */
  signer: Signer;
  /** DER X.509 [signing certificate, platform root]: what proof packages carry. */
  certificates: Uint8Array[];
  rootFingerprint: string;
};

/**
 * A block-signing key by id (the active one, or a retired one whose blocks still need
 * proofs), opened through the keyring, with the certificate chain the root gave it. Keys
 * are created and certified at boot by ensurePlatformKeys (server/keys/platform-keys.ts).
 */
export async function loadBlockKey(db: Db, keyId: string): Promise<PlatformKey> {
  const row = await db
    .selectFrom('ledger_keys')
    .innerJoin('ledger_key_certificates', 'ledger_key_certificates.key_id', 'ledger_keys.key_id')
    .innerJoin('platform_roots', 'platform_roots.fingerprint', 'ledger_key_certificates.root_fingerprint')
    .select(['ledger_keys.key_id', 'ledger_keys.spki', 'ledger_keys.sealed_key', 'ledger_key_certificates.certificate', 'ledger_key_certificates.root_fingerprint', 'platform_roots.certificate as root_certificate'])
    .where('ledger_keys.key_id', '=', keyId)
    .executeTakeFirst();
  if (!row) throw new Error(`block key ${keyId.slice(0, 16)}… is not a certified platform key`);
  const signer = await keyringOf(db).open('block', row.spki, row.sealed_key);
  return { keyId: row.key_id, spki: signer.spki, publicKey: signer.publicKey, signer, certificates: [fromBase64(row.certificate), fromBase64(row.root_certificate)], rootFingerprint: row.root_fingerprint };
}

/** The active block-signing key (the oldest one not retired). */
export async function loadActiveBlockKey(db: Db): Promise<PlatformKey> {
  const keyId = await activeKeyId(db, 'block');
  if (!keyId) throw new Error('no active block-signing key (ensurePlatformKeys runs at boot)');
  return loadBlockKey(db, keyId);
}
