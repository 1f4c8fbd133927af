// What the page shows from the server's records (docs/protocol.md): the
// whole game's positions from GET /api/records/<room>?positions=1, the chat
// of room.state (and of the record) for a late visitor, the downloads, and
// the chat a rematch room keeps.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, launch, person, closeAll, noErrors, seatTwo, playMoves, waitStatus, cell, seen, shoot, PHONE,
} from '../lib.mjs';

let srv, browser;
before(async () => { srv = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await srv?.stop(); });

const MORRIS = ['c3', 'b3', 'a3', 'c2', 'b2', 'b1', 'a3a2', 'c2c1', 'c3c2'];

async function morrisGame(alice, bob) {
  await playMoves([alice, bob], MORRIS);
  for (const p of [alice, bob]) await waitStatus(p.page, 'finished');
}

async function say(p, text) {
  await p.page.locator('.chat-form input').fill(text);
  await p.page.locator('.chat-form button').click();
}

test('a late visitor to a finished game replays it whole and reads its chat; the rematch keeps the chat', async () => {
  const { alice, bob, room } = await seatTwo(browser, srv.url, 'morris');
  await say(alice, 'boa sorte');
  await bob.page.locator('.chat-list li', { hasText: 'boa sorte' }).waitFor();
  await morrisGame(alice, bob);
  await say(bob, 'bem jogado');
  await alice.page.locator('.chat-list li', { hasText: 'bem jogado' }).waitFor();

  // Someone who opens the link after the game: the result, the chat, every
  // position from the start (the server's record), the downloads.
  const late = await person(browser, srv.url, null, { path: `/r/${room}`, viewport: PHONE });
  await waitStatus(late.page, 'finished');
  assert.match(await late.page.locator('.status.result').textContent(), /Alice \(X\) wins — three in a row/);
  await late.page.locator('.chat-list li', { hasText: 'boa sorte' }).waitFor();
  await late.page.locator('.chat-list li', { hasText: 'bem jogado' }).waitFor();
  await seen(late, MORRIS.length, 'c3c2');
  await late.page.keyboard.press('Home');
  const pos = late.page.locator('.replay-pos');
  assert.equal(await pos.textContent(), `0 / ${MORRIS.length}`);
  const pieces = () => late.page.locator('[role=gridcell][aria-label*="piece"]').count();
  assert.equal(await pieces(), 0);
  const expected = [1, 2, 3, 4, 5, 6, 6, 6, 6];
  for (let i = 1; i <= MORRIS.length; i++) {
    await late.page.keyboard.press('ArrowRight');
    assert.equal(await pos.textContent(), `${i} / ${MORRIS.length}`, `position ${i} is not available to a late visitor`);
    assert.equal(await pieces(), expected[i - 1], `pieces on the board after move ${i}`);
    assert.match(await cell(late.page, MORRIS[i - 1].slice(-2)).getAttribute('aria-label'), /last move/);
  }
  const txt = await late.page.locator('.downloads a', { hasText: /moves/ }).getAttribute('href');
  const r = await fetch(srv.url + txt);
  assert.equal(r.status, 200);
  assert.match(r.headers.get('content-disposition') || '', /attachment/);
  await shoot(late.page, 'morris-finished');

  // The rematch room starts with the old room's chat.
  await alice.page.getByRole('button', { name: 'Rematch', exact: true }).click();
  await bob.page.getByRole('button', { name: 'Accept the rematch' }).click();
  for (const p of [alice, bob]) await p.page.waitForURL((u) => !u.pathname.endsWith(room));
  for (const p of [alice, bob]) await p.page.locator('.chat-list li', { hasText: 'bem jogado' }).waitFor();
  noErrors([alice, bob, late]);
  await closeAll(alice, bob, late);
});
