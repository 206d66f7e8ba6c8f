/**
 * Platform keys inside an HSM, through PKCS#11 (pkcs11js: the maintained binding that
 * graphene-pk11 itself is built on). Keys are generated on the token as sensitive,
 * non-extractable P-256 keys; signing sends the SHA-256 digest to the token (CKM_ECDSA),
 * which answers r‖s. Tested against SoftHSM2 (tests/server/keys.test.ts).
 */
import { createRequire } from 'node:module';
import { createHash, randomBytes } from 'node:crypto';
import type * as Pkcs11Module from 'pkcs11js';
import type { KeyPurpose, Signer } from './signer.ts';

export type Pkcs11Settings = { module: string; tokenLabel: string; pin: string };

type Pkcs11js = typeof Pkcs11Module;
const require = createRequire(import.meta.url);

/** DER of the P-256 curve OID (1.2.840.10045.3.1.7): CKA_EC_PARAMS. */
const P256_PARAMS = Buffer.from('06082a8648ce3d030107', 'hex');
/** SubjectPublicKeyInfo prefix for an uncompressed P-256 point (id-ecPublicKey, prime256v1, BIT STRING of 66 bytes). */
const P256_SPKI_PREFIX = Buffer.from('3059301306072a8648ce3d020106082a8648ce3d030107034200', 'hex');

export class Pkcs11Token {
  readonly label: string;
  private readonly lib: Pkcs11js;
  private readonly p11: Pkcs11Module.PKCS11;
  private readonly session: Buffer;
  private readonly handles = new Map<string, Buffer>();

  private constructor(lib: Pkcs11js, p11: Pkcs11Module.PKCS11, session: Buffer, label: string) {
    this.lib = lib;
    this.p11 = p11;
    this.session = session;
    this.label = label;
  }

  static open(settings: Pkcs11Settings): Pkcs11Token {
    const lib = require('pkcs11js') as Pkcs11js;
    const p11 = new lib.PKCS11();
    p11.load(settings.module);
    try {
      p11.C_Initialize();
    } catch (error) {
      // Another Pkcs11Token in this process initialised the library already.
      if (!(error instanceof lib.Pkcs11Error && error.code === lib.CKR_CRYPTOKI_ALREADY_INITIALIZED)) throw error;
    }
    const slot = p11.C_GetSlotList(true).find((s) => p11.C_GetTokenInfo(s).label.trim() === settings.tokenLabel);
    if (!slot) throw new Error(`no PKCS#11 token labelled "${settings.tokenLabel}" in ${settings.module}`);
    const session = p11.C_OpenSession(slot, lib.CKF_SERIAL_SESSION | lib.CKF_RW_SESSION);
    try {
      p11.C_Login(session, lib.CKU_USER, settings.pin);
    } catch (error) {
      if (!(error instanceof lib.Pkcs11Error && error.code === lib.CKR_USER_ALREADY_LOGGED_IN)) throw error;
    }
    return new Pkcs11Token(lib, p11, session, settings.tokenLabel);
  }

  /** A new P-256 key pair on the token; returns its object id (hex) and SPKI. */
  generate(purpose: KeyPurpose): { id: string; spki: Uint8Array } {
    const { lib, p11, session } = this;
    const id = randomBytes(16);
    const label = `provena-${purpose}-${id.toString('hex').slice(0, 8)}`;
    const keys = p11.C_GenerateKeyPair(
      session,
      { mechanism: lib.CKM_EC_KEY_PAIR_GEN },
      [
        { type: lib.CKA_CLASS, value: lib.CKO_PUBLIC_KEY },
        { type: lib.CKA_TOKEN, value: true },
        { type: lib.CKA_VERIFY, value: true },
        { type: lib.CKA_EC_PARAMS, value: P256_PARAMS },
        { type: lib.CKA_LABEL, value: label },
        { type: lib.CKA_ID, value: id },
      ],
      [
        { type: lib.CKA_CLASS, value: lib.CKO_PRIVATE_KEY },
        { type: lib.CKA_TOKEN, value: true },
        { type: lib.CKA_PRIVATE, value: true },
        { type: lib.CKA_SIGN, value: true },
        { type: lib.CKA_SENSITIVE, value: true },
        { type: lib.CKA_EXTRACTABLE, value: false },
        { type: lib.CKA_LABEL, value: label },
        { type: lib.CKA_ID, value: id },
      ],
    );
    const [point] = p11.C_GetAttributeValue(session, keys.publicKey, [{ type: lib.CKA_EC_POINT }]);
    let raw = point!.value as Buffer;
    // CKA_EC_POINT is a DER OCTET STRING around the point (04 41 04…); some tokens give the bare point.
    if (raw.length === 67 && raw[0] === 0x04 && raw[1] === 0x41) raw = raw.subarray(2);
    if (raw.length !== 65 || raw[0] !== 0x04) throw new Error('the HSM returned an EC point that is not an uncompressed P-256 point');
    this.handles.set(id.toString('hex'), keys.privateKey);
    return { id: id.toString('hex'), spki: new Uint8Array(Buffer.concat([P256_SPKI_PREFIX, raw])) };
  }

  private privateKey(idHex: string): Buffer {
    const cached = this.handles.get(idHex);
    if (cached) return cached;
    const { lib, p11, session } = this;
    p11.C_FindObjectsInit(session, [
      { type: lib.CKA_CLASS, value: lib.CKO_PRIVATE_KEY },
      { type: lib.CKA_ID, value: Buffer.from(idHex, 'hex') },
    ]);
    const found = p11.C_FindObjects(session, 2);
    p11.C_FindObjectsFinal(session);
    if (found.length !== 1) throw new Error(`HSM token "${this.label}" holds ${found.length} private keys with id ${idHex}`);
    this.handles.set(idHex, found[0]!);
    return found[0]!;
  }

  signer(purpose: KeyPurpose, keyId: string, spki: Uint8Array, publicKey: CryptoKey, idHex: string): Signer {
    const key = this.privateKey(idHex);
    const { lib, p11, session } = this;
    return {
      purpose,
      backend: 'pkcs11',
      keyId,
      spki,
      publicKey,
      sign: async (data) => {
        const digest = createHash('sha256').update(data).digest();
        p11.C_SignInit(session, { mechanism: lib.CKM_ECDSA }, key);
        return new Uint8Array(p11.C_Sign(session, digest, Buffer.alloc(64)));
      },
    };
  }

  close(): void {
    try {
      this.p11.C_CloseSession(this.session);
    } catch {
      // Already closed with the library.
    }
  }
}
