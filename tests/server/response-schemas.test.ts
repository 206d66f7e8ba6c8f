import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RouteOptions } from 'fastify';
import { validate } from '@readme/openapi-parser';
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
  'GET /api/v1/openapi.json', // the OpenAPI document of the whole API
  'GET /open-api/v1/docs', // HTML
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
    const missing = api.filter((r) => !hasSuccessSchema(r.response) && !NOT_JSON.has(r.key)).map((r) => r.key);
    expect(missing, 'routes without a 2xx response schema').toEqual([]);
    const gone = [...NOT_JSON].filter((key) => !api.some((r) => r.key === key));
    expect(gone, 'listed routes that no longer exist').toEqual([]);
  });

  it('describes every route in the OpenAPI document of the whole API, which validates', async () => {
    const res = await h.request({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as { openapi: string; paths: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> }>> };
    expect(doc.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid, JSON.stringify(result)).toBe(true);
    const documented = new Set(Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((method) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`)));
    const hidden = new Set(['GET /api/v1/openapi.json', 'GET /open-api/v1/openapi.json', 'GET /open-api/v1/docs', 'GET /api/dev/sms-outbox']);
    const api = [...new Set(routes.filter((r) => r.key.includes(' /api/') || r.key.includes(' /open-api/')).map((r) => r.key))];
    expect(api.filter((key) => !hidden.has(key) && !documented.has(key)), 'routes missing from the document').toEqual([]);
    expect([...hidden].filter((key) => documented.has(key)), 'development routes and the documents themselves stay out').toEqual([]);
    // The JSON answers are described: the { data } envelope with its schema.
    for (const key of api.filter((k) => !hidden.has(k) && !NOT_JSON.has(k))) {
      const [method, url] = key.split(' ');
      const op = doc.paths[url.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()];
      const ok = op?.responses?.['200'];
      expect(ok?.content && Object.values(ok.content)[0]?.schema, `${key} describes its 200 answer`).toBeTruthy();
    }
    expect(doc.paths['/api/v1/assets/{dna}']?.get?.responses?.['200']?.content?.['application/json']?.schema).toMatchObject({ properties: { data: { properties: { dip_id: { type: 'string' }, block_height: { type: ['number', 'null'] } } } } });
  });

});
