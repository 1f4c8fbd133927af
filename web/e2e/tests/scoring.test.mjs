// Go as go players play it (issue 29): a 9x9 game between a desktop in
// English and a phone in Portuguese, created from the lobby's go form with
// its defaults for a game with a friend (komi 7.5 on 9x9, stone removal).
// After two passes both see the stone-removal phase with the server's
// proposal (B5 dead, crossed out on the board), one toggles it alive (the
// other's acceptance goes), the other marks it dead again, both accept; the
// result counts B5 dead with the komi. Boards on screen and screenshots at
// both sizes and in both languages, at each step.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  startServer, launch, person, closeAll, noErrors, createRoom, card, takeSeat, waitStatus, whoseTurn,
  cell, act, waitFor, boardsOnScreen, setLang, shoot, assertContrast, PHONE, DESKTOP, SHOTS, LANGS,
} from '../lib.mjs';

let srv, browser;
before(async () => { srv = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await srv?.stop(); });

// The wall game: black on column E, white on F, black C3 at home, white B5
// alone inside black's area, then both pass.
const WALL = [];
for (let row = 1; row <= 9; row++) WALL.push(`E${row}`, `F${row}`);
WALL.push('C3', 'B5', 'pass', 'pass');

const dead = (p) => p.page.locator('.scoring .scoring-dead');
const accepted = (p) => p.page.locator('.scoring li.accepted');
const label = (p, c) => cell(p.page, c).getAttribute('aria-label');

