// The server's recorded frames (web/testdata/frames/<game>.json, written by
// `go test ./web/ -run TestRoomFrames -update`) as the page's events: each
// connection's frames passed through frames.js as ws.js passes them, so
// that the model sees what it sees in the browser.
import { readFileSync } from 'node:fs';
import { follow, held } from '../static/js/frames.js';

export const GAMES = ['orbito', 'morris', 'go', '2048', 'queens'];

// fixture is one game's recording: {game, variant, p0, p1, spectator,
// record}. p0 (ana, seat 0) received whole room.state frames, p1 (bia,
// seat 1) and the spectator (zé, joined during the game) room.patch.
export function fixture(game) {
  return JSON.parse(readFileSync(new URL(`../testdata/frames/${game}.json`, import.meta.url), 'utf8'));
}

// events turns a connection's frames into the events the room page gets:
// room.patch and room.presence made whole states (frames.follow), the
// stale or unappliable ones dropped, an error given the command its id
// named (as ws.js does), the welcome left out. It returns the events and
// how many times the page would have sent room.join again.
export function events(frames, { as = 'player', commands = {} } = {}) {
  let h = held(as);
  let rejoins = 0;
  const out = [];
  for (const f of frames) {
    if (f.type === 'welcome' || f.type === 'match.found') continue;
    if (f.type === 'room.state' || f.type === 'room.patch' || f.type === 'room.presence') {
      const r = follow(h, f);
      h = r.held;
      if (r.rejoin) rejoins++;
      if (r.state) out.push(r.state);
      continue;
    }
    out.push(f.type === 'error' && commands[f.id] ? { ...f, command: commands[f.id] } : f);
  }
  return { events: out, rejoins };
}

// me is the player id the connection was welcomed as.
export const me = (frames) => frames.find((f) => f.type === 'welcome').player.id;

// live drops from a state what differs between connections by design: the
// legal moves (a patch carries the receiver's own), the history and the
// chat (only in the states that answer a join), the message type.
export function live(st) {
  const { legal: _l, legalBySeat: _b, moves: _m, chat: _c, type: _t, ...rest } = st;
  return rest;
}
