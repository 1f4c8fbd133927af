// Premove (issue 29), as on lichess: in a two-player game with a clock, a
// click in the opponent's turn keeps one move, shown on the board and said
// under it; it is played the moment the turn comes when legal, dropped
// without a word when not; a click cancels it. Morris and go, a desktop in
// English and a phone in the two Portugueses.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, launch, closeAll, noErrors, seatTwo, whoseTurn, waitFor, cell, moveCount, setLang, sleep, boardsOnScreen,
  shoot, assertTextFits, PHONE, DESKTOP, LANGS,
} from '../lib.mjs';
import { onScreen } from '../onscreen.mjs';

let srv, browser;
before(async () => { srv = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await srv?.stop(); });

const premoveOf = (p) => p.page.locator('.board-host').getAttribute('data-premove');
const explained = (p) => p.page.locator('.explain').textContent();
const WORD = { en: 'Premove: b2', 'pt-PT': 'Jogada antecipada: b2', 'pt-BR': 'Pré-lance: b2' };

test('morris with a clock: a premove is shown, played at once when legal, cancelled by a click, dropped when illegal', async () => {
  const { alice, bob } = await seatTwo(browser, srv.url, 'morris', { clock: '180+2' });
  await bob.page.setViewportSize(PHONE);
  const first = await whoseTurn([alice, bob]);
  const second = first === alice ? bob : alice;
  const moves = (p) => p.page.locator('.moves .mv[data-ply]').evaluateAll((els) => els.map((e) => e.dataset.move));

  // The second player clicks b2 while the first thinks: kept, shown, said.
  await cell(second.page, 'b2').click();
  await waitFor(async () => (await premoveOf(second)) === 'b2', 'the premove kept');
  assert.equal(await explained(second), '', 'no "not your turn"');
  assert.match(await cell(second.page, 'b2').getAttribute('class'), /\bpremove\b/);
  const note = second.page.locator('.premove-note');
  for (const lang of LANGS) {
    await setLang(second.page, lang);
    assert.match(await note.textContent(), new RegExp(`^${WORD[lang]}`));
    assert.match(await cell(second.page, 'b2').getAttribute('aria-label'), { en: /premove/, 'pt-PT': /jogada antecipada/, 'pt-BR': /pré-lance/ }[lang]);
    for (const size of [PHONE, DESKTOP]) {
      await second.page.setViewportSize(size);
      await sleep(100);
      await boardsOnScreen(second.page, `the premove (${lang}, ${size.width})`);
      await onScreen(second.page, note, `the premove's note (${lang}, ${size.width})`);
      await assertTextFits(second.page, `the premove (${lang}, ${size.width})`);
    }
  }
  await shoot(second.page, 'premove-morris');
  await setLang(second.page, 'en');

  // The first player moves: b2 is played at once, without a click.
  await cell(first.page, 'a1').click();
  await waitFor(async () => (await moves(first)).join(' ') === 'a1 b2', 'the premove played at once');
  await waitFor(async () => (await premoveOf(second)) === '', 'the premove gone once played');
  assert.ok(await first.page.locator('.board-host.my-turn').count(), 'the first player to move again');

  // A premove cancelled by a click: nothing is played for it.
  await cell(second.page, 'c3').click();
  await waitFor(async () => (await premoveOf(second)) === 'c3', 'a second premove');
  await cell(second.page, 'a2').click();
  await waitFor(async () => (await premoveOf(second)) === '', 'cancelled by a click');
  assert.ok(await second.page.locator('.premove-note').isHidden());
  await cell(first.page, 'c1').click();
  await waitFor(async () => (await moveCount(second.page)) === 3, 'the first player\'s move');
  await sleep(300);
  assert.equal(await moveCount(second.page), 3, 'nothing played for a cancelled premove');
  await cell(second.page, 'a3').click();
  await waitFor(async () => (await moveCount(first.page)) === 4, 'the second player\'s own move');

  // A premove onto the point the opponent then takes: dropped, silently.
  await cell(second.page, 'c2').click();
  await waitFor(async () => (await premoveOf(second)) === 'c2', 'a premove onto c2');
  await cell(first.page, 'c2').click();
  await waitFor(async () => (await moveCount(second.page)) === 5, 'the first player took c2');
  await waitFor(async () => (await premoveOf(second)) === '', 'the premove dropped');
  await sleep(300);
  assert.equal(await moveCount(second.page), 5, 'nothing else was played');
  assert.equal(await explained(second), '', 'dropped without a word');
  assert.ok(await second.page.locator('.board-host.my-turn').count(), 'the second player to move');
  noErrors([alice, bob]);
  await closeAll(alice, bob);
});

test('go with a clock: the premove\'s ghost stone, played the moment the turn comes', async () => {
  const { alice, bob } = await seatTwo(browser, srv.url, 'go', { variant: '9', clock: '300+3' });
  const first = await whoseTurn([alice, bob]);
  const second = first === alice ? bob : alice;
  await setLang(second.page, 'pt-BR');
  await cell(second.page, 'E5').click();
  await waitFor(async () => (await premoveOf(second)) === 'E5', 'the premove kept');
  assert.equal(await cell(second.page, 'E5').locator('.stone.ghost').count(), 1, 'a ghost stone shows it');
  assert.match(await second.page.locator('.premove-note').textContent(), /^Pré-lance: E5/);
  await cell(first.page, 'D4').click();
  await waitFor(async () => (await second.page.locator('.moves .mv[data-ply="2"]').getAttribute('data-move').catch(() => null)) === 'E5', 'E5 played at once');
  assert.equal(await cell(first.page, 'E5').locator('.stone.white').count(), 1);
  noErrors([alice, bob]);
  await closeAll(alice, bob);
});
