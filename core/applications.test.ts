import { createHash, createHmac } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { checkApplicationInput, signRequest, signedHeaders, signingString } from './applications.ts';

describe('the open API signing scheme (docs/applications.md)', () => {
  const input = { method: 'post', path: '/open-api/v1/files?x=1', timestamp: 1764240000, nonce: 'f3Kq9yZ0bW2c8dE1aV7xN4', body: '{"a":1}' };

  it('signs six lines: scheme, METHOD, path with query, timestamp, nonce, hex SHA-256 of the body', () => {
    const digest = createHash('sha256').update('{"a":1}').digest('hex');
    expect(signingString(input)).toBe(`provena-v1\nPOST\n/open-api/v1/files?x=1\n1764240000\nf3Kq9yZ0bW2c8dE1aV7xN4\n${digest}`);
    const expected = createHmac('sha256', 'sk_test').update(signingString(input)).digest('base64');
    expect(signRequest('sk_test', input)).toBe(`v1=${expected}`);
    // An empty body hashes the empty string.
    expect(signingString({ ...input, body: '' }).endsWith('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855')).toBe(true);
  });

  it('matches the openssl one-liner of the docs', () => {
    const body = '{"file_hash":"0x00","name":"a.csv","size":3}';
    const digest = createHash('sha256').update(body).digest('hex');
    const text = `provena-v1\nPOST\n/open-api/v1/files\n1764240000\nabcdefabcdefabcdef\n${digest}`;
    const sig = execFileSync('openssl', ['dgst', '-sha256', '-hmac', 'sk_docs', '-binary'], { input: text });
    expect(signRequest('sk_docs', { method: 'POST', path: '/open-api/v1/files', timestamp: '1764240000', nonce: 'abcdefabcdefabcdef', body })).toBe(`v1=${sig.toString('base64')}`);
  });

  it('gives every request a fresh nonce of the allowed form', () => {
    const a = signedHeaders('ak_x', 's', { method: 'GET', path: '/', body: '' });
    const b = signedHeaders('ak_x', 's', { method: 'GET', path: '/', body: '' });
    expect(a['x-provena-nonce']).toMatch(/^[A-Za-z0-9_-]{16,64}$/);
    expect(a['x-provena-nonce']).not.toBe(b['x-provena-nonce']);
  });
});

describe('application form rules', () => {
  it('answers on the field', () => {
    expect(checkApplicationInput({ name: 'a', interval_seconds: '60', grace_seconds: 5 })).toMatchObject({ ok: true, value: { interval_seconds: 60, grace_seconds: 5, alarm_phones: [], webhook_urls: [] } });
    expect(checkApplicationInput({ name: 'a', interval_seconds: 30 * 86400 + 1, grace_seconds: 5 })).toMatchObject({ ok: false, field_name: 'interval_seconds' });
    expect(checkApplicationInput({ name: 'a', interval_seconds: 60, grace_seconds: 5, webhook_urls: ['https://u:p@x.example/'] })).toMatchObject({ ok: false, field_name: 'webhook_urls' });
    expect(checkApplicationInput({ description: 'x' }, true)).toMatchObject({ ok: true, value: { description: 'x' } });
  });
});
