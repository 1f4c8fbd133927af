// The live-service behaviours of the page: a game against a bot to the end
// (the first move by keyboard alone), quick match, the server restarted
// (with Redis) in the middle of a game, names and chat shown as text, and
// the page's weight.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, launch, person, closeAll, noErrors, createRoom, takeSeat, seatTwo, waitStatus, whoseTurn, statusOf,
  act, waitFor, seqOf, card, DESKTOP,
} from '../lib.mjs';

let srv, browser;
before(async () => { srv = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await srv?.stop(); });

async function playOne(p, others) {
  const c = p.page.locator('[role=gridcell].legal').first();
  await act(p, others, () => c.click());
}

test('a game against a bot, to the end, the first move by keyboard alone', async () => {
  const alice = await person(browser, srv.url, 'Alice');
  await createRoom(alice, 'orbito', { variant: '2', opponent: 'bot', level: 'normal', seat: 0 });
  await waitStatus(alice.page, 'playing');
  assert.match(await alice.page.locator('.players').textContent(), /Normal computer/);
  // Tab from the link before the board to the board's cursor cell; the
  // arrows move it, Enter plays. Cells carry screen-reader labels.
  await whoseTurn([alice]);
  await alice.page.locator('.back').focus();
  await alice.page.keyboard.press('Tab');
  assert.equal(await alice.page.evaluate(() => document.activeElement.getAttribute('role')), 'gridcell');
  await alice.page.keyboard.press('ArrowUp');
  await alice.page.keyboard.press('ArrowLeft');
  const focused = await alice.page.evaluate(() => document.activeElement.getAttribute('aria-label'));
  assert.match(focused, /^[a-d][1-4], empty, legal$/);
  const before = await seqOf(alice.page);
  await alice.page.keyboard.press('Enter');
  await waitFor(async () => (await seqOf(alice.page)) > before, 'the keyboard move');
  assert.equal(await alice.page.locator('.moves .mv[data-ply="1"]').getAttribute('data-move'), focused.split(',')[0]);
  while ((await statusOf(alice.page)) !== 'finished') {
    await whoseTurn([alice]).catch(async (e) => { if ((await statusOf(alice.page)) !== 'finished') throw e; });
    if ((await statusOf(alice.page)) === 'finished') break;
    await playOne(alice, []);
  }
  assert.match(await alice.page.locator('.status.result').textContent(), /You win|wins|Draw/);
  assert.ok((await alice.page.locator('.moves .mv[data-ply]').count()) >= 2);
  noErrors([alice]);
  await closeAll(alice);
});

test('quick match pairs two players in a new room', async () => {
  const ann = await person(browser, srv.url, 'Ann');
  const ben = await person(browser, srv.url, 'Ben');
  await card(ann.page, 'morris').locator('[data-action="quick"]').click();
  assert.match(await ann.page.locator('.queue-status').textContent(), /Looking for an opponent/);
  await card(ben.page, 'morris').locator('[data-action="quick"]').click();
  for (const p of [ann, ben]) await p.page.waitForURL(/\/r\/[A-Za-z0-9_-]+$/);
  assert.equal(ann.page.url(), ben.page.url());
  for (const p of [ann, ben]) await waitStatus(p.page, 'playing');
  // Resigning takes two clicks; both pages then show the result and who resigned.
  await ann.page.getByRole('button', { name: 'Resign' }).click();
  await ann.page.getByRole('button', { name: 'Really resign?' }).click();
  for (const p of [ann, ben]) await waitStatus(p.page, 'finished');
  const annSeat = await ann.page.locator('.player:has(.tag.you) .seat-name').textContent();
  const benSeat = await ben.page.locator('.player:has(.tag.you) .seat-name').textContent();
  // A resignation prints no score; it names who resigned.
  assert.equal(await ben.page.locator('.status.result').textContent(), `You win — Ann (${annSeat}) resigned`);
  assert.equal(await ann.page.locator('.status.result').textContent(), `Ben (${benSeat}) wins — Ann (${annSeat}) resigned`);
  noErrors([ann, ben]);
  await closeAll(ann, ben);
});

