/**
 * A standalone C2SP tlog-witness for a Provena platform (docs/witness.md):
 *
 *   WITNESS_NAME=witness.example.org/provena-w1 \
 *   WITNESS_LOGS="provena.example.com/provena=$(curl -s https://provena.example.com/api/v1/ledger/platform-keys | jq -r '.data[0].spki')" \
 *   WITNESS_KEY_PASSPHRASE_FILE=/etc/provena-witness/passphrase \
 *   WITNESS_DIR=/var/lib/provena-witness PORT=7380 node scripts/witness.ts
 *
 * Prints its vkey (give it to the platform operator for WITNESS_URLS) and serves
 * POST /add-checkpoint. The Ed25519 key (WITNESS_DIR/witness.key, 0600, sealed under
 * WITNESS_KEY_PASSPHRASE or the file WITNESS_KEY_PASSPHRASE_FILE names) is created on first start; WITNESS_DIR/state.json holds the latest cosigned size per log.
 */
import path from 'node:path';
import { fromBase64 } from '../core/ledger/bytes.ts';
import { SIG_TYPE_COSIGNATURE_V1 } from '../core/ledger/checkpoint.ts';
import { encodeVkey } from '../core/ledger/witness.ts';
import { createWitness, loadOrCreateWitnessKey, witnessServer } from '../server/witness/witness.ts';
import { readSecretFile } from '../server/keys/keyring.ts';

const name = process.env.WITNESS_NAME ?? '';
const dir = path.resolve(process.env.WITNESS_DIR ?? './witness-data');
const port = Number(process.env.PORT ?? 7380);
const logs = new Map<string, Uint8Array[]>();
for (const item of (process.env.WITNESS_LOGS ?? '').split(',').filter(Boolean)) {
  const at = item.indexOf('=');
  const origin = item.slice(0, at).trim();
  if (at <= 0 || !origin) throw new Error(`WITNESS_LOGS item "${item}" is not origin=base64 SPKI`);
  logs.set(origin, [...(logs.get(origin) ?? []), fromBase64(item.slice(at + 1).trim())]);
}
if (!name || /[\s+]/.test(name)) throw new Error('WITNESS_NAME must be a name without spaces or "+", e.g. witness.example.org/w1');
if (logs.size === 0) throw new Error('WITNESS_LOGS must name at least one log: origin=base64 SPKI of its checkpoint key');

const passphraseFile = process.env.WITNESS_KEY_PASSPHRASE_FILE;
const passphrase = passphraseFile ? readSecretFile(passphraseFile) : (process.env.WITNESS_KEY_PASSPHRASE ?? '');
if (!passphrase) throw new Error('WITNESS_KEY_PASSPHRASE (or WITNESS_KEY_PASSPHRASE_FILE, mode 0600) must be set: the witness key is kept sealed under it');
const key = await loadOrCreateWitnessKey(path.join(dir, 'witness.key'), passphrase);
const witness = createWitness({ name, ...key, logs, stateFile: path.join(dir, 'state.json') });
witnessServer(witness).listen(port, () => {
  console.log(`witness ${name} on port ${port}, logs: ${[...logs.keys()].join(', ')}`);
  console.log(`vkey: ${encodeVkey(name, SIG_TYPE_COSIGNATURE_V1, key.publicKey)}`);
});
