// Two browser contexts play a complete game of each of the five games (race
// for 2048) against each other, while a third context, who opened the game
// with one click from the lobby's live list, sees every move.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, launch, person, closeAll, noErrors, createRoom, waitStatus, whoseTurn, statusOf,
  cell, act, shoot, waitFor, seqOf,
} from '../lib.mjs';

let srv, browser;
before(async () => { srv = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await srv?.stop(); });

// match: Alice creates a game for a friend, Bob opens the invite link,
// Wendy clicks "Watch" in the lobby's live games.
async function match(game, opts = {}) {
  const alice = await person(browser, srv.url, 'Alice');
  const room = await createRoom(alice, game, opts);
  const invite = await alice.page.locator('.invite-url').inputValue();
  assert.equal(invite, `${srv.url}/r/${room}`);
  const bob = await person(browser, srv.url, 'Bob', { path: new URL(invite).pathname });
  const wendy = await person(browser, srv.url, 'Wendy');
  const row = wendy.page.locator(`.live-table tr[data-room="${room}"]`);
  await row.waitFor();
  assert.match(await row.textContent(), /Alice/);
  await row.getByRole('link', { name: /Watch/ }).click();
  await wendy.page.waitForURL(new RegExp(`/r/${room}\\?watch=1$`));
  for (const p of [alice, bob, wendy]) await waitStatus(p.page, 'playing');
  await waitFor(async () => /1 watching/.test(await alice.page.locator('.spectators').textContent()), 'the spectator count');
  return { alice, bob, wendy, room, people: [alice, bob, wendy] };
}

// seen checks that the watcher's move list has n moves, the last being mv.
async function seen(w, n, mv) {
  const items = w.page.locator('ol.moves > li');
  await waitFor(async () => (await items.count()) === n, `${w.name} to list ${n} moves`);
  if (mv) assert.ok((await items.nth(n - 1).textContent()).endsWith(mv), `move ${n} is ${mv}`);
}

async function finish(m, expect, { rematch = false } = {}) {
  for (const p of m.people) await waitStatus(p.page, 'finished');
  const banner = await m.wendy.page.locator('.status.result').textContent();
  assert.match(banner, expect);
  // A finished game can be replayed move by move.
  const bar = m.wendy.page.locator('.replay-bar');
  await bar.getByRole('button', { name: 'First position' }).click();
  assert.match(await bar.locator('.replay-pos').textContent(), /^0 \//);
  await bar.getByRole('button', { name: 'Next move' }).click();
  assert.match(await bar.locator('.replay-pos').textContent(), /^1 \//);
  await bar.getByRole('button', { name: 'Live' }).click();
  if (rematch) {
    // Both players ask for a rematch and land in a new room, seats swapped.
    const seatOf = async (p) => p.page.locator('.player:has(.tag.you)').getAttribute('data-seat');
    const before = await seatOf(m.alice);
    await m.alice.page.getByRole('button', { name: 'Rematch' }).click();
    await m.alice.page.getByRole('button', { name: /Rematch asked/ }).waitFor();
    await m.bob.page.getByRole('button', { name: 'Rematch' }).click();
    for (const p of [m.alice, m.bob]) await p.page.waitForURL((u) => !u.pathname.endsWith(m.room));
    assert.equal(m.alice.page.url(), m.bob.page.url());
    for (const p of [m.alice, m.bob]) await waitStatus(p.page, 'playing');
    await waitFor(async () => (await seatOf(m.alice)) === String(1 - Number(before)), 'the seats to be swapped');
  }
  noErrors(m.people);
  await closeAll(...m.people);
}

// playFirstLegal plays, for whoever has the move, the first cell marked legal.
async function playFirstLegal(m, shotName, shotAt) {
  let n = 0;
  while ((await statusOf(m.alice.page)) !== 'finished') {
    const p = await whoseTurn([m.alice, m.bob]);
    const c = p.page.locator('[role=gridcell].legal').first();
    const mv = (await c.getAttribute('aria-label')).split(', ')[0];
    await act(p, [m.alice, m.bob, m.wendy].filter((x) => x !== p), () => c.click());
    await seen(m.wendy, ++n, mv);
    if (n === shotAt) await shoot(m.wendy.page, shotName);
  }
  return n;
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
  const c = m.wendy.page.locator('[role=gridcell].legal');
  assert.equal(await c.count(), 0, 'a spectator sees no legal-move marks');
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
    if (n === 5) await shoot(m.wendy.page, 'orbito');
  }
  await finish(m, /wins|Draw/);
});

