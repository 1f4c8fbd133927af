// Who is here, from a room's players (a room.state, or a lobby's summary).

// away: a person or bot account seated with no connection (our bots are
// always here).
export const away = (p) => !!p && !p.bot && !!p.id && p.connected === false;

// adjourned: a game played with none of its players here.
export function adjourned(st) {
  const people = st && st.status === 'playing' ? (st.players || []).filter((p) => p && !p.bot && p.id) : [];
  return people.length > 0 && people.every(away);
}
