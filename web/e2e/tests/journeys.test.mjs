// The journeys of issue 15, as people make them: a first visit that watches
// a live game with no name given; a newcomer who plays go 9x9 against the
// computer to the end and replays it; two friends who play morris by
// invite link, one reloads, they rematch; a 2048 race where both players
// see and play their own board. Each checks what is on screen for both
// seats and a spectator, at phone and desktop sizes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, launch, person, closeAll, noErrors, createRoom, takeSeat, answerName, waitStatus, whoseTurn,
  statusOf, cell, act, shoot, waitFor, seen, seqOf, boardsOnScreen, matchUp, assertContrast, PHONE, DESKTOP,
} from '../lib.mjs';

let srv, browser;
before(async () => { srv = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await srv?.stop(); });

test('a first visit watches a live game with no name given', async () => {
  // The computer plays itself at go (a move every 0.7 s).
  const host = await person(browser, srv.url, 'Host');
  const room = await createRoom(host, 'go', { variant: '9', opponent: 'watch', level: 'facil' });
  await waitStatus(host.page, 'playing');

  const v = await person(browser, srv.url, null, { viewport: PHONE });
  assert.equal(await v.page.locator('#name-dialog[open]').count(), 0, 'no name is asked to look');
  assert.match(await v.page.locator('#me-name').textContent(), /^guest-\d+$/, 'the server named the guest');
  // The live game is on the first screen, with its small live board.
  const live = v.page.locator(`.live-card[data-room="${room}"]`);
  await live.waitFor();
  const mini = live.locator('svg.mini');
  await mini.waitFor();
  for (const size of [PHONE, DESKTOP]) {
    await v.page.setViewportSize(size);
    const box = await waitFor(() => mini.boundingBox(), 'the small board\'s box');
    assert.ok(box.width > 40 && box.height > 40, `the small board is ${box.width}x${box.height}`);
    assert.ok(box.y + box.height <= size.height && box.x + box.width <= size.width, `the live game is below the first screen at ${size.width}x${size.height}`);
  }
  await v.page.setViewportSize(PHONE);
  assert.match(await live.textContent(), /Easy computer – Easy computer/);
  await shoot(v.page, 'lobby', { boards: false });

  // One tap to watch.
  await live.locator('a').click();
  await v.page.waitForURL(new RegExp(`/r/${room}\\?watch=1$`));
  await waitStatus(v.page, 'playing');
  await boardsOnScreen(v.page);
  const s0 = await seqOf(v.page);
  await waitFor(async () => (await seqOf(v.page)) > s0, 'the next move of the game', 15000);
  // Two bots of one level are told apart by their seats.
  const players = await v.page.locator('.player').allTextContents();
  assert.equal(players.length, 2);
  assert.match(players[0], /Easy computer.*black/);
  assert.match(players[1], /Easy computer.*white/);
  assert.equal(await v.page.locator('.join-panel:not([hidden])').count(), 0, 'no seat is free');
  assert.equal(await v.page.locator('.controls button.resign').count(), 0, 'a spectator has no controls');
  await shoot(v.page, 'watch-go');

  // Sitting down asks for the name once; Esc dismisses it and the page goes
  // on with the guest's name.
  await v.page.locator('.back').click();
  await v.page.locator('.game-card[data-game="orbito"] [data-action="computer"]').click();
  assert.ok(await answerName(v, null), 'the name is asked when first sitting down');
  await v.page.waitForURL(/\/r\/[A-Za-z0-9_-]+$/);
  await waitStatus(v.page, 'playing');
  assert.match(await v.page.locator('.player:has(.tag.you) .pname').textContent(), /^guest-\d+$/);
  noErrors([host, v]);
  await closeAll(host, v);
});

