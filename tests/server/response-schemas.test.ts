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
const PENDING = new Set<string>([
  'GET /api/v1/operator/jobs',
  'GET /api/dev/sms-outbox',
  'GET /api/v1/ledger/entries',
  'GET /api/v1/ledger/entries/:dna/proof',
  'POST /api/v1/ledger/entries/:dna/proof',
  'GET /api/v1/search/dip-data',
  'GET /api/v1/ledger/platform-keys',
  'GET /api/v1/ledger/checkpoint',
  'GET /api/v1/ledger/anchors',
  'GET /api/v1/ledger/platform-roots',
  'GET /api/v1/ledger/entries/:dna/inclusion',
  'GET /api/v1/ledger/consistency',
  'GET /api/v1/explorer/blocks',
  'GET /api/v1/explorer/blocks/:id',
  'GET /api/v1/explorer/blocks/:height/entries',
  'GET /api/v1/explorer/entries/:dna',
  'POST /api/v1/files',
  'GET /api/v1/storage/files',
  'GET /api/v1/credits/summary',
  'GET /api/v1/credits/movements',
  'GET /api/v1/credits/members',
  'POST /api/v1/credits/allocations',
  'GET /api/v1/credits/orders',
  'POST /api/v1/credits/orders',
  'PUT /api/v1/credits/orders/:orderId',
  'GET /api/v1/operator/credit-orders',
  'PUT /api/v1/operator/credit-orders/:id',
  'POST /api/v1/assets',
  'POST /api/v1/assets/batch',
  'GET /api/v1/assets',
  'GET /api/v1/assets/registrants',
  'GET /api/v1/assets/:dna',
  'GET /api/v1/home/summary',
  'GET /api/v1/home/activity',
  'GET /api/v1/public/figures',
  'GET /api/v1/partners/total',
  'POST /api/v1/partners/contracts',
  'GET /api/v1/operator/partner-contracts',
]);

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
