// A tournament from the page (issue 29 item 3, issue 24's consent): Ana,
// on a desktop in English, creates a queens round robin on /t/new from the
// server's levels and two people she invites by the player ids their pages
// show them; Bia, on a phone in Portuguese, sees the invitation in her
// lobby, accepts and then declines it; Cid never answers; Ana starts it
// without them. It runs between the levels, one click from watching each
// game, listed in the lobby, to the end: the standings ranked as the API
// ranks them, the rule written under them, who is not playing and why, on
// screen at phone and desktop sizes in both languages. Ana also opens her
// bot to tournaments from the same page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  startServer, launch, person, closeAll, noErrors, setLang, watchFirstTorneioGame, waitFor, sleep, assertContrast, PHONE, DESKTOP, LANGS, SHOTS,
  pageFetch,
} from '../lib.mjs';
import { onScreen } from '../onscreen.mjs';

let srv, browser;
before(async () => { srv = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await srv?.stop(); });

// idOnPage reads the player id a person's own /t/new shows them (what
// they would give to whoever invites them).
async function idOnPage(p) {
  await p.page.goto(`${srv.url}/t/new`);
  const code = p.page.locator('.your-id .player-id');
  await code.waitFor();
  await onScreen(p.page, code, `${p.name}'s id on /t/new`);
  return (await code.textContent()).trim();
}

// noSideways asserts the page does not scroll sideways.
async function noSideways(page, what) {
  const over = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(over <= 0, `${what} overflows sideways by ${over}px`);
}

