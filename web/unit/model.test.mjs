// The room page's model (web/static/js/room/model.js) over frames the
// server really sends: a whole game of each of the five games, as a seated
// player with whole states, as the other player with patches, and as a
// spectator who came late; the replay, the record, the clocks, the offers,
// the chat, the rematch, refusals and reloads. Run: node --test web/unit/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as M from '../static/js/room/model.js';
import { captures } from '../static/js/games/go.js';
import { legalFor } from '../static/js/games/common.js';
import { GAMES, fixture, events, me, live } from './frames.mjs';

const ROOM = 'room-1';
const boardOf = (p) => JSON.stringify(p.board);
const types = (fx) => fx.map((f) => f.type);

// play feeds a connection's frames to a new room page's model, after its
// 'open'; it returns the model and every fx.
function play(frames, opts = {}) {
  const m = M.init(ROOM, { me: me(frames), ...opts.init });
  const open = M.step(m, { type: 'open' });
  const r = M.feed(open.model, events(frames, opts).events);
  return { model: r.model, fx: [...open.fx, ...r.fx] };
}

for (const game of GAMES) {
  const fx = fixture(game);
  const rec = fx.record;

  test(`${game}: a player's whole game from whole states`, () => {
    const { model, fx: out } = play(fx.p0);
    assert.equal(out[0].type, 'follow');
    assert.equal(model.role, 'player');
    assert.equal(model.seat, 0);
    assert.equal(model.st.status, 'finished');
    assert.deepEqual(model.moves.map((x) => [x.seat, x.move]), rec.moves.map((x) => [x.seat, x.move]));
    // Every position seen, each the record's. (A takeback, in morris,
    // forgets the positions: the history it answers is another.)
    assert.equal(model.positions.length, rec.positions.length);
    rec.positions.forEach((p, i) => {
      if (game === 'morris' && i === 0) assert.equal(model.positions[i], undefined);
      else assert.equal(boardOf(model.positions[i]), boardOf(p), `position ${i}`);
    });
    assert.ok(model.positions.every((p) => !('legal' in p) && !('moves' in p) && !('chat' in p)));
    // A sound for each move the page saw come, the record asked for once, at the end.
    // (In morris two plies were taken back and played again.)
    assert.equal(types(out).filter((t) => t === 'moved').length, rec.moves.length + (game === 'morris' ? 2 : 0));
    assert.deepEqual(types(out).filter((t) => t === 'fetchRecords'), ['fetchRecords']);
    assert.equal(model.records.status, 'loading');
    const done = M.step(model, { type: 'records', record: rec });
    assert.equal(done.model.records.status, 'loaded');
    assert.ok(M.downloadable(done.model));
    assert.deepEqual(M.result(done.model).winner, rec.result.winner ?? null);
  });

  test(`${game}: the other player's patches make the same states`, () => {
    // From bia's join on, state for state (presences included).
    const { events: made, rejoins } = events(fx.p1);
    assert.equal(rejoins, 0, 'no patch failed to apply');
    const states = made.filter((e) => e.type === 'room.state');
    const whole = events(fx.p0).events.filter((e) => e.type === 'room.state' && e.seq >= states[0].seq);
    assert.equal(states.length, whole.length);
    states.forEach((s, i) => assert.deepEqual(live(s), live(whole[i]), `state ${i}, seq ${s.seq}`));
    const a = play(fx.p0).model, b = play(fx.p1).model;
    assert.equal(b.seat, 1);
    assert.deepEqual(b.moves, a.moves);
    assert.deepEqual(b.positions.map(boardOf), a.positions.map(boardOf));
  });

  test(`${game}: a late spectator replays from the record`, () => {
    let { model } = play(fx.spectator, { as: 'spectator' });
    assert.equal(model.role, 'spectator');
    assert.equal(model.moves.length, rec.moves.length);
    const first = model.positions.findIndex(Boolean);
    assert.ok(first > 0, 'the positions before the join are not known');
    // Asked for position 0: the record is fetched (once: it is asked for
    // at the end of the game already), and the replay goes there when it comes.
    const fresh = M.init(ROOM, { me: me(fx.spectator) });
    let r = M.feed(fresh, events(fx.spectator, { as: 'spectator' }).events.filter((e) => e.type !== 'room.state' || e.status !== 'finished'));
    r = M.step(r.model, { type: 'goto', k: 0 });
    assert.deepEqual(types(r.fx), ['fetchRecords']);
    assert.equal(r.model.cursor, null);
    r = M.step(r.model, { type: 'records', record: rec });
    assert.equal(r.model.cursor, 0);
    assert.equal(boardOf(M.shown(r.model)), boardOf(rec.positions[0]));
    // Every position, forwards, as the record has it; the last is live.
    model = M.step(model, { type: 'records', record: rec }).model;
    for (let k = 0; k <= rec.moves.length; k++) {
      model = M.step(model, { type: 'goto', k }).model;
      assert.equal(boardOf(M.shown(model)), boardOf(rec.positions[k]), `position ${k}`);
      assert.deepEqual(M.shown(model).lastMove ? M.shown(model).lastMove.move : null, k ? rec.moves[k - 1].move : null);
      assert.equal(model.cursor, k === rec.moves.length ? null : k);
    }
    assert.deepEqual(M.blocked(model, true), { key: 'why.spectator' });
  });

  test(`${game}: without the record the replay stops at what the page saw`, () => {
    let { model } = play(fx.spectator, { as: 'spectator' });
    model = M.step(model, { type: 'records', record: null }).model;
    assert.equal(model.records.status, 'none');
    const first = model.positions.findIndex(Boolean);
    for (const [from, k] of [[null, 0], [first, first - 1], [null, first - 1]]) {
      const r = M.step({ ...model, cursor: from }, { type: 'goto', k });
      assert.deepEqual(r.fx, [{ type: 'explain', key: 'replay.unknown' }]);
      assert.equal(r.model.cursor, from);
    }
    assert.equal(M.step(model, { type: 'goto', k: first }).model.cursor, first === model.moves.length ? null : first);
  });

  test(`${game}: the game page shows the record alone`, () => {
    let r = M.step(M.init(ROOM, { page: 'record' }), { type: 'open' });
    assert.deepEqual(types(r.fx), ['fetchRecords']);
    r = M.step(r.model, { type: 'records', record: rec });
    const m = r.model;
    assert.equal(m.source, 'archive');
    assert.equal(m.role, 'spectator');
    assert.equal(m.st.status, 'finished');
    assert.equal(m.st.game, game);
    assert.equal(boardOf(m.st), boardOf(rec.positions.at(-1)));
    assert.equal(m.moves.length, rec.moves.length);
    assert.ok(M.downloadable(m));
    assert.equal(M.rematch(m), null);
    assert.deepEqual(M.chatLines(m), rec.chat);
    assert.ok(M.players(m).every((p) => p.state !== 'online'));
  });
}

