// The room page's model: everything the page knows of one room, as plain
// data, changed only by step(model, event) and read by the views through
// the selectors below. No DOM, no timers, no storage, no network: what the
// page must do about an event (fetch the record, save the history, follow
// the rematch, explain a refusal, play a sound) comes back from step() as
// data, `fx`, which room.js carries out. It is unit-tested with node over
// frames recorded from the server (web/unit).
//
// A model never changes: step returns a new one (the arrays it changes are
// new arrays, so a view may compare them by identity).
//
// Fields:
//   room, page      the room id; 'room' (/r/<room>, follows the room) or 'record' (/g/<room>, the record alone)
//   me              this browser's player id (welcome), to find its seat in `players`
//   joined          room.joined came on this connection
//   role, seat      'player' with a seat, 'spectator' (or 'watcher'), null before the join
//   source          where the game shown comes from: 'live' (the room), 'seeking' (the room is
//                   gone, its record asked for), 'archive' (the record), 'missing' (neither)
//   st              the last room.state as the server sent it (or as the record gives it)
//   recv            when st came (step's now), the clocks' base
//   moves           the history, [{seat, move, ...}] as the server gives it (the record's moves carry `ms`)
//   positions       positions[i] is the position after move i (0: the start); it may have holes
//   cursor          the replay: the index shown, null for the live position
//   records         the server's record: {status: 'idle'|'loading'|'none'} or {status: 'loaded', record}
//   wanted          a position asked for while the record was loading, or null
//   chat            {lines, fromState, muted}: the lines, whether a room.state gave them, whom this person mutes
//   resync          the connection came back: the next room.state is whole whatever its seq
//   saved           what sessionStorage kept of this room ({seq, moves, positions}), used by the first state
//   premove         the move this player chose during the opponent's turn ({move}), played as soon as
//                   it is theirs and legal, dropped when not; null when none

import { adjourned as adjournedGame } from '../presence.js';

export const MAX_CHAT = 500;

// init is the model of room before anything came; ply is the position
// the page's address asks for (/g/<room>#12), shown once it is known.
export function init(room, { page = 'room', me = null, saved = null, ply = null } = {}) {
  return {
    room, page, me, joined: false, role: null, seat: null, source: 'live',
    st: null, recv: 0, moves: [], positions: [], cursor: null,
    records: { status: 'idle' }, wanted: Number.isInteger(ply) && ply >= 0 ? ply : null,
    chat: { lines: [], fromState: false, muted: [] },
    resync: false, saved, premove: null,
  };
}

// Events (the connection's messages as they come, and the page's own):
//   {type: 'open'}                         the page opened: follow the room, or fetch the record
//   {type: 'up', me}                       the connection (re)opened, welcomed as player `me`
//   room.joined, room.state, room.chat, room.chat.muted, error (with `command`: ws.js)
//   {type: 'records', record}              the record came (null: the server has none)
//   {type: 'goto', k}                      show the position after move k
//   {type: 'premove', move}                a move chosen in the opponent's turn (kept when premoveAllowed)
//   {type: 'premove.cancel'}               the premove taken back (a click on the board)
//   {type: 'again'}                        "play again" after a game for one (2048 solo)
//
// fx (what room.js does about them):
//   {type: 'follow', as}                   room.join as a spectator
//   {type: 'fetchRecords'}                 GET /api/records/<room>?positions=1, then a 'records' event
//   {type: 'save', value}                  keep the history in sessionStorage
//   {type: 'navigate', url}                go to the rematch
//   {type: 'explain', key, params}         say why (the board's explain line), or {type: 'explain', text}
//   {type: 'quiet'}                        a move came: clear the explain line
//   {type: 'moved'} {type: 'ended'} {type: 'started'}   for the sounds and notifications
//   {type: 'play', move}                   send room.move (a premove whose turn came)
//   {type: 'create', spec}                 room.create with spec, then go to the new room

