// After the game (issue 29): the review one click from the finished room,
// for the players and a spectator; the address follows the replay, so a
// link shows a position (/g/<room>#2, the room's replay too); a finished go
// game's replay says the final score, not a live one; 2048 alone offers
// "play again"; a room that does not exist says so on a page of its own.
// Phone and desktop, English, European and Brazilian Portuguese.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, launch, person, closeAll, noErrors, matchUp, playMoves, waitStatus, waitFor, setLang, sleep, createRoom,
  boardsOnScreen, shoot, assertTextFits, PHONE, DESKTOP, LANGS,
} from '../lib.mjs';
import { onScreen } from '../onscreen.mjs';

let srv, browser;
before(async () => { srv = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await srv?.stop(); });

const hash = (p) => new URL(p.page.url()).hash;
const pos = (p) => p.page.locator('.replay-pos').textContent();
const REVIEW = { en: 'Review the game ▸', 'pt-PT': 'Rever a partida ▸', 'pt-BR': 'Rever a partida ▸' };

test('a finished room leads to its review in one click, for players and spectators; links show a position', async () => {
  const { alice, bob, wendy, room, people } = await matchUp(browser, srv, 'go', { variant: '9' }, { alice: DESKTOP, bob: PHONE, wendy: PHONE });
  await playMoves([alice, bob], ['E5', 'pass', 'pass']);
  // The page's go between two people marks dead stones after two passes:
  // both accept the count.
  for (const p of [alice, bob]) {
    await waitStatus(p.page, 'scoring');
    await p.page.locator('.score-accept').click();
  }
  for (const p of people) await waitStatus(p.page, 'finished');

  // The link, under the result, for each of them, in every language.
  for (const p of people) {
    const link = p.page.locator('.review-link');
    await link.waitFor();
    assert.equal(await link.getAttribute('href'), `/g/${room}`);
    for (const lang of LANGS) {
      await setLang(p.page, lang);
      assert.equal(await link.textContent(), REVIEW[lang]);
      for (const size of [PHONE, DESKTOP]) {
        await p.page.setViewportSize(size);
        await sleep(100);
        await onScreen(p.page, link, `${p.name}'s review link (${lang}, ${size.width})`);
        await boardsOnScreen(p.page, `${p.name}'s finished room (${lang})`);
        await assertTextFits(p.page, `${p.name}'s finished room (${lang}, ${size.width})`);
      }
    }
    await setLang(p.page, 'en');
  }
  await shoot(wendy.page, 'after-review-link');

  // The room's replay moves the address, and the link with it; the go
  // board's line says the game's final score, not a live one.
  const w = wendy;
  await w.page.keyboard.press('Home');
  await waitFor(async () => hash(w) === '#0', 'the address at the start');
  await w.page.keyboard.press('ArrowRight');
  await waitFor(async () => hash(w) === '#1', 'the address at move 1');
  assert.equal(await w.page.locator('.review-link').getAttribute('href'), `/g/${room}#1`);
  const score = await w.page.locator('.score-line').textContent();
  assert.doesNotMatch(score, /live/);
  assert.equal(score, await alice.page.locator('.score-line').textContent(), 'the final score, as the end shows it');
  await setLang(w.page, 'pt-BR');
  assert.doesNotMatch(await w.page.locator('.score-line').textContent(), /ao vivo|em curso/);
  await setLang(w.page, 'en');
  await w.page.keyboard.press('End');
  await waitFor(async () => hash(w) === '', 'no number at the end');
  await w.page.keyboard.press('ArrowLeft');
  await waitFor(async () => hash(w) === '#2', 'the address at move 2');

  // One click: the review, at that position.
  await w.page.locator('.review-link').click();
  await w.page.waitForURL(new RegExp(`/g/${room}#2$`));
  await waitFor(async () => (await pos(w)) === '2 / 3', 'the review at move 2');
  await w.page.locator('.analysis').waitFor();
  await w.page.keyboard.press('ArrowLeft');
  await waitFor(async () => hash(w) === '#1', 'the review\'s address at move 1');
  // A reload, and someone else with the link, see that position.
  await w.page.reload();
  await waitFor(async () => (await pos(w)) === '1 / 3', 'the reloaded review at move 1');
  const carl = await person(browser, srv.url, null, { path: `/g/${room}#1`, locale: 'pt-PT' });
  await waitFor(async () => (await pos(carl)) === '1 / 3', 'the link at move 1');
  assert.equal(await carl.page.locator('.board-host').getAttribute('data-shown'), '1');
  assert.equal(await carl.page.locator('html').getAttribute('lang'), 'pt-PT');
  // ?ply= works too, and is written as #.
  await carl.page.goto(`${srv.url}/r/${room}?ply=2`);
  await waitFor(async () => (await pos(carl)) === '2 / 3', 'the room at ?ply=2');
  await waitFor(async () => new URL(carl.page.url()).search === '' && hash(carl) === '#2', 'the address written as #2');
  await shoot(carl.page, 'after-link-position');
  // The back button leaves the page (the replay replaces, never pushes).
  await alice.page.locator('.review-link').click();
  await alice.page.waitForURL(new RegExp(`/g/${room}$`));
  // The review page loads lazily: keys pressed before it listens are lost,
  // as they would be for a person, so wait for it to show the last move.
  await waitFor(async () => (await pos(alice)) === '3 / 3', 'alice\'s review at the end');
  await alice.page.keyboard.press('Home');
  await waitFor(async () => (await pos(alice)) === '0 / 3', 'alice at the start');
  await alice.page.keyboard.press('ArrowRight');
  await waitFor(async () => hash(alice) === '#1', 'alice at move 1');
  await alice.page.goBack();
  await alice.page.waitForURL(new RegExp(`/r/${room}$`));
  noErrors([...people, carl]);
  await closeAll(...people, carl);
});

