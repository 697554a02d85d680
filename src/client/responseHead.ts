import type { IncomingHttpHeaders } from 'node:http';
import { identityHeaders } from './identityHeaders.js';

/** What the call keeps of a response's status line and headers. */
export interface ResponseHead {
  httpStatus: number;
  /** Lower case; '' when absent. */
  contentType: string;
  /** Lower case and trimmed; '' when absent. */
  contentEncoding: string;
  /** A redirect's Location ('' when none, or not a redirect). */
  location: string;
  /** The server and version headers (identityHeaders.ts). */
  identity: Record<string, string>;
}

export function responseHead(status: number, headers: IncomingHttpHeaders): ResponseHead {
  return {
    httpStatus: status,
    contentType: headerValue(headers, 'content-type').toLowerCase(),
    contentEncoding: headerValue(headers, 'content-encoding').toLowerCase().trim(),
    location: status >= 300 && status < 400 ? headerValue(headers, 'location') : '',
    identity: identityHeaders(headers),
  };
}

function headerValue(headers: IncomingHttpHeaders, name: string): string {
  const v = headers[name];
  return Array.isArray(v) ? v.join(', ') : (v ?? '');
}