test('a tournament created, answered and watched to the end from the page', async () => {
  mkdirSync(SHOTS, { recursive: true });
  const ana = await person(browser, srv.url, 'Ana');
  const bia = await person(browser, srv.url, 'Bia', { viewport: PHONE });
  const cid = await person(browser, srv.url, 'Cid', { viewport: PHONE });
  await setLang(bia.page, 'pt');
  const biaID = await idOnPage(bia);
  const cidID = await idOnPage(cid);
  await bia.page.goto(`${srv.url}/`);

  // Ana has a bot (registered over the API as her page is known, its
  // session cookie): the page lists it and opens it to tournaments.
  const reg = await pageFetch(ana, 'POST', '/api/bots', { name: 'Robozinho' });
  assert.equal(reg.status, 201);
  const bot = reg.body;

  // From the lobby to /t/new.
  const create = ana.page.locator('.torneios a.torneio-create');
  await create.waitFor();
  await onScreen(ana.page, create, "the lobby's Create a tournament");
  await create.click();
  await ana.page.waitForURL('**/t/new');
  const form = ana.page.locator('form.torneio-new');
  await form.locator('select[name=game]').waitFor();
  assert.equal(await form.locator('select[name=game]').inputValue(), 'queens');
  assert.ok(await form.locator('.variant-pick[data-variant="tradicional"] input[type=checkbox]').isChecked(), 'tradicional is chosen at first');
  // Her bot: listed among hers (offline), and its setting.
  await form.locator(`label.pick[data-entrant="bot:${bot.id}"]`).waitFor();
  const open = form.locator(`.torneio-bots label[data-bot="${bot.id}"] input`);
  assert.equal(await open.isChecked(), false);
  await open.check();
  await waitFor(async () => {
    const r = await pageFetch(ana, 'GET', '/api/bots/mine');
    return (r.body.bots || []).some((b) => b.id === bot.id && b.open);
  }, 'the bot opened to tournaments');

  for (const level of ['apressado', 'gulosa', 'roleta']) await form.locator(`label.pick[data-entrant="level:${level}"] input`).check();
  for (const id of [biaID, cidID]) {
    await form.locator('input[name=player-id]').fill(id);
    await form.locator('button[data-action=add-player]').click();
    await form.locator(`label.pick[data-entrant="player:${id}"] input:checked`).waitFor();
  }
  const summary = form.locator('.torneio-summary');
  await form.locator('.torneio-summary[data-games="20"]').waitFor();
  assert.match(await summary.textContent(), /Entrants: 5 · Games: 20/);
  assert.equal(await form.locator('select[name=wait]').isVisible(), true, 'with people invited the wait is asked');
  for (const size of [PHONE, DESKTOP]) {
    await ana.page.setViewportSize(size);
    await noSideways(ana.page, `/t/new at ${size.width}px`);
    await onScreen(ana.page, form.locator('button[data-action=create]'), `the create button at ${size.width}px`);
    await ana.page.screenshot({ path: join(SHOTS, `torneio-new-en-${size === PHONE ? 'phone' : 'desktop'}.png`), fullPage: size === PHONE });
  }
  await form.locator('button[data-action=create]').click();
  await ana.page.waitForURL(/\/t\/t[A-Za-z0-9_-]+$/);
  const id = new URL(ana.page.url()).pathname.split('/').pop();

  // It waits for the invitations: Ana sees who answered and may start it.
  await ana.page.locator('.torneio-status[data-status="waiting"]').waitFor();
  await ana.page.locator(`.torneio-entrants li[data-invite="pending"]`).nth(1).waitFor();
  await ana.page.locator('button[data-action=start]').waitFor();

  // Bia's lobby on her phone: the invitation, answered in place (she
  // accepts, then changes her mind).
  const item = bia.page.locator(`.torneio-list li:has(a[data-torneio="${id}"])`);
  const accept = item.locator('.torneio-invite button[data-answer="accept"]');
  await accept.waitFor({ timeout: 15000 });
  assert.equal(await item.locator('.torneio-invite > span').first().textContent(), 'Tem um convite para jogar neste torneio.');
  await onScreen(bia.page, accept, "Bia's Accept in her lobby");
  await bia.page.screenshot({ path: join(SHOTS, 'torneio-invite-pt-phone.png'), fullPage: true });
  await accept.click();
  await item.locator('.torneio-invite[data-invite="accepted"]').waitFor({ timeout: 15000 });
  await item.locator('.torneio-invite button[data-answer="decline"]').click();
  await item.locator('.torneio-invite[data-invite="declined"]').waitFor({ timeout: 15000 });
  await ana.page.locator('.torneio-entrants li[data-invite="declined"]').waitFor({ timeout: 15000 });
  for (const [label, size] of [['phone', PHONE], ['desktop', DESKTOP]]) {
    await ana.page.setViewportSize(size);
    await onScreen(ana.page, ana.page.locator('button[data-action=start]'), `Start now (${label})`);
    await noSideways(ana.page, `the waiting tournament (${label})`);
    await ana.page.screenshot({ path: join(SHOTS, `torneio-waiting-en-${label}.png`), fullPage: label === 'phone' });
  }

  // Ana starts it without Cid, who never answered.
  await ana.page.locator('button[data-action=start]').click();
  await ana.page.locator('.torneio-status[data-status="running"]').waitFor({ timeout: 15000 });
  const withdrawn = ana.page.locator('.torneio-withdrawn');
  assert.equal(await withdrawn.textContent(), 'Not playing: Bia (declined), Cid (did not answer)');

  // Watching: a game one click away, its board on screen.
  await watchFirstTorneioGame(ana.page, id);

  // The lobby lists it while it runs (Bia's, on her phone).
  await bia.page.reload();
  const listed = bia.page.locator(`.torneio-list li[data-status="running"] a[data-torneio="${id}"]`);
  await listed.waitFor({ timeout: 15000 });
  await onScreen(bia.page, listed, 'the running tournament in the lobby');
  await listed.click();
  await bia.page.waitForURL(`**/t/${id}`);

  // To the end.
  await ana.page.locator('.torneio-status[data-status="finished"]').waitFor({ timeout: 150000 });
  const v = await (await fetch(`${srv.url}/api/torneios/${id}`)).json();
  assert.equal(v.status, 'finished');
  assert.deepEqual(v.entrants.map((e) => e.level), ['apressado', 'gulosa', 'roleta']);
  assert.equal(v.games.length, 6);
  const RULE = {
    en: /^Ranked by the share of games won.*a draw ½/,
    'pt-PT': /^Classificação pela percentagem de vitórias.*empate ½/,
    'pt-BR': /^Classificação pela porcentagem de vitórias.*empate ½/,
  };
  for (const p of [ana, bia]) {
    await p.page.locator('.torneio-status[data-status="finished"]').waitFor({ timeout: 15000 });
    for (const lang of LANGS) {
      await setLang(p.page, lang);
      for (const [label, size] of [['phone', PHONE], ['desktop', DESKTOP]]) {
        await p.page.setViewportSize(size);
        await sleep(100);
        const rows = p.page.locator('.standings tbody tr');
        assert.equal(await rows.count(), 3);
        // Shown in the API's ranking, each rank as the API says.
        let last = 0;
        for (let k = 0; k < 3; k++) {
          const row = rows.nth(k);
          const i = Number(await row.getAttribute('data-entrant'));
          const s = v.standings[i];
          assert.ok(s.rank >= last, `${lang} ${label}: row ${k} is rank ${s.rank} after rank ${last}`);
          last = s.rank;
          assert.equal(Number(await row.locator('td[data-k="rank"]').textContent()), s.rank);
          for (const c of ['played', 'won', 'drawn', 'lost']) {
            assert.equal(Number((await row.locator(`td[data-k="${c}"]`).textContent()).replace(/[^\d]/g, '')), s[c], `${lang} ${label}: entrant ${i} ${c}`);
          }
          assert.equal(Number((await row.locator('td[data-k="points"]').textContent()).replace(',', '.')), s.points);
          await onScreen(p.page, row, `${p.name}: standings row ${k} (${lang}, ${label})`);
        }
        const rule = p.page.locator('.torneio-rule');
        assert.match(await rule.textContent(), RULE[lang]);
        await onScreen(p.page, rule, `${p.name}: the ranking rule (${lang}, ${label})`);
        await onScreen(p.page, p.page.locator('.torneio-withdrawn'), `${p.name}: who is not playing (${lang}, ${label})`);
        await noSideways(p.page, `${p.name}'s tournament page (${lang}, ${label})`);
        await assertContrast(p.page, `the tournament page (${lang}, ${label})`);
        if (p === bia) await p.page.screenshot({ path: join(SHOTS, `torneio-page-${lang}-${label}.png`), fullPage: label === 'phone' });
      }
    }
  }
  noErrors([ana, bia, cid]);
  await closeAll(ana, bia, cid);
});