test('a room the server no longer has: its record, else "not found"', () => {
  const rec = fixture('go').record;
  const gone = { type: 'error', room: ROOM, code: 'unknown_room', message: 'no such room' };
  let r = M.step(M.step(M.init(ROOM), { type: 'open' }).model, gone);
  assert.deepEqual(types(r.fx), ['fetchRecords']);
  assert.equal(M.step(r.model, { type: 'records', record: rec }).model.source, 'archive');
  assert.equal(M.step(r.model, { type: 'records', record: null }).model.source, 'missing');
  // Once joined, the same error is only explained.
  const joined = M.step(M.init(ROOM), { type: 'room.joined', room: ROOM, role: 'spectator' }).model;
  assert.deepEqual(M.step(joined, gone).fx, [{ type: 'explain', text: 'no such room' }]);
});

test('refusals are explained; other rooms are not mine', () => {
  const f = fixture('orbito');
  const { fx } = play(f.p1, { commands: { c1: 'room.move' } });
  const err = f.p1.find((x) => x.type === 'error');
  assert.deepEqual(fx.filter((x) => x.type === 'explain'), [{ type: 'explain', key: 'err.move', params: { why: err.message } }]);
  const m = M.init(ROOM);
  assert.deepEqual(M.step(m, { type: 'error', room: 'other', code: 'illegal_move', command: 'room.move' }).fx, []);
  // A seat taken by someone else meanwhile: watch instead, and say so.
  assert.deepEqual(M.step(m, { type: 'error', room: ROOM, code: 'room_full' }).fx,
    [{ type: 'follow', as: 'spectator' }, { type: 'explain', key: 'join.full' }]);
});

