// The game review on the move list (docs/web.md, "Game page"): after the
// computer's analysis, the moves it marks carry lichess's "?"/"??"/"?!" on
// the move list itself, with a tooltip and an accessible label in the
// page's language, and a click shows the position after that move; in go
// the move that lost its player the most chance of winning is marked on the
// graph and the move list and named under the graph.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, launch, closeAll, noErrors, seatTwo, playMoves, waitStatus, setLang, sleep, assertContrast, PHONE,
  DESKTOP, SHOTS, LANGS,
} from '../lib.mjs';
import { onScreen } from '../onscreen.mjs';
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';

let srv, browser;
before(async () => { srv = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await srv?.stop(); });

async function snap(page, name) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: page.viewportSize().width < 500 });
}

const SIZES = [['phone', PHONE], ['desktop', DESKTOP]];
const WORDS = {
  'pt-PT': { mistake: 'Erro', worst: 'Maior queda' }, 'pt-BR': { mistake: 'Erro', worst: 'Maior queda' }, en: { mistake: 'Mistake', worst: 'Biggest drop' },
};

test('morris: the move that threw the draw away is marked "?" on the move list, in both languages and sizes', async () => {
  const { alice, bob, room } = await seatTwo(browser, srv.url, 'morris', { variant: '3' });
  // O's b2 leaves a3 open: the solved table's draw becomes a loss (a "?"),
  // and X completes the column.
  const MOVES = ['a1', 'c3', 'a2', 'b2', 'a3'];
  await playMoves([alice, bob], MOVES);
  for (const p of [alice, bob]) await waitStatus(p.page, 'finished');

  await alice.page.goto(`${srv.url}/g/${room}`);
  await alice.page.locator('.replay-pos').waitFor();
  await alice.page.locator('.analysis button.analyse').click();
  const marks = alice.page.locator('.moves .mv .review-mark');
  await marks.first().waitFor({ timeout: 60000 });
  // The API says the same: one mark, "?", on ply 3.
  const a = await (await fetch(`${srv.url}/api/records/${room}/analysis`)).json();
  assert.deepEqual(a.plies.map((p) => p.mark || ''), ['', '', '', '?', '']);
  assert.equal(await marks.count(), 1);
  const marked = alice.page.locator('.moves .mv[data-mark="?"]');
  assert.equal(await marked.getAttribute('data-ply'), '4');
  assert.equal(await marked.locator('.review-mark').textContent(), '?');

  for (const lang of LANGS) {
    await setLang(alice.page, lang);
    for (const [label, size] of SIZES) {
      await alice.page.setViewportSize(size);
      await sleep(150);
      await onScreen(alice.page, marked.locator('.review-mark'), `the mark (${lang}, ${label})`);
      assert.match(await marked.getAttribute('aria-label'), new RegExp(`b2 — ${WORDS[lang].mistake}:`));
      assert.match(await marked.getAttribute('title'), new RegExp(`^${WORDS[lang].mistake}: `));
      // The analysis lists it too, and a click there shows the position
      // after that move.
      await alice.page.keyboard.press('End');
      const item = alice.page.locator('.analysis-marks li.mistake .jump');
      await onScreen(alice.page, item, `the analysis's mark (${lang}, ${label})`);
      await item.click();
      assert.equal(await alice.page.locator('.replay-pos').textContent(), `4 / ${MOVES.length}`);
      assert.equal(await marked.getAttribute('aria-current'), 'step');
      await onScreen(alice.page, marked, `the marked move (${lang}, ${label})`);
      await assertContrast(alice.page, `the reviewed game page (${lang}, ${label})`);
      await snap(alice.page, `review-morris-${lang}-${label}`);
    }
  }
  // The marks keep AA contrast in the dark theme too.
  await alice.page.emulateMedia({ colorScheme: 'dark' });
  await onScreen(alice.page, marked.locator('.review-mark'), 'the mark (dark)');
  await assertContrast(alice.page, 'the reviewed game page (dark)');
  await snap(alice.page, 'review-morris-en-desktop-dark');
  await alice.page.emulateMedia({ colorScheme: 'light' });
  // A click on the marked move itself jumps there too.
  await alice.page.keyboard.press('Home');
  assert.equal(await alice.page.locator('.replay-pos').textContent(), `0 / ${MOVES.length}`);
  await marked.click();
  assert.equal(await alice.page.locator('.replay-pos').textContent(), `4 / ${MOVES.length}`);
  noErrors([alice, bob]);
  await closeAll(alice, bob);
});

test('go: the biggest drop in chance of winning is marked on the graph and the move list and named', async () => {
  const { alice, bob, room } = await seatTwo(browser, srv.url, 'go', { variant: '9' });
  // White passes at once: its chance of winning falls.
  const MOVES = ['E5', 'pass', 'C3'];
  await playMoves([alice, bob], MOVES);
  await bob.page.getByRole('button', { name: 'Resign', exact: true }).click();
  await bob.page.getByRole('button', { name: 'Really resign?' }).click();
  for (const p of [alice, bob]) await waitStatus(p.page, 'finished');

  await alice.page.goto(`${srv.url}/g/${room}`);
  await alice.page.locator('.replay-pos').waitFor();
  await alice.page.locator('.analysis button.analyse').click();
  const band = alice.page.locator('.analysis svg.winrate-graph .worst-band');
  await band.waitFor({ timeout: 120000 });
  const a = await (await fetch(`${srv.url}/api/records/${room}/analysis`)).json();
  assert.ok(Number.isInteger(a.worst), `the analysis names no worst move: ${JSON.stringify(a)}`);
  const drops = a.plies.map((p) => p.drop);
  assert.equal(Math.max(...drops), drops[a.worst], `worst ${a.worst} of drops ${drops}`);
  assert.equal(await band.getAttribute('data-ply'), String(a.worst));
  const worstMove = alice.page.locator('.moves .mv .review-worst');
  assert.equal(await worstMove.count(), 1);
  const mv = alice.page.locator(`.moves .mv[data-ply="${a.worst + 1}"]`);
  assert.equal(await mv.locator('.review-worst').count(), 1);
  const summary = alice.page.locator('.analysis-worst');

  for (const lang of LANGS) {
    await setLang(alice.page, lang);
    for (const [label, size] of SIZES) {
      await alice.page.setViewportSize(size);
      await sleep(150);
      await onScreen(alice.page, worstMove, `the worst move's mark (${lang}, ${label})`);
      await onScreen(alice.page, band, `the graph's band (${lang}, ${label})`);
      const text = await summary.textContent();
      assert.match(text, new RegExp(`${WORDS[lang].worst}: \\S+ ${a.worst + 1}, `), text);
      assert.match(await mv.getAttribute('aria-label'), new RegExp(lang.startsWith('pt') ? 'maior queda' : 'biggest drop'));
      await onScreen(alice.page, summary, `the summary (${lang}, ${label})`);
      await summary.locator('.jump').click();
      assert.equal(await alice.page.locator('.replay-pos').textContent(), `${a.worst + 1} / ${MOVES.length}`);
      await assertContrast(alice.page, `the reviewed go game (${lang}, ${label})`);
      await snap(alice.page, `review-go-${lang}-${label}`);
    }
  }
  noErrors([alice, bob]);
  await closeAll(alice, bob);
});
