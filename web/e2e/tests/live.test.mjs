// The live-service behaviours of the page: a game against a bot to the end,
// a reload in the middle of a game, the server restarted (with Redis) in the
// middle of a game, names and chat shown as text, and the page's weight.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, launch, person, closeAll, noErrors, createRoom, waitStatus, whoseTurn, statusOf,
  act, waitFor, seqOf, shoot, card, DESKTOP,
} from '../lib.mjs';

let srv, browser;
before(async () => { srv = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await srv?.stop(); });

async function playOne(p, others) {
  const c = p.page.locator('[role=gridcell].legal').first();
  await act(p, others, () => c.click());
}

test('a game against a bot, to the end', async () => {
  const alice = await person(browser, srv.url, 'Alice');
  await createRoom(alice, 'orbito', { variant: '2', opponent: 'bot', level: 'normal', seat: 0 });
  await waitStatus(alice.page, 'playing');
  assert.match(await alice.page.locator('.players').textContent(), /bot normal/);
  // The first move by keyboard alone: Tab to the board's cursor cell, arrows
  // move it, Enter plays. Cells carry screen-reader labels.
  await whoseTurn([alice]);
  const cursor = alice.page.locator('[role=gridcell][tabindex="0"]');
  await cursor.focus();
  await alice.page.keyboard.press('ArrowUp');
  await alice.page.keyboard.press('ArrowLeft');
  const focused = await alice.page.evaluate(() => document.activeElement.getAttribute('aria-label'));
  assert.match(focused, /^[a-d][1-4], empty, legal$/);
  const before = await seqOf(alice.page);
  await alice.page.keyboard.press('Enter');
  await waitFor(async () => (await seqOf(alice.page)) > before, 'the keyboard move');
  assert.ok((await alice.page.locator('ol.moves > li').first().textContent()).endsWith(focused.split(',')[0]));
  while ((await statusOf(alice.page)) !== 'finished') {
    await whoseTurn([alice]).catch(async (e) => { if ((await statusOf(alice.page)) !== 'finished') throw e; });
    if ((await statusOf(alice.page)) === 'finished') break;
    await playOne(alice, []);
  }
  assert.match(await alice.page.locator('.status.result').textContent(), /win|Draw/);
  assert.ok((await alice.page.locator('ol.moves > li').count()) >= 2);
  noErrors([alice]);
  await closeAll(alice);
});

test('quick match pairs two players in a new room', async () => {
  const ann = await person(browser, srv.url, 'Ann');
  const ben = await person(browser, srv.url, 'Ben');
  await card(ann.page, 'morris').getByRole('button', { name: 'Quick match' }).click();
  assert.match(await ann.page.locator('.queue-status').textContent(), /Looking for an opponent/);
  await card(ben.page, 'morris').getByRole('button', { name: 'Quick match' }).click();
  for (const p of [ann, ben]) await p.page.waitForURL(/\/r\/[A-Za-z0-9_-]+$/);
  assert.equal(ann.page.url(), ben.page.url());
  for (const p of [ann, ben]) await waitStatus(p.page, 'playing');
  // Resigning takes two clicks; both pages then show the result and why.
  await ann.page.getByRole('button', { name: 'Resign' }).click();
  await ann.page.getByRole('button', { name: 'Really resign?' }).click();
  for (const p of [ann, ben]) await waitStatus(p.page, 'finished');
  assert.match(await ben.page.locator('.status.result').textContent(), /You win — resignation/);
  assert.match(await ann.page.locator('.status.result').textContent(), /Ben wins — resignation/);
  noErrors([ann, ben]);
  await closeAll(ann, ben);
});

test('a player reloads mid-game and continues', async () => {
  const alice = await person(browser, srv.url, 'Alice');
  const room = await createRoom(alice, 'orbito', { variant: '2' });
  const bob = await person(browser, srv.url, 'Bob', { path: `/r/${room}` });
  await waitStatus(alice.page, 'playing');
  for (let i = 0; i < 3; i++) { const p = await whoseTurn([alice, bob]); await playOne(p, [alice, bob].filter((x) => x !== p)); }
  const seq = await seqOf(alice.page);
  await bob.page.reload();
  await waitFor(async () => (await seqOf(bob.page)) >= seq, 'the reloaded page to show the game');
  assert.match(await bob.page.locator('.players').textContent(), /you/);
  assert.equal(await bob.page.locator('#name-dialog[open]').count(), 0, 'the name is remembered');
  assert.equal(await bob.page.locator('ol.moves > li').count(), 3, 'the move list survives the reload');
  while ((await statusOf(alice.page)) !== 'finished') {
    const p = await whoseTurn([alice, bob]);
    await playOne(p, [alice, bob].filter((x) => x !== p));
  }
  await waitStatus(bob.page, 'finished');
  noErrors([alice, bob]);
  await closeAll(alice, bob);
});

test('the server restarts mid-game (Redis) and the pages recover by themselves', async () => {
  assert.ok(process.env.REDIS_URL, 'REDIS_URL must name a Redis (web/e2e/run.sh starts one)');
  const rs = await startServer({ redis: process.env.REDIS_URL });
  try {
    const alice = await person(browser, rs.url, 'Alice');
    const room = await createRoom(alice, 'orbito', { variant: '3' });
    const bob = await person(browser, rs.url, 'Bob', { path: `/r/${room}` });
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

test('names and chat are text, never HTML', async () => {
  const evil = '<img src=x onerror=alert(1)>';
  const mallory = await person(browser, srv.url, evil);
  assert.equal(await mallory.page.locator('#me-name').textContent(), `Playing as ${evil}`);
  const room = await createRoom(mallory, 'morris');
  const bob = await person(browser, srv.url, 'Bob', { path: `/r/${room}` });
  const lobby = await person(browser, srv.url, 'Lou');
  await waitStatus(bob.page, 'playing');
  await mallory.page.locator('.chat-form input').fill('<script>alert(2)</script><b>bold</b>');
  await mallory.page.locator('.chat-form button').click();
  const line = bob.page.locator('.chat-list li').last();
  await line.waitFor();
  assert.match(await line.textContent(), /<script>alert\(2\)<\/script><b>bold<\/b>/);
  assert.ok((await bob.page.locator('.pname').allTextContents()).includes(evil));
  await waitFor(async () => (await lobby.page.locator('.live-table .players-cell').allTextContents()).some((t) => t.includes(evil)), 'the lobby to list the name as text');
  await shoot(lobby.page, 'lobby');
  for (const p of [mallory, bob, lobby]) {
    assert.equal(await p.page.locator('main img, main script, .chat-list b:not(.from)').count(), 0, 'no element was made from the text');
  }
  noErrors([mallory, bob, lobby]); // a dialog (alert) would be recorded as an error
  await closeAll(mallory, bob, lobby);
});

test('the page loads under 200 KB, with a CSP that blocks inline script', async () => {
  const ctx = await browser.newContext({ viewport: DESKTOP });
  const page = await ctx.newPage();
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  const resp = await page.goto(srv.url + '/');
  const csp = resp.headers()['content-security-policy'];
  assert.match(csp, /script-src 'self'/);
  assert.doesNotMatch(csp, /unsafe-inline/);
  await page.locator('#name-dialog[open]').waitFor();
  await page.waitForLoadState('networkidle');
  const bytes = await page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0];
    return performance.getEntriesByType('resource').reduce((a, r) => a + (r.transferSize || r.encodedBodySize), nav.transferSize || nav.encodedBodySize);
  });
  console.log(`first load transferred ${bytes} bytes`);
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
