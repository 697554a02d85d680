import { createHash } from 'node:crypto';

/** Text and attribute values for HTML: model output and names are treated as hostile. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The one style sheet of the pages; ASCII only, so its CSP hash is the same whatever the encoding. */
export const PAGE_CSS = `
body{font:14px/1.45 system-ui,sans-serif;margin:1.5em;color:#222;max-width:90em}
h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em}h3{font-size:1em}
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.3em .6em;text-align:left;vertical-align:top}
th{background:#f3f3f3}
.v{display:inline-block;padding:0 .5em;border-radius:3px;font-weight:600;color:#fff;background:#888}
.v-ok{background:#2e7d32}.v-warn{background:#a35f00}.v-fail{background:#c62828}.v-error{background:#6a1b9a}
.v-pass{background:#2e7d32}.v-skipped{background:#757575}
dl.evidence{display:grid;grid-template-columns:auto 1fr;gap:0 .8em;margin:0;font-size:.92em}dl.evidence dt{color:#555}dl.evidence dd{margin:0;overflow-wrap:anywhere}
tr.check-fail th{color:#c62828}
.muted{color:#666}
form.inline{display:inline;margin:0}
.strip{white-space:nowrap}.cell{display:inline-block;width:.55em;height:1.2em;margin-right:2px;border-radius:2px;vertical-align:middle}
form.filters{margin:.8em 0}form.filters label{margin-right:.8em}
.cols{display:flex;flex-wrap:wrap;gap:1.5em}.cols>*{flex:1 1 28em}
ul.reasons li{margin-bottom:.3em}
details.fingerprint{margin-top:1.6em}details.fingerprint>summary{cursor:pointer}details.fingerprint>summary>h2{display:inline;margin:0}
pre.output{white-space:pre-wrap;overflow-wrap:anywhere;background:#fafafa;border:1px solid #ddd;padding:.8em;font:13px/1.5 ui-monospace,monospace}
mark.onset{background:none;scroll-margin-top:4em}
mark.onset::before{content:"\\25BC  collapse starts here";background:#c62828;color:#fff;font:600 12px system-ui,sans-serif;padding:.1em .4em;border-radius:3px;margin:0 .2em}
mark.loop{background:#ffe08a;color:inherit}
mark.loop.alt{background:#ffc46b}
.loop-rest{background:#fff3cc}
.error{color:#c62828}
p.change{margin:.2em 0;color:#444}p.change.worse{color:#c62828;font-weight:600}
.cp{display:inline-block;border:1px solid #c62828;border-radius:2px;color:#c62828;font:600 10px/1.2 ui-monospace,monospace;padding:0 2px;margin:0 1px;vertical-align:1px}
.ws{color:#888}
`;

const styleHash = createHash('sha256').update(PAGE_CSS, 'utf8').digest('base64');

/**
 * The Content-Security-Policy of every page: no script at all, the one style sheet by its
 * hash, forms only to this server, no framing. Model output that slips an element past the
 * escaping still cannot run or load anything.
 */
export const PAGE_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${styleHash}'`,
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Headers sent with every page. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': PAGE_CSP,
  'x-content-type-options': 'nosniff',
  // Our own origin only: a browser without Sec-Fetch-* headers then sends our forms' POSTs with
  // an Origin the browser boundary can check (no-referrer made it "null"); other sites get nothing.
  'referrer-policy': 'same-origin',
  // Pages show model output and run state: no shared caches, always fresh.
  'cache-control': 'no-store',
};

/** A whole page around `body` (already HTML). */
export function htmlPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${PAGE_CSS}</style></head>
<body>
${body}
</body></html>
`;
}

/** A verdict as a coloured label ("none" when there is no run yet). */
export function verdictBadge(verdict: string | null): string {
  const v = verdict ?? 'none';
  return `<span class="v v-${escapeHtml(v)}">${escapeHtml(v)}</span>`;
}

/** A small page with one message, for errors and refusals shown to a browser. */
export function messagePage(title: string, message: string): string {
  return htmlPage(
    title,
    `<h1>${escapeHtml(title)}</h1>\n<p class="error">${escapeHtml(message)}</p>\n<p><a href="/">Back to the index</a></p>`,
  );
}
