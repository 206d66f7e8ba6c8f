import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type net from 'node:net';
import dns from 'node:dns';
import http from 'node:http';
import S3rver from 's3rver';
import * as tus from 'tus-js-client';
import type { Harness } from './harness.ts';
import type { StorageEnv } from '../../server/env.ts';

/** A real S3-protocol server (s3rver) on a free loopback port, with one bucket; closed by the returned function. */
export async function startS3(bucket = 'provena'): Promise<{ storage: StorageEnv; endpoint: string; vhostEndpoint: string; close(): Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-s3-'));
  // serviceEndpoint 'localhost': s3rver reads the bucket from a `<bucket>.s3.localhost` Host
  // header (virtual-host style) as well as from the path.
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir, serviceEndpoint: 'localhost', configureBuckets: [{ name: bucket, configs: [] }] });
  const address = (await server.run()) as AddressInfo;
  const endpoint = `http://127.0.0.1:${address.port}`;
  return {
    endpoint,
    vhostEndpoint: `http://s3.localhost:${address.port}`,
    storage: { kind: 's3', bucket, prefix: 'test/', endpoint, region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', isPathStyle: true },
    async close() {
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * An HTTP agent whose DNS lookup answers loopback for every `*.localhost` name (RFC 6761), so
 * the SDK can address `provena.s3.localhost` in virtual-host style without /etc/hosts entries.
 */
export function loopbackAgent(): http.Agent {
  const lookup = ((host: string, options: unknown, callback: (...args: unknown[]) => void) => {
    const cb = typeof options === 'function' ? (options as typeof callback) : callback;
    const all = typeof options === 'object' && options !== null && (options as { all?: boolean }).all;
    if (host === 'localhost' || host.endsWith('.localhost')) return all ? cb(null, [{ address: '127.0.0.1', family: 4 }]) : cb(null, '127.0.0.1', 4);
    return dns.lookup(host, options as dns.LookupOptions, cb as never);
  }) as unknown as net.LookupFunction;
  return new http.Agent({ keepAlive: true, lookup } as http.AgentOptions);
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
  opts: { uploadUrl?: string; abortAfterBytes?: number; chunkSize?: number; filename?: string; uploadDataDuringCreation?: boolean } = {},
): Promise<TusResult> {
  return new Promise((resolve) => {
    let isAborted = false;
    const upload: tus.Upload = new tus.Upload(bytes, {
      endpoint: `${base}/api/v1/storage/uploads`,
      uploadUrl: opts.uploadUrl ?? null,
      headers: { cookie },
      metadata: { identity, filename: opts.filename ?? `file${identity.slice(66)}` },
      chunkSize: opts.chunkSize ?? 512 * 1024,
      uploadDataDuringCreation: opts.uploadDataDuringCreation ?? false,
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
