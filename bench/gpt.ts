import fs from 'node:fs';
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import { startHarness } from '../tests/server/harness.ts';
import { ownerWithEnterprise } from '../tests/server/enterprise-helpers.ts';

/**
 * The chat assistant's first token with the built-in engine (goal ≤ 300 ms): a real
 * server on a fresh SQLite database listening on loopback, a member with a registered asset,
 * and questions in zh, en and ja (help pages, and tools over the member's data), each in a new
 * conversation. Timed from sending the POST to the first `data: {"delta"…}` line read by the
 * client (fetch), and to the end of the stream. Checks that every answer has text.
 * JSON in bench/results/gpt.json. `-- --rounds N` (default 10) rounds over the questions.
 */
const rounds = Number(process.argv[process.argv.indexOf('--rounds') + 1] || 0) || 10;
process.env.SCORE_RECOMPUTE_MINUTES = '0';

const QUESTIONS: Array<{ lang: 'zh' | 'en' | 'ja'; text: string }> = [
  { lang: 'zh', text: '提示“原文件与存证文件不匹配”怎么办？' },
  { lang: 'zh', text: '我最新的存证是什么？' },
  { lang: 'zh', text: '我的积分余额和记录' },
  { lang: 'en', text: 'How does verification work?' },
  { lang: 'en', text: 'What does "Not enough credits, please top up" mean?' },
  { lang: 'en', text: 'Show my latest proof' },
  { lang: 'ja', text: '検証はどのように行われますか？' },
  { lang: 'ja', text: 'クレジットはいくらかかりますか' },
  { lang: 'ja', text: '最新の証明書を教えて' },
];

const h = await startHarness();
await h.app.ledger.stop();
const owner = await ownerWithEnterprise(h, `助手基准企业${process.pid}`);
await h.app.db.deleteFrom('rate_limits').execute();
await h.app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;

async function once(q: (typeof QUESTIONS)[number]): Promise<{ firstMs: number; totalMs: number; chars: number }> {
  const created = await fetch(`${base}/api/v1/gpt/conversations`, { method: 'POST', headers: { cookie: owner.cookie } });
  const { id } = (await created.json()).data as { id: number };
  await h.app.db.deleteFrom('rate_limits').execute();
  const t0 = performance.now();
  const res = await fetch(`${base}/api/v1/gpt/conversations/${id}/messages`, {
    method: 'POST',
    headers: { cookie: owner.cookie, 'content-type': 'application/json', 'accept-language': q.lang },
    body: JSON.stringify({ content: q.text }),
  });
  if (res.status !== 200) throw new Error(`${res.status} ${await res.text()}`);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let firstMs = -1;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    if (firstMs < 0 && text.includes('data: {"delta"')) firstMs = performance.now() - t0;
  }
  const totalMs = performance.now() - t0;
  const answer = text
    .split('\n')
    .filter((l) => l.startsWith('data: {"delta"'))
    .map((l) => (JSON.parse(l.slice(6)) as { delta: string }).delta)
    .join('');
  if (firstMs < 0 || answer.length === 0) throw new Error(`no answer to ${q.text}`);
  return { firstMs, totalMs, chars: answer.length };
}

// One warm-up pass (module loading, prepared statements), not counted.
for (const q of QUESTIONS) await once(q);
const samples: Array<{ lang: string; question: string; firstMs: number; totalMs: number; chars: number }> = [];
for (let r = 0; r < rounds; r += 1) for (const q of QUESTIONS) samples.push({ lang: q.lang, question: q.text, ...(await once(q)) });
await h.close();

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! * 10) / 10;
};
const first = samples.map((s) => s.firstMs);
const report = {
  bench: 'gpt-first-token',
  engine: 'builtin',
  goal_ms: 300,
  machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model ?? '', node: process.version, loadavg: os.loadavg().map((x) => Math.round(x * 100) / 100) },
  pacing_ms_between_pieces: Number(process.env.GPT_BUILTIN_CHUNK_MS ?? 25),
  samples: samples.length,
  first_token_ms: { p50: pct(first, 50), p95: pct(first, 95), max: pct(first, 100) },
  whole_answer_ms: { p50: pct(samples.map((s) => s.totalMs), 50), p95: pct(samples.map((s) => s.totalMs), 95) },
  by_language: Object.fromEntries(['zh', 'en', 'ja'].map((l) => [l, { first_token_p50_ms: pct(samples.filter((s) => s.lang === l).map((s) => s.firstMs), 50), first_token_p95_ms: pct(samples.filter((s) => s.lang === l).map((s) => s.firstMs), 95) }])),
  is_goal_met: pct(first, 95) <= 300,
  at: new Date().toISOString(),
};
fs.mkdirSync('bench/results', { recursive: true });
fs.writeFileSync('bench/results/gpt.json', `${JSON.stringify(report, null, 2)}\n`);
console.log(JSON.stringify(report, null, 2));