// step is the model after event, and what to do about it; now
// (performance.now()) is when the event came, the clocks' base.
export function step(m, ev, now = 0) {
  switch (ev.type) {
    case 'open':
      if (m.page === 'record') return seek(m);
      return { model: m, fx: [{ type: 'follow', as: 'spectator' }] };
    case 'up':
      return { model: { ...m, me: ev.me ?? m.me, joined: false, resync: true }, fx: [] };
    case 'room.joined':
      return { model: { ...m, joined: true, role: ev.role, seat: ev.role === 'player' ? ev.seat : null }, fx: [] };
    case 'room.state':
      return onState(m, ev, now);
    case 'room.chat': {
      const lines = [...m.chat.lines, strip(ev, 'type', 'room')];
      if (lines.length > MAX_CHAT) lines.shift();
      return { model: { ...m, chat: { ...m.chat, lines } }, fx: [] };
    }
    case 'room.chat.muted':
      return { model: { ...m, chat: { ...m.chat, muted: Array.isArray(ev.muted) ? ev.muted : [] } }, fx: [] };
    case 'error':
      return onError(m, ev);
    case 'records':
      return onRecords(m, ev.record);
    case 'goto':
      return goTo(m, ev.k);
    case 'premove':
      if (!premoveAllowed(m) || typeof ev.move !== 'string' || !ev.move) return { model: m, fx: [] };
      return { model: { ...m, premove: { move: ev.move } }, fx: [] };
    case 'premove.cancel':
      return { model: m.premove ? { ...m, premove: null } : m, fx: [] };
    case 'again': {
      const a = again(m);
      return { model: m, fx: a ? [{ type: 'create', spec: a }] : [] };
    }
    default:
      return { model: m, fx: [] };
  }
}

// feed is step over many events (all at time now): the model at the end
// and every fx.
export function feed(m, events, now = 0) {
  const fx = [];
  for (const ev of events) {
    const r = step(m, ev, now);
    m = r.model;
    fx.push(...r.fx);
  }
  return { model: m, fx };
}

// ---------- the state and the history ----------

const strip = (o, ...keys) => { const out = { ...o }; for (const k of keys) delete out[k]; return out; };
// A position as the history keeps it: the state without what only the
// live game has (legal moves) or what is kept apart (history, chat).
const positionOf = (st) => strip(st, 'legal', 'legalBySeat', 'moves', 'chat', 'type');
const sameMove = (a, b) => a && b && a.move === b.move && (a.seat == null || b.seat == null || a.seat === b.seat);

// equal compares two JSON values (boards, moves).
function equal(a, b) {
  if (a === b) return true;
  if (!a || !b || typeof a !== 'object' || typeof b !== 'object' || Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a), kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => equal(a[k], b[k]));
}

function onState(m, frame, now) {
  const prev = m.st;
  // An older frame, unless the connection came back: a restarted server
  // counts seq from its last snapshot, so the first state is whole.
  if (prev && frame.seq < prev.seq && !m.resync) return { model: m, fx: [] };
  const prevSeq = prev && frame.seq < prev.seq ? frame.seq - 1 : prev && prev.seq;
  const fx = [];
  let { moves, positions, chat, cursor, records, role, seat } = m;
  if (!prev) ({ moves, positions } = restore(m.saved, frame, moves, positions));
  if (Array.isArray(frame.chat)) chat = { ...chat, lines: frame.chat.slice(), fromState: true };
  let moved = false;
  if (Array.isArray(frame.moves)) {
    // A join's whole history (or a takeback's): it replaces ours, and the
    // positions we saw go when it is not ours continued.
    moved = !!prev && frame.moves.length > moves.length;
    if (frame.moves.length < moves.length || frame.moves.some((x, i) => moves[i] && !sameMove(x, moves[i]))) positions = [];
    moves = frame.moves;
  } else if (prev && frame.seq > prevSeq && frame.lastMove &&
    (!equal(frame.board, prev.board) || !equal(frame.lastMove, prev.lastMove))) {
    // A broadcast after a move: its lastMove is the next move. (Other
    // changes, a draw offer say, carry the same lastMove and board.)
    moves = [...moves, frame.lastMove];
    moved = true;
  }
  positions = positions.slice(0, moves.length);
  positions.length = moves.length;
  positions[moves.length] = positionOf(frame);
  fx.push({ type: 'save', value: { seq: frame.seq, moves, positions } });
  if (m.me && role !== 'spectator') {
    const me = (frame.players || []).find((p) => p.id && p.id === m.me);
    if (me) { role = 'player'; seat = me.seat; }
  }
  const ended = !!prev && prev.status !== 'finished' && frame.status === 'finished';
  if (ended) { cursor = null; if (records.status !== 'none') records = { status: 'idle' }; }
  if (moved) fx.push({ type: 'quiet' });
  if (prev) {
    if (moved) fx.push({ type: 'moved' });
    else if (ended) fx.push({ type: 'ended' });
    else if (prev.status === 'waiting' && frame.status === 'playing') fx.push({ type: 'started' });
  }
  if (frame.status === 'finished' && records.status === 'idle') {
    records = { status: 'loading' };
    fx.push({ type: 'fetchRecords' });
  }
  // A rematch both players asked for: follow it to the new room.
  if (frame.next && role === 'player' && Array.isArray(frame.rematch) && frame.rematch.includes(seat)) {
    fx.push({ type: 'navigate', url: `/r/${frame.next}` });
  }
  // A premove: played the moment its turn comes when legal, dropped
  // silently when not (lichess), and when the game stops.
  let { premove } = m;
  if (premove && (frame.status !== 'playing' || frame.turn === seat)) {
    if (frame.status === 'playing' && Array.isArray(frame.legal) && frame.legal.includes(premove.move)) fx.push({ type: 'play', move: premove.move });
    premove = null;
  }
  const model = { ...m, st: frame, recv: now, resync: false, moves, positions, chat, cursor, records, role, seat, saved: null, premove };
  // The position the address asked for, once the game is known.
  if (!prev && m.wanted != null && records.status !== 'loading') {
    const r = goTo({ ...model, wanted: null }, m.wanted);
    return { model: r.model, fx: [...fx, ...r.fx] };
  }
  return { model, fx };
}

