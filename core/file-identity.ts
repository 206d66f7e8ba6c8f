/**
 * §3 file identity: `0x` + SHA-256 in lowercase hex + the file's lowercase extension
 * (with its dot), e.g. `0x9f86…0a08.pdf`. A name without an extension gives the hash alone.
 * Used everywhere a file is named: uploads, registrations, proofs, the CLI.
 */
export function fileExtension(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  // ".bashrc" is a name, not an extension; "archive." has none.
  if (dot <= 0 || dot === base.length - 1) return '';
  const ext = base.slice(dot + 1).toLowerCase();
  return /^[a-z0-9]{1,16}$/.test(ext) ? `.${ext}` : '';
}

const HEX64 = /^[0-9a-f]{64}$/;

export function fileIdentity(sha256Hex: string, fileName: string): string {
  const hex = sha256Hex.toLowerCase().replace(/^0x/, '');
  if (!HEX64.test(hex)) throw new Error('fileIdentity needs a SHA-256 digest as 64 hex digits');
  return `0x${hex}${fileExtension(fileName)}`;
}

const IDENTITY = /^0x([0-9a-f]{64})((?:\.[a-z0-9]{1,16})?)$/;

/** Splits an identity back into its hash and extension; null when it is not one. */
export function parseFileIdentity(identity: string): { sha256: string; extension: string } | null {
  const m = IDENTITY.exec(identity);
  return m ? { sha256: m[1] as string, extension: m[2] as string } : null;
}