test('the stone-removal phase: proposal, toggles, acceptances, the count', async () => {
  const alice = await person(browser, srv.url, 'Alice', { viewport: DESKTOP });
  // The lobby's go form: a friend's game has the komi of its board and
  // stone removal unless the player changes them.
  const go = card(alice.page, 'go');
  await go.waitFor();
  await go.locator('select[name=variant]').selectOption('9');
  await go.locator('details.more > summary').click();
  assert.equal(await go.locator('input[name=komi]').inputValue(), '7.5');
  assert.ok(await go.locator('input[name=removal]').isChecked());
  await go.locator('select[name=variant]').selectOption('19');
  assert.equal(await go.locator('input[name=komi]').inputValue(), '6.5', 'the larger boards\' komi');
  await go.locator('select[name=variant]').selectOption('9');
  // The form, in both languages at both sizes: on screen, nothing wider.
  mkdirSync(SHOTS, { recursive: true });
  for (const lang of LANGS) {
    await setLang(alice.page, lang);
    if (!(await go.locator('details.more[open]').count())) await go.locator('details.more > summary').click();
    const form = go.locator('fieldset.go-rules');
    for (const [size, vp] of [['phone', PHONE], ['desktop', DESKTOP]]) {
      await alice.page.setViewportSize(vp);
      await form.scrollIntoViewIfNeeded();
      const box = await form.boundingBox();
      assert.ok(box && box.width > 100 && box.x >= 0 && box.x + box.width <= vp.width, `the go rules at ${size}: ${JSON.stringify(box)}`);
      assert.equal(await form.locator('legend').textContent(), lang.startsWith('pt') ? 'Regras com um amigo' : 'Rules with a friend');
      await go.screenshot({ path: join(SHOTS, `go-rules-form-${lang}-${size}.png`) });
    }
  }
  await alice.page.setViewportSize(DESKTOP);
  await createRoom(alice, 'go', { variant: '9' });
  const invite = await alice.page.locator('.invite-url').inputValue();
  const bob = await person(browser, srv.url, 'Bob', { path: new URL(invite).pathname, viewport: PHONE });
  await setLang(bob.page, 'pt');
  await takeSeat(bob);
  const people = [alice, bob];
  for (const p of people) { await waitStatus(p.page, 'playing'); await boardsOnScreen(p.page); }
  assert.match(await alice.page.locator('.game-info .score-line').textContent(), /\+ komi 7\.5$/);

  for (const mv of WALL) {
    const p = await whoseTurn(people);
    await act(p, people.filter((x) => x !== p), (pg) => (mv === 'pass' ? pg.locator('.controls button.pass').click() : cell(pg, mv).click()));
  }
  // The phase, and then the server's proposal.
  for (const p of people) await waitStatus(p.page, 'scoring');
  await waitFor(async () => /B5/.test(await dead(alice).textContent()), 'the proposal to reach Alice');
  assert.equal(await dead(alice).textContent(), '1 stone marked dead: B5');
  await waitFor(async () => (await dead(bob).textContent()) === '1 pedra marcada como morta: B5', 'the proposal to reach Bob');
  assert.match(await label(alice, 'B5'), /^B5, white stone, marked dead/);
  assert.match(await label(bob, 'B5'), /^B5, pedra branca, marcada como morta/);
  assert.equal(await alice.page.locator('.status').textContent(), 'Both passed: the dead stones are being marked');
  assert.equal(await bob.page.locator('.status').textContent(), 'Os dois passaram: marcação das pedras mortas');
  assert.match(await alice.page.locator('.game-info .score-line').textContent(), /black 45, white 36 \+ komi 7\.5/);
  assert.equal(await bob.page.locator('.controls button.pass').count(), 0, 'no pass in the phase');
  await shoot(alice.page, 'go-scoring-proposal');
  await shoot(bob.page, 'go-scoring-proposal-bob');
  await assertContrast(alice.page, 'the stone-removal panel');

  // Alice accepts; Bob says B5 lives: Alice's acceptance goes.
  await alice.page.getByRole('button', { name: 'Accept the count' }).click();
  await waitFor(async () => (await accepted(bob).count()) === 1, 'Bob to see Alice accept');
  assert.match(await accepted(bob).first().textContent(), /^✓ Alice .* aceitou$/);
  await act(bob, [alice], (pg) => cell(pg, 'B5').click());
  await waitFor(async () => (await dead(alice).textContent()) === 'No stone is marked dead.', 'Alice to see B5 alive');
  assert.equal(await accepted(alice).count(), 0, 'a toggle clears the acceptances');
  assert.doesNotMatch(await label(alice, 'B5'), /marked dead/);
  assert.match(await alice.page.locator('.game-info .score-line').textContent(), /black 10, white 37/);
  await shoot(bob.page, 'go-scoring-toggled');

  // Bob accepts his count; Alice marks B5 dead again, which clears it;
  // then both accept.
  await bob.page.getByRole('button', { name: 'Aceitar a contagem' }).click();
  await waitFor(async () => (await accepted(alice).count()) === 1, 'Alice to see Bob accept');
  await act(alice, [bob], (pg) => cell(pg, 'B5').click());
  await waitFor(async () => (await dead(bob).textContent()) === '1 pedra marcada como morta: B5', 'Bob to see B5 dead again');
  assert.equal(await accepted(bob).count(), 0);
  await alice.page.getByRole('button', { name: 'Accept the count' }).click();
  await alice.page.getByText('You accepted this count.').waitFor();
  await bob.page.getByRole('button', { name: 'Aceitar a contagem' }).click();
  for (const p of people) await waitStatus(p.page, 'finished');
  assert.equal(await alice.page.locator('.status.result').textContent(),
    'You win — dead stones marked and accepted; area score black 45, white 36, komi 7.5');
  assert.match(await bob.page.locator('.status.result').textContent(),
    /^Alice .* ganha — pedras mortas marcadas e aceites; pretas 45, brancas 36, komi 7,5$/);
  for (const p of people) {
    assert.equal(await p.page.locator('.scoring:not([hidden])').count(), 0, 'the panel goes at the end');
    await boardsOnScreen(p.page);
  }
  assert.match(await label(alice, 'B5'), /marked dead.*black's area|black's area.*marked dead/);
  await shoot(alice.page, 'go-scored');
  noErrors(people);
  await closeAll(alice, bob);
});