// restore takes what this tab saved of the room (a reload) when it fits
// the first state: not newer, and the same game so far.
function restore(saved, frame, moves, positions) {
  if (!saved || saved.seq > frame.seq || !Array.isArray(saved.moves)) return { moves, positions };
  const theirs = Array.isArray(frame.moves) ? frame.moves : null;
  if (theirs && saved.moves.some((x, i) => !theirs[i] || !sameMove(x, theirs[i]))) return { moves, positions };
  return { moves: saved.moves, positions: (saved.positions || []).map((p) => p || undefined) };
}

// ---------- the record ----------

// seek asks for the record of a room the server no longer runs (or of the
// game page).
function seek(m) {
  const model = { ...m, source: 'seeking' };
  if (m.records.status !== 'idle') return m.records.status === 'loading' ? { model, fx: [] } : onRecords(model, m.records.record || null);
  return { model: { ...model, records: { status: 'loading' } }, fx: [{ type: 'fetchRecords' }] };
}

function onRecords(m, record) {
  m = { ...m, records: record ? { status: 'loaded', record } : { status: 'none' } };
  if (record) m = adopt(m, record);
  if (m.source === 'seeking') m = record ? archive(m, record) : { ...m, source: 'missing' };
  if (m.wanted != null) {
    const k = m.wanted;
    return goTo({ ...m, wanted: null }, k);
  }
  return { model: m, fx: [] };
}

// adopt takes from the record every position of the game (a late visitor
// saw only some), and its chat when no room.state gave one.
function adopt(m, rec) {
  let { moves, positions, chat } = m;
  const rm = Array.isArray(rec.moves) ? rec.moves : [];
  if (Array.isArray(rec.positions) && rm.every((x, i) => !moves[i] || sameMove(x, moves[i]))) {
    if (rm.length > moves.length) moves = rm;
    positions = positions.slice();
    rec.positions.forEach((p, i) => { if (p && (i < moves.length || !positions[i])) positions[i] = p; });
  }
  if (!chat.fromState && Array.isArray(rec.chat) && rec.chat.length && !chat.lines.length) chat = { ...chat, lines: rec.chat.slice() };
  return { ...m, moves, positions, chat };
}

// archive shows the record as a finished room: its last position, its
// players (none of them here), its result.
function archive(m, rec) {
  const pos = Array.isArray(rec.positions) ? rec.positions : [];
  const moves = Array.isArray(rec.moves) ? rec.moves : [];
  const st = {
    room: m.room, game: rec.game, variant: rec.variant, seq: 0, status: 'finished', spectators: 0,
    players: (rec.players || []).map((p) => ({ ...p, connected: false })), turn: null, legal: [],
    result: rec.result, clocks: null, ...(pos[pos.length - 1] || {}), lastMove: moves[moves.length - 1] || null,
  };
  const positions = pos.slice();
  positions[moves.length] ||= positionOf(st);
  return adopt({ ...m, source: 'archive', role: 'spectator', seat: null, st, moves, positions }, rec);
}