test('morris: clocks run for the seat in turn from when the state came', () => {
  const states = events(fixture('morris').p0).events.filter((e) => e.type === 'room.state');
  let m = M.init(ROOM);
  const at = (seq, now) => { m = M.step(m, states.find((s) => s.seq === seq), now).model; };
  at(2, 1000);
  // The first move is due (abortAt): no clock runs, the countdown does.
  assert.equal(M.clockMs(m, 0, 6000), 60000);
  assert.equal(M.abortIn(m, states[1].abortAt - 24500), 25);
  at(4, 1000);
  assert.equal(M.abortIn(m, 0), null);
  assert.equal(M.clockMs(m, 0, 3500), 60000 - 2500);
  assert.equal(M.clockMs(m, 1, 3500), 60000);
  at(18, 0);
  assert.equal(M.clockMs(m, 1, 99999), 56000, 'a finished game stands still');
});

// at is the model of a connection's page once the room.state of seq came.
function at(frames, seq, opts) {
  const evs = events(frames, opts).events;
  const i = evs.findIndex((e) => e.type === 'room.state' && e.seq === seq);
  assert.ok(i >= 0, `no state ${seq}`);
  return M.feed(M.init(ROOM, { me: me(frames) }), evs.slice(0, i + 1)).model;
}

test('morris: draw offers and takebacks as each player sees them', () => {
  const f = fixture('morris');
  const draws = { draws: true };
  // seq 3: one first move: abort, no draw yet; seat 0 may ask its move back.
  assert.deepEqual(M.offers(at(f.p0, 3), draws), { abort: true, draw: null, takeback: { state: 'ask' } });
  assert.deepEqual(M.offers(at(f.p1, 3), draws), { abort: true, draw: null, takeback: null });
  // seq 4: both moved: no abort, a draw to offer.
  assert.deepEqual(M.offers(at(f.p0, 4), draws), { abort: false, draw: { state: 'offer' }, takeback: { state: 'ask' } });
  assert.deepEqual(M.offers(at(f.p0, 4), { draws: false }).draw, null);
  // seq 5: ana offered: she may withdraw, bia answers.
  assert.deepEqual(M.offers(at(f.p0, 5), draws).draw, { state: 'mine', by: 0 });
  assert.deepEqual(M.offers(at(f.p1, 5), draws).draw, { state: 'theirs', by: 0 });
  assert.deepEqual(M.offers(at(f.p0, 6), draws).draw, { state: 'offer' });
  // seq 8: bia asks a takeback; seq 9 grants it: two plies fewer, and the
  // positions after them forgotten.
  assert.deepEqual(M.offers(at(f.p0, 8), draws).takeback, { state: 'theirs', by: 1 });
  assert.deepEqual(M.offers(at(f.p1, 8), draws).takeback, { state: 'mine', by: 1 });
  const back = at(f.p0, 9);
  assert.deepEqual(back.moves, [{ seat: 0, move: 'b2' }]);
  assert.equal(back.positions.length, 2);
  assert.equal(boardOf(back.positions[1]), boardOf(at(f.p0, 3).positions[1]));
  // A spectator is offered nothing.
  assert.equal(M.offers(at(f.spectator, 9, { as: 'spectator' }), draws), null);
});

