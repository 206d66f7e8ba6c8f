import { describe, expect, it } from 'vitest';
import { readEventData } from './sse.ts';

function streamOf(pieces: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const p of pieces) controller.enqueue(encoder.encode(p));
      controller.close();
    },
  });
}

async function all(pieces: string[]): Promise<string[]> {
  const out: string[] = [];
  for await (const data of readEventData(streamOf(pieces))) out.push(data);
  return out;
}

describe('reading the answer stream', () => {
  it('yields data lines, skips keep-alive comments, joins events split across chunks', async () => {
    const whole = ': open\n\ndata: {"delta":"存"}\n\n: keep-alive\n\ndata: {"delta":"证"}\n\ndata: {"done":true}\n\n';
    expect(await all([whole])).toEqual(['{"delta":"存"}', '{"delta":"证"}', '{"done":true}']);
    // The same bytes cut everywhere, a multi-byte character included.
    const bytes = new TextEncoder().encode(whole);
    const cut: string[] = [];
    const decoder = new TextDecoder();
    for (let i = 0; i < bytes.length; i += 3) cut.push(decoder.decode(bytes.slice(i, i + 3), { stream: true }));
    expect(await all(cut.filter(Boolean))).toEqual(['{"delta":"存"}', '{"delta":"证"}', '{"done":true}']);
    expect(await all(['data: {"a":1}\r\n\r\ndata: {"b":2}\n\n'])).toEqual(['{"a":1}', '{"b":2}']);
  });
});
