import { fromHex, toBase64 } from '../../core/ledger/bytes.ts';
import { parseSignedNote } from '../../core/ledger/checkpoint.ts';
import { parseVkey, verifyCosignatures, type Vkey } from '../../core/ledger/witness.ts';
import { checkpointKeyOf, type CheckpointStore } from './checkpoints.ts';

export type WitnessTarget = { url: string; vkey: Vkey };

/** WITNESS_URLS: comma-separated "<add-checkpoint URL> <witness vkey>" pairs. */
export function parseWitnessUrls(text: string | undefined, problems: string[]): WitnessTarget[] {
  const targets: WitnessTarget[] = [];
  for (const item of (text ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
    const [url, vkeyText, ...rest] = item.split(/\s+/);
    const vkey = vkeyText ? parseVkey(vkeyText) : null;
    if (!url || !/^https?:\/\//.test(url) || !vkey || vkey.type !== 0x04 || rest.length) {
      problems.push(`WITNESS_URLS item "${item}" must be "<http(s) URL of add-checkpoint> <witness vkey (Ed25519 cosignature/v1)>"`);
      continue;
    }
    targets.push({ url, vkey });
  }
  return targets;
}

type Checkpoint = { height: number; treeSize: number; note: string };
type Logger = { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void; error(obj: object, msg?: string): void };

/**
 * Sends each new checkpoint to the configured witnesses (C2SP tlog-witness add-checkpoint)
 * with the consistency proof from the size each last cosigned, verifies their Ed25519
 * cosignatures, and stores the cosigned note write-once beside the checkpoint
 * (checkpoints/<height>.cosigned). It runs after sealing, never in its way: each request
 * has a timeout and a failure is logged, to be caught up by the next checkpoint.
 */
export class Witnessing {
  private readonly targets: WitnessTarget[];
  private readonly consistency: (first: number, second: number) => string[];
  private readonly store: CheckpointStore | null;
  private readonly log: Logger;
  private readonly timeoutMs: number;
  private readonly lastSize = new Map<string, number>();
  private latest: { height: number; note: string } | null = null;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(targets: WitnessTarget[], consistency: (first: number, second: number) => string[], store: CheckpointStore | null, log: Logger, timeoutMs = 10_000) {
    this.targets = targets;
    this.consistency = consistency;
    this.store = store;
    this.log = log;
    this.timeoutMs = timeoutMs;
  }

  /** The checkpoint with the cosignatures gathered for it (or the bare note). */
  cosigned(cp: Checkpoint): string {
    return this.latest?.height === cp.height ? this.latest.note : cp.note;
  }

  /** Resolves when no submission is in flight (shutdown, tests). */
  idle(): Promise<void> {
    return this.queue.then(
      () => undefined,
      () => undefined,
    );
  }

  /** Submits `cp` to every witness (one submission at a time, in order of height). */
  submit(cp: Checkpoint): Promise<void> {
    const next = this.queue.catch(() => undefined).then(() => this.submitNow(cp));
    this.queue = next;
    return next;
  }

  private async submitNow(cp: Checkpoint): Promise<void> {
    if (this.latest && this.latest.height >= cp.height) return;
    const text = (parseSignedNote(cp.note) as { text: string }).text;
    const answers = await Promise.all(this.targets.map((t) => this.ask(t, cp, text).catch((error: unknown) => {
      this.log.warn({ err: error, witness: t.vkey.name, height: cp.height }, 'witness did not cosign; the next checkpoint tries again');
      return [] as string[];
    })));
    const lines = answers.flat();
    const note = `${cp.note}${lines.join('')}`;
    if (lines.length && this.store) await this.store.driver.create(`${checkpointKeyOf(cp.height)}.cosigned`, Buffer.from(note, 'utf8')).catch((error: unknown) => this.log.error({ err: error }, 'cosigned checkpoint could not be stored'));
    this.latest = { height: cp.height, note };
  }

  private async ask(target: WitnessTarget, cp: Checkpoint, text: string): Promise<string[]> {
    let old = this.lastSize.get(target.url) ?? 0;
    for (let attempt = 0; attempt < 2; attempt++) {
      if (old > cp.treeSize) throw new Error(`witness ${target.vkey.name} has cosigned size ${old}, larger than this log's ${cp.treeSize}: the log was rolled back`);
      const proof = old === 0 || old === cp.treeSize ? [] : this.consistency(old, cp.treeSize).map((h) => toBase64(fromHex(h)));
      const body = `old ${old}\n${proof.map((p) => `${p}\n`).join('')}\n${cp.note}`;
      const res = await fetch(target.url, { method: 'POST', body, headers: { 'content-type': 'text/plain' }, signal: AbortSignal.timeout(this.timeoutMs) });
      const answer = await res.text();
      if (res.status === 409 && /^(0|[1-9][0-9]*)\n$/.test(answer)) {
        old = Number(answer.trim());
        continue;
      }
      if (res.status !== 200) throw new Error(`witness ${target.vkey.name} answered ${res.status}: ${answer.slice(0, 200)}`);
      const verified = await verifyCosignatures(text, answer, target.vkey);
      if (!verified) throw new Error(`witness ${target.vkey.name} answered without a valid cosignature`);
      this.lastSize.set(target.url, cp.treeSize);
      return verified.lines;
    }
    throw new Error(`witness ${target.vkey.name} kept answering 409`);
  }
}
