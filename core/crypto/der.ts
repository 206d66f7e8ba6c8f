/**
 * A minimal DER encoder/decoder: just what PKCS#8 EncryptedPrivateKeyInfo with PBES2
 * (RFC 8018) and ECDSA signatures need. Definite lengths only; no BER.
 */
/** `raw`: the element's whole encoding (tag, length and content) as read, set by parseDer. */
export type DerNode = { tag: number; content: Uint8Array; children?: DerNode[]; raw?: Uint8Array };

function lengthBytes(n: number): number[] {
  if (n < 0x80) return [n];
  const out: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) out.unshift(v & 0xff);
  return [0x80 | out.length, ...out];
}

export function der(tag: number, content: Uint8Array): Uint8Array {
  const len = lengthBytes(content.length);
  const out = new Uint8Array(1 + len.length + content.length);
  out[0] = tag;
  out.set(len, 1);
  out.set(content, 1 + len.length);
  return out;
}

export function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

export const seq = (...items: Uint8Array[]) => der(0x30, concat(...items));
export const octets = (bytes: Uint8Array) => der(0x04, bytes);

export function integer(value: number | Uint8Array): Uint8Array {
  let bytes: Uint8Array;
  if (typeof value === 'number') {
    const out: number[] = [];
    for (let v = value; v > 0; v = Math.floor(v / 256)) out.unshift(v & 0xff);
    bytes = new Uint8Array(out.length ? out : [0]);
  } else {
    let start = 0;
    while (start < value.length - 1 && value[start] === 0) start++;
    bytes = value.subarray(start);
  }
  // A leading 1 bit would read as negative: prefix a zero byte.
  if ((bytes[0] as number) & 0x80) bytes = concat(new Uint8Array([0]), bytes);
  return der(0x02, bytes);
}

export function oid(dotted: string): Uint8Array {
  const parts = dotted.split('.').map(Number);
  const out: number[] = [40 * (parts[0] as number) + (parts[1] as number)];
  for (const part of parts.slice(2)) {
    const sevens: number[] = [];
    let v = part;
    do {
      sevens.unshift(v & 0x7f);
      v = Math.floor(v / 128);
    } while (v > 0);
    for (let i = 0; i < sevens.length - 1; i++) sevens[i] = (sevens[i] as number) | 0x80;
    out.push(...sevens);
  }
  return der(0x06, new Uint8Array(out));
}

export function oidToString(content: Uint8Array): string {
  const first = content[0] as number;
  const parts = [Math.floor(first / 40), first % 40];
  let v = 0;
  for (let i = 1; i < content.length; i++) {
    const b = content[i] as number;
    v = v * 128 + (b & 0x7f);
    if (!(b & 0x80)) {
      parts.push(v);
      v = 0;
    }
  }
  return parts.join('.');
}

/** Parses one DER element (and, for constructed ones, its children) at `offset`. */
export function parseDer(bytes: Uint8Array, offset = 0): { node: DerNode; end: number } {
  const tag = bytes[offset];
  let lenByte = bytes[offset + 1];
  if (tag === undefined || lenByte === undefined) throw new Error('DER: truncated');
  let pos = offset + 2;
  let length = lenByte;
  if (lenByte & 0x80) {
    const count = lenByte & 0x7f;
    if (count === 0 || count > 4) throw new Error('DER: unsupported length');
    length = 0;
    for (let i = 0; i < count; i++) length = length * 256 + (bytes[pos++] as number);
  }
  const end = pos + length;
  if (end > bytes.length) throw new Error('DER: truncated');
  const content = bytes.subarray(pos, end);
  const node: DerNode = { tag, content, raw: bytes.subarray(offset, end) };
  if (tag & 0x20) {
    node.children = [];
    let p = 0;
    while (p < content.length) {
      const child = parseDer(content, p);
      node.children.push(child.node);
      p = child.end;
    }
  }
  return { node, end };
}

export function parseIntegerValue(node: DerNode): number {
  if (node.tag !== 0x02) throw new Error('DER: expected INTEGER');
  let v = 0;
  for (const b of node.content) v = v * 256 + b;
  return v;
}
