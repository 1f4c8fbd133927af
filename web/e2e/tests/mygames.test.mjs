// A player's finished games (docs/protocol.md, "A player's games"): the
// lobby's "My games" lists the last ones for the guest the browser holds,
// the page /games (the header's "My games") all of them a page at a time,
// and each links to the game page /g/<room>, which replays the game from
// its record (no room needed) and offers its downloads.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, launch, person, closeAll, noErrors, seatTwo, playMoves, waitStatus, waitFor, shoot, createRoom, setLang,
  assertTextFits, PHONE, DESKTOP, LANGS,
} from '../lib.mjs';
import { onScreen } from '../onscreen.mjs';

let srv, browser;
before(async () => { srv = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await srv?.stop(); });

test('My games lists a finished go game; its page replays it, downloads its SGF and shows the analysis graph', async () => {
  const { alice, bob, room } = await seatTwo(browser, srv.url, 'go', { variant: '9' });
  const MOVES = ['E5', 'D4', 'C3'];
  await playMoves([alice, bob], MOVES);
  // Bob resigns (the button asks to be sure).
  await bob.page.getByRole('button', { name: 'Resign', exact: true }).click();
  await bob.page.getByRole('button', { name: 'Really resign?' }).click();
  for (const p of [alice, bob]) await waitStatus(p.page, 'finished');

  // Alice's lobby, on a phone, in Portuguese: My games lists it.
  await alice.page.setViewportSize(PHONE);
  await alice.page.goto(srv.url + '/');
  await alice.page.locator('#lang').selectOption('pt-PT');
  await alice.page.locator('html[lang="pt-PT"]').waitFor();
  const mine = alice.page.locator(`.my-games .my-game[data-room="${room}"]`);
  await mine.waitFor();
  assert.match(await alice.page.locator('#my-h').textContent(), /Os meus jogos/);
  assert.match(await mine.textContent(), /Bob/);
  assert.match(await mine.locator('.my-outcome').textContent(), /vitória/);
  await mine.locator('a').click();
  await alice.page.waitForURL(new RegExp(`/g/${room}$`));

  // The game page: the whole game from its record, stepped back to the start.
  const pos = alice.page.locator('.replay-pos');
  await pos.waitFor();
  await alice.page.keyboard.press('Home');
  assert.equal(await pos.textContent(), `0 / ${MOVES.length}`);
  const stones = () => alice.page.locator('[role=gridcell][aria-label*="pedra"]').count();
  assert.equal(await stones(), 0);
  for (let i = 1; i <= MOVES.length; i++) {
    await alice.page.keyboard.press('ArrowRight');
    assert.equal(await pos.textContent(), `${i} / ${MOVES.length}`);
    assert.equal(await stones(), i, `stones after move ${i}`);
  }
  const sgf = await alice.page.locator('.downloads a', { hasText: 'SGF' }).getAttribute('href');
  assert.equal(sgf, `/api/records/${room}/sgf`);
  const r = await fetch(srv.url + sgf);
  assert.equal(r.status, 200);
  assert.match(r.headers.get('content-disposition') || '', /attachment/);
  assert.match(await r.text(), /;B\[ee\];W\[df\];B\[cg\]/);

  // The computer's analysis: a win-rate graph for go, on screen.
  await alice.page.locator('.analysis button.analyse').click();
  const graph = alice.page.locator('.analysis svg.winrate-graph');
  await graph.waitFor({ timeout: 120000 });
  await graph.scrollIntoViewIfNeeded();
  const box = await graph.boundingBox();
  assert.ok(box && box.width > 100 && box.height > 20 && box.x >= 0 && box.x + box.width <= PHONE.width, `the graph is ${JSON.stringify(box)}`);
  assert.match(await alice.page.locator('.analysis figcaption').textContent(), /pretas/);
  const points = (await graph.locator('polyline').getAttribute('points')).trim().split(' ');
  assert.equal(points.length, MOVES.length, 'a win rate a move');
  await shoot(alice.page, 'game-page-go');
  // The language switch relabels the analysis with the rest of the page.
  await alice.page.locator('#lang').selectOption('en');
  await alice.page.locator('html[lang="en"]').waitFor();
  assert.equal(await alice.page.locator('.analysis h2').textContent(), 'Analysis');
  assert.match(await alice.page.locator('.analysis figcaption').textContent(), /^Black's chance of winning/);

  // Someone else with the link: the same page, in English, on a desktop.
  const carol = await person(browser, srv.url, null, { path: `/g/${room}` });
  await carol.page.locator('.replay-pos').waitFor();
  assert.equal(await carol.page.locator('.replay-pos').textContent(), `${MOVES.length} / ${MOVES.length}`);
  assert.match(await carol.page.locator('.status').textContent(), /Alice .* wins/);
  assert.equal(await carol.page.locator('.my-games').count(), 0);
  await carol.page.locator('.analysis svg.winrate-graph').waitFor(); // stored: shown at once
  noErrors([alice, bob, carol]);
  await closeAll(alice, bob, carol);
});

test('My games is a page of its own, from the header, a page at a time, in every language', async () => {
  // Zé plays three games against the computer and resigns each at once.
  const ze = await person(browser, srv.url, 'Zé', { viewport: PHONE });
  const rooms = [];
  for (let i = 0; i < 3; i++) {
    await ze.page.goto(srv.url + '/');
    rooms.push(await createRoom(ze, 'morris', { opponent: 'bot', level: 'facil', seat: 0 }));
    await waitStatus(ze.page, 'playing');
    await ze.page.getByRole('button', { name: 'Resign', exact: true }).click();
    await ze.page.getByRole('button', { name: 'Really resign?' }).click();
    await waitStatus(ze.page, 'finished');
  }
  // The header's link, on every page; two games a page (?limit=2).
  await ze.page.locator('.nav-games').click();
  await ze.page.waitForURL(/\/games$/);
  assert.equal(await ze.page.locator('.nav-games').getAttribute('aria-current'), '');
  const items = ze.page.locator('.games-item');
  await waitFor(async () => (await items.count()) === 3, 'the three games');
  assert.deepEqual(await items.evaluateAll((els) => els.map((e) => e.dataset.room)), rooms.slice().reverse(), 'newest first');
  await ze.page.goto(`${srv.url}/games?limit=2`);
  await waitFor(async () => (await items.count()) === 2, 'a page of two');
  assert.deepEqual(await items.evaluateAll((els) => els.map((e) => e.dataset.room)), [rooms[2], rooms[1]]);
  const words = { en: ['lost', 'Older games ▸'], 'pt-PT': ['derrota', 'Mais antigas ▸'], 'pt-BR': ['derrota', 'Mais antigas ▸'] };
  for (const lang of LANGS) {
    await setLang(ze.page, lang);
    assert.equal(await ze.page.locator('.games-item .games-outcome').first().textContent(), words[lang][0]);
    assert.equal(await ze.page.locator('.games-older').textContent(), words[lang][1]);
    assert.match(await ze.page.locator('.games-item').first().textContent(), /computer|Computador/);
    assert.match(await ze.page.locator('.games-item .games-meta').first().textContent(), { en: /^0 moves/, 'pt-PT': /^0 jogadas/, 'pt-BR': /^0 lances/ }[lang]);
    for (const size of [PHONE, DESKTOP]) {
      await ze.page.setViewportSize(size);
      await onScreen(ze.page, ze.page.locator('.games-item').first(), `the first game (${lang})`);
      await onScreen(ze.page, ze.page.locator('.games-older'), `the older link (${lang})`);
      await assertTextFits(ze.page, `My games (${lang})`);
    }
  }
  await setLang(ze.page, 'en');
  // Older: the third game alone, and the way back to the newest.
  await ze.page.locator('.games-older').click();
  await ze.page.waitForURL(/\/games\?before=\d+&limit=2$/);
  await waitFor(async () => (await items.count()) === 1 && (await items.first().getAttribute('data-room')) === rooms[0], 'the oldest game');
  await ze.page.goBack();
  await waitFor(async () => (await items.count()) === 2, 'back to the first page');
  await ze.page.goForward();
  await waitFor(async () => (await items.count()) === 1, 'the second page again');
  await ze.page.locator('.games-newest').click();
  await waitFor(async () => (await items.count()) === 2, 'the newest page');
  // Each game leads to its review.
  await items.first().locator('a.games-title').click();
  await ze.page.waitForURL(new RegExp(`/g/${rooms[2]}$`));
  await ze.page.locator('.status.result').waitFor();
  await shoot(ze.page, 'my-games-review', { boards: true });
  // Someone who never played: the page says so, with nothing else.
  const new1 = await person(browser, srv.url, null, { path: '/games' });
  await new1.page.getByText('You have no finished games yet.', { exact: false }).waitFor();
  noErrors([ze, new1]);
  await closeAll(ze, new1);
});