test('morris: chat from the join, lines as they come, a mute', () => {
  const f = fixture('morris');
  const p0 = play(f.p0).model;
  assert.deepEqual(M.chatLines(p0).map((l) => [l.from, l.role, l.seat, l.text]), [['ana', 'player', 0, 'boa sorte'], ['ana', 'player', 0, 'obrigada']]);
  const sp = play(f.spectator, { as: 'spectator' }).model;
  assert.deepEqual(sp.chat.muted, ['player-ana']);
  // zé muted ana after her first line: her lines no longer show to him.
  assert.deepEqual(M.chatLines(sp).map((l) => [l.from, l.role, l.text]), [['zé', 'spectator', 'força, bia']]);
  assert.equal(sp.chat.lines.length, 2);
  // zé's refused line (the players switched the spectators' chat off).
  assert.deepEqual(play(f.spectator, { as: 'spectator', commands: { c1: 'room.chat' } }).fx.filter((x) => x.type === 'explain').map((x) => x.key), ['err.chat']);
  // The switch, as the spectators see it.
  assert.equal(at(f.spectator, 10, { as: 'spectator' }).st.spectatorChat, false);
  assert.equal(at(f.spectator, 11, { as: 'spectator' }).st.spectatorChat, true);
  // A long chat keeps its last lines only.
  let m = M.init(ROOM);
  for (let i = 0; i < M.MAX_CHAT + 5; i++) m = M.step(m, { type: 'room.chat', room: ROOM, from: 'a', role: 'spectator', text: String(i) }).model;
  assert.equal(m.chat.lines.length, M.MAX_CHAT);
  assert.equal(m.chat.lines[0].text, '5');
});

test('morris: the rematch, as the players and the spectator see it', () => {
  const f = fixture('morris');
  assert.deepEqual(M.rematch(at(f.p0, 19)), { asked: [0], mine: true, next: null });
  assert.deepEqual(M.rematch(at(f.p1, 19)), { asked: [0], mine: false, next: null });
  const { fx } = play(f.p0);
  assert.deepEqual(fx.filter((x) => x.type === 'navigate'), [{ type: 'navigate', url: '/r/room-2' }]);
  const sp = play(f.spectator, { as: 'spectator' });
  assert.deepEqual(M.rematch(sp.model), { asked: [0, 1], mine: false, next: 'room-2' });
  assert.deepEqual(sp.fx.filter((x) => x.type === 'navigate'), []);
  const r = M.result(sp.model);
  assert.deepEqual([r.winner, r.loser, r.reason, r.you], [0, 1, 'resign', false]);
  assert.equal(M.result(play(f.p0).model).you, true);
});

test('a reload keeps the positions this tab saw', () => {
  const f = fixture('queens');
  const evs = events(f.p0).events;
  const { model, fx } = M.feed(M.init(ROOM, { me: me(f.p0) }), evs);
  const saved = fx.filter((x) => x.type === 'save').at(-1).value;
  assert.equal(saved.seq, model.st.seq);
  // The page again: the join answers the whole history, the positions come from the tab.
  const join = { ...evs.filter((e) => e.type === 'room.state').at(-1), moves: model.moves, chat: [] };
  const again = M.step(M.init(ROOM, { me: me(f.p0), saved: JSON.parse(JSON.stringify(saved)) }), join).model;
  assert.equal(again.positions.filter(Boolean).length, model.positions.length);
  // What was saved of another game is not taken.
  const other = { ...saved, moves: [{ seat: 0, move: 'R@0,0' }, ...saved.moves.slice(1)] };
  assert.equal(M.step(M.init(ROOM, { saved: other }), join).model.positions.filter(Boolean).length, 1);
});