// ---------- the replay ----------

// goTo shows the position after move k (0: the start); the last one is
// the live game. A position this page has not seen is taken from the
// record (asked for once); without it the replay stops at the nearest
// position it has, in the direction asked.
function goTo(m, k) {
  const last = m.moves.length;
  k = Math.max(0, Math.min(last, k));
  if (!known(m, k) && k !== last) {
    if (m.records.status === 'idle') {
      return { model: { ...m, records: { status: 'loading' }, wanted: k }, fx: [{ type: 'fetchRecords' }] };
    }
    const dir = k < shownIndex(m) ? -1 : 1;
    let j = k;
    while (j > 0 && j < last && !known(m, j)) j += dir;
    if (!known(m, j) && j !== last) return { model: m, fx: [{ type: 'explain', key: 'replay.unknown' }] };
    k = j;
  }
  return { model: { ...m, cursor: k === last ? null : k }, fx: [] };
}

// ---------- errors ----------

// ERRORS names the words for a refused command (docs/protocol.md, "Errors").
const ERRORS = {
  'room.move': 'err.move', 'room.claim': 'err.claim', 'room.rematch': 'err.rematch', 'room.resign': 'err.resign',
  'room.chat': 'err.chat', 'room.chat.mute': 'err.chat', 'room.chat.spectators': 'err.chat',
  'room.abort': 'err.rules', 'room.draw.offer': 'err.rules', 'room.draw.accept': 'err.rules', 'room.draw.decline': 'err.rules',
  'room.takeback.ask': 'err.rules', 'room.takeback.accept': 'err.rules', 'room.takeback.decline': 'err.rules',
  'room.score.toggle': 'err.score', 'room.score.accept': 'err.score',
};

function onError(m, e) {
  if (e.room && e.room !== m.room) return { model: m, fx: [] };
  if (e.room === m.room && !m.joined && e.code === 'unknown_room') return seek(m);
  if (e.room === m.room && !e.command && (e.code === 'room_full' || e.code === 'game_over') && m.role !== 'player') {
    // A seat asked for (the join panel) that is gone: watch instead.
    const fx = [{ type: 'follow', as: 'spectator' }];
    if (e.code === 'room_full') fx.push({ type: 'explain', key: 'join.full' });
    return { model: m, fx };
  }
  if (e.room !== m.room && !e.command) return { model: m, fx: [] };
  const why = e.message || e.code;
  const key = ERRORS[e.command];
  return { model: m, fx: [key ? { type: 'explain', key, params: { why } } : { type: 'explain', text: why }] };
}

// ---------- selectors: what the views read ----------

export const known = (m, i) => !!m.positions[i];
export const shownIndex = (m) => (m.cursor == null ? m.moves.length : m.cursor);
export const live = (m) => m.source === 'live';

// shown is the state to draw: the live one, or the position the replay
// shows with the live state's names and no live fields.
export function shown(m) {
  const i = m.cursor;
  if (i == null || i === m.moves.length || !known(m, i)) return m.st;
  return {
    ...m.st, status: 'playing', result: null, lines: undefined, area: undefined, rematch: undefined, next: undefined,
    ...m.positions[i], lastMove: i > 0 ? m.moves[i - 1] : null, legal: [], legalBySeat: undefined,
  };
}

// seatCount: room.state lists every seat, a free one as {seat, name: ""}.
export const seatCount = (m) => (m.st && Array.isArray(m.st.players) ? m.st.players.length : 2);
const seated = (p) => !!p && !!(p.id || p.bot || p.name);
// playerAt is the occupant of seat k, null for a free seat.
export function playerAt(m, k) {
  const p = m.st && (m.st.players || []).find((x) => x.seat === k);
  return seated(p) ? p : null;
}
export const isPlayer = (m) => m.role === 'player';
export const mine = (m, k) => isPlayer(m) && m.seat === k;

// players is one line a seat: its occupant, how it is here (free, a
// computer, offline, online), whether it is to move and whether it is you.
export function players(m) {
  const out = [];
  for (let k = 0; k < seatCount(m); k++) {
    const p = playerAt(m, k);
    out.push({
      seat: k, player: p, you: mine(m, k), turn: m.st.status === 'playing' && m.st.turn === k,
      state: !p ? 'free' : p.bot ? 'computer' : p.connected === false ? 'offline' : 'online',
    });
  }
  return out;
}

