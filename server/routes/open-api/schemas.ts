import { HEADER } from '../../../core/applications.ts';

/** The open API's request and response schemas: what the OpenAPI document at /open-api/v1/openapi.json describes. */

export const identityExample = '0x9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08.txt';
export const fileInput = {
  type: 'object',
  additionalProperties: false,
  required: ['file_hash', 'name', 'size'],
  properties: {
    file_hash: { type: 'string', maxLength: 100, description: 'The file identity: 0x + SHA-256 in lowercase hex + the lowercase extension (§3). Only the hash travels: the bytes stay with the application.' },
    name: { type: 'string', maxLength: 400, description: 'The file name as the application knows it.' },
    size: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'Size in bytes.' },
    metadata: { type: ['object', 'null'], additionalProperties: true, description: 'Optional JSON object (at most 8 KiB serialised), kept with the entry.' },
  },
} as const;

export const fileEntry = {
  type: 'object',
  properties: {
    file_id: { type: 'integer' },
    application_id: { type: 'integer' },
    dip_id: { type: 'string', description: 'The ledger entry (asset DNA).' },
    name: { type: 'string' },
    file_hash: { type: 'string' },
    size: { type: 'integer' },
    metadata: { type: ['object', 'null'], additionalProperties: true },
    credits: { type: 'integer', description: 'Credits charged (credits.applicationFile).' },
    proof_status: { type: 'integer', description: '1 registered, 2 sealed in a block, 3 anchored, 4 rendering, 5 certificate generated, 6 regenerated.' },
    is_generated: { type: 'boolean', description: 'Whether the proof PDF can be fetched.' },
    block_height: { type: ['integer', 'null'] },
    registered_at: { type: 'integer', description: 'Milliseconds since the epoch.' },
    duplicate: { type: 'boolean', description: 'True when this application had registered the same content before: the first entry is answered and nothing is charged.' },
  },
  required: ['file_id', 'dip_id', 'file_hash', 'proof_status', 'registered_at'],
} as const;

export const errorBody = { type: 'object', properties: { message: { type: 'string', description: 'A §8 catalogue key, e.g. token_invalid, integrals_not_enough, invalid_param.' }, field_name: { type: 'string' } }, required: ['message'] } as const;
export const errors = { 400: { description: 'Refused: a §8 key on the field at fault.', ...errorBody }, 401: { description: 'The signature, key, timestamp or nonce was refused (field_name names the header).', ...errorBody } } as const;
export const idempotencyHeader = { type: 'object', properties: { [HEADER.idempotency]: { type: 'string', minLength: 1, maxLength: 200, description: 'A retried request with the same key answers the first result (kept 24 hours).' } } } as const;
export const security = [{ provenaKey: [], provenaSignature: [], provenaTimestamp: [], provenaNonce: [] }];

/** The signature headers `security` names (in both OpenAPI documents: the open API's and the whole API's). */
export const securitySchemes = {
  provenaKey: { type: 'apiKey', in: 'header', name: 'X-Provena-Key', description: 'The key id (ak_…).' },
  provenaTimestamp: { type: 'apiKey', in: 'header', name: 'X-Provena-Timestamp', description: 'Unix time in seconds.' },
  provenaNonce: { type: 'apiKey', in: 'header', name: 'X-Provena-Nonce', description: '16–64 characters [A-Za-z0-9_-], new for every request.' },
  provenaSignature: { type: 'apiKey', in: 'header', name: 'X-Provena-Signature', description: 'v1=base64(HMAC-SHA256(secret, signing string)).' },
} as const;
