// The chat of issue 18 on the page: a line shows its speaker's seat or
// marks a spectator; spectators talk among themselves (the players never
// see their lines, and the spectators are told so); a player switches the spectators' chat off and the
// spectator's page says so; a person mutes another in their own view.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, closeAll, noErrors, matchUp, setLang, boardsOnScreen, shoot, PHONE, DESKTOP } from '../lib.mjs';
import { onScreen } from '../onscreen.mjs';

let srv, browser;
before(async () => { srv = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await srv?.stop(); });

const say = async (p, text) => {
  await p.page.locator('.chat-form input').fill(text);
  await p.page.locator('.chat-form button').click();
};
const line = (p, text) => p.page.locator('.chat-list li', { hasText: text });

test('players and spectators chat apart; seats and spectators marked; switch and mute', async () => {
  const { alice, bob, wendy, people } = await matchUp(browser, srv, 'morris', {}, { alice: DESKTOP, bob: PHONE, wendy: PHONE });
  await setLang(bob.page, 'pt');
  await say(alice, 'boa sorte');
  for (const p of people) await line(p, 'boa sorte').waitFor();
  assert.match(await line(wendy, 'boa sorte').locator('.chat-role').textContent(), /^X$/, "a player's line shows the seat");
  assert.equal(await line(wendy, 'boa sorte').getAttribute('class'), 'chat-player');

  await say(wendy, 'que jogo');
  await line(wendy, 'que jogo').waitFor();
  assert.equal(await line(wendy, 'que jogo').getAttribute('class'), 'chat-spectator');
  assert.equal(await line(wendy, 'que jogo').locator('.chat-role').textContent(), 'spectator');
  // A line Bob says after it reaches Alice after it would have.
  await say(bob, 'obrigado');
  await line(alice, 'obrigado').waitFor();
  // On screen a player's line is one row like a spectator's, not a card
  // (the players' panel's .player style once took the chat's lines).
  for (const [p, size] of [[wendy, PHONE], [alice, DESKTOP]]) {
    await p.page.setViewportSize(size);
    const rows = [];
    for (const text of ['boa sorte', 'obrigado']) rows.push((await line(p, text).boundingBox()).height);
    const one = await line(p, 'boa sorte').evaluate((el) => parseFloat(getComputedStyle(el).lineHeight) || 20);
    for (const hgt of rows) assert.ok(hgt < 1.8 * one, `a chat line of one short text is ${hgt}px tall, one row is ${one}px`);
  }
  assert.equal(await line(alice, 'que jogo').count(), 0, "a player sees the spectators' chat");
  // The spectator is told, in the chat panel, that the players do not read
  // them (issue 29); the players are not.
  const apart = wendy.page.locator('.chat .chat-apart');
  assert.equal(await apart.textContent(), "You are watching: the players do not see the spectators' messages.");
  assert.equal(await wendy.page.locator('.chat-form input').getAttribute('placeholder'), 'Say something to the spectators');
  for (const [lang, words] of [['pt-PT', /os jogadores não leem/], ['pt-BR', /os jogadores não veem/]]) {
    await setLang(wendy.page, lang);
    assert.match(await apart.textContent(), words);
    await onScreen(wendy.page, apart, `the spectator's note (${lang})`);
  }
  await setLang(wendy.page, 'en');
  for (const p of [alice, bob]) assert.equal(await p.page.locator('.chat .chat-apart').count(), 0, `${p.name} is told`);
  for (const p of people) await boardsOnScreen(p.page);
  await shoot(wendy.page, 'chat-spectator');

  // Alice switches the spectators' chat off: Wendy's page says so.
  await alice.page.getByRole('button', { name: "Spectators' chat: on" }).click();
  await alice.page.getByRole('button', { name: "Spectators' chat: off" }).waitFor();
  await wendy.page.getByText("The players switched the spectators' chat off.").waitFor();
  assert.ok(await wendy.page.locator('.chat-form input').isDisabled());
  await bob.page.getByRole('button', { name: 'Conversa dos espectadores: desligada' }).waitFor();
  await alice.page.getByRole('button', { name: "Spectators' chat: off" }).click();
  await wendy.page.locator('.chat-form input:not([disabled])').waitFor();

  // Wendy mutes Alice in her own view: Alice's lines leave Wendy's chat.
  await line(wendy, 'boa sorte').locator('.chat-mute').click();
  await line(wendy, 'boa sorte').waitFor({ state: 'detached' });
  await say(alice, 'de novo');
  await say(bob, 'e eu');
  await line(wendy, 'e eu').waitFor();
  assert.equal(await line(wendy, 'de novo').count(), 0, 'a muted line reached the muter');
  await line(bob, 'de novo').waitFor();
  noErrors(people);
  await closeAll(...people);
});
