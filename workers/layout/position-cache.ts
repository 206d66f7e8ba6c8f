/**
 * Layout positions cached in IndexedDB by graph version, so that a returning visitor's
 * map starts where it settled last time. Works in a worker; any failure (private mode,
 * quota) simply means a cold start.
 */
const DB_NAME = 'provena-layout';
const STORE = 'positions';
/** Entries kept; older ones are dropped. */
const KEEP = 4;

type Entry = { key: string; count: number; positions: Float32Array; savedAt: number };

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: 'key' });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

export async function readCachedPositions(key: string, count: number): Promise<Float32Array | null> {
  try {
    const db = await open();
    const entry = await new Promise<Entry | undefined>((resolve, reject) => {
      const request = db.transaction(STORE, 'readonly').objectStore(STORE).get(key);
      request.onsuccess = () => resolve(request.result as Entry | undefined);
      request.onerror = () => reject(request.error);
    });
    db.close();
    return entry && entry.count === count && entry.positions.length === 3 * count ? entry.positions : null;
  } catch {
    return null;
  }
}

export async function writeCachedPositions(key: string, positions: Float32Array): Promise<void> {
  const db = await open();
  await new Promise<void>((resolve, reject) => {
    const tx = db.transaction(STORE, 'readwrite');
    const store = tx.objectStore(STORE);
    store.put({ key, count: positions.length / 3, positions, savedAt: Date.now() } satisfies Entry);
    const all = store.getAll();
    all.onsuccess = () => {
      const entries = (all.result as Entry[]).filter((e) => e.key !== key).sort((a, b) => b.savedAt - a.savedAt);
      for (const old of entries.slice(KEEP - 1)) store.delete(old.key);
    };
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
  });
  db.close();
}
