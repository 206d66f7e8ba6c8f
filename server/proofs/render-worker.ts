/**
 * A certificate render worker (node:worker_threads): lays out and saves certificate pages
 * (renderPreparedCertificate) off the API's event loop. It holds no key: the page comes
 * back prepared for signing and is signed where the keys are (server/proofs/render-pool.ts).
 */
import { parentPort } from 'node:worker_threads';
import { renderPreparedCertificate, type PageInput } from './pdf.ts';

export type RenderRequest = { id: number; page: PageInput; certificates: Uint8Array[] | null };
export type RenderReply = { id: number; pdf: Uint8Array } | { id: number; error: string };

const port = parentPort;
if (!port) throw new Error('render-worker.ts runs as a worker thread');
port.on('message', async ({ id, page, certificates }: RenderRequest) => {
  try {
    const pdf = await renderPreparedCertificate(page, certificates);
    port.postMessage({ id, pdf } satisfies RenderReply, [pdf.buffer as ArrayBuffer]);
  } catch (error) {
    port.postMessage({ id, error: error instanceof Error ? error.message : String(error) } satisfies RenderReply);
  }
});
