import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RouteOptions } from 'fastify';
import { startHarness, type Harness } from './harness.ts';

/**
 * Every JSON route declares its 2xx answer, so fast-json-stringify serializes it and the
 * OpenAPI document describes the whole API. Routes that answer no JSON are named here:
 * file downloads, streams and the Server-Sent Events.
 */
vi.setConfig({ testTimeout: 180_000 });

/** Routes whose 2xx answer is not a JSON envelope (a file, a stream, events, a redirect). */
const NOT_JSON = new Set([
  'GET /api/v1/enterprises/application-form', // PDF
  'GET /api/v1/pki/crl', // DER CRL
  'GET /api/v1/vault/files/:fileId/proof', // PDF
  'GET /api/v2/disclosures/files/:token', // the disclosed file, streamed
  'GET /api/v1/assets/:dna/proof', // PDF
  'GET /api/v1/repos/:project_id/commits/:commit_id/proof', // PDF
  'GET /api/v1/applications/:application_id/files/:file_id/proof', // PDF
  'GET /api/v1/operator/files/:id', // an uploaded file
  'GET /api/v1/operator/partner-contracts/export', // CSV or XLSX
  'POST /api/v1/gpt/conversations/:id/messages', // Server-Sent Events
  'POST /api/v1/gpt/conversations/:id/regenerate', // Server-Sent Events
  'PUT /api/v1/gpt/conversations/:id/messages/last', // Server-Sent Events
  'POST /api/v1/storage/uploads', // tus protocol (headers)
  'OPTIONS /api/v1/storage/uploads', // tus protocol (headers)
  'PATCH /api/v1/storage/uploads/:id', // tus protocol (headers)
  'DELETE /api/v1/storage/uploads/:id', // tus protocol (headers)
  'OPTIONS /api/v1/storage/uploads/:id', // tus protocol (headers)
  'GET /open-api/v1/openapi.json', // the OpenAPI document itself
  'GET /open-api/v1/docs', // HTML
]);

/**
 * JSON routes that still lack a response schema. This list only shrinks: a route listed
 * here that gains a schema fails the test until it is taken off, and a new route without
 * one fails it too.
 */
const PENDING = new Set<string>([]);

let h: Harness;
const routes: Array<{ key: string; response: Record<string, unknown> | undefined }> = [];
beforeAll(async () => {
  h = await startHarness({}, {}, {
    onRoute(route: RouteOptions) {
      for (const method of [route.method].flat()) {
        if (method === 'HEAD') continue;
        routes.push({ key: `${String(method)} ${route.url}`, response: (route.schema as { response?: Record<string, unknown> } | undefined)?.response });
      }
    },
  });
  await h.app.ledger.stop();
});
afterAll(async () => {
  await h?.close();
});

const hasSuccessSchema = (response: Record<string, unknown> | undefined) => Boolean(response && Object.keys(response).some((code) => /^2(\d\d|xx)$/.test(code)));

describe('the route table', () => {
  it('gives every JSON API route a 2xx response schema', () => {
    const api = routes.filter((r) => r.key.includes(' /api/') || r.key.includes(' /open-api/'));
    expect(api.length).toBeGreaterThan(50);
    const missing = api.filter((r) => !hasSuccessSchema(r.response) && !NOT_JSON.has(r.key) && !PENDING.has(r.key)).map((r) => r.key);
    expect(missing, 'routes without a 2xx response schema').toEqual([]);
    const done = api.filter((r) => hasSuccessSchema(r.response) && PENDING.has(r.key)).map((r) => r.key);
    expect(done, 'routes that have a schema now: take them off PENDING').toEqual([]);
    const gone = [...NOT_JSON, ...PENDING].filter((key) => !api.some((r) => r.key === key));
    expect(gone, 'listed routes that no longer exist').toEqual([]);
  });

});