test('2048 alone: "play again" starts a new game', async () => {
  const p = await person(browser, srv.url, 'Solo', { viewport: PHONE, locale: 'pt-BR' });
  const room = await createRoom(p, '2048', { variant: 'solo', opponent: 'none' });
  await waitStatus(p.page, 'playing');
  await p.page.getByRole('button', { name: 'Desistir', exact: true }).click();
  await p.page.getByRole('button', { name: 'Desistir mesmo?' }).click();
  await waitStatus(p.page, 'finished');
  const again = p.page.getByRole('button', { name: 'Jogar de novo' });
  for (const lang of LANGS) {
    await setLang(p.page, lang);
    for (const size of [PHONE, DESKTOP]) {
      await p.page.setViewportSize(size);
      await onScreen(p.page, p.page.locator('button.again'), `play again (${lang}, ${size.width})`);
    }
  }
  await setLang(p.page, 'pt-BR');
  await again.click();
  await p.page.waitForURL((u) => /\/r\/[A-Za-z0-9_-]+$/.test(u.pathname) && !u.pathname.endsWith(room));
  await waitStatus(p.page, 'playing');
  await boardsOnScreen(p.page, 'the new 2048 game');
  assert.equal(await p.page.locator('.moves .mv').count(), 0);
  noErrors([p]);
  await closeAll(p);
});

test('a room that does not exist says so, on a page of its own', async () => {
  const p = await person(browser, srv.url, null, { path: '/r/noSuchRoom9', viewport: PHONE });
  const words = {
    en: ['This game does not exist', 'Back to the lobby'],
    'pt-PT': ['Esta partida não existe', 'Voltar à entrada'],
    'pt-BR': ['Esta partida não existe', 'Voltar ao início'],
  };
  await p.page.locator('.not-found h1').waitFor();
  assert.equal(await p.page.locator('.room').count(), 0, 'no empty panels');
  for (const lang of LANGS) {
    await setLang(p.page, lang);
    assert.equal(await p.page.locator('.not-found h1').textContent(), words[lang][0]);
    assert.equal(await p.page.locator('.not-found a.primary').textContent(), words[lang][1]);
    assert.match(await p.page.title(), new RegExp(words[lang][0]));
    for (const size of [PHONE, DESKTOP]) {
      await p.page.setViewportSize(size);
      await onScreen(p.page, p.page.locator('.not-found h1'), `the heading (${lang})`);
      await assertTextFits(p.page, `not found (${lang}, ${size.width})`);
    }
  }
  await shoot(p.page, 'after-not-found', { boards: false });
  // The game page of an unknown game says the same.
  await p.page.goto(`${srv.url}/g/noSuchRoom9`);
  await p.page.locator('.not-found h1').waitFor();
  await p.page.locator('.not-found a.primary').click();
  await p.page.waitForURL(`${srv.url}/`);
  await p.page.locator('.game-card').first().waitFor();
  noErrors([p]);
  await closeAll(p);
});