test('the API refuses what the page cannot ask for, in its own words', async () => {
  // A stranger's closed bot, shown to whoever tries, on the page's form.
  const ana = await person(browser, srv.url, 'Ana2');
  const zeca = await person(browser, srv.url, 'Zeca');
  const bot = (await pageFetch(zeca, 'POST', '/api/bots', { name: 'Fechado' })).body;
  await ana.page.goto(`${srv.url}/t/new`);
  const form = ana.page.locator('form.torneio-new');
  await form.locator('label.pick[data-entrant="level:gulosa"] input').check();
  // Typing a bot id as a person: the page says it is not a player id.
  await form.locator('input[name=player-id]').fill(bot.id);
  await form.locator('button[data-action=add-player]').click();
  const note = ana.page.locator('.torneio .torneio-note').last();
  await waitFor(async () => /is not a player id/.test(await note.textContent()), 'the refusal of a bot id as a person');
  // A made-up person: the server's words, nothing created.
  await form.locator('input[name=player-id]').fill('pmadeup');
  await form.locator('button[data-action=add-player]').click();
  await form.locator('button[data-action=create]').click();
  await waitFor(async () => /there is no player "pmadeup"/.test(await note.textContent()), "the server's refusal on the page");
  assert.match(ana.page.url(), /\/t\/new$/);
  noErrors([ana, zeca].map((p) => ({ ...p, errors: p.errors.filter((e) => !/Failed to load resource: the server responded with a status of 400/.test(e)) })));
  await closeAll(ana, zeca);
});