test('the server restarts mid-game (Redis) and the pages recover by themselves', async () => {
  assert.ok(process.env.REDIS_URL, 'REDIS_URL must name a Redis (web/e2e/run.sh starts one)');
  const rs = await startServer({ redis: process.env.REDIS_URL });
  try {
    const { alice, bob, room } = await seatTwo(browser, rs.url, 'orbito', { variant: '3' });
    const wendy = await person(browser, rs.url, 'Wendy', { path: `/r/${room}?watch=1` });
    const all = [alice, bob, wendy];
    await waitStatus(alice.page, 'playing');
    for (let i = 0; i < 4; i++) { const p = await whoseTurn([alice, bob]); await playOne(p, all.filter((x) => x !== p)); }
    const board = await wendy.page.locator('.board-host svg').getAttribute('aria-label');
    const labels = async (pg) => pg.locator('[role=gridcell]').evaluateAll((cs) => cs.map((c) => c.getAttribute('aria-label')).join('|'));
    const before = await labels(wendy.page);
    await rs.stop('SIGKILL');
    for (const p of all) await p.page.locator('#conn-bar').waitFor({ state: 'visible' });
    await rs.start();
    for (const p of all) await p.page.locator('#conn-bar').waitFor({ state: 'hidden', timeout: 20000 });
    await waitFor(async () => (await labels(wendy.page)) === before, 'the board after the restart');
    assert.equal(await wendy.page.locator('.board-host svg').getAttribute('aria-label'), board);
    while ((await statusOf(alice.page)) !== 'finished') {
      const p = await whoseTurn([alice, bob], 20000);
      await playOne(p, all.filter((x) => x !== p));
    }
    await waitStatus(wendy.page, 'finished');
    // While the server was down the browser itself logs the refused
    // connections; nothing else may show up.
    noErrors(all, [/WebSocket connection to .* failed/, /ERR_CONNECTION_REFUSED/, /Failed to load resource/]);
    await closeAll(...all);
  } finally {
    await rs.stop();
  }
});

test('names and chat are text, never HTML; a name can change at any time', async () => {
  const evil = '<img src=x onerror=alert(1)>';
  const mallory = await person(browser, srv.url, null);
  // The header's name opens the dialog; the new name shows at once.
  await mallory.page.locator('#me').click();
  await mallory.page.locator('#name-input').fill(evil);
  await mallory.page.locator('#name-form button[type=submit]').click();
  await waitFor(async () => (await mallory.page.locator('#me-name').textContent()) === evil, 'the new name in the header');
  mallory.named = true;
  const room = await createRoom(mallory, 'morris');
  const bob = await person(browser, srv.url, 'Bob', { path: `/r/${room}` });
  await takeSeat(bob);
  const lobby = await person(browser, srv.url, 'Lou');
  await waitStatus(bob.page, 'playing');
  await mallory.page.locator('.chat-form input').fill('<script>alert(2)</script><b>bold</b>');
  await mallory.page.locator('.chat-form button').click();
  const line = bob.page.locator('.chat-list li').last();
  await line.waitFor();
  assert.match(await line.textContent(), /<script>alert\(2\)<\/script><b>bold<\/b>/);
  assert.ok((await bob.page.locator('.pname').allTextContents()).includes(evil));
  await waitFor(async () => (await lobby.page.locator('.live-card .players-cell').allTextContents()).some((t) => t.includes(evil)), 'the lobby to list the name as text');
  for (const p of [mallory, bob, lobby]) {
    assert.equal(await p.page.locator('main img, main script, .chat-list b:not(.from)').count(), 0, 'no element was made from the text');
  }
  // Renamed again: chat lines carry the new name at once.
  await mallory.page.locator('#me').click();
  await mallory.page.locator('#name-input').fill('Mal');
  await mallory.page.locator('#name-form button[type=submit]').click();
  await waitFor(async () => (await mallory.page.locator('#me-name').textContent()) === 'Mal', 'the second name');
  await mallory.page.locator('.chat-form input').fill('hi');
  await mallory.page.locator('.chat-form button').click();
  await bob.page.locator('.chat-list li', { hasText: 'Mal: hi' }).waitFor();
  noErrors([mallory, bob, lobby]); // a dialog (alert) would be recorded as an error
  await closeAll(mallory, bob, lobby);
});

test('the page loads under 200 KB with its sounds, with a CSP that blocks inline script', async () => {
  const ctx = await browser.newContext({ viewport: DESKTOP });
  const page = await ctx.newPage();
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  const resp = await page.goto(srv.url + '/');
  const csp = resp.headers()['content-security-policy'];
  assert.match(csp, /script-src 'self'/);
  assert.doesNotMatch(csp, /unsafe-inline/);
  await page.locator('.game-card').first().waitFor();
  await page.waitForLoadState('networkidle');
  const { bytes, names } = await page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0];
    const res = performance.getEntriesByType('resource');
    return {
      bytes: res.reduce((a, r) => a + (r.transferSize || r.encodedBodySize), nav.transferSize || nav.encodedBodySize),
      names: res.map((r) => new URL(r.name).pathname),
    };
  });
  console.log(`first load transferred ${bytes} bytes in ${names.length + 1} requests`);
  for (const s of ['move', 'capture', 'turn', 'lowtime', 'end']) assert.ok(names.includes(`/assets/sounds/${s}.wav`), `${s}.wav is not part of the first load`);
  assert.ok(names.some((n) => /^\/assets\/i18n\/\w+\.json$/.test(n)), 'no message catalogue loaded');
  assert.ok(bytes < 200_000, `first load is ${bytes} bytes`);
  assert.deepEqual(errors, []);
  // An injected inline script does not run.
  const ran = await page.evaluate(() => {
    const s = document.createElement('script');
    s.textContent = 'window.__inline = 1';
    document.body.append(s);
    return window.__inline === 1;
  });
  assert.equal(ran, false);
  await ctx.close();
});
