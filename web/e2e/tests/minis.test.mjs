// The lobby's small live boards, one for each of the five games, each
// drawn by its game's own module (web/static/js/games/<g>.js, mini): every
// game has a room being played from a setup, and a visitor's lobby shows
// each one's board with its pieces, on screen at phone and desktop sizes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, person, socketsPage, closeAll, noErrors, shoot, waitFor, PHONE, DESKTOP } from '../lib.mjs';

let srv, browser;
before(async () => { srv = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await srv?.stop(); });

// The positions (docs/protocol.md, "Setups") and what their small boards
// show: the mini's class and how many pieces (2048: tiles, on both boards).
const GAMES = [
  { game: 'orbito', variant: '2', cls: 'morbito', pieces: 10,
    setup: { black: ['a3', 'a4', 'b1', 'b3', 'c3'], white: ['c1', 'c2', 'd2', 'd3', 'd4'], toMove: 'black' } },
  { game: 'morris', variant: '3', cls: 'mmorris', pieces: 6, setup: { board: [[1, 0, -1], [0, 1, -1], [1, -1, 0]], toMove: 'X' } },
  { game: 'go', variant: '9', cls: 'mgo', pieces: 4, setup: { black: ['E4', 'E5'], white: ['C1', 'C2'], toMove: 'black' } },
  { game: '2048', variant: 'race', cls: 'm2048', pieces: 4, setup: { board: [[0, 2, 0, 0], [0, 0, 0, 0], [0, 2, 0, 0], [0, 0, 0, 0]], score: 0, seed: 42 } },
  { game: 'queens', variant: 'tradicional', cls: 'mqueens', pieces: 2,
    setup: { placed: { '3,0': 'D', '6,6': 'R' }, owners: { '3,0': 1 }, hands: { primeiro: ['D', 'R'], segundo: ['D', 'T'] }, toMove: 'primeiro' } },
];

test('the lobby draws a small live board of every game', async () => {
  // Two people in each room, over sockets the host's page opens (and keeps).
  const host = await socketsPage(browser, srv.url);
  const rooms = await host.page.evaluate(async (games) => {
    const say = (ws, msg) => ws.send(JSON.stringify(msg));
    const open = () => new Promise((resolve, reject) => {
      const ws = new WebSocket(`ws://${location.host}/ws`);
      ws.onopen = () => say(ws, { type: 'hello' });
      ws.onmessage = (e) => { if (JSON.parse(e.data).type === 'welcome') resolve(ws); };
      ws.onerror = reject;
    });
    const answer = (ws, test) => new Promise((resolve) => {
      ws.addEventListener('message', (e) => { const m = JSON.parse(e.data); if (test(m)) resolve(m); });
    });
    window.__keep = [];
    const out = [];
    for (const g of games) {
      const a = await open(), b = await open();
      window.__keep.push(a, b);
      const joined = answer(a, (m) => m.type === 'room.joined' || m.type === 'error');
      say(a, { type: 'room.create', game: g.game, variant: g.variant, opponent: 'human', setup: g.setup });
      const j = await joined;
      if (j.type === 'error') throw new Error(`${g.game}: ${j.message}`);
      const playing = answer(b, (m) => m.type === 'room.state' && m.status === 'playing');
      say(b, { type: 'room.join', room: j.room, as: 'player' });
      await playing;
      out.push(j.room);
    }
    return out;
  }, GAMES);

  const v = await person(browser, srv.url, null, { viewport: PHONE });
  for (const [i, g] of GAMES.entries()) {
    const mini = v.page.locator(`.live-card[data-room="${rooms[i]}"] svg.mini`);
    await mini.waitFor();
    assert.match(await mini.getAttribute('class'), new RegExp(`\\b${g.cls}\\b`), `${g.game}'s small board`);
    const pieces = mini.locator(g.game === '2048' ? 'rect.m-t' : 'circle.m-x, circle.m-o');
    await waitFor(async () => (await pieces.count()) === g.pieces, `${g.game}'s small board to show ${g.pieces} pieces`);
    if (g.game === 'queens') assert.equal(await mini.locator('circle.m-o').count(), 1, 'the queen is the second seat\'s (owners)');
    for (const size of [PHONE, DESKTOP]) {
      await v.page.setViewportSize(size);
      // A lobby push may redraw the card between two calls (a null box
      // for the node it replaced): measure again until the new one is in.
      let box = null;
      await waitFor(async () => {
        await mini.scrollIntoViewIfNeeded();
        box = await mini.boundingBox();
        return box && box.width > 40 && box.height > 40;
      }, `${g.game}'s small board larger than 40x40 at ${size.width}`);
      assert.ok(box.x >= 0 && box.x + box.width <= size.width, `${g.game}'s small board runs off a ${size.width}px screen`);
    }
    await v.page.setViewportSize(PHONE);
  }
  await shoot(v.page, 'lobby-minis', { boards: false });
  noErrors([v]);
  await closeAll(host, v);
});
