// s3rver ships no types: the part of its API the storage tests use.
declare module 's3rver' {
  import type { AddressInfo } from 'node:net';
  type Options = { port?: number; address?: string; silent?: boolean; directory: string; serviceEndpoint?: string; vhostBuckets?: boolean; configureBuckets?: Array<{ name: string; configs: unknown[] }> };
  export default class S3rver {
    constructor(options: Options);
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
  }
}
