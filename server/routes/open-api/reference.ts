/** The script-free reference page of the open API, rendered from the generated OpenAPI document. */

export type OpenApiDoc = { info: { title: string; version: string; description?: string }; paths: Record<string, Record<string, { summary?: string; description?: string; requestBody?: { content: Record<string, { schema: unknown }> }; responses?: Record<string, unknown> }>> };

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A plain, script-free reference page rendered from the generated document (so it can never disagree with it). */
export function renderReference(doc: OpenApiDoc): string {
  const ops = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => {
      const body = op.requestBody?.content['application/json']?.schema;
      return `<section><h2><code>${method.toUpperCase()} ${escapeHtml(path)}</code> ${escapeHtml(op.summary ?? '')}</h2>${op.description ? `<p>${escapeHtml(op.description)}</p>` : ''}${body ? `<h3>Request body</h3><pre>${escapeHtml(JSON.stringify(body, null, 2))}</pre>` : ''}<h3>Responses</h3><pre>${escapeHtml(JSON.stringify(op.responses ?? {}, null, 2))}</pre></section>`;
    }),
  );
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(doc.info.title)}</title><style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1f2933}pre{background:#f4f6f8;padding:.75rem;overflow:auto;font-size:13px}h2{font-size:1.1rem;border-top:1px solid #d9e2ec;padding-top:1rem}</style></head><body><h1>${escapeHtml(doc.info.title)} ${escapeHtml(doc.info.version)}</h1><p>${escapeHtml(doc.info.description ?? '')}</p><p><a href="openapi.json">openapi.json</a></p>${ops.join('')}</body></html>`;
}