// adjourned: to a visitor, a live game none of whose players is here
// (presence.js; the lobby leaves it out of its live games).
export const adjourned = (m) => live(m) && !isPlayer(m) && adjournedGame(m.st);

// freeSeat: a seat someone may still take.
export const freeSeat = (m) => !!m.st && m.st.status !== 'finished' && seatCount(m) > 1 &&
  (m.st.players || []).filter(seated).length < seatCount(m);
// joinable: the join panel shows (a visitor, a free seat).
export const joinable = (m) => live(m) && m.joined && !isPlayer(m) && freeSeat(m);
// interactive: the board takes moves (and go's dead-stone marks) from this page.
export const interactive = (m) => m.cursor == null && isPlayer(m) && !!m.st && /^(playing|scoring)$/.test(m.st.status);

// scoring is go's stone-removal phase (docs/protocol.md), null outside it:
// the dead stones, who accepted, whether I did, whether I may resume (the
// seat in turn), and scoreBy (Unix ms, null without a clock).
export function scoring(m) {
  const st = m.st;
  if (!st || st.status !== 'scoring' || m.cursor != null) return null;
  const accepted = st.accepted || [];
  return { dead: st.dead || [], accepted, mine: accepted.includes(m.seat) && isPlayer(m), resume: mine(m, st.turn), by: st.scoreBy ?? null };
}

// premoveAllowed: a click on the board now chooses a premove, as on
// lichess: a player of a two-seat game with a clock, the live position
// shown, the opponent to move.
export const premoveAllowed = (m) => interactive(m) && seatCount(m) === 2 && !!m.st.clocks &&
  m.st.turn != null && m.st.turn !== m.seat;

// blocked says why a move cannot be played now ({key, seat?}), null when
// it can; online is whether the connection is up.
export function blocked(m, online) {
  if (!online) return { key: 'why.offline' };
  if (m.cursor != null) return { key: 'why.replay' };
  if (!isPlayer(m)) return { key: 'why.spectator' };
  if (!m.st) return { key: 'common.loading' };
  if (m.st.status === 'waiting') return { key: 'why.waiting' };
  if (m.st.status === 'finished') return { key: 'why.over' };
  if (m.st.turn != null && m.st.turn !== m.seat) return { key: 'why.notYourTurn', seat: m.st.turn };
  return null;
}

// clockMs is seat k's time left at now (performance.now()): the server's
// figure less the time since it came, for the seat in turn whose clock
// runs (not before its first move, while abortAt stands).
export function clockMs(m, k, now) {
  const c = m.st && m.st.clocks;
  if (!c || c[k] == null) return null;
  const st = m.st;
  return st.status === 'playing' && st.turn === k && st.abortAt == null ? c[k] - (now - m.recv) : c[k];
}

