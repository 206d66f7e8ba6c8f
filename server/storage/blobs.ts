import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

/** Small uploaded files (§7 upload), named by their §3 identity under DATA_DIR/blobs. */
export type BlobStore = {
  put(id: string, bytes: Uint8Array): Promise<void>;
  read(id: string): Promise<Buffer>;
  pathOf(id: string): string;
};

const SAFE_ID = /^0x[0-9a-f]{64}\.[a-z0-9]{1,10}$/;

export function localBlobStore(dir: string): BlobStore {
  fs.mkdirSync(dir, { recursive: true });
  const pathOf = (id: string) => {
    if (!SAFE_ID.test(id)) throw new Error(`not a file identity: ${id}`);
    return path.join(dir, id);
  };
  return {
    pathOf,
    async put(id, bytes) {
      const target = pathOf(id);
      if (fs.existsSync(target)) return;
      // Write then rename: a crash never leaves a half-written file under its final name.
      const temp = `${target}.${randomBytes(6).toString('hex')}.tmp`;
      await fs.promises.writeFile(temp, bytes);
      await fs.promises.rename(temp, target);
    },
    read: (id) => fs.promises.readFile(pathOf(id)),
  };
}
