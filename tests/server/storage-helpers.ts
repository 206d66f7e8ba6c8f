import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import S3rver from 's3rver';
import * as tus from 'tus-js-client';
import type { Harness } from './harness.ts';
import type { StorageEnv } from '../../server/env.ts';

/** A real S3-protocol server (s3rver) on a free loopback port, with one bucket; closed by the returned function. */
export async function startS3(bucket = 'provena'): Promise<{ storage: StorageEnv; endpoint: string; close(): Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-s3-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir, configureBuckets: [{ name: bucket, configs: [] }] });
  const address = (await server.run()) as AddressInfo;
  const endpoint = `http://127.0.0.1:${address.port}`;
  return {
    endpoint,
    storage: { kind: 's3', bucket, prefix: 'test/', endpoint, region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', isPathStyle: true },
    async close() {
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Starts the harness app on a loopback port (tus needs a real HTTP connection); returns its base URL. */
export async function listen(h: Harness): Promise<string> {
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
}

export type TusResult = { url: string | null; error: (Error & { originalResponse?: { getStatus(): number; getBody(): string } | null }) | null };

/** Uploads bytes with tus-js-client as the browser does (session cookie, identity metadata). */
export function tusUpload(
  base: string,
  cookie: string,
  bytes: Buffer,
  identity: string,
  opts: { uploadUrl?: string; abortAfterBytes?: number; chunkSize?: number; filename?: string } = {},
): Promise<TusResult> {
  return new Promise((resolve) => {
    let isAborted = false;
    const upload: tus.Upload = new tus.Upload(bytes, {
      endpoint: `${base}/api/v1/storage/uploads`,
      uploadUrl: opts.uploadUrl ?? null,
      headers: { cookie },
      metadata: { identity, filename: opts.filename ?? `file${identity.slice(66)}` },
      chunkSize: opts.chunkSize ?? 512 * 1024,
      retryDelays: [],
      onProgress(sent) {
        if (opts.abortAfterBytes !== undefined && sent >= opts.abortAfterBytes && !isAborted) {
          isAborted = true;
          void upload.abort().then(() => resolve({ url: upload.url, error: null }));
        }
      },
      onSuccess: () => resolve({ url: upload.url, error: null }),
      onError: (error) => resolve({ url: upload.url, error: error as TusResult['error'] }),
    });
    upload.start();
  });
}
