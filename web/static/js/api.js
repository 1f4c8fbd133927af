// The HTTP API with the player's token: api() sends a request as the
// player this browser holds and answers the decoded JSON, or throws an
// Error whose message is the server's own words ({"error":{"message"}}).
import { store } from './dom.js';

export async function api(path, { method = 'GET', body } = {}) {
  const headers = {};
  if (store.token) headers.Authorization = `Bearer ${store.token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const r = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const j = await r.json().catch(() => ({}));
  if (!r.ok) {
    const err = new Error((j.error && j.error.message) || r.statusText || String(r.status));
    err.status = r.status;
    throw err;
  }
  return j;
}
