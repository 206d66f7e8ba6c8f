import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  exportEncryptedPkcs8Pem,
  exportPublicKeyPem,
  generateKeyPair,
  importEncryptedPkcs8Pem,
  importPublicKeyPem,
  sign,
  verify,
} from './keys.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'provena-keys-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const openssl = (...args: string[]) => execFileSync('openssl', args, { encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] });
const write = (name: string, data: string | Uint8Array) => {
  const file = path.join(dir, name);
  fs.writeFileSync(file, data);
  return file;
};

describe('encrypted PKCS#8 PEM (PBES2, PBKDF2-HMAC-SHA256 100 000, AES-256-CBC)', () => {
  it('writes 64-character lines with the standard label and round-trips', async () => {
    const { privateKey, publicKey } = await generateKeyPair();
    const pem = await exportEncryptedPkcs8Pem(privateKey, 'correct horse');
    const lines = pem.trim().split('\n');
    expect(lines[0]).toBe('-----BEGIN ENCRYPTED PRIVATE KEY-----');
    expect(lines.at(-1)).toBe('-----END ENCRYPTED PRIVATE KEY-----');
    for (const line of lines.slice(1, -2)) expect(line).toHaveLength(64);
    const back = await importEncryptedPkcs8Pem(pem, 'correct horse');
    const data = new TextEncoder().encode('provena');
    expect(await verify(publicKey, data, await sign(back, data))).toBe(true);
    await expect(importEncryptedPkcs8Pem(pem, 'wrong')).rejects.toThrow(/wrong passphrase/);
  });

  it('is read by openssl pkey, which reports PBES2 with PBKDF2-SHA256 100000 and AES-256-CBC', async () => {
    const { privateKey, publicKey } = await generateKeyPair();
    const file = write('ours.pem', await exportEncryptedPkcs8Pem(privateKey, 'pass phrase'));
    const text = openssl('pkey', '-in', file, '-passin', 'pass:pass phrase', '-text', '-noout');
    expect(text).toContain('NIST CURVE: P-256');
    const asn1 = openssl('asn1parse', '-in', file);
    expect(asn1).toMatch(/PBES2/);
    expect(asn1).toMatch(/hmacWithSHA256/);
    expect(asn1).toMatch(/aes-256-cbc/);
    expect(asn1).toMatch(/INTEGER\s+:0186A0/); // 100000
    const pub = openssl('pkey', '-in', file, '-passin', 'pass:pass phrase', '-pubout');
    expect(pub.trim()).toBe((await exportPublicKeyPem(publicKey)).trim());
  });

  it('reads a key that OpenSSL encrypted the same way, and refuses the SHA-1 default', async () => {
    const plain = write('plain.pem', openssl('genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256'));
    const encrypted = openssl('pkcs8', '-topk8', '-in', plain, '-v2', 'aes-256-cbc', '-v2prf', 'hmacWithSHA256', '-iter', '100000', '-passout', 'pass:s3cret');
    const key = await importEncryptedPkcs8Pem(encrypted, 's3cret');
    const data = new TextEncoder().encode('signed by openssl key');
    const sig = await sign(key, data);
    const pub = await importPublicKeyPem(openssl('pkey', '-in', plain, '-pubout'));
    expect(await verify(pub, data, sig)).toBe(true);
    const sha1 = openssl('pkcs8', '-topk8', '-in', plain, '-v2', 'aes-256-cbc', '-v2prf', 'hmacWithSHA1', '-passout', 'pass:s3cret');
    await expect(importEncryptedPkcs8Pem(sha1, 's3cret')).rejects.toThrow(/HMAC-SHA1|PRF/);
  });

  it('signs in DER that openssl dgst verifies, and verifies what openssl signs', async () => {
    const { privateKey, publicKey } = await generateKeyPair();
    const data = new TextEncoder().encode('registration record');
    const dataFile = write('data.bin', data);
    const sigFile = write('sig.der', await sign(privateKey, data));
    const pubFile = write('pub.pem', await exportPublicKeyPem(publicKey));
    expect(openssl('dgst', '-sha256', '-verify', pubFile, '-signature', sigFile, dataFile)).toContain('Verified OK');

    const keyFile = write('k.pem', openssl('genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256'));
    const theirSig = path.join(dir, 'their.der');
    openssl('dgst', '-sha256', '-sign', keyFile, '-out', theirSig, dataFile);
    const theirPub = await importPublicKeyPem(openssl('pkey', '-in', keyFile, '-pubout'));
    expect(await verify(theirPub, data, new Uint8Array(fs.readFileSync(theirSig)))).toBe(true);
    expect(await verify(theirPub, new TextEncoder().encode('tampered'), new Uint8Array(fs.readFileSync(theirSig)))).toBe(false);
  });
});