test('after a reconnection the next state is whole whatever its seq', () => {
  const states = events(fixture('orbito').p0).events.filter((e) => e.type === 'room.state');
  let m = M.feed(M.init(ROOM), states).model;
  const early = states[3];
  assert.equal(M.step(m, early).model, m, 'an older frame changes nothing');
  m = M.step(m, { type: 'up', me: 'player-ana' }).model;
  assert.equal(m.joined, false);
  const r = M.step(m, { ...early, moves: m.moves.slice(0, 2) });
  assert.equal(r.model.st.seq, early.seq);
  assert.equal(r.model.moves.length, 2);
});

test('go: captures counted from the positions, and from the move list alone', () => {
  const f = fixture('go');
  const p0 = play(f.p0).model;
  const hist = { moves: p0.moves, positions: p0.positions, st: p0.st };
  assert.deepEqual(captures(hist, 2), { black: 0, white: 0, known: true });
  assert.deepEqual(captures(hist, 3), { black: 1, white: 0, known: true }, 'A2 took A1');
  assert.deepEqual(captures(hist, p0.moves.length), { black: 1, white: 0, known: true });
  // A late spectator, without the record: stones placed less stones standing.
  const sp = play(f.spectator, { as: 'spectator' }).model;
  assert.deepEqual(captures({ moves: sp.moves, positions: sp.positions, st: sp.st }, sp.moves.length), { black: 1, white: 0, known: true });
  assert.deepEqual(p0.st.area.length, 9);
  assert.deepEqual(p0.st.score, f.record.positions.at(-1).score);
});

test('go with stone removal: the phase as each player and a spectator see it', () => {
  const f = fixture('go-scoring');
  // Every model along ana's whole states: in the phase, the dead stones,
  // who accepted, and who may resume; out of it, nothing.
  const evs = events(f.p0).events;
  const models = [];
  evs.reduce((m, ev) => { const r = M.step(m, ev); if (ev.type === 'room.state') models.push(r.model); return r.model; },
    M.step(M.init(ROOM, { me: me(f.p0) }), { type: 'open' }).model);
  const phases = models.filter((m) => m.st.status === 'scoring').map((m) => M.scoring(m));
  assert.deepEqual(phases.map((p) => p.dead.join(' ')), ['', 'B5', '', '', 'B5', 'B5'], 'pass, proposal, toggle; pass, proposal, accept');
  assert.deepEqual(phases.map((p) => p.resume), [true, true, true, false, false, false], 'black may resume in the first phase, white in the second');
  assert.deepEqual(phases.at(-1).accepted, [0]);
  assert.ok(phases.at(-1).mine && !phases[0].mine);
  assert.ok(models.filter((m) => m.st.status === 'scoring').every((m) => M.interactive(m) && M.clockMs(m, 0, 1e9) == null));
  const end = models.at(-1);
  assert.equal(M.scoring(end), null);
  assert.equal(end.st.result.reason, 'scored');
  assert.equal(end.st.komi, 7.5);
  assert.deepEqual(end.st.dead, ['B5']);
  // Resuming took the phase's fields away: a whole state for the patch
  // clients, which make exactly ana's states.
  const resumed = models.find((m) => m.st.lastMove && m.st.lastMove.move === 'A5');
  assert.equal(resumed.st.status, 'playing');
  assert.ok(!('dead' in resumed.st) && !('area' in resumed.st));
  for (const who of [f.p1, f.spectator]) {
    const { events: made, rejoins } = events(who, { as: who === f.spectator ? 'spectator' : 'player' });
    assert.equal(rejoins, 0);
    const states = made.filter((e) => e.type === 'room.state');
    const whole = evs.filter((e) => e.type === 'room.state' && e.seq >= states[0].seq);
    states.forEach((st, i) => {
      for (const k of ['status', 'dead', 'accepted', 'area', 'score', 'board', 'turn']) assert.deepEqual(st[k], whole[i][k], `${k} at seq ${st.seq}`);
    });
  }
  // A refused mark is explained in the page's words.
  const refused = M.step(end, { type: 'error', room: ROOM, code: 'game_over', message: 'the game is over', command: 'room.score.toggle' });
  assert.deepEqual(refused.fx, [{ type: 'explain', key: 'err.score', params: { why: 'the game is over' } }]);
});

