/** A URL as logs and messages show it: a query string may carry a key (?api-key=…), so only that there is one. */
export function withoutQuery(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? url : `${url.slice(0, q)}?…`;
}