test('a newcomer plays go 9x9 against the computer to the end and replays it', async () => {
  const n = await person(browser, srv.url, null);
  const c = n.page.locator('.game-card[data-game="go"]');
  await c.waitFor();
  // Every level is described in visible words: what it is, how strong it measured.
  await c.locator('details.levels > summary').click();
  for (const lv of ['basico', 'facil', 'normal', 'forte']) {
    const opt = c.locator(`.level-opt[data-level="${lv}"]`);
    assert.ok(await opt.locator('.level-what').isVisible(), `${lv} has no visible description`);
    assert.ok((await opt.locator('.level-strength').textContent()).length > 10, `${lv} says nothing of its strength`);
  }
  assert.match(await c.locator('.level-opt[data-level="forte"]').textContent(), /GNU Go/);
  await createRoom(n, 'go', { variant: '9', opponent: 'bot', level: 'basico', seat: 0, name: 'Nova' });
  await waitStatus(n.page, 'playing');
  assert.equal(await n.page.locator('#me-name').textContent(), 'Nova');
  assert.match(await n.page.locator('.player:has(.tag.you)').textContent(), /Nova.*black/);
  assert.match(await n.page.locator('.players').textContent(), /Basic computer/);
  // Three stones, then pass until the computer passes too.
  for (const mv of ['E5', 'C3', 'G7']) {
    await whoseTurn([n], 15000);
    if (await cell(n.page, mv).evaluate((e) => e.classList.contains('legal'))) await act(n, [], () => cell(n.page, mv).click());
    else await act(n, [], () => n.page.locator('[role=gridcell].legal').first().click());
  }
  for (let i = 0; i < 150 && (await statusOf(n.page)) !== 'finished'; i++) {
    await whoseTurn([n], 15000).catch(async (e) => { if ((await statusOf(n.page)) !== 'finished') throw e; });
    if ((await statusOf(n.page)) === 'finished') break;
    await act(n, [], () => n.page.getByRole('button', { name: 'Pass', exact: true }).click());
  }
  await waitStatus(n.page, 'finished');
  assert.match(await n.page.locator('.status.result').textContent(), /(You win|Basic computer \(white\) wins) — both players passed; area score black \d+, white \d+/);
  await shoot(n.page, 'go-vs-computer');
  // The replay: the start, one move on, the end; the move list marks it.
  const moves = await n.page.locator('.moves .mv[data-ply]').count();
  const pos = n.page.locator('.replay-pos');
  await n.page.locator('.replay-bar').getByRole('button', { name: 'Start position' }).click();
  assert.equal(await pos.textContent(), `0 / ${moves}`);
  const stones = () => n.page.locator('[role=gridcell][aria-label*="stone"]').count();
  assert.equal(await stones(), 0, 'the start position is empty');
  assert.equal(await n.page.locator('.moves .mv[aria-current]').count(), 0);
  await n.page.keyboard.press('ArrowRight');
  assert.equal(await pos.textContent(), `1 / ${moves}`);
  assert.equal(await stones(), 1);
  assert.equal(await n.page.locator('.moves .mv[aria-current="step"]').getAttribute('data-move'), 'E5');
  await n.page.locator('.moves .mv[data-ply="3"]').click();
  assert.equal(await pos.textContent(), `3 / ${moves}`);
  await n.page.keyboard.press('End');
  assert.equal(await pos.textContent(), `${moves} / ${moves}`);
  assert.equal(await n.page.locator('.moves .mv[aria-current="step"]').getAttribute('data-ply'), String(moves));
  // The move list never runs off its box sideways.
  const clip = await n.page.locator('.moves').evaluate((e) => e.scrollWidth - e.clientWidth);
  assert.ok(clip <= 0, `the move list is clipped by ${clip}px`);
  noErrors([n]);
  await closeAll(n);
});