test('2048 race: each seat\'s own moves, from a whole state and from its patch', () => {
  const f = fixture('2048');
  const whole = at(f.p0, 3).st;
  assert.equal(whole.turn, null);
  assert.deepEqual(legalFor(whole, 0), whole.legalBySeat[0]);
  assert.deepEqual(legalFor(whole, 1), whole.legalBySeat[1]);
  const patched = at(f.p1, 5).st;
  assert.equal(patched.legalBySeat, undefined);
  assert.deepEqual(legalFor(patched, 1), at(f.p0, 5).st.legalBySeat[1]);
  const spect = at(f.spectator, 5, { as: 'spectator' }).st;
  assert.deepEqual(spect.legal, []);
  assert.equal(M.interactive(at(f.p0, 3)), true);
  assert.equal(M.blocked(at(f.p0, 3), true), null, 'both seats move at will');
  assert.deepEqual(at(f.p0, 3).st.score, { 0: 0, 1: 0 });
});

test('queens: owners and hands in the shapes docs/protocol.md gives', () => {
  const f = fixture('queens');
  const st = play(f.p0).model.st;
  assert.ok(st.owners.every((row, i) => typeof row === 'string' && row.length === st.board[i].length));
  assert.ok(st.owners.every((row, i) => [...row].every((c, j) => (st.board[i][j] === '.') === (c === '.'))));
  assert.deepEqual(Object.keys(st.hands).sort(), ['primeiro', 'segundo']);
  for (const p of f.record.positions) assert.ok(Array.isArray(p.hands.primeiro) && Array.isArray(p.owners));
});

test('players, turns and the join panel', () => {
  const f = fixture('orbito');
  const waiting = M.feed(M.init(ROOM, { me: 'player-zé' }), [
    { type: 'room.joined', room: ROOM, role: 'spectator' }, events(f.p0).events.find((e) => e.type === 'room.state'),
  ]).model;
  assert.deepEqual(M.players(waiting).map((p) => p.state), ['online', 'free']);
  assert.equal(M.freeSeat(waiting), true);
  assert.equal(M.joinable(waiting), true);
  assert.deepEqual(M.blocked(waiting, true), { key: 'why.spectator' });
  const playing = at(f.p0, 4);
  assert.deepEqual(M.players(playing).map((p) => [p.state, p.turn, p.you]), [['online', true, true], ['online', false, false]]);
  assert.equal(M.joinable(playing), false);
  assert.deepEqual(M.blocked(at(f.p0, 3), true), { key: 'why.notYourTurn', seat: 1 });
  assert.deepEqual(M.blocked(playing, false), { key: 'why.offline' });
  assert.deepEqual(M.blocked({ ...playing, cursor: 1 }, true), { key: 'why.replay' });
  assert.equal(M.claim(playing), null);
  const left = { ...playing, st: { ...playing.st, players: playing.st.players.map((p) => (p.seat === 1 ? { ...p, connected: false, claimableAt: 5 } : p)) } };
  assert.deepEqual(M.claim(left), { at: 5 });
  assert.equal(M.players(left)[1].state, 'offline');
  // Adjourned, to a visitor, while no player is here: not while one is,
  // never to a player, never a finished game.
  const gone = { ...playing, st: { ...playing.st, players: playing.st.players.map((p) => ({ ...p, connected: false })) } };
  const visitor = { ...gone, role: 'spectator', seat: null };
  assert.equal(M.adjourned(visitor), true);
  assert.equal(M.adjourned({ ...left, role: 'spectator', seat: null }), false);
  assert.equal(M.adjourned(gone), false);
  assert.equal(M.adjourned({ ...visitor, st: { ...visitor.st, status: 'finished' } }), false);
});