// abortIn is the whole seconds left before the game is aborted for want
// of a first move, at wall time now (Date.now()); null when none is due.
export function abortIn(m, now) {
  const at = m.st && m.st.status === 'playing' ? m.st.abortAt : null;
  return at == null ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

// claim is the opponent a player may claim the win from ({at}: from when,
// Unix ms), null when there is none: a person who left a playing game.
export function claim(m) {
  if (!interactive(m)) return null;
  const opp = (m.st.players || []).find((p) => p.seat !== m.seat);
  return opp && !opp.bot && opp.connected === false ? { at: opp.claimableAt } : null;
}

// offers is what a seated player of a playing two-seat game may offer or
// answer (docs/protocol.md, "Abort, draws and takebacks"), null otherwise:
// abort while abortable; a draw (games with draws, once both moved):
// 'offer', 'mine' (standing, mine: withdraw) or 'theirs' (answer it); a
// takeback once I moved: 'ask', 'mine' or 'theirs'. `by` is the seat
// whose request stands.
export function offers(m, { draws }) {
  if (!interactive(m) || seatCount(m) !== 2) return null;
  const st = m.st, tb = st.takeback;
  const ask = (by, none) => (by == null ? { state: none } : { state: by === m.seat ? 'mine' : 'theirs', by });
  return {
    abort: !!st.abortable,
    draw: draws && !st.abortable ? ask(st.drawOffer, 'offer') : null,
    takeback: st.turn != null && (tb || m.moves.some((x) => x.seat === m.seat)) ? ask(tb ? tb.seat : null, 'ask') : null,
  };
}

// rematch is the rematch box of a finished game: the seats that asked,
// whether I did, and the new room once there is one; null when none shows.
export function rematch(m) {
  if (!m.st || m.st.status !== 'finished' || seatCount(m) < 2 || !live(m)) return null;
  const asked = Array.isArray(m.st.rematch) ? m.st.rematch : [];
  return { asked, mine: isPlayer(m) && asked.includes(m.seat), next: m.st.next || null };
}

// result is the end of a finished game: the winner (null: none), the
// loser in a two-seat game, why, and the scores of both when known.
export function result(m) {
  const r = m.st.result || {};
  const won = r.winner != null && r.winner >= 0;
  const sc = m.st.score || {};
  return {
    reason: r.reason, winner: won ? r.winner : null, loser: won && seatCount(m) > 1 ? 1 - r.winner : null,
    you: won && mine(m, r.winner), scores: won && sc[r.winner] != null && sc[1 - r.winner] != null ? [sc[r.winner], sc[1 - r.winner]] : null,
  };
}

// chatLines is the chat as this person reads it (without whom they mute).
export const chatLines = (m) => m.chat.lines.filter((l) => !m.chat.muted.includes(l.by));

// again is what "play again" creates after a finished game for one
// (2048 solo), null when it is not offered.
export function again(m) {
  if (!m.st || m.st.status !== 'finished' || seatCount(m) !== 1 || !isPlayer(m) || !live(m)) return null;
  return { game: m.st.game, variant: m.st.variant, opponent: 'none' };
}

// review is the address of the finished game's review (the game page,
// at the position shown), null while the game goes on or on that page.
export function review(m) {
  if (!m.st || m.st.status !== 'finished' || m.page === 'record' || m.source === 'missing') return null;
  return `/g/${encodeURIComponent(m.room)}${address(m)}`;
}

// address is the part of the page's address that names the position the
// replay shows ("#12"), '' for the live (or last) position.
export const address = (m) => (m.cursor == null ? '' : `#${m.cursor}`);

// spectatorsApart: this person's chat lines go to the spectators only,
// never to the players (docs/protocol.md, "Chat"): a visitor of a room
// where a person holds a seat.
export const spectatorsApart = (m) => !!m.st && m.joined && !isPlayer(m) && live(m) &&
  (m.st.players || []).some((p) => p.id && !p.bot);

// downloadable: the record's files are offered (a finished game whose
// record came).
export const downloadable = (m) => m.records.status === 'loaded' && !!m.st && m.st.status === 'finished';

// ---------- ratings ----------

// rated: true for a rated game (its state's or record's `rated`), false
// for a casual one, null where none can be rated (one seat, bots alone).
export function rated(m) {
  if (!m.st) return null;
  const rec = m.records.status === 'loaded' ? m.records.record : null;
  if (m.st.rated || (rec && rec.rated)) return true;
  if (seatCount(m) < 2 || m.st.watch) return null;
  return false;
}

// ratingChanges is each seat's change by this finished game, by seat
// ({seat, before, after, diff, provisional?}), null until it was rated:
// room.state's `ratingChanges` (after the finish), or the record's `ratings`.
export function ratingChanges(m) {
  if (!m.st || m.st.status !== 'finished') return null;
  let list = Array.isArray(m.st.ratingChanges) && m.st.ratingChanges.length ? m.st.ratingChanges : null;
  const rec = m.records.status === 'loaded' ? m.records.record : null;
  if (!list && rec && Array.isArray(rec.ratings) && rec.ratings.length) list = rec.ratings;
  if (!list) return null;
  const out = [];
  for (const c of list) {
    if (!c || !Number.isInteger(c.seat) || c.seat < 0 || c.seat >= seatCount(m) || typeof c.diff !== 'number') continue;
    out[c.seat] = { seat: c.seat, before: c.before, after: c.after, diff: c.diff, provisional: c.provisional };
  }
  return out.length ? out : null;
}

// seatRating is seat k's rating beside its name: after the game with its
// change once rated, else the one it sat with; null for none.
export function seatRating(m, k) {
  const p = playerAt(m, k);
  const ch = ratingChanges(m);
  const c = ch && ch[k];
  if (c && typeof c.after === 'number') return { rating: c.after, provisional: !!(c.provisional ?? (p && p.provisional)), diff: c.diff };
  if (p && typeof p.rating === 'number' && p.rating > 0) return { rating: p.rating, provisional: !!p.provisional, diff: null };
  return null;
}
