// The HTTP API as the player this browser holds: api() sends a request,
// the HttpOnly session cookie saying who (no script reads it, no header is
// added), and answers the decoded JSON, or throws an Error whose message is
// the server's own words ({"error":{"message"}}), with its status, its
// code and the Retry-After it gave.
export async function api(path, { method = 'GET', body } = {}) {
  const headers = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const r = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const j = await r.json().catch(() => ({}));
  if (!r.ok) {
    const err = new Error((j.error && j.error.message) || r.statusText || String(r.status));
    err.status = r.status;
    err.code = (j.error && j.error.code) || '';
    err.retryAfter = Number(r.headers.get('Retry-After')) || 0;
    throw err;
  }
  return j;
}
