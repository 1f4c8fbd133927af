// Tournaments name their entrants (docs/web.md, "Tournaments"): a person
// by the display name, a bot account by the name it registered, a level in
// the page's own words; never by id, in the lobby's list and on /t/<id>,
// at phone and desktop sizes, in both languages.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  startServer, launch, person, closeAll, noErrors, setLang, waitFor, sleep, PHONE, DESKTOP, SHOTS, LANGS, pageFetch,
} from '../lib.mjs';
import { onScreen } from '../onscreen.mjs';

let srv, browser;
before(async () => { srv = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await srv?.stop(); });

test('a tournament lists its entrants by name in the lobby and on its page', async () => {
  const ana = await person(browser, srv.url, 'Ana');
  // The page is known by its session cookie: it asks who it is, and
  // registers the bot, as its own scripts do.
  const anaID = (await pageFetch(ana, 'GET', '/api/me')).body.id;
  const reg = await pageFetch(ana, 'POST', '/api/bots', { name: 'Robozinho' });
  assert.equal(reg.status, 201);
  const bot = reg.body;
  // The bot is online while its event stream is open.
  const stop = new AbortController();
  const events = await fetch(`${srv.url}/api/bot/stream/event`, { headers: { Authorization: `Bearer ${bot.token}` }, signal: stop.signal });
  assert.equal(events.status, 200);
  await waitFor(async () => ((await (await fetch(`${srv.url}/api/bots`)).json()).bots || []).some((b) => b.id === bot.id), 'the bot online');

  const r = await pageFetch(ana, 'POST', '/api/torneios',
    { game: 'queens', entrants: [{ player: anaID }, { bot: bot.id }, { level: 'gulosa' }], partidas: [['tradicional', 1]] });
  assert.equal(r.status, 201);
  const { id } = r.body;
  const v = await (await fetch(`${srv.url}/api/torneios/${id}`)).json();
  assert.deepEqual(v.entrants.map((e) => e.name), ['Ana', 'Robozinho', 'bot gulosa']);

  const NAMES = {
    en: ['Ana', 'Robozinho (bot)', 'Greedy computer'],
    'pt-PT': ['Ana', 'Robozinho (robô)', 'Computador Gulosa'],
    'pt-BR': ['Ana', 'Robozinho (robô)', 'Computador Gulosa'],
  };
  const viewer = await person(browser, srv.url, null, { viewport: PHONE });
  mkdirSync(SHOTS, { recursive: true });
  for (const lang of LANGS) {
    await setLang(viewer.page, lang);
    for (const [label, size] of [['phone', PHONE], ['desktop', DESKTOP]]) {
      await viewer.page.setViewportSize(size);
      await viewer.page.goto(srv.url + '/');
      // The lobby's list: the names, on screen.
      const item = viewer.page.locator(`a[data-torneio="${id}"]`).locator('xpath=..');
      const names = item.locator('.torneio-names');
      await names.waitFor();
      assert.equal(await names.textContent(), NAMES[lang].join(', '));
      await onScreen(viewer.page, names, `the lobby's names (${lang}, ${label})`);
      await viewer.page.screenshot({ path: join(SHOTS, `torneio-names-lobby-${lang}-${label}.png`), fullPage: label === 'phone' });

      // Its page: the standings and the games by name, no id anywhere.
      await viewer.page.goto(`${srv.url}/t/${id}`);
      const rows = viewer.page.locator('.standings tbody tr');
      await rows.first().waitFor();
      for (let i = 0; i < 3; i++) {
        const th = viewer.page.locator(`.standings tbody tr[data-entrant="${i}"] th`);
        const want = NAMES[lang][i];
        const got = await th.textContent();
        if (want instanceof RegExp) assert.match(got, want); else assert.equal(got, want);
        await onScreen(viewer.page, th, `entrant ${i}'s name (${lang}, ${label})`);
      }
      const game = viewer.page.locator('.torneio-games li').first();
      await game.waitFor();
      const text = await viewer.page.locator('.torneio').textContent();
      assert.ok(!text.includes(anaID) && !text.includes(bot.id), `an id shows on the page: ${text}`);
      assert.match(await viewer.page.locator('.torneio-games').textContent(), /Ana – Robozinho|Robozinho – Ana/);
      await onScreen(viewer.page, game, `the first game (${lang}, ${label})`);
      await sleep(100);
      await viewer.page.screenshot({ path: join(SHOTS, `torneio-names-${lang}-${label}.png`), fullPage: label === 'phone' });
    }
  }
  stop.abort();
  noErrors([ana, viewer]);
  await closeAll(ana, viewer);
});
