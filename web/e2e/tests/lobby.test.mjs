// The lobby with more rooms than a lobby frame carries (issue 24): a page
// of live games with the counts of all of them, "more" pages through GET
// /api/rooms, your own games listed apart; and live games are live (issue
// 29): a player who left is marked away on the card, and a game nobody is
// in leaves "Live games" and says "adjourned" to whoever opens it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, launch, person, socketsPage, closeAll, noErrors, createRoom, seatTwo, waitStatus, waitFor, shoot, assertContrast, PHONE,
} from '../lib.mjs';

let srv, browser;
before(async () => { srv = await startServer({ args: ['-guests-per-minute', '0'] }); browser = await launch(); });
after(async () => { await browser?.close(); await srv?.stop(); });

// makeRooms opens a page whose own WebSockets, one guest each, make rooms
// and stay in them while the page is open: `waiting` rooms with a free
// seat, `playing` rooms with both seats taken, the first of which
// `spectators` more guests watch. It returns the context and the ids.
async function makeRooms({ waiting, playing, spectators = 0 }) {
  const { context: ctx, page } = await socketsPage(browser, srv.url);
  const ids = await page.evaluate(async ({ waiting, playing, spectators }) => {
    let n = 0;
    const client = () => new Promise((resolve, reject) => {
      const ws = new WebSocket(`ws://${location.host}/ws`);
      const wait = new Map();
      ws.onmessage = (e) => {
        const m = JSON.parse(e.data);
        const key = m.type === 'welcome' ? 'hello' : m.id;
        if (key != null && wait.has(key)) { wait.get(key)(m); wait.delete(key); }
      };
      ws.onerror = reject;
      const ask = (msg) => new Promise((res) => { const id = msg.type === 'hello' ? 'hello' : `q${n++}`; wait.set(id, res); ws.send(JSON.stringify({ ...msg, id })); });
      ws.onopen = async () => { await ask({ type: 'hello', name: `guest ${n}` }); resolve({ ws, ask }); };
    });
    (window.keep ||= []);
    const out = { waiting: [], playing: [] };
    let host = null, made = 0;
    for (let i = 0; i < waiting; i++) {
      if (!host || made === 15) { host = await client(); window.keep.push(host); made = 0; }
      const m = await host.ask({ type: 'room.create', game: 'morris', variant: '3', opponent: 'human' });
      out.waiting.push(m.room); made++;
    }
    for (let i = 0; i < playing; i++) {
      const a = await client(), b = await client();
      window.keep.push(a, b);
      const m = await a.ask({ type: 'room.create', game: 'orbito', variant: '2', opponent: 'human' });
      await b.ask({ type: 'room.join', room: m.room, as: 'player' });
      out.playing.push(m.room);
    }
    for (let i = 0; i < spectators; i++) {
      const s = await client();
      window.keep.push(s);
      await s.ask({ type: 'room.join', room: out.playing[0], as: 'spectator' });
    }
    return out;
  }, { waiting, playing, spectators });
  return { ctx, ...ids };
}

const cards = (page) => page.locator('.live .live-card');

