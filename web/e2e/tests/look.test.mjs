// How the page speaks, looks and sounds: Portuguese from the browser's
// language and the switch to English; dark mode and WCAG AA contrast in both
// themes; sounds and their remembered mute; a "your turn" notification in a
// hidden tab; go 13x13 on a phone, where a tap selects and a second plays.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, launch, person, closeAll, noErrors, createRoom, takeSeat, waitStatus, whoseTurn, act, cell,
  waitFor, seqOf, setLang, assertContrast, contrastFailures, boardsOnScreen, shoot, sleep, PHONE, DESKTOP,
} from '../lib.mjs';

let srv, browser;
before(async () => { srv = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await srv?.stop(); });

test('the page in Portuguese from the browser language, switched to English', async () => {
  const p = await person(browser, srv.url, null, { locale: 'pt-BR', viewport: PHONE });
  assert.equal(await p.page.locator('html').getAttribute('lang'), 'pt-BR');
  assert.equal(await p.page.locator('#lang').inputValue(), 'pt-BR');
  assert.equal(await p.page.locator('#live-h [data-i18n]').textContent(), 'Partidas ao vivo');
  const names = await p.page.locator('.game-card h3').allTextContents();
  assert.deepEqual(names, ['Orbito', 'Jogo do Moinho', 'Go', '2048', 'Jogo das Rainhas']);
  // The seeds' own words: rules and bot levels.
  const morris = p.page.locator('.game-card[data-game="morris"]');
  await morris.locator('details.levels > summary').click();
  assert.match(await morris.locator('.level-opt[data-level="facil"] .level-what').textContent(), /primeira posição em ordem de leitura/);
  await morris.locator('details.more > summary').click();
  assert.match(await morris.locator('.rules').textContent(), /fase de movimento/i);
  assert.match(await p.page.locator('.game-card[data-game="queens"] [data-action="quick"]').textContent(), /Partida rápida/);
  await assertContrast(p.page, 'light lobby, levels and rules open');
  // A room in Portuguese too: the result of a resigned game.
  await createRoom(p, 'orbito', { variant: '2', opponent: 'bot', level: 'facil', seat: 0, name: 'Zé' });
  await waitStatus(p.page, 'playing');
  assert.match(await p.page.locator('.status').textContent(), /^Sua vez \(pretas\)/);
  assert.match(await p.page.locator('.players').textContent(), /Computador Fácil/);
  await p.page.getByRole('button', { name: 'Desistir' }).click();
  await p.page.getByRole('button', { name: 'Desistir mesmo?' }).click();
  await waitStatus(p.page, 'finished');
  assert.equal(await p.page.locator('.status.result').textContent(), 'Computador Fácil (brancas) vence — Zé (pretas) desistiu');
  // The switch: English at once, remembered after a reload.
  await setLang(p.page, 'en');
  assert.equal(await p.page.locator('.status.result').textContent(), 'Easy computer (white) wins — Zé (black) resigned');
  assert.equal(await p.page.locator('.back').textContent(), '← Lobby');
  await p.page.reload();
  await p.page.locator('.status.result').waitFor();
  assert.equal(await p.page.locator('html').getAttribute('lang'), 'en');
  assert.match(await p.page.locator('.status.result').textContent(), /resigned/);
  noErrors([p]);
  await closeAll(p);
});

