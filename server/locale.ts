import type { FastifyRequest } from 'fastify';

export type CertificateLocale = 'zh' | 'en' | 'ja';

/**
 * The caller's language among the three the product speaks, from `Accept-Language` (the
 * app sends the language the user chose; a plain browser sends its own list): the first
 * tag whose primary language is zh, en or ja, in the order given; zh (§9 default) otherwise.
 */
export function requestLocale(request: FastifyRequest): CertificateLocale {
  const header = request.headers['accept-language'];
  if (typeof header !== 'string') return 'zh';
  const tags = header
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { primary: tag.trim().toLowerCase().split('-')[0] ?? '', q: q === undefined ? 1 : Number(q) };
    })
    .filter((t) => t.q > 0)
    .sort((a, b) => b.q - a.q);
  const hit = tags.find((t) => t.primary === 'zh' || t.primary === 'en' || t.primary === 'ja');
  return (hit?.primary as CertificateLocale | undefined) ?? 'zh';
}