test('a lobby of many rooms: a page of them, the counts of all, more on demand, your own games apart', async () => {
  const made = await makeRooms({ waiting: 26, playing: 3, spectators: 2 });
  const lou = await person(browser, srv.url, 'Lou');
  try {
    // The header counts the live games; the line under the cards the rest.
    await waitFor(async () => (await lou.page.locator('#live-h .count').textContent()) === '(3)', 'the live games counted');
    assert.match(await lou.page.locator('.live-counts').textContent(), /26 waiting for a player/);
    // The most watched live game first, then the other live games, then open seats.
    await waitFor(async () => (await cards(lou.page).first().getAttribute('data-room')) === made.playing[0], 'the watched game first');
    assert.equal(await cards(lou.page).count(), 6);
    const all = lou.page.locator('.live-more');
    assert.equal(await all.textContent(), 'Show all 29');
    await shoot(lou.page, 'lobby-many', { boards: false });
    await all.click();
    // The lobby frame carried a page of 20; "more" fetches the rest.
    const more = lou.page.locator('.live-next');
    await waitFor(async () => (await cards(lou.page).count()) >= 20, 'the page of rooms');
    for (let clicks = 0; (await cards(lou.page).count()) < 29; clicks++) {
      assert.ok(clicks < 3, 'three pages of "more" and still rooms missing');
      await waitFor(async () => !(await more.isHidden()) && !(await more.isDisabled()), '"More games"');
      const had = await cards(lou.page).count();
      await more.click();
      await waitFor(async () => (await cards(lou.page).count()) > had, 'more rooms after "More games"');
    }
    const shown = await cards(lou.page).evaluateAll((cs) => cs.map((c) => c.dataset.room));
    assert.equal(new Set(shown).size, 29, 'a room shown twice');
    for (const id of [...made.playing, ...made.waiting]) assert.ok(shown.includes(id), `room ${id} never shown`);
    assert.ok(await more.isHidden(), '"More games" left when every room is shown');

    // Lou's own rooms: a private invitation (never among the live games)
    // is under "Your games".
    const room = await createRoom(lou, 'orbito', { variant: '2' });
    await lou.page.goto(`${srv.url}/`);
    const mine = lou.page.locator(`.open-games li[data-room="${room}"]`);
    await mine.waitFor();
    assert.match(await mine.textContent(), /Orbito.*waiting for a player/);
    // The list is drawn again with each lobby frame: look until it stands.
    await waitFor(async () => {
      const box = await mine.boundingBox();
      return box && box.width > 0 && box.height > 0 && box.y >= 0 && box.y + box.height <= lou.page.viewportSize().height;
    }, 'your game on screen');
    noErrors([lou]);
  } finally {
    await closeAll(lou);
    await made.ctx.close();
  }
});

test('a player who left is marked away on the card; a game nobody is in leaves live games and shows adjourned', async () => {
  // A server of its own: the games of the test before are adjourned too.
  const srv = await startServer({ args: ['-adjourn-after', '2s'] });
  const { alice, bob, room } = await seatTwo(browser, srv.url, 'orbito', { variant: '2' });
  const lou = await person(browser, srv.url, 'Lou', { viewport: PHONE });
  try {
    await waitStatus(alice.page, 'playing');
    const live = lou.page.locator(`.live .live-card[data-room="${room}"]`);
    await live.waitFor();
    assert.equal(await live.locator('.away-mark').count(), 0, 'nobody is away yet');
    // Bob closes his page: his name on the card is marked away.
    await bob.context.close();
    const mark = live.locator('.away-mark');
    await mark.waitFor();
    assert.equal(await mark.textContent(), 'away');
    assert.match(await live.locator('.players-cell').textContent(), /Alice – Bob away/);
    await mark.scrollIntoViewIfNeeded();
    const box = await mark.boundingBox();
    const vp = lou.page.viewportSize();
    assert.ok(box && box.width > 0 && box.height > 0 && box.x >= 0 && box.x + box.width <= vp.width && box.y >= 0 && box.y + box.height <= vp.height,
      `the away mark is on screen: ${JSON.stringify(box)}`);
    await assertContrast(lou.page, 'the lobby with a player away');
    await shoot(lou.page, 'lobby-away', { boards: false });

    // Alice closes hers too: within -adjourn-after (2 s here, 30 s by
    // default: no sleep of a minute) the game leaves the live games and is
    // counted adjourned.
    await alice.context.close();
    await live.waitFor({ state: 'detached', timeout: 15000 });
    await waitFor(async () => /^1 adjourned/.test(await lou.page.locator('.live-counts').textContent()), 'the adjourned game counted');
    // Whoever opens it reads that it is adjourned.
    const vic = await person(browser, srv.url, 'Vic', { path: `/r/${room}?watch=1` });
    await waitFor(async () => (await vic.page.locator('.status').textContent()) === 'Adjourned: none of the players is here', 'the room to say adjourned');
    await assertContrast(vic.page, 'an adjourned room');
    await shoot(vic.page, 'room-adjourned');
    noErrors([lou, vic]);
    await closeAll(vic);
  } finally {
    await closeAll(lou, alice, bob);
    await srv.stop();
  }
});
