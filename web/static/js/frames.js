// A followed room's frames made into whole states, as pure functions (no
// socket, no DOM): ws.js keeps one `held` per room it follows and passes
// every room.state, room.patch and room.presence through follow(); the
// model's tests (web/unit) pass the server's recorded frames through the
// same function.

// applyPatch is protocol.ApplyPatch (protocol/patch.go): the state a
// room.patch makes of state, or null when it does not apply to it (another
// base, a bad cell); then the client asks for the whole state again.
export function applyPatch(state, p) {
  if (!state || p.room !== state.room || typeof p.seq !== 'number') return null;
  const base = typeof p.base === 'number' ? p.base : p.seq - 1;
  if (state.seq !== base) return null;
  const next = { ...state };
  const isObj = (v) => v && typeof v === 'object' && !Array.isArray(v);
  for (const [k, v] of Object.entries(p)) {
    if (k === 'type' || k === 'room' || k === 'base') continue;
    if (k === 'cells') {
      if (!Array.isArray(state.board) || !Array.isArray(v)) return null;
      const rows = state.board.slice();
      for (const c of v) {
        const [r, col, ch] = Array.isArray(c) ? c : [];
        if (!Number.isInteger(r) || !Number.isInteger(col) || typeof ch !== 'string' || ch.length !== 1 ||
          typeof rows[r] !== 'string' || col < 0 || col >= rows[r].length) return null;
        rows[r] = rows[r].slice(0, col) + ch + rows[r].slice(col + 1);
      }
      next.board = rows;
      continue;
    }
    next[k] = isObj(v) && isObj(state[k]) ? { ...state[k], ...v } : v;
  }
  return next;
}

// applyPresence is the state with a room.presence's counts and flags.
export function applyPresence(state, p) {
  const players = (state.players || []).map((pl) => {
    const h = (p.players || []).find((x) => x.seat === pl.seat);
    if (!h) return pl;
    const { goneSince: _g, claimableAt: _c, ...rest } = pl;
    const out = { ...rest, connected: !!h.connected };
    if (h.goneSince) out.goneSince = h.goneSince;
    if (h.claimableAt) out.claimableAt = h.claimableAt;
    return out;
  });
  return { ...state, spectators: p.spectators, players };
}

// held is what the page keeps of a room it follows: how it joined (`as`),
// the last seq and whole state (without the history and the chat, which
// patches never carry), and whether it asked for the whole state again.
export const held = (as) => ({ as, seq: null, state: null, rejoining: false });

// follow takes one frame of a followed room and returns the room's new
// `held`, the whole room.state to hand to the page (null when there is
// none: a stale frame, or a patch that does not apply), and whether to
// send room.join again (a seq gap, a patch that does not apply).
export function follow(h, m) {
  if (m.type === 'room.patch' || m.type === 'room.presence') {
    if (!h.state) return { held: h, state: null, rejoin: false };
    let next;
    if (m.type === 'room.presence') next = applyPresence(h.state, m);
    else {
      next = applyPatch(h.state, m);
      if (next) {
        delete next.legalBySeat; // a seat's patch carries its own "legal"
        if (!('legal' in m)) next.legal = [];
      }
    }
    if (!next) return { held: { ...h, rejoining: true }, state: null, rejoin: !h.rejoining };
    return { held: { ...h, state: next, seq: next.seq }, state: { ...next, type: 'room.state' }, rejoin: false };
  }
  // A whole room.state.
  const out = { ...h };
  let rejoin = false;
  if (typeof m.seq === 'number') {
    if (h.seq != null && m.seq < h.seq) return { held: h, state: null, rejoin: false }; // stale: an older frame
    if (h.seq != null && m.seq > h.seq + 1 && !h.rejoining) {
      // A gap: we missed a change. The frame is a whole state, but the
      // contract says to ask again, which also re-checks our seat.
      out.rejoining = true;
      rejoin = true;
    } else if (h.rejoining && m.seq >= h.seq) {
      out.rejoining = false;
    }
    out.seq = m.seq;
  }
  const { moves: _m, chat: _c, type: _t, ...whole } = m;
  out.state = whole;
  return { held: out, state: m, rejoin };
}
