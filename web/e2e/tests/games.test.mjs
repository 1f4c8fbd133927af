// Two browser contexts play a complete game of orbito, go and queens
// against each other through the page, while a third, who tapped the game
// in the lobby's live games, sees every move. Screenshots of each board,
// at phone and desktop sizes, in both languages.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, launch, closeAll, noErrors, waitStatus, whoseTurn, statusOf,
  cell, act, shoot, waitFor, seen, boardsOnScreen, matchUp, assertContrast,
} from '../lib.mjs';

let srv, browser;
before(async () => { srv = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await srv?.stop(); });
const match = (game, opts) => matchUp(browser, srv, game, opts);

async function finish(m, expect) {
  for (const p of m.people) await waitStatus(p.page, 'finished');
  const banner = await m.wendy.page.locator('.status.result').textContent();
  assert.match(banner, expect);
  // The whole game replays, by buttons and by the arrow keys.
  const bar = m.wendy.page.locator('.replay-bar');
  const n = await m.wendy.page.locator('.moves .mv[data-ply]').count();
  await bar.getByRole('button', { name: 'Start position' }).click();
  assert.equal(await bar.locator('.replay-pos').textContent(), `0 / ${n}`);
  await m.wendy.page.keyboard.press('ArrowRight');
  assert.equal(await bar.locator('.replay-pos').textContent(), `1 / ${n}`);
  assert.equal(await m.wendy.page.locator('.moves .mv[aria-current="step"]').getAttribute('data-ply'), '1');
  await m.wendy.page.keyboard.press('End');
  assert.equal(await bar.locator('.replay-pos').textContent(), `${n} / ${n}`);
}

test('orbito: a whole game, the rotation seen by the watcher', async () => {
  const m = await match('orbito', { variant: '2' });
  // After the first stone, the watcher's board shows it one step further
  // counter-clockwise: d1 (top right corner) moves to c1.
  const p = await whoseTurn([m.alice, m.bob]);
  await act(p, [m.alice, m.bob, m.wendy].filter((x) => x !== p), () => cell(p.page, 'd1').click());
  await seen(m.wendy, 1, 'd1');
  await waitFor(async () => /black stone/.test(await cell(m.wendy.page, 'c1').getAttribute('aria-label')), 'the stone to rotate to c1');
  assert.match(await cell(m.wendy.page, 'd1').getAttribute('aria-label'), /empty/);
  assert.equal(await m.wendy.page.locator('[role=gridcell].legal').count(), 0, 'a spectator sees no legal-move marks');
  // An illegal click explains itself.
  const q = p === m.alice ? m.bob : m.alice;
  await cell(q.page, 'c1').click();
  assert.match(await q.page.locator('.explain').textContent(), /taken/);
  await cell(p.page, 'a1').click();
  assert.match(await p.page.locator('.explain').textContent(), /not your turn/);
  let n = 1;
  while ((await statusOf(m.alice.page)) !== 'finished') {
    const who = await whoseTurn([m.alice, m.bob]);
    const first = who.page.locator('[role=gridcell].legal').first();
    const mv = (await first.getAttribute('aria-label')).split(',')[0];
    await act(who, [m.alice, m.bob, m.wendy].filter((x) => x !== who), () => first.click());
    await seen(m.wendy, ++n, mv);
    if (n === 5) { await shoot(m.wendy.page, 'orbito'); await shoot(who.page, 'orbito-player'); }
  }
  await finish(m, /wins|Draw/);
  noErrors(m.people);
  await closeAll(...m.people);
});

test('go 9x9: a capture, two passes, the area score', async () => {
  // The rule book's rules: two passes end the game (scoring.test.mjs has
  // the page's own go rules, komi and stone removal).
  const m = await match('go', { variant: '9', seedRules: true });
  const seq = ['A2', 'A1', 'B1', 'E5', 'pass', 'pass'];
  for (let i = 0; i < seq.length; i++) {
    const p = await whoseTurn([m.alice, m.bob]);
    const mv = seq[i];
    await act(p, [m.alice, m.bob, m.wendy].filter((x) => x !== p), (pg) =>
      mv === 'pass' ? pg.getByRole('button', { name: 'Pass', exact: true }).click() : cell(pg, mv).click());
    await seen(m.wendy, i + 1, mv);
    if (mv === 'B1') {
      assert.match(await cell(m.wendy.page, 'A1').getAttribute('aria-label'), /empty/, 'A1 was captured');
      assert.match(await m.wendy.page.locator('.caps-line').textContent(), /by black 1,/);
      assert.match(await cell(m.wendy.page, 'B1').getAttribute('aria-label'), /last move/);
    }
    if (i === 3) await shoot(m.wendy.page, 'go');
  }
  assert.match(await m.wendy.page.locator('.score-line').textContent(), /black \d+, white \d+/);
  // The score decided this game: the result says it; the winner is named with the colour.
  await finish(m, /(Alice|Bob) \((black|white)\) wins — both players passed; area score black \d+, white \d+/);
  noErrors(m.people);
  await closeAll(...m.people);
});

test('queens tradicional: pieces placed until nobody can', async () => {
  const m = await match('queens', { variant: 'tradicional' });
  // The hand shows the four queens; the squares a queen may take are marked.
  const p = await whoseTurn([m.alice, m.bob]);
  await waitFor(async () => (await p.page.locator('[role=gridcell].legal').count()) > 0, 'legal squares');
  assert.match(await p.page.locator('.hand').textContent(), /queen ×4/);
  await shoot(p.page, 'queens-player');
  let n = 0;
  while ((await statusOf(m.alice.page)) !== 'finished') {
    const who = await whoseTurn([m.alice, m.bob]);
    const c = who.page.locator('[role=gridcell].legal').first();
    await act(who, [m.alice, m.bob, m.wendy].filter((x) => x !== who), () => c.click());
    await seen(m.wendy, ++n);
    if (n === 3) { await shoot(m.wendy.page, 'queens'); await assertContrast(m.wendy.page, 'queens (letters on pieces)'); }
  }
  // Who could not move is named, with the seat.
  await finish(m, /wins — (Alice|Bob) \((first|second)\) had no safe square left|wins — every piece is placed/);
  await boardsOnScreen(m.alice.page);
  noErrors(m.people);
  await closeAll(...m.people);
});
