import type { FastifyReply } from 'fastify';
import { PAGE_HEADERS } from './htmlPage.js';

/** An HTML page with the pages' security headers (CSP and the rest of PAGE_HEADERS). */
export function sendPage(reply: FastifyReply, status: number, html: string) {
  return reply.status(status).headers(PAGE_HEADERS).send(html);
}
