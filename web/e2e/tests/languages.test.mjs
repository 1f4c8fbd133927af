// Two Portugueses and English (issue 29): the browser's language picks the
// catalogue (pt-BR for pt-BR; pt-PT for pt-PT and plain pt), the switch
// changes it in place; a guest's default name is shown in the reader's
// language (the server's "guest-1234" is a key the page translates), to
// the guest and to everyone who sees the guest.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, launch, person, closeAll, noErrors, createRoom, takeSeat, waitStatus, setLang, waitFor, PHONE, DESKTOP,
} from '../lib.mjs';

let srv, browser;
before(async () => { srv = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await srv?.stop(); });

test('the browser\'s language chooses: pt-BR, pt-PT for pt-PT and pt, else English', async () => {
  for (const [locale, code, live] of [
    ['pt-BR', 'pt-BR', 'Partidas ao vivo'], ['pt-PT', 'pt-PT', 'Partidas ao vivo'], ['pt', 'pt-PT', 'Partidas ao vivo'], ['en-GB', 'en', 'Live games'],
  ]) {
    const p = await person(browser, srv.url, 'Zé', { locale, viewport: PHONE });
    assert.equal(await p.page.locator('html').getAttribute('lang'), code, locale);
    assert.equal(await p.page.locator('#lang').inputValue(), code, locale);
    assert.equal(await p.page.locator('#live-h span').first().textContent(), live);
    assert.equal(await p.page.locator('.nav-games').textContent(), { 'pt-BR': 'Minhas partidas', 'pt-PT': 'Os meus jogos', en: 'My games' }[code]);
    noErrors([p]);
    await closeAll(p);
  }
  // The switch names both Portugueses, each in its own words.
  const p = await person(browser, srv.url, 'Zé', { locale: 'pt-BR' });
  const names = await p.page.locator('#lang option').evaluateAll((os) => os.map((o) => [o.value, o.textContent]));
  assert.deepEqual(names, [['en', 'English'], ['pt-BR', 'Português (Brasil)'], ['pt-PT', 'Português (Portugal)']]);
  await setLang(p.page, 'pt-PT');
  await p.page.reload();
  assert.equal(await p.page.locator('html').getAttribute('lang'), 'pt-PT', 'the choice is remembered over the browser\'s');
  await closeAll(p);
});

test('a guest\'s default name in each reader\'s language, to the guest and to the others', async () => {
  // A first visit in Brazilian Portuguese: no name chosen.
  const guest = await person(browser, srv.url, null, { locale: 'pt-BR', viewport: PHONE });
  const me = guest.page.locator('#me-name');
  const n = (await me.textContent()).match(/^visitante-(\d{4})$/);
  assert.ok(n, `the header shows "${await me.textContent()}"`);
  assert.equal(await me.getAttribute('title'), `visitante-${n[1]}`);
  await setLang(guest.page, 'pt-PT');
  assert.equal(await me.textContent(), `convidado-${n[1]}`);
  await setLang(guest.page, 'en');
  assert.equal(await me.textContent(), `guest-${n[1]}`);
  await setLang(guest.page, 'pt-BR');

  // Ana invites; the guest takes the seat keeping the name offered.
  const ana = await person(browser, srv.url, 'Ana', { locale: 'pt-PT', viewport: DESKTOP });
  const room = await createRoom(ana, 'morris', { opponent: 'human' });
  await guest.page.goto(`${srv.url}/r/${room}`);
  const input = guest.page.locator('.join-panel input');
  await input.waitFor();
  assert.equal(await input.inputValue(), `visitante-${n[1]}`);
  await takeSeat(guest);
  await waitStatus(ana.page, 'playing');
  // Ana reads it in European Portuguese, on the players' list and in chat.
  await waitFor(async () => /convidado-\d{4}/.test(await ana.page.locator('.players').textContent()), 'the guest on Ana\'s list');
  assert.match(await ana.page.locator('.players').textContent(), new RegExp(`convidado-${n[1]}`));
  await guest.page.locator('.chat-form input').fill('olá');
  await guest.page.locator('.chat-form button').click();
  const line = ana.page.locator('.chat-list li', { hasText: 'olá' });
  await line.waitFor();
  assert.equal(await line.locator('.from').textContent(), `convidado-${n[1]}`);
  assert.match(await guest.page.locator('.players').textContent(), new RegExp(`visitante-${n[1]}`));
  // In English: the server's own name.
  await setLang(ana.page, 'en');
  assert.match(await ana.page.locator('.players').textContent(), new RegExp(`guest-${n[1]}`));
  // The name stays the server's key (nothing renamed the guest): the
  // game's record names "guest-1234", which each reader sees in theirs.
  await ana.page.getByRole('button', { name: 'Resign', exact: true }).click();
  await ana.page.getByRole('button', { name: 'Really resign?' }).click();
  await waitStatus(guest.page, 'finished');
  const rec = await waitFor(async () => { const r = await fetch(`${srv.url}/api/records/${room}`); return r.ok && r.json(); }, 'the record');
  assert.deepEqual(rec.players.map((p) => p.name).sort(), ['Ana', `guest-${n[1]}`]);
  await waitStatus(ana.page, 'finished');
  assert.match(await ana.page.locator('.status.result').textContent(), new RegExp(`^guest-${n[1]} \\([XO]\\) wins — Ana \\([XO]\\) resigned`));
  await setLang(ana.page, 'pt-PT');
  assert.match(await ana.page.locator('.status.result').textContent(), new RegExp(`^convidado-${n[1]} \\([XO]\\) ganha`));
  noErrors([guest, ana]);
  await closeAll(guest, ana);
});
