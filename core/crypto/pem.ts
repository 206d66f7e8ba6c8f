import { PEM_LINE_LENGTH } from '../constants.ts';

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** PEM with 64-character lines (§9), the form OpenSSL writes and reads. */
export function toPem(label: string, der: Uint8Array): string {
  const b64 = toBase64(der);
  const lines: string[] = [];
  for (let i = 0; i < b64.length; i += PEM_LINE_LENGTH) lines.push(b64.slice(i, i + PEM_LINE_LENGTH));
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}

export function fromPem(label: string, pem: string): Uint8Array {
  const m = new RegExp(`-----BEGIN ${label}-----([\\s\\S]*?)-----END ${label}-----`).exec(pem);
  if (!m) throw new Error(`not a PEM ${label}`);
  const binary = atob((m[1] as string).replace(/\s+/g, ''));
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}
