// Who is here, read from what the server says of a room's players (a
// room.state or a lobby's room summary): shared by the lobby's cards and
// the room page.

// away tells whether p is a person (or a bot account) seated in the room
// with no connection to it; the server's own bots are always here.
export const away = (p) => !!p && !p.bot && !!p.id && p.connected === false;

// adjourned tells whether a game is being played with none of its players
// here: the lobby leaves it out of its live games (docs/protocol.md, "The
// lobby"), and the room page says so to whoever opens it.
export function adjourned(st) {
  if (!st || st.status !== 'playing') return false;
  const people = (st.players || []).filter((p) => p && !p.bot && p.id);
  return people.length > 0 && people.every(away);
}
