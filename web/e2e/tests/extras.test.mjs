// What the page shows from the engines' end-of-game views (room.state
// "lines" and "area", CONTRACTS.md): the winning line of morris and orbito,
// each side's area on the go board.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, launch, person, closeAll, noErrors, createRoom, seatTwo, playMoves, waitStatus, whoseTurn, act,
  cell, shoot, waitFor,
} from '../lib.mjs';

let srv, browser;
before(async () => { srv = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await srv?.stop(); });

test('morris draws its winning line, and its points say so', async () => {
  const { alice, bob } = await seatTwo(browser, srv.url, 'morris');
  await playMoves([alice, bob], ['c3', 'b3', 'a3', 'c2', 'b2', 'b1', 'a3a2', 'c2c1', 'c3c2']);
  for (const p of [alice, bob]) {
    await waitStatus(p.page, 'finished');
    await p.page.locator('.wins .win-cell').first().waitFor(); // the rings; the line's own box is flat
    assert.equal(await p.page.locator('.wins .win-line').count(), 1);
    for (const c of ['a2', 'b2', 'c2']) assert.match(await cell(p.page, c).getAttribute('aria-label'), /winning line/);
    assert.doesNotMatch(await cell(p.page, 'a1').getAttribute('aria-label'), /winning line/);
  }
  await shoot(bob.page, 'morris-line');
  noErrors([alice, bob]);
  await closeAll(alice, bob);
});

test('go shows each side\'s area on the board at the end; orbito draws its winning line', async () => {
  // Go under the rule book's rules: black builds a wall on the E file,
  // then both pass, which ends the game.
  const { alice, bob } = await seatTwo(browser, srv.url, 'go', { variant: '9', seedRules: true });
  await playMoves([alice, bob], ['E1', 'F1', 'E2', 'F2', 'E3', 'F3', 'E4', 'F4', 'E5', 'F5', 'E6', 'F6', 'E7', 'F7', 'E8', 'F8', 'E9', 'F9', 'pass', 'pass']);
  for (const p of [alice, bob]) await waitStatus(p.page, 'finished');
  await waitFor(async () => (await bob.page.locator('.go .area').count()) > 0, 'the area squares');
  assert.match(await cell(bob.page, 'A5').getAttribute('aria-label'), /black's area/);
  assert.match(await cell(bob.page, 'I5').getAttribute('aria-label'), /white's area/);
  assert.equal(await bob.page.locator('.go .area.black').count(), 36, 'black owns A..D, 36 empty points');
  assert.equal(await bob.page.locator('.go .area.white').count(), 27, 'white owns G..I, 27 empty points');
  await shoot(bob.page, 'go-area');
  noErrors([alice, bob]);
  await closeAll(alice, bob);

  // Orbito against the computer, to the end: Olga plays the first legal
  // point each turn and facil answers by its rule, so the game is always the
  // same one, which white wins with a diagonal.
  const o = await person(browser, srv.url, 'Olga');
  await createRoom(o, 'orbito', { variant: '2', opponent: 'bot', level: 'facil', seat: 0 });
  while ((await o.page.locator('.board-host').getAttribute('data-status')) !== 'finished') {
    await whoseTurn([o], 15000).catch(() => {});
    if ((await o.page.locator('.board-host').getAttribute('data-status')) === 'finished') break;
    await act(o, [], () => o.page.locator('[role=gridcell].legal').first().click());
  }
  assert.equal(await o.page.locator('.status.result').textContent(), 'Easy computer (white) wins — 4 in a row');
  await o.page.locator('.wins .win-cell').first().waitFor();
  const line = await o.page.locator('[role=gridcell][aria-label*="winning line"]').evaluateAll((cs) => cs.map((c) => c.getAttribute('aria-label').split(',')[0]));
  assert.deepEqual(line.sort(), ['a1', 'b2', 'c3', 'd4']);
  await shoot(o.page, 'orbito-finished');
  noErrors([o]);
  await closeAll(o);
});
