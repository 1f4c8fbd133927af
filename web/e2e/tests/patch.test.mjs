// The page speaks the compact protocol: it asks for room.patch in its hello
// and builds each state from the last one and a patch (web/static/js/ws.js,
// applyPatch, the port of protocol.ApplyPatch), and takes spectators and
// connections from room.presence. Two players and a spectator play go on
// patches; the boards are on screen at phone and desktop sizes in both
// languages; the state the spectator's page built equals the full state a
// newcomer gets, and both pages show the same board. The lobby's small live
// board follows the room without being counted.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, launch, person, closeAll, noErrors, createRoom, takeSeat, waitStatus, whoseTurn, act, waitFor,
  seqOf, boardsOnScreen, setLang, PHONE, DESKTOP, LANGS,
} from '../lib.mjs';

let srv, browser;
before(async () => { srv = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await srv?.stop(); });

// record keeps every frame the page's WebSocket receives, as the server
// sent it, in window.__frames.
function record() {
  const W = window.WebSocket;
  window.__frames = [];
  window.WebSocket = class extends W {
    constructor(...a) {
      super(...a);
      this.addEventListener('message', (e) => { try { window.__frames.push(JSON.parse(e.data)); } catch { /* not JSON */ } });
    }
  };
}
const frames = (p) => p.page.evaluate(() => window.__frames);
const cells = (p) => p.page.locator('.board-host [role=gridcell]').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));

test('a go game on room.patch: on screen, and the state built equals a full state', async () => {
  const alice = await person(browser, srv.url, 'Alice', { init: record });
  const room = await createRoom(alice, 'go', { variant: '9' });
  const bob = await person(browser, srv.url, 'Bob', { path: `/r/${room}`, viewport: PHONE, init: record });
  await takeSeat(bob);
  const wendy = await person(browser, srv.url, 'Wendy', { path: `/r/${room}`, viewport: PHONE, init: record });
  for (const p of [alice, bob, wendy]) await waitStatus(p.page, 'playing');

  // A lobby visitor's small live board of the room: a watcher.
  const lia = await person(browser, srv.url, 'Lia', { init: record });
  await lia.page.locator(`.live-card[data-room="${room}"] svg.mini`).waitFor();
  await waitFor(async () => (await frames(lia)).some((f) => f.type === 'room.joined' && f.room === room), 'the lobby to follow the room');

  const people = [alice, bob, wendy];
  for (let i = 0; i < 8; i++) {
    const p = await whoseTurn([alice, bob]);
    await act(p, people.filter((x) => x !== p), (page) => page.locator('.board-host [role=gridcell].legal').first().click());
  }
  const seq = await seqOf(wendy.page);

  for (const p of people) {
    const got = await frames(p);
    const welcome = got.find((f) => f.type === 'welcome');
    assert.deepEqual(welcome.features, ['patch'], `${p.name}'s page asked for patches`);
    const patches = got.filter((f) => f.type === 'room.patch' && f.room === room).length;
    assert.ok(patches >= 8, `${p.name}'s page got ${patches} room.patch frames for 8 moves`);
    assert.equal(await seqOf(p.page), seq, `${p.name}'s page is at seq ${seq}`);
  }
  assert.equal(await wendy.page.locator('.moves .mv[data-ply]').count(), 8, 'the spectator lists the 8 moves');

  // A newcomer's full state, and the state Wendy's page built from
  // patches and presence, once Wendy has the newcomer counted.
  const vera = await person(browser, srv.url, 'Vera', { path: `/r/${room}`, init: record });
  await waitStatus(vera.page, 'playing');
  const full = (await frames(vera)).find((f) => f.type === 'room.state' && f.room === room);
  assert.equal(full.seq, seq);
  assert.equal(full.spectators, 2, 'Wendy and Vera watch; the lobby is not counted');
  await waitFor(async () => /2 watching/.test(await wendy.page.locator('.spectators').textContent()), 'Wendy to count Vera');
  const built = await wendy.page.evaluate(async ({ room }) => {
    const { applyPatch, applyPresence } = await import('/assets/js/ws.js');
    let st = null;
    for (const f of window.__frames) {
      if (f.room !== room) continue;
      if (f.type === 'room.state') { const { moves, chat, ...rest } = f; st = rest; }
      else if (f.type === 'room.patch') { st = applyPatch(st, f); if (!st) return null; }
      else if (f.type === 'room.presence') st = applyPresence(st, f);
    }
    return st;
  }, { room });
  assert.ok(built, `every patch applied to the state before it: ${JSON.stringify((await frames(wendy)).filter((f) => f.room === room).map((f) => [f.type, f.seq, f.base]))}`);
  const strip = ({ legal, legalBySeat, moves, chat, type, ...rest }) => rest;
  assert.deepEqual(strip(built), strip(full), 'the state built from patches is the full state');
  assert.deepEqual(await cells(wendy), await cells(vera), 'both pages show the same board');

  // What a person sees: the patched boards on screen, phone and desktop,
  // in both languages.
  for (const p of [wendy, bob]) {
    for (const lang of LANGS) {
      await setLang(p.page, lang);
      for (const size of [PHONE, DESKTOP]) {
        await p.page.setViewportSize(size);
        await boardsOnScreen(p.page, `${p.name}'s patched board (${lang}, ${size.width}x${size.height})`);
      }
    }
  }
  noErrors([alice, bob, wendy, vera, lia]);
  await closeAll(alice, bob, wendy, vera, lia);
});
