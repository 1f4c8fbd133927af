// Ratings in the page: the room model's rated flag and the end of a rated
// game's changes (room/model.js: rated, ratingChanges, seatRating), over the
// server's recorded morris game with the ratings a rated game adds (a whole
// state, and a patch after the finish as frames.js applies it); how a
// rating and a change are written and where a name links (rating.js); the
// profile's curve (graph.js: scale, niceStep). Run: node --test web/unit/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as M from '../static/js/room/model.js';
import { follow, held } from '../static/js/frames.js';
import { ratingText, diffText, diffClass, profilePath, rated } from '../static/js/rating.js';
import { scale, niceStep } from '../static/js/graph.js';
import { fixture, events, me } from './frames.mjs';

const ROOM = 'room-1';
const fx = fixture('morris');

// rate gives each seat of a frame's players the rating it sat with, as a
// rated game's room.state carries it.
const RATINGS = [{ rating: 1500, provisional: true }, { rating: 1623 }];
function rate(frame) {
  if (!Array.isArray(frame.players)) return frame;
  return { ...frame, rated: true, players: frame.players.map((p) => (p.id ? { ...p, ...RATINGS[p.seat] } : p)) };
}

// finished plays the morris game as bia (seat 1, patches) with the seats
// rated, and returns the model at the end, the held state and the frames'
// last seq.
function finished() {
  let h = held('player');
  let m = M.step(M.init(ROOM, { me: me(fx.p1) }), { type: 'open' }).model;
  for (const f of fx.p1) {
    if (f.type === 'match.found') break; // the rematch: another room
    if (f.type === 'welcome') continue;
    if (f.type === 'room.state' || f.type === 'room.patch' || f.type === 'room.presence') {
      const r = follow(h, f.type === 'room.state' ? rate(f) : f);
      h = r.held;
      if (r.state) m = M.step(m, r.state).model;
    } else m = M.step(m, f).model;
  }
  return { m, h };
}

const CHANGES = [
  { seat: 0, id: 'a', before: 1500, after: 1742, diff: 242, provisional: true },
  { seat: 1, id: 'b', before: 1623, after: 1560, diff: -63 },
];

test('a rated game: the seats show the ratings they sat with until the changes come', () => {
  const { m } = finished();
  assert.equal(m.st.status, 'finished');
  assert.equal(M.rated(m), true);
  assert.equal(M.ratingChanges(m), null, 'no change before the rater posts it');
  assert.deepEqual(M.seatRating(m, 0), { rating: 1500, provisional: true, diff: null });
  assert.deepEqual(M.seatRating(m, 1), { rating: 1623, provisional: false, diff: null });
  assert.equal(ratingText(M.seatRating(m, 0).rating, M.seatRating(m, 0).provisional), '1500?');
});

test('a patch after the finish brings the changes: each seat its new rating and its change', () => {
  const { m, h } = finished();
  const seq = h.seq;
  const r = follow(h, { type: 'room.patch', room: ROOM, seq: seq + 1, ratingChanges: CHANGES });
  assert.ok(r.state, 'the patch applies');
  const out = M.step(m, r.state);
  const ch = M.ratingChanges(out.model);
  assert.deepEqual(ch.map((c) => [c.seat, c.diff, c.after]), [[0, 242, 1742], [1, -63, 1560]]);
  assert.deepEqual(M.seatRating(out.model, 0), { rating: 1742, provisional: true, diff: 242 });
  // The second seat's new rating is settled: the change says so (no "provisional").
  assert.deepEqual(M.seatRating(out.model, 1), { rating: 1560, provisional: false, diff: -63 });
  assert.deepEqual(out.fx.map((f) => f.type).filter((t) => t === 'moved' || t === 'ended'), [], 'no sound for a rating');
  assert.deepEqual([diffText(242), diffText(-63), diffText(0)], ['+242', '\u221263', '\u00b10']);
  assert.deepEqual([diffClass(242), diffClass(-63), diffClass(0)], ['up', 'down', 'even']);
});

test('a whole state after the finish (a reload, a spectator) gives the same changes', () => {
  const { m } = finished();
  const st = { ...m.st, seq: m.st.seq + 1, ratingChanges: CHANGES };
  const fresh = M.feed(M.step(M.init(ROOM, { me: 'someone-else' }), { type: 'open' }).model, [{ type: 'room.joined', role: 'spectator' }, st]).model;
  assert.deepEqual(M.ratingChanges(fresh).map((c) => c.diff), [242, -63]);
  assert.equal(M.rated(fresh), true);
});

test('changes are shown only for a finished game, and bad entries are left out', () => {
  const { m } = finished();
  const playing = { ...m, st: { ...m.st, status: 'playing', ratingChanges: CHANGES } };
  assert.equal(M.ratingChanges(playing), null);
  const odd = { ...m, st: { ...m.st, ratingChanges: [{ seat: 7, diff: 3 }, { seat: 0, diff: 'x' }, null, { seat: 1, before: 1, after: 9, diff: 8 }] } };
  const ch = M.ratingChanges(odd);
  assert.equal(ch[0], undefined);
  assert.equal(ch[1].diff, 8);
  assert.equal(M.seatRating(odd, 0).diff, null, 'seat 0 keeps the rating it sat with');
});