test('two friends play morris by invite link, one reloads, they rematch', async () => {
  const alice = await person(browser, srv.url, 'Alice');
  const room = await createRoom(alice, 'morris');
  const invite = await alice.page.locator('.invite-url').inputValue();
  // Bob opens the link on his phone; he is asked for his name as he sits down.
  const bob = await person(browser, srv.url, null, { path: new URL(invite).pathname, viewport: PHONE });
  await bob.page.locator('.join-panel p').waitFor();
  assert.match(await bob.page.locator('.join-panel').textContent(), /Alice is waiting for an opponent at Jogo do Moinho/);
  assert.match(await bob.page.locator('.player.empty').textContent(), /Waiting for a player/);
  await takeSeat(bob, 'Bob');
  await waitStatus(alice.page, 'playing');
  assert.match(await alice.page.locator('.players').textContent(), /Bob/);
  const seq = ['c3', 'b3', 'a3', 'c2', 'b2', 'b1', 'a3a2', 'c2c1', 'c3c2'];
  for (let i = 0; i < seq.length; i++) {
    const p = await whoseTurn([alice, bob]);
    const mv = seq[i];
    await act(p, [alice, bob].filter((x) => x !== p), async (pg) => {
      if (mv.length === 2) return cell(pg, mv).click();
      await cell(pg, mv.slice(0, 2)).click();
      assert.match(await cell(pg, mv.slice(2)).getAttribute('aria-label'), /can move here/);
      await cell(pg, mv.slice(2)).click();
    });
    await seen(alice, i + 1, mv);
    if (i === 3) {
      // Bob reloads: he is seated again, the moves are all there.
      const s = await seqOf(alice.page);
      await bob.page.reload();
      await waitFor(async () => (await seqOf(bob.page)) >= s, 'the reloaded page to show the game');
      assert.match(await bob.page.locator('.player:has(.tag.you)').textContent(), /Bob/);
      await seen(bob, 4, 'c2');
    }
    if (i === 6) { await shoot(bob.page, 'morris'); await boardsOnScreen(alice.page); }
  }
  for (const p of [alice, bob]) await waitStatus(p.page, 'finished');
  assert.match(await alice.page.locator('.status.result').textContent(), /You win — three in a row/);
  assert.match(await bob.page.locator('.status.result').textContent(), /Alice \(X\) wins — three in a row/);
  await alice.page.locator('.chat-form input').fill('good game!');
  await alice.page.locator('.chat-form button').click();
  await bob.page.locator('.chat-list li', { hasText: 'good game!' }).waitFor();
  // Alice asks for a rematch: Bob sees the request and accepts it.
  const seatOf = async (p) => p.page.locator('.player:has(.tag.you)').getAttribute('data-seat');
  await alice.page.getByRole('button', { name: 'Rematch', exact: true }).click();
  await alice.page.getByRole('button', { name: 'Rematch asked — waiting for Bob' }).waitFor();
  const offer = bob.page.locator('.rematch-offer');
  await offer.waitFor();
  assert.equal(await offer.textContent(), 'Alice (X) wants a rematch');
  await bob.page.getByRole('button', { name: 'Accept the rematch' }).click();
  for (const p of [alice, bob]) await p.page.waitForURL((u) => !u.pathname.endsWith(room));
  assert.equal(alice.page.url(), bob.page.url());
  for (const p of [alice, bob]) await waitStatus(p.page, 'playing');
  await waitFor(async () => (await seatOf(alice)) === '1' && (await seatOf(bob)) === '0', 'the seats to be swapped');
  noErrors([alice, bob]);
  await closeAll(alice, bob);
});

test('a 2048 race: both players see and play their own board', async () => {
  const setup = { board: [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 8, 0]], score: 0, seed: 7 };
  const m = await matchUp(browser, srv, '2048', { variant: 'race', setup }, { alice: PHONE, bob: DESKTOP, wendy: PHONE });
  // Each player's own board is on screen, not 0 px wide: both sizes.
  for (const p of m.people) {
    for (const size of [PHONE, DESKTOP]) {
      await p.page.setViewportSize(size);
      const boxes = await boardsOnScreen(p.page, `${p.name}'s boards`);
      assert.equal(boxes.length, 2, 'both boards are drawn');
      if (p !== m.wendy) {
        const mine = await p.page.locator('.b2048-wrap.mine .board-svg').boundingBox();
        assert.ok(mine.width >= Math.min(150, size.width / 3), `${p.name}'s own board is ${mine.width} px wide at ${size.width}`);
      }
    }
  }
  await m.alice.page.setViewportSize(PHONE);
  await m.bob.page.setViewportSize(DESKTOP);
  // Alice plays with the arrow keys, Bob with the on-screen arrows.
  const keys = { N: 'ArrowUp', S: 'ArrowDown', E: 'ArrowRight', W: 'ArrowLeft' };
  let n = 0;
  for (let round = 0; round < 400 && (await statusOf(m.alice.page)) !== 'finished'; round++) {
    for (const p of [m.alice, m.bob]) {
      if ((await statusOf(p.page)) === 'finished') break;
      const dirs = await p.page.locator('.pad button[aria-disabled="false"]').evaluateAll((bs) => bs.map((b) => b.dataset.dir));
      if (!dirs.length) continue;
      const d = dirs[round % dirs.length];
      await act(p, [m.alice, m.bob, m.wendy].filter((x) => x !== p), (pg) =>
        p === m.alice ? pg.keyboard.press(keys[d]) : pg.locator(`.pad button[data-dir="${d}"]`).click());
      await seen(m.wendy, ++n, d);
      if (n === 4) {
        await shoot(m.wendy.page, '2048-race');
        await shoot(m.alice.page, '2048-race-player');
        await assertContrast(m.wendy.page, '2048 race (numbers on tiles)');
      }
    }
  }
  for (const p of m.people) await waitStatus(p.page, 'finished');
  assert.match(await m.wendy.page.locator('.status.result').textContent(), /wins — higher score, [\d,]+ to [\d,]+|Draw — equal scores/);
  noErrors(m.people);
  await closeAll(...m.people);
});