test('morris: placement, movement and a row of three', async () => {
  const m = await match('morris');
  const seq = ['c3', 'b3', 'a3', 'c2', 'b2', 'b1', 'a3a2', 'c2c1', 'c3c2'];
  for (let i = 0; i < seq.length; i++) {
    const p = await whoseTurn([m.alice, m.bob]);
    const mv = seq[i];
    await act(p, [m.alice, m.bob, m.wendy].filter((x) => x !== p), async (pg) => {
      if (mv.length === 2) return cell(pg, mv).click();
      await cell(pg, mv.slice(0, 2)).click();
      assert.match(await cell(pg, mv.slice(2)).getAttribute('aria-label'), /can move here/);
      await cell(pg, mv.slice(2)).click();
    });
    await seen(m.wendy, i + 1, mv);
    if (i === 6) await shoot(m.wendy.page, 'morris');
  }
  // Someone opening the finished game's link watches it (and can replay it).
  const late = await person(browser, srv.url, 'Late', { path: `/r/${m.room}` });
  await waitStatus(late.page, 'finished');
  assert.match(await late.page.locator('.status.result').textContent(), /Alice wins|Bob wins/);
  assert.equal(await late.page.locator('.controls button').count(), 0, 'a late visitor gets no controls');
  m.people.push(late);
  await finish(m, /wins — a line/);
});

test('go 9x9: a capture, two passes, the area score', async () => {
  const m = await match('go', { variant: '9' });
  const seq = ['A2', 'A1', 'B1', 'E5', 'pass', 'pass'];
  for (let i = 0; i < seq.length; i++) {
    const p = await whoseTurn([m.alice, m.bob]);
    const mv = seq[i];
    await act(p, [m.alice, m.bob, m.wendy].filter((x) => x !== p), (pg) =>
      mv === 'pass' ? pg.getByRole('button', { name: 'Pass' }).click() : cell(pg, mv).click());
    await seen(m.wendy, i + 1, mv);
    if (mv === 'B1') {
      assert.match(await cell(m.wendy.page, 'A1').getAttribute('aria-label'), /empty/, 'A1 was captured');
      assert.match(await m.wendy.page.locator('.caps-line').textContent(), /by black 1/);
      assert.match(await cell(m.wendy.page, 'B1').getAttribute('aria-label'), /last move/);
    }
    if (i === 3) await shoot(m.wendy.page, 'go');
  }
  assert.match(await m.wendy.page.locator('.score-line').textContent(), /black \d+, white \d+/);
  await finish(m, /wins .*— both players passed/);
});

test('2048 race: both boards side by side until both are stuck', async () => {
  const setup = { board: [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 8, 0]], score: 0, seed: 7 };
  const m = await match('2048', { variant: 'race', setup });
  assert.equal(await m.wendy.page.locator('.b2048-wrap').count(), 2);
  const keys = { N: 'ArrowUp', S: 'ArrowDown', E: 'ArrowRight', W: 'ArrowLeft' };
  let n = 0;
  for (let round = 0; round < 400 && (await statusOf(m.alice.page)) !== 'finished'; round++) {
    for (const p of [m.alice, m.bob]) {
      if ((await statusOf(p.page)) === 'finished') break;
      const dirs = await p.page.locator('.pad button[aria-disabled="false"]').evaluateAll((bs) => bs.map((b) => b.dataset.dir));
      if (!dirs.length) continue;
      const d = dirs[round % dirs.length];
      await act(p, [m.alice, m.bob, m.wendy].filter((x) => x !== p), (pg) => pg.keyboard.press(keys[d]));
      await seen(m.wendy, ++n, d);
      if (n === 4) await shoot(m.wendy.page, '2048-race');
    }
  }
  await finish(m, /wins — higher score|Draw/);
});

test('queens tradicional: pieces placed until nobody can', async () => {
  const m = await match('queens', { variant: 'tradicional' });
  // The hand shows the four queens; the squares a queen may take are marked.
  const p = await whoseTurn([m.alice, m.bob]);
  await waitFor(async () => (await p.page.locator('[role=gridcell].legal').count()) > 0, 'legal squares');
  assert.match(await p.page.locator('.hand').textContent(), /queen ×4/);
  await shoot(p.page, 'queens-player');
  const n = await playFirstLegal(m, 'queens', 3);
  assert.ok(n >= 2);
  await finish(m, /wins — /, { rematch: true });
});