test('a finished game\'s page has the changes from its record', () => {
  const rec = { ...fx.record, rated: true, ratings: [{ seat: 0, before: 1500, after: 1742, diff: 242 }, { seat: 1, before: 1623, after: 1560, diff: -63 }] };
  rec.players = rec.players.map((p) => ({ ...p, ...RATINGS[p.seat] }));
  const open = M.step(M.init(ROOM, { page: 'record' }), { type: 'open' });
  assert.deepEqual(open.fx.map((f) => f.type), ['fetchRecords']);
  const m = M.step(open.model, { type: 'records', record: rec }).model;
  assert.equal(m.source, 'archive');
  assert.equal(M.rated(m), true);
  assert.deepEqual(M.ratingChanges(m).map((c) => c.diff), [242, -63]);
  // The record says nothing of provisional: the seat's own flag stands.
  assert.deepEqual(M.seatRating(m, 0), { rating: 1742, provisional: true, diff: 242 });
});

test('casual, and games without a pool', () => {
  const { events: evs } = events(fx.p0);
  const m = M.feed(M.step(M.init(ROOM, { me: me(fx.p0) }), { type: 'open' }).model, evs).model;
  assert.equal(M.rated(m), false, 'a two-player game not rated is casual');
  assert.equal(M.seatRating(m, 0), null, 'guests have no rating');
  assert.equal(M.rated({ ...m, st: { ...m.st, watch: true } }), null, 'the computer against itself');
  const solo = fixture('2048');
  const s = M.feed(M.step(M.init(ROOM, { me: me(solo.p0) }), { type: 'open' }).model, events(solo.p0).events).model;
  if (M.seatCount(s) === 1) assert.equal(M.rated(s), null, 'a game alone has no pool');
  assert.equal(M.rated(M.init(ROOM)), null, 'nothing known yet');
});

test('ratings as written beside names, and where a name links', () => {
  assert.equal(ratingText(1523.4), '1523');
  assert.equal(ratingText(1500, true), '1500?');
  assert.equal(ratingText(undefined), '');
  assert.equal(ratingText(0), '');
  assert.equal(rated({ name: 'ana', rating: 1600, provisional: true }), '1600?');
  assert.equal(rated({ name: 'guest-0042', id: 'pX' }), '');
  assert.equal(profilePath({ id: 'pAbc', name: 'ana', rating: 1500 }), '/@/ana');
  assert.equal(profilePath({ id: 'pAbc', name: 'ana', account: true }), '/@/ana');
  assert.equal(profilePath({ id: 'pAbc', name: 'guest-0042' }), null, 'a guest has no profile');
  assert.equal(profilePath({ id: 'bot.Xy_9', name: 'Robô Zé', botAccount: true }), '/@/bot.Xy_9', 'a bot by its id');
  assert.equal(profilePath({ bot: 'facil', name: 'facil' }), null, 'the server\'s bot');
  assert.equal(profilePath({ id: 'pAbc', name: 'Ana Maria', rating: 1500 }), '/@/pAbc', 'a name that is not an account\'s: the id');
  assert.equal(profilePath(null), null);
});

test('the curve: every game from the left edge to the right, ratings inside the plot on nice ticks', () => {
  const pts = [1500, 1742, 1690, 1810, 1655].map((rating, i) => ({ rating, rd: 100, at: 1e12 + i * 1000, room: `r${i}` }));
  for (const width of [320, 700, 1366]) {
    const g = scale(pts, { width, height: 200 });
    const { plot } = g;
    assert.equal(g.dots.length, 5);
    assert.equal(g.dots[0].x, plot.x, 'the first game at the left');
    assert.ok(Math.abs(g.dots[4].x - (plot.x + plot.w)) < 0.11, 'the last at the right');
    assert.ok(g.dots.every((d, i) => i === 0 || d.x > g.dots[i - 1].x), 'games in order');
    assert.ok(g.dots.every((d) => d.y >= plot.y - 0.1 && d.y <= plot.y + plot.h + 0.1), 'inside the plot');
    assert.ok(g.dots[3].y < g.dots[0].y, 'a higher rating is higher up');
    assert.ok(plot.x + plot.w <= width && plot.y + plot.h <= 200);
    const vals = g.ticks.map((tk) => tk.value);
    assert.ok(vals[0] <= 1500 && vals[vals.length - 1] >= 1810, `ticks ${vals} cover the ratings`);
    const step = vals[1] - vals[0];
    assert.ok([1, 2, 5].some((k) => [1, 10, 100, 1000].some((p) => k * p === step)), `a nice step: ${step}`);
    assert.ok(vals.every((v) => v % step === 0));
    assert.ok(vals.length >= 3 && vals.length <= 8, `${vals.length} ticks`);
    assert.equal(g.path.split('L').length, 5);
  }
});

test('the curve of one game, of a flat rating, and of none', () => {
  const one = scale([{ rating: 1500 }], { width: 400, height: 200 });
  assert.equal(one.dots[0].x, one.plot.x + one.plot.w / 2, 'one game in the middle');
  const flat = scale([{ rating: 1500 }, { rating: 1500 }], { width: 400, height: 200 });
  assert.ok(flat.hi > flat.lo);
  assert.ok(flat.dots.every((d) => d.y > flat.plot.y && d.y < flat.plot.y + flat.plot.h), 'a flat line inside, not on an edge');
  assert.equal(scale([], { width: 400, height: 200 }), null);
  assert.equal(scale([{ rating: 1500 }], { width: 0, height: 200 }), null);
  assert.deepEqual([niceStep(310), niceStep(40), niceStep(0), niceStep(3000)], [100, 10, 1, 1000]);
});