test('morris: a premove in the opponent\'s turn is played when its turn comes, when legal', () => {
  const f = fixture('morris');
  const evs = events(f.p0).events;
  const states = evs.filter((e) => e.type === 'room.state');
  // seq 3: bia (seat 1) to move, a clock: ana may premove, and the click
  // that would have said "not your turn" keeps a move instead.
  let m = at(f.p0, 3);
  assert.equal(m.st.turn, 1);
  assert.ok(m.st.clocks);
  assert.equal(M.premoveAllowed(m), true);
  assert.equal(M.premoveAllowed(at(f.p0, 4)), false, 'not on my own turn');
  assert.equal(M.premoveAllowed(at(f.p1, 3)), false, 'not for the seat to move');
  assert.equal(M.premoveAllowed(at(f.spectator, 9, { as: 'spectator' })), false, 'not for a spectator');
  assert.equal(M.premoveAllowed({ ...m, cursor: 1 }), false, 'not while an earlier position is shown');
  // The move ana really played next is legal when her turn comes: sent at once, once.
  const next = states.find((s) => s.seq === 4);
  const hers = next.legal[0];
  let r = M.step(m, { type: 'premove', move: hers });
  assert.deepEqual(r.model.premove, { move: hers });
  r = M.step(r.model, next);
  assert.deepEqual(r.fx.filter((x) => x.type === 'play'), [{ type: 'play', move: hers }]);
  assert.equal(r.model.premove, null);
  // A premove onto a point bia just took is dropped without a word.
  const taken = next.lastMove.move;
  r = M.step(M.step(m, { type: 'premove', move: taken }).model, next);
  assert.deepEqual(r.fx.filter((x) => x.type === 'play' || x.type === 'explain'), []);
  assert.equal(r.model.premove, null);
  // Cancelled by a click: nothing is sent.
  r = M.step(M.step(m, { type: 'premove', move: hers }).model, { type: 'premove.cancel' });
  assert.equal(r.model.premove, null);
  assert.deepEqual(M.step(r.model, next).fx.filter((x) => x.type === 'play'), []);
  // A state that keeps the opponent to move (an offer, say) keeps the premove.
  const still = { ...states.find((s) => s.seq === 3), seq: 3.5 };
  assert.deepEqual(M.step(M.step(m, { type: 'premove', move: hers }).model, still).model.premove, { move: hers });
  // Not on my own turn, and a finished game drops one.
  assert.equal(M.step(at(f.p0, 4), { type: 'premove', move: hers }).model.premove, null);
  const end = states.find((s) => s.status === 'finished');
  assert.equal(M.step(M.step(m, { type: 'premove', move: hers }).model, { ...end, seq: 99 }).model.premove, null);
});

test('orbito: no premove in a game without a clock', () => {
  const m = at(fixture('orbito').p0, 3);
  assert.equal(m.st.turn, 1);
  assert.equal(M.premoveAllowed(m), false);
  assert.equal(M.step(m, { type: 'premove', move: 'a1' }).model.premove, null);
});

