import type { FastifyRequest } from 'fastify';

/**
 * Whether a request wants a page rather than JSON. `format=html|json` decides when given;
 * otherwise HTML only when the Accept header names text/html with a weight at least that
 * of application/json, as a browser's navigation does. curl's and fetch's default
 * (any type, "star/star") and no Accept header at all get JSON, the API's default.
 */
export function prefersHtml(accept: string | undefined, format?: string | undefined): boolean {
  if (format === 'html') return true;
  if (format === 'json') return false;
  if (!accept) return false;
  let html = -1;
  let json = -1;
  for (const part of accept.split(',')) {
    const [type = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    const qParam = params.find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    const weight = Number.isFinite(q) ? q : 0;
    if (type === 'text/html') html = Math.max(html, weight);
    else if (type === 'application/json') json = Math.max(json, weight);
  }
  return html > 0 && html >= json;
}

/** Whether a request wants a page: ?format=html|json, else its Accept header. */
export function wantsHtml(req: FastifyRequest): boolean {
  const format = (req.query as { format?: unknown } | undefined)?.format;
  return prefersHtml(req.headers.accept, typeof format === 'string' ? format : undefined);
}
