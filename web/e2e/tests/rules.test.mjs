// The rules of play of issue 16 on the page: an aborted game (the first
// move's countdown, the clock standing still until then, the Abort button),
// an accepted draw offer and a granted takeback, each seen by both players,
// one on a phone in Portuguese and one on a desktop in English, with the
// board on screen.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, launch, person, closeAll, noErrors, createRoom, takeSeat, waitStatus, whoseTurn,
  cell, act, seen, waitFor, boardsOnScreen, setLang, shoot, moveCount, PHONE, DESKTOP,
} from '../lib.mjs';

let srv, browser;
before(async () => { srv = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await srv?.stop(); });

// pair seats Alice (desktop, English) and Bob (phone, Portuguese) at a
// morris game Alice created with opts.
async function pair(opts = {}) {
  const alice = await person(browser, srv.url, 'Alice', { viewport: DESKTOP });
  const room = await createRoom(alice, 'morris', opts);
  const invite = await alice.page.locator('.invite-url').inputValue();
  const bob = await person(browser, srv.url, 'Bob', { path: new URL(invite).pathname, viewport: PHONE });
  await setLang(bob.page, 'pt');
  await takeSeat(bob);
  for (const p of [alice, bob]) await waitStatus(p.page, 'playing');
  for (const p of [alice, bob]) await boardsOnScreen(p.page);
  return { alice, bob, room };
}

// play makes the move mv (a placement) as whoever is to move.
async function play(people, mv, n) {
  const p = await whoseTurn(people);
  await act(p, people.filter((x) => x !== p), (pg) => cell(pg, mv).click());
  await seen(people[0], n, mv);
  return p;
}

test('an aborted game: the first move\'s countdown, the clock standing still, Abort', async () => {
  const { alice, bob } = await pair({ clock: '60+0' });
  const first = await whoseTurn([alice, bob]);
  const other = first === alice ? bob : alice;
  // The side to move sees its own countdown; the clocks do not run before it.
  const countdown = (p) => p.page.locator('.abort-countdown:not([hidden])');
  await countdown(first).waitFor();
  await countdown(other).waitFor();
  const mine = first === alice ? /Make your first move within \d+ s, or the game is aborted/ : /Faça a sua primeira jogada em \d+ s, ou a partida é anulada/;
  assert.match(await countdown(first).textContent(), mine);
  const n0 = Number((await countdown(first).textContent()).match(/\d+/)[0]);
  await waitFor(async () => Number((await countdown(first).textContent()).match(/\d+/)[0]) < n0, 'the countdown to go down');
  for (const p of [alice, bob]) {
    for (const c of await p.page.locator('.player .clock').allTextContents()) assert.equal(c.trim(), '1:00', 'a clock ran before the first move');
  }
  await shoot(bob.page, 'rules-abort-countdown');
  // Either player may abort; both see a game with no result.
  await bob.page.getByRole('button', { name: 'Anular', exact: true }).click();
  for (const p of [alice, bob]) await waitStatus(p.page, 'finished');
  assert.match(await alice.page.locator('.status.result').textContent(), /^Game aborted — no result: the game was aborted$/);
  assert.match(await bob.page.locator('.status.result').textContent(), /^Partida anulada — sem resultado: a partida foi anulada$/);
  for (const p of [alice, bob]) {
    assert.equal(await countdown(p).count(), 0, 'the countdown is gone');
    await boardsOnScreen(p.page);
  }
  noErrors([alice, bob]);
  await closeAll(alice, bob);
});

test('an accepted draw offer', async () => {
  const { alice, bob } = await pair();
  const people = [alice, bob];
  await play(people, 'c3', 1);
  await play(people, 'b3', 2);
  // Both have moved: no more Abort; Alice offers a draw.
  await alice.page.locator('.controls button.abort').waitFor({ state: 'detached' });
  await alice.page.getByRole('button', { name: 'Offer a draw' }).click();
  await alice.page.getByText('You offered a draw').waitFor();
  const offer = bob.page.locator('.offers');
  await offer.getByText('Alice (X) propõe empate').waitFor();
  await shoot(bob.page, 'rules-draw-offer');
  await offer.getByRole('button', { name: 'Aceitar' }).click();
  for (const p of people) await waitStatus(p.page, 'finished');
  assert.match(await alice.page.locator('.status.result').textContent(), /^Draw — drawn by agreement$/);
  assert.match(await bob.page.locator('.status.result').textContent(), /^Empate — empate por acordo$/);
  for (const p of people) await boardsOnScreen(p.page);
  noErrors(people);
  await closeAll(alice, bob);
});

test('a takeback asked and granted', async () => {
  const { alice, bob } = await pair();
  const people = [alice, bob];
  const p1 = await play(people, 'c3', 1);
  const p2 = p1 === alice ? bob : alice;
  // The one who moved asks; the other sees the request and grants it.
  const ask = p1 === alice ? 'Ask to take back' : 'Pedir para voltar atrás';
  await p1.page.getByRole('button', { name: ask }).click();
  const accept = p2 === alice ? 'Accept' : 'Aceitar';
  const note = p2 === alice ? /(Bob|Alice) \([XO]\) asks to take back a move/ : /(Bob|Alice) \([XO]\) pede para voltar atrás numa jogada/;
  await p2.page.locator('.offers .offer-note').filter({ hasText: note }).waitFor();
  await shoot(p2.page, 'rules-takeback');
  await p2.page.locator('.offers').getByRole('button', { name: accept, exact: true }).click();
  // The move is gone for both; the same player is to move again.
  for (const p of people) await waitFor(async () => (await moveCount(p.page)) === 0, `${p.name}'s move list to lose the move`);
  assert.equal(await whoseTurn(people), p1);
  for (const p of people) {
    const empty = p === alice ? /^c3, empty/ : /^c3, livre/;
    assert.match(await cell(p.page, 'c3').getAttribute('aria-label'), empty, 'c3 is empty again');
    await boardsOnScreen(p.page);
  }
  await play(people, 'a1', 1);
  noErrors(people);
  await closeAll(alice, bob);
});
