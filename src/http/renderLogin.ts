import { escapeHtml as esc, htmlPage } from './htmlPage.js';

/** A local path to go back to after logging in; anything else (another host, "//x") is "/". */
export function safeNext(next: unknown): string {
  return typeof next === 'string' && /^\/(?![/\\])/.test(next) && !/[\u0000-\u001f]/.test(next) ? next : '/';
}

/**
 * The page a browser gets instead of a 401 when server.authToken is set: a form that trades
 * the token for a session cookie (POST /-/login). The token travels in the POST body only,
 * never in a URL.
 */
export function renderLogin(next: string, failed: boolean): string {
  return htmlPage(
    'Log in · coherency-exporter',
    `<h1>coherency-exporter</h1>
<p>This page needs the server's token (<code>server.authToken</code>).</p>
${failed ? '<p class="error">That is not the token.</p>' : ''}
<form method="post" action="/-/login">
<input type="hidden" name="next" value="${esc(safeNext(next))}">
<label>Token <input type="password" name="token" autocomplete="current-password" required autofocus></label>
<button type="submit">Log in</button>
</form>`,
  );
}
