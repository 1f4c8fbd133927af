// The tournament page (/t/<id>): a queens round robin of the server's
// levels, started through POST /api/torneios; the lobby lists it while it
// runs; its page shows, at phone and desktop sizes and in both languages,
// standings equal to what the games' records say, and every game opens
// its room, with the board on screen.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, launch, person, closeAll, noErrors, setLang, watchFirstTorneioGame, shoot, assertContrast, PHONE, DESKTOP, LANGS, pageFetch,
} from '../lib.mjs';

let srv, browser;
before(async () => { srv = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await srv?.stop(); });

// standingsFromRecords computes each entrant's played, won, drawn, lost
// from the records of the tournament's games (GET /api/records/<room>).
async function standingsFromRecords(v) {
  const out = v.entrants.map(() => ({ played: 0, won: 0, drawn: 0, lost: 0 }));
  for (const g of v.games) {
    const r = await fetch(`${srv.url}/api/records/${g.room}`);
    assert.equal(r.status, 200, `record of ${g.room}`);
    const rec = await r.json();
    assert.equal(rec.status, 'finished');
    const [a, b] = g.entrants.map((i) => out[i]);
    a.played++; b.played++;
    const w = rec.result.winner;
    if (w === 0) { a.won++; b.lost++; } else if (w === 1) { b.won++; a.lost++; } else { a.drawn++; b.drawn++; }
  }
  return out;
}

test('a tournament: listed in the lobby while it runs, its page shows the standings the games say', async () => {
  const ana = await person(browser, srv.url, 'Ana');
  // The page's session cookie says who creates it.
  const r = await pageFetch(ana, 'POST', '/api/torneios',
    { game: 'queens', entrants: [{ level: 'apressado' }, { level: 'gulosa' }, { level: 'roleta' }], partidas: [['tradicional', 1]] });
  assert.equal(r.status, 201);
  const { id } = r.body;

  // The lobby lists it (bot-only games pause before each move: it runs
  // for several seconds) and one click opens its page.
  await ana.page.reload();
  const link = ana.page.locator(`a[data-torneio="${id}"]`);
  await link.waitFor();
  await link.click();
  await ana.page.waitForURL(`**/t/${id}`);
  await ana.page.locator('.standings tbody tr').first().waitFor();

  // Every game is one click from watching: the first one's room, board on screen.
  await watchFirstTorneioGame(ana.page, id);

  await ana.page.locator('.torneio-status[data-status="finished"]').waitFor({ timeout: 120000 });
  const v = await (await fetch(`${srv.url}/api/torneios/${id}`)).json();
  assert.equal(v.status, 'finished');
  assert.equal(v.games.length, 6);
  const want = await standingsFromRecords(v);

  const viewer = await person(browser, srv.url, null, { path: `/t/${id}`, viewport: PHONE });
  for (const p of [ana, viewer]) {
    for (const lang of LANGS) {
      await setLang(p.page, lang);
      assert.equal(await p.page.locator('h1.torneio-title').textContent(), { 'pt-PT': 'Torneio de Jogo das Rainhas', 'pt-BR': 'Torneio de Jogo das Rainhas', en: 'Tournament of Jogo das Rainhas' }[lang]);
      for (const size of [PHONE, DESKTOP]) {
        await p.page.setViewportSize(size);
        await p.page.locator('.torneio-status[data-status="finished"]').waitFor();
        const rows = p.page.locator('.standings tbody tr');
        assert.equal(await rows.count(), 3);
        for (let k = 0; k < 3; k++) {
          const row = rows.nth(k);
          const i = Number(await row.getAttribute('data-entrant'));
          const cell = async (c) => Number((await row.locator(`td[data-k="${c}"]`).textContent()).replace(/[^\d]/g, ''));
          for (const c of ['played', 'won', 'drawn', 'lost']) {
            assert.equal(await cell(c), want[i][c], `${lang} ${size.width}px: entrant ${i} ${c}`);
          }
          const share = Math.round(1000 * want[i].won / want[i].played) / 10;
          const shown = (await row.locator('td[data-k="share"]').textContent()).replace(',', '.').replace(/[^\d.]/g, '');
          assert.equal(Number(shown), share, `${lang}: entrant ${i} share`);
          const box = await row.boundingBox();
          assert.ok(box && box.width > 0 && box.x >= 0 && box.x + box.width <= size.width + 0.5, `${lang} ${size.width}px: row ${k} off screen`);
        }
        const over = await p.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        assert.ok(over <= 0, `the tournament page overflows ${size.width}px sideways by ${over}px`);
        await assertContrast(p.page, `the tournament page (${lang}, ${size.width}px)`);
      }
    }
  }
  await shoot(viewer.page, 'torneio', { boards: false });
  noErrors([ana, viewer]);
  await closeAll(ana, viewer);
});
