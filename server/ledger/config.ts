import { parseWitnessUrls, type WitnessTarget } from './witnessing.ts';

/** Ledger settings from the environment, validated at boot like server/env.ts. */
export type LedgerConfig = {
  /** Seal a block this often when entries wait (LEDGER_BLOCK_INTERVAL_MS, default 3000). */
  blockIntervalMs: number;
  /** Seal at once when this many entries wait; also the most entries in one block (LEDGER_BLOCK_MAX_ENTRIES, default 1000). */
  maxBlockEntries: number;
  /** Validity of a newly issued certificate (PROOF_VALIDITY_DAYS, default 365). */
  proofValidityMs: number;
  /** TrueType font with CJK glyphs for certificates (PROOF_FONT_FILE). */
  fontFile: string;
  /** Wide-coverage TrueType font for characters the first lacks (PROOF_FALLBACK_FONT_FILE; skipped when absent). */
  fallbackFontFile: string;
  /** Public origin used in certificates' links and QR codes (PUBLIC_URL, default http://localhost:8080). */
  publicUrl: string;
  /**
   * EVM anchoring of checkpoints: ANCHOR_RPC_URL and ANCHOR_PRIVATE_KEY both set, or neither;
   * one transaction per ANCHOR_INTERVAL (a duration: 600, 90s, 10m, 500ms; default 10m),
   * each RPC call limited to ANCHOR_RPC_TIMEOUT_MS (default 10000).
   */
  anchor: { rpcUrl: string; privateKey: string; intervalMs: number; rpcTimeoutMs: number } | null;
  /** Witnesses that cosign checkpoints (WITNESS_URLS: comma-separated "<add-checkpoint URL> <vkey>"); empty for none. */
  witnesses: WitnessTarget[];
};

const DAY = 24 * 60 * 60 * 1000;
export const DEFAULT_FONT_FILE = '/usr/share/fonts/truetype/arphic-gbsn00lp/gbsn00lp.ttf';
/** Debian fonts-wqy-zenhei: GBK, CJK Extension A, kana and Hangul in simple TrueType outlines (a .ttc; face 0 is used). */
export const DEFAULT_FALLBACK_FONT_FILE = '/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc';

export function readLedgerConfig(source: Record<string, string | undefined> = process.env): LedgerConfig {
  const problems: string[] = [];
  const int = (name: string, fallback: number, min: number, max: number) => {
    const text = source[name];
    if (text === undefined || text === '') return fallback;
    const n = Number(text);
    if (!Number.isInteger(n) || n < min || n > max) {
      problems.push(`${name} must be an integer ${min}–${max}, got "${text}"`);
      return fallback;
    }
    return n;
  };
  const duration = (name: string, fallback: number) => {
    const text = source[name];
    if (text === undefined || text === '') return fallback;
    const m = /^(\d{1,9})(ms|s|m|h)?$/.exec(text.trim());
    const ms = m ? Number(m[1]) * ({ ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const)[(m[2] ?? 's') as 'ms'] : Number.NaN;
    if (!(ms >= 100 && ms <= 7 * 24 * 3_600_000)) {
      problems.push(`${name} must be a duration from 100ms to 7 days (600, 90s, 10m, 500ms), got "${text}"`);
      return fallback;
    }
    return ms;
  };
  const config: LedgerConfig = {
    blockIntervalMs: int('LEDGER_BLOCK_INTERVAL_MS', 3000, 50, 3_600_000),
    maxBlockEntries: int('LEDGER_BLOCK_MAX_ENTRIES', 1000, 1, 100_000),
    proofValidityMs: int('PROOF_VALIDITY_DAYS', 365, 1, 36500) * DAY,
    fontFile: source.PROOF_FONT_FILE || DEFAULT_FONT_FILE,
    fallbackFontFile: source.PROOF_FALLBACK_FONT_FILE || DEFAULT_FALLBACK_FONT_FILE,
    publicUrl: (source.PUBLIC_URL || 'http://localhost:8080').replace(/\/+$/, ''),
    anchor:
      source.ANCHOR_RPC_URL || source.ANCHOR_PRIVATE_KEY
        ? { rpcUrl: source.ANCHOR_RPC_URL ?? '', privateKey: source.ANCHOR_PRIVATE_KEY ?? '', intervalMs: duration('ANCHOR_INTERVAL', 10 * 60_000), rpcTimeoutMs: int('ANCHOR_RPC_TIMEOUT_MS', 10_000, 100, 600_000) }
        : null,
    witnesses: parseWitnessUrls(source.WITNESS_URLS, problems),
  };
  if (config.anchor && !/^https?:\/\//.test(config.anchor.rpcUrl)) problems.push('ANCHOR_RPC_URL must be an http(s) JSON-RPC URL when ANCHOR_PRIVATE_KEY is set');
  if (config.anchor && !/^0x[0-9a-fA-F]{64}$/.test(config.anchor.privateKey)) problems.push('ANCHOR_PRIVATE_KEY must be 0x + 64 hex digits when ANCHOR_RPC_URL is set');
  if (!/^https?:\/\//.test(config.publicUrl)) problems.push('PUBLIC_URL must start with http:// or https://');
  if (problems.length) throw new Error(`Invalid ledger configuration:\n  - ${problems.join('\n  - ')}`);
  return config;
}
