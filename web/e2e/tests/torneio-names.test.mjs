// Tournaments name their entrants (docs/web.md, "Tournaments"): a person
// by the display name, a bot account by the name it registered, a level in
// the page's own words; never by id, in the lobby's list and on /t/<id>,
// at phone and desktop sizes, in both languages.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  startServer, launch, person, closeAll, noErrors, setLang, waitFor, sleep, PHONE, DESKTOP, SHOTS, LANGS,
} from '../lib.mjs';
import { onScreen } from '../onscreen.mjs';

let srv, browser;
before(async () => { srv = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await srv?.stop(); });

// playerID is store.PlayerID of a guest token (docs: SHA-256 of the token,
// then of "tabuleiro player id\0" and that hash, 96 bits in base64url).
function playerID(token) {
  const hash = createHash('sha256').update(token).digest('hex');
  return 'p' + createHash('sha256').update('tabuleiro player id\0' + hash).digest().subarray(0, 12).toString('base64url');
}

test('a tournament lists its entrants by name in the lobby and on its page', async () => {
  const ana = await person(browser, srv.url, 'Ana');
  const token = await waitFor(() => ana.page.evaluate(() => localStorage.getItem('tabuleiro.token')), "Ana's token");
  const anaID = playerID(token);
  const reg = await fetch(`${srv.url}/api/bots`, {
    method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Robozinho' }),
  });
  assert.equal(reg.status, 201);
  const bot = await reg.json();
  // The bot is online while its event stream is open.
  const stop = new AbortController();
  const events = await fetch(`${srv.url}/api/bot/stream/event`, { headers: { Authorization: `Bearer ${bot.token}` }, signal: stop.signal });
  assert.equal(events.status, 200);
  await waitFor(async () => ((await (await fetch(`${srv.url}/api/bots`)).json()).bots || []).some((b) => b.id === bot.id), 'the bot online');

  const r = await fetch(`${srv.url}/api/torneios`, {
    method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ game: 'queens', entrants: [{ player: anaID }, { bot: bot.id }, { level: 'gulosa' }], partidas: [['tradicional', 1]] }),
  });
  assert.equal(r.status, 201);
  const { id } = await r.json();
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