test('the address follows the replay, and a link opens at its position', () => {
  const f = fixture('go');
  const rec = f.record;
  // The game page opened at /g/room-1#3: the record's position 3.
  let r = M.step(M.init(ROOM, { page: 'record', ply: 3 }), { type: 'open' });
  r = M.step(r.model, { type: 'records', record: rec });
  assert.equal(r.model.cursor, 3);
  assert.equal(boardOf(M.shown(r.model)), boardOf(rec.positions[3]));
  assert.equal(M.address(r.model), '#3');
  assert.equal(M.address(M.step(r.model, { type: 'goto', k: rec.moves.length }).model), '', 'the last position has no number');
  assert.equal(M.address(M.step(r.model, { type: 'goto', k: 0 }).model), '#0');
  // The room page opened at #2 by a player, mid-game (a reload): the join's
  // state carries the history, the tab kept the positions.
  const mid = at(f.p0, 6);
  const join = { ...mid.st, moves: mid.moves };
  const saved = { seq: mid.st.seq, moves: mid.moves, positions: mid.positions };
  let m = M.step(M.init(ROOM, { me: me(f.p0), ply: 2, saved }), join).model;
  assert.equal(m.cursor, 2);
  assert.equal(M.address(m), '#2');
  assert.equal(boardOf(M.shown(m)), boardOf(rec.positions[2]));
  // A late spectator's link to a position before the join: the record is
  // asked for, and the replay goes there when it comes.
  const sp = events(f.spectator, { as: 'spectator' }).events;
  r = M.step(M.init(ROOM, { me: me(f.spectator), ply: 1 }), sp.find((e) => e.type === 'room.state'));
  assert.deepEqual(types(r.fx).filter((x) => x === 'fetchRecords'), ['fetchRecords']);
  m = M.step(r.model, { type: 'records', record: rec }).model;
  assert.equal(m.cursor, 1);
  assert.equal(boardOf(M.shown(m)), boardOf(rec.positions[1]));
  // A number past the end shows the last position.
  const far = M.step(M.step(M.init(ROOM, { page: 'record', ply: 999 }), { type: 'open' }).model, { type: 'records', record: rec }).model;
  assert.equal(far.cursor, null);
});

test('a finished game leads to its review, from the room, at the position shown', () => {
  const f = fixture('go');
  const done = play(f.p0).model;
  assert.equal(M.review(done), '/g/room-1');
  assert.equal(M.review({ ...done, cursor: 4 }), '/g/room-1#4');
  const sp = play(f.spectator, { as: 'spectator' }).model;
  assert.equal(M.review(sp), '/g/room-1', 'for a spectator too');
  assert.equal(M.review(at(f.p0, 5)), null, 'not while it is played');
  const page = M.step(M.step(M.init(ROOM, { page: 'record' }), { type: 'open' }).model, { type: 'records', record: f.record }).model;
  assert.equal(M.review(page), null, 'not on the review itself');
});

test('2048 solo: "play again" creates the same game; a race offers the rematch instead', () => {
  const solo = {
    ...play(fixture('2048').p0).model,
  };
  // The race fixture has two seats: a rematch, no "play again".
  assert.equal(M.again(solo), null);
  assert.ok(M.rematch(solo));
  const one = { ...solo, st: { ...solo.st, variant: 'solo', players: [solo.st.players[0]] } };
  assert.deepEqual(M.again(one), { game: '2048', variant: 'solo', opponent: 'none' });
  assert.deepEqual(M.step(one, { type: 'again' }).fx, [{ type: 'create', spec: { game: '2048', variant: 'solo', opponent: 'none' } }]);
  assert.deepEqual(M.step(solo, { type: 'again' }).fx, []);
  assert.equal(M.again({ ...one, st: { ...one.st, status: 'playing' } }), null, 'not before the end');
  assert.equal(M.again({ ...one, role: 'spectator', seat: null }), null, 'not for a spectator');
});

test('a spectator is told the players do not read their chat', () => {
  const f = fixture('morris');
  assert.equal(M.spectatorsApart(play(f.spectator, { as: 'spectator' }).model), true);
  assert.equal(M.spectatorsApart(play(f.p0).model), false);
  const sp = play(f.spectator, { as: 'spectator' }).model;
  const bots = { ...sp, st: { ...sp.st, players: sp.st.players.map((p) => ({ seat: p.seat, bot: 'facil', name: '' })) } };
  assert.equal(M.spectatorsApart(bots), false, 'computers have no chat to miss');
});
