import { escapeHtml as esc, htmlPage } from './htmlPage.js';
import { renderRunButton } from './renderRunButton.js';

/**
 * What a browser gets for GET /probe?target=T&probe=P (405, Allow: POST): a GET never starts a
 * run (runRequest.ts), so the page says what would run and offers the button, and the curl line
 * for a client.
 */
export function renderProbeGet(target: string, probe: string, curl: string, csrf: string): string {
  return htmlPage(
    `Run ${probe} on ${target}? · coherency-exporter`,
    `<h1>Run probe ${esc(probe)} on target ${esc(target)}?</h1>
<p>Opening this address does not start a run: any web page could make a browser open it, and a run costs tokens.</p>
<p>${renderRunButton(target, probe, csrf)}</p>
<p>From a script: <code>${esc(curl)}</code> (or any method with <code>Authorization: Bearer</code> and the server's token).</p>
<p><a href="/">Back to the index</a></p>`,
  );
}
