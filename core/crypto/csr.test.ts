import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { createCsrPem } from './csr.ts';
import { generateKeyPair } from './keys.ts';

describe('PKCS#10 request', () => {
  it('is a valid, self-signed request that openssl req verifies, with a UTF-8 subject', async () => {
    const pem = await createCsrPem(await generateKeyPair(), { commonName: '西安示例科技有限公司', organization: 'Provena Demo', country: 'CN' });
    const out = execFileSync('openssl', ['req', '-verify', '-noout', '-text', '-nameopt', 'utf8'], { input: pem, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] });
    expect(out).toContain('西安示例科技有限公司');
    expect(out).toContain('ecdsa-with-SHA256');
    expect(out).toContain('prime256v1');
  });
});