test('dark mode follows the system and the switch; every text at AA contrast in both themes', async () => {
  const bg = (page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const dark = await person(browser, srv.url, 'Dora', { colorScheme: 'dark' });
  assert.equal(await bg(dark.page), 'rgb(18, 22, 28)');
  await dark.page.locator('.game-card').first().waitFor();
  // The measure itself: a grey line on the dark page is caught.
  await dark.page.evaluate(() => { const e = document.createElement('p'); e.id = 'faint'; e.textContent = 'faint words'; e.style.color = '#3a4250'; document.querySelector('main').append(e); });
  assert.ok((await contrastFailures(dark.page)).some((f) => f.includes('faint words')), 'the contrast check missed a faint text');
  await dark.page.evaluate(() => document.getElementById('faint').remove());
  await assertContrast(dark.page, 'dark lobby');
  // A room with a board, players, moves and chat, in both themes.
  const room = await createRoom(dark, 'go', { variant: '9' });
  const bob = await person(browser, srv.url, 'Bob', { path: `/r/${room}` });
  await takeSeat(bob);
  for (const mv of ['E5', 'D4', 'C3']) {
    const p = await whoseTurn([dark, bob]);
    await act(p, [dark, bob].filter((x) => x !== p), () => cell(p.page, mv).click());
  }
  await dark.page.locator('.chat-form input').fill('olá');
  await dark.page.locator('.chat-form button').click();
  await bob.page.locator('.chat-list li').waitFor();
  await assertContrast(dark.page, 'dark room (player)');
  await dark.page.setViewportSize(PHONE);
  await assertContrast(dark.page, 'dark room on a phone');
  await shoot(dark.page, 'go-dark');
  await dark.page.setViewportSize(DESKTOP);
  await assertContrast(bob.page, 'light room');
  // The switch: auto → light → dark, remembered.
  const theme = dark.page.locator('#theme');
  assert.equal(await theme.getAttribute('data-theme'), 'auto');
  await theme.click();
  assert.equal(await theme.getAttribute('data-theme'), 'light');
  assert.equal(await bg(dark.page), 'rgb(244, 242, 237)');
  await assertContrast(dark.page, 'light room (switched)');
  await dark.page.reload();
  await dark.page.locator('.board-host svg').waitFor();
  assert.equal(await bg(dark.page), 'rgb(244, 242, 237)', 'the light choice is remembered over the dark system');
  await dark.page.locator('#theme').click();
  assert.equal(await bg(dark.page), 'rgb(18, 22, 28)');
  // A finished game: the result banner in dark.
  await bob.page.getByRole('button', { name: 'Resign' }).click();
  await bob.page.getByRole('button', { name: 'Really resign?' }).click();
  await waitStatus(dark.page, 'finished');
  await assertContrast(dark.page, 'dark result');
  await assertContrast(bob.page, 'light result');
  noErrors([dark, bob]);
  await closeAll(dark, bob);
});

// The spy counts the notifications the page shows; the tab is hidden at
// will (document.visibilityState follows window.__hidden).
function spy() {
  window.__notes = [];
  const Real = window.Notification;
  class Spy extends Real {
    constructor(title, opts) { super(title, opts); window.__notes.push({ title, body: opts && opts.body }); }
  }
  Object.defineProperty(Spy, 'permission', { get: () => Real.permission });
  Spy.requestPermission = (...a) => Real.requestPermission(...a);
  window.Notification = Spy;
  Object.defineProperty(Document.prototype, 'visibilityState', { get: () => (window.__hidden ? 'hidden' : 'visible') });
  Object.defineProperty(Document.prototype, 'hidden', { get: () => !!window.__hidden });
}

test('a hidden tab gets a "your turn" notification; sounds play and the mute is remembered', async () => {
  const alice = await person(browser, srv.url, 'Alice');
  const room = await createRoom(alice, 'morris');
  const bob = await person(browser, srv.url, 'Bob', { path: `/r/${room}`, init: spy });
  await bob.context.grantPermissions(['notifications'], { origin: srv.url });
  await takeSeat(bob);
  await waitStatus(alice.page, 'playing');
  // Nothing is asked before the click; the click asks and switches it on.
  const bell = bob.page.locator('.controls button.notify');
  assert.equal(await bell.getAttribute('aria-pressed'), 'false');
  await bell.click();
  await waitFor(async () => (await bell.getAttribute('aria-pressed')) === 'true', 'the switch to be on');
  const notes = () => bob.page.evaluate(() => window.__notes.length);
  // Visible tab: no notification.
  let p = await whoseTurn([alice, bob]);
  assert.equal(p, alice, 'X (Alice) moves first');
  await act(alice, [bob], () => cell(alice.page, 'b2').click());
  assert.equal(await notes(), 0, 'a visible tab is not notified');
  await act(bob, [alice], () => cell(bob.page, 'a1').click());
  // Hidden tab: Alice's move notifies Bob.
  await bob.page.evaluate(() => { window.__hidden = true; });
  await act(alice, [bob], () => cell(alice.page, 'c3').click());
  await waitFor(async () => (await notes()) === 1, 'the notification');
  const note = await bob.page.evaluate(() => window.__notes[0]);
  assert.equal(note.title, 'Your turn');
  assert.equal(note.body, 'Jogo do Moinho: Alice played c3.');
  await bob.page.evaluate(() => { window.__hidden = false; });

  // Sounds: each move plays one (Alice hears Bob's move as her turn).
  const sound = (pg) => pg.evaluate(() => document.body.dataset.sound || '');
  const before = await sound(alice.page);
  await act(bob, [alice], () => cell(bob.page, 'a3').click());
  await waitFor(async () => (await sound(alice.page)) !== before, 'a sound on Alice\'s page');
  assert.match(await sound(alice.page), /^turn:/);
  // Muted: nothing plays, and the switch says so after a reload.
  const mute = alice.page.locator('#sound');
  assert.equal(await mute.getAttribute('aria-pressed'), 'true');
  await mute.click();
  assert.equal(await mute.getAttribute('aria-pressed'), 'false');
  const muted = await sound(alice.page);
  await act(alice, [bob], () => cell(alice.page, 'c1').click());
  await act(bob, [alice], () => cell(bob.page, 'a2').click());
  assert.equal(await sound(alice.page), muted, 'a muted page played a sound');
  await alice.page.reload();
  await alice.page.locator('.board-host svg').waitFor();
  assert.equal(await alice.page.locator('#sound').getAttribute('aria-pressed'), 'false');
  noErrors([alice, bob]);
  await closeAll(alice, bob);
});

test('go 13x13 on a phone: a tap selects, a second tap or the confirm button plays', async () => {
  const p = await person(browser, srv.url, 'Pat', { viewport: PHONE, hasTouch: true });
  await createRoom(p, 'go', { variant: '13', opponent: 'bot', level: 'basico', seat: 0 });
  await waitStatus(p.page, 'playing');
  const [box] = await boardsOnScreen(p.page, 'the 13x13 board');
  assert.ok(box.width >= PHONE.width - 24, `the board does not fill the phone's width: ${box.width}`);
  await whoseTurn([p]);
  const s0 = await seqOf(p.page);
  await cell(p.page, 'G7').tap();
  const bar = p.page.locator('.confirm-bar');
  await bar.waitFor();
  assert.equal(await bar.locator('.confirm-move').textContent(), 'Play G7');
  assert.match(await cell(p.page, 'G7').getAttribute('aria-label'), /selected/);
  await sleep(300);
  assert.equal(await seqOf(p.page), s0, 'one tap played a move');
  // Another point moves the selection; a second tap on it plays.
  await cell(p.page, 'K10').tap();
  assert.equal(await bar.locator('.confirm-move').textContent(), 'Play K10');
  await act(p, [], () => cell(p.page, 'K10').tap());
  assert.equal(await p.page.locator('.moves .mv[data-ply="1"]').getAttribute('data-move'), 'K10');
  // The confirm button plays the selected point.
  await whoseTurn([p], 15000);
  const free = (await p.page.locator('[role=gridcell].legal').nth(40).getAttribute('aria-label')).split(',')[0];
  await cell(p.page, free).tap();
  await act(p, [], () => bar.locator('.confirm-move').tap());
  assert.equal(await p.page.locator('.moves .mv[data-ply="3"]').getAttribute('data-move'), free);
  await shoot(p.page, 'go13-phone');
  noErrors([p]);
  await closeAll(p);
});
