import { escapeHtml as esc } from './htmlPage.js';

/** The "run now" form: a POST of /probe with the page's CSRF token (runRequest.ts), answered by a redirect to the run. */
export function renderRunButton(target: string, probe: string, csrf: string, label = 'run now'): string {
  return (
    `<form class="inline" method="post" action="/probe"><input type="hidden" name="target" value="${esc(target)}">` +
    `<input type="hidden" name="probe" value="${esc(probe)}"><input type="hidden" name="csrf" value="${esc(csrf)}">` +
    `<button type="submit">${esc(label)}</button></form>`
  );
}
