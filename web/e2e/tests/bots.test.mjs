// Bots online (issue 17): a bot account whose program is connected through
// the bot API is listed in the lobby; a person starts a game against it
// from there, in either language, on a phone and a desktop, and sees the
// board, the bot flagged as a bot, and the bot's moves.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, launch, person, closeAll, noErrors, waitStatus, waitFor, boardsOnScreen, setLang, shoot, cell,
  PHONE, DESKTOP, pageFetch,
} from '../lib.mjs';

let srv, browser;
before(async () => { srv = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await srv?.stop(); });

// lines reads an NDJSON answer, calling fn for each object (empty lines are
// the heartbeat).
async function lines(resp, fn) {
  const dec = new TextDecoder();
  let buf = '';
  for await (const chunk of resp.body) {
    buf += dec.decode(chunk, { stream: true });
    let i;
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i).trim();
      buf = buf.slice(i + 1);
      if (line) await fn(JSON.parse(line));
    }
  }
}

// runBot is an outside bot over plain HTTP: it plays the first legal move
// whenever it is its turn, in every game it is told of.
function runBot(base, id, token, stop) {
  const auth = { Authorization: `Bearer ${token}` };
  const play = async (room) => {
    const resp = await fetch(`${base}/api/bot/game/${room}/stream`, { headers: auth, signal: stop });
    await lines(resp, async (st) => {
      const me = st.players.find((p) => p.id === id);
      if (st.status !== 'playing' || !me || st.turn !== me.seat || !st.legal.length) return;
      await fetch(`${base}/api/bot/game/${room}/move/${encodeURIComponent(st.legal[0])}`, { method: 'POST', headers: auth, signal: stop });
    });
  };
  return (async () => {
    const resp = await fetch(`${base}/api/bot/stream/event`, { headers: auth, signal: stop });
    assert.equal(resp.status, 200);
    await lines(resp, (ev) => { if (ev.type === 'gameStart') play(ev.room).catch(() => {}); });
  })().catch(() => {});
}

test('a person plays a bot that is online, from the lobby', async () => {
  const owner = await person(browser, srv.url, 'Ana');
  // The page registers it as the page is known: its session cookie.
  const reg = await pageFetch(owner, 'POST', '/api/bots', { name: 'Robozinho' });
  assert.equal(reg.status, 201);
  const bot = reg.body;
  assert.match(bot.id, /^bot\./);
  const stop = new AbortController();
  runBot(srv.url, bot.id, bot.token, stop.signal);

  const bia = await person(browser, srv.url, 'Bia', { viewport: PHONE });
  const item = bia.page.locator(`.bot-card[data-bot="${bot.id}"]`);
  await item.waitFor({ timeout: 15000 });
  assert.match(await item.textContent(), /Robozinho.*bot/);
  await setLang(bia.page, 'pt');
  assert.match(await item.textContent(), /Robozinho.*robô/);
  await shoot(bia.page, 'lobby-bots', { boards: false });
  await setLang(bia.page, 'en');

  // Every two-seat variant of every game is offered (issue 29), and a clock.
  const offered = await item.locator('select[name=game] option').evaluateAll((os) => os.map((o) => o.value));
  const catalog = await (await fetch(`${srv.url}/api/games`)).json();
  const twoSeats = (catalog.games || catalog).flatMap((g) => g.variants.filter((v) => v.seats === 2).map((v) => `${g.id}/${v.id}`));
  assert.deepEqual(offered.slice().sort(), twoSeats.slice().sort());
  assert.ok(offered.includes('go/19') && offered.includes('queens/grande') && offered.includes('orbito/5'), offered.join(' '));
  const clocks = item.locator('select[name=clock]');
  await item.locator('select[name=game]').selectOption('2048/race');
  assert.ok(await clocks.isHidden(), 'no clock where both move at once');
  await item.locator('select[name=game]').selectOption('morris/3');
  await clocks.selectOption('180+2');
  assert.ok(await clocks.isVisible());
  await item.locator('[data-action=challenge]').click();
  await bia.page.waitForURL(/\/r\/[A-Za-z0-9_-]+$/);
  await waitStatus(bia.page, 'playing');
  assert.match(await bia.page.locator('.players').textContent(), /Robozinho \(bot\)/);
  assert.deepEqual(await bia.page.locator('.player .clock').allTextContents(), ['3:00', '3:00'], 'the clock chosen');
  for (const size of [PHONE, DESKTOP]) {
    await bia.page.setViewportSize(size);
    await boardsOnScreen(bia.page);
  }
  await bia.page.setViewportSize(PHONE);

  // Bia takes the far corners, the bot the first free cells: two moves of
  // the bot's are seen on her board.
  const botMoves = () => bia.page.locator('.moves .mv[data-ply]').evaluateAll((els) => els.map((e) => e.dataset.move).filter((m) => m === 'a1' || m === 'b1').length);
  for (const mv of ['c3', 'b3']) {
    await waitFor(async () => (await bia.page.locator('.board-host.my-turn').count()) > 0, 'Bia\'s turn', 15000);
    await cell(bia.page, mv).click();
  }
  await waitFor(async () => (await botMoves()) === 2, 'the bot\'s two moves', 15000);
  await setLang(bia.page, 'pt');
  assert.match(await bia.page.locator('.players').textContent(), /Robozinho \(robô\)/);
  await shoot(bia.page, 'room-bot');
  stop.abort();
  noErrors([owner, bia]);
  await closeAll(owner, bia);
});
