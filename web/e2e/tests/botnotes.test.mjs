// What a bot did, move by move (issue 28): on the game page of a bot
// account's game, a spectator sees every move's time as the server
// measured it; the bot's owner also sees the info its program sent with
// each move and the answer the server refused it. On a phone and a
// desktop, in both languages.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, launch, person, pageFetch, closeAll, noErrors, waitFor, setLang, sleep, assertContrast, boardsOnScreen, LANGS,
  PHONE, DESKTOP, SHOTS,
} from '../lib.mjs';
import { onScreen } from '../onscreen.mjs';
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';

let srv, browser;
before(async () => { srv = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await srv?.stop(); });

const SIZES = [['phone', PHONE], ['desktop', DESKTOP]];
const WORDS = {
  'pt-PT': { title: 'O que os robôs fizeram', refused: 'recusada', ownerOnly: /só são mostradas ao seu dono/, yours: /só lhe são mostradas a si/ },
  'pt-BR': { title: 'O que os robôs fizeram', refused: 'recusado', ownerOnly: /só aparecem para o dono dele/, yours: /só aparecem para você/ },
  en: { title: 'What the bots did', refused: 'refused', ownerOnly: /shown to its owner only/, yours: /shown to you only/ },
};

async function api(method, path, token, body) {
  const r = await fetch(`${srv.url}${path}`, {
    method, headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: r.status, json: await r.json().catch(() => null) };
}

async function snap(page, name) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: page.viewportSize().width < 500 });
}

test('a bot\'s game page: move times for a spectator, the bot\'s info and refused answer for its owner only', async () => {
  const owner = await person(browser, srv.url, 'Ana');
  const rival = await person(browser, srv.url, 'Bia');
  // Each person registers a bot from its page (the session cookie says who).
  const aluno = (await pageFetch(owner, 'POST', '/api/bots', { name: 'aluno:normal' })).body;
  const outro = (await pageFetch(rival, 'POST', '/api/bots', { name: 'outro' })).body;
  // The owner's bot is online (its event stream open), and the other bot
  // challenges it: the seed's moinho('[X]', 'facil') game, the other bot
  // X, the owner's bot O with its info, and one illegal answer first.
  const stop = new AbortController();
  const events = await fetch(`${srv.url}/api/bot/stream/event`, { headers: { Authorization: `Bearer ${aluno.token}` }, signal: stop.signal });
  assert.equal(events.status, 200);
  const ch = await api('POST', `/api/bots/${aluno.id}/challenge`, outro.token, { game: 'morris', variant: '3', seat: 0 });
  assert.equal(ch.status, 201);
  const room = ch.json.room;
  const X = ['a2', 'a1', 'c1', 'c1c2', 'a1b1', 'b1b2'];
  const O = ['b2', 'a3', 'b1', 'b1c1', 'b2a1'];
  const move = (bot, mv, info) => api('POST', `/api/bot/game/${room}/move/${mv}`, bot.token, info ? { info } : undefined);
  for (let i = 0; i < X.length; i++) {
    assert.equal((await move(outro, X[i])).status, 200, `X ${X[i]}`);
    if (i === 1) {
      const bad = await move(aluno, 'a2', 'tentei a2');
      assert.equal(bad.json.error.code, 'illegal_move');
    }
    if (i < O.length) assert.equal((await move(aluno, O[i], `profundidade ${i + 1}`)).status, 200, `O ${O[i]}`);
  }
  stop.abort();
  // The API gives the notes to the owner only.
  const open = await (await fetch(`${srv.url}/api/records/${room}`)).json();
  assert.equal(open.result.reason, 'line');
  assert.ok(open.moves.every((m) => typeof m.ms === 'number' && !m.info) && !open.faults, 'a stranger reads times only');

  const spectator = await person(browser, srv.url, 'Carla');
  const rows = (p) => p.page.locator('.botnotes-list li[data-ply]:not(.botnotes-fault)');
  for (const p of [spectator, owner]) {
    await p.page.goto(`${srv.url}/g/${room}`);
    await p.page.locator('.botnotes').waitFor();
    await waitFor(async () => (await rows(p).count()) === X.length + O.length, `${p.name}: a row a move`);
  }
  // The owner's page asked with its session: the info and the refused answer.
  await waitFor(async () => (await owner.page.locator('.botnotes-info').count()) === O.length + 1, 'the owner sees the info');
  assert.equal(await spectator.page.locator('.botnotes-info').count(), 0, 'a spectator sees no info');
  assert.equal(await spectator.page.locator('.botnotes-fault').count(), 0, 'a spectator sees no refused answer');
  const oMove = (p) => p.page.locator('.botnotes-list li[data-ply="2"]');
  assert.equal(await oMove(owner).locator('.botnotes-info').textContent(), 'profundidade 1');
  const fault = owner.page.locator('.botnotes-fault');
  assert.equal(await fault.count(), 1);
  assert.equal(await fault.getAttribute('data-ply'), '3');
  assert.match(await fault.textContent(), /a2.*illegal_move: a2 is occupied.*tentei a2/);

  for (const lang of LANGS) {
    for (const p of [spectator, owner]) {
      await setLang(p.page, lang);
      await waitFor(async () => (await p.page.locator('.botnotes h2').textContent()) === WORDS[lang].title, `${p.name}: the panel in ${lang}`);
      const mine = p === owner;
      assert.match(await p.page.locator('.botnotes-hint').textContent(), mine ? WORDS[lang].yours : WORDS[lang].ownerOnly);
      for (const [label, size] of SIZES) {
        await p.page.setViewportSize(size);
        await sleep(150);
        await boardsOnScreen(p.page, `${p.name}'s game page (${lang}, ${label})`);
        const time = oMove(p).locator('.botnotes-time');
        await onScreen(p.page, time, `${p.name}: the move's time (${lang}, ${label})`);
        assert.match(await time.textContent(), /^\d+([.,]\d)? (ms|s)$/);
        if (mine) {
          await onScreen(p.page, oMove(p).locator('.botnotes-info'), `the owner: the bot's info (${lang}, ${label})`);
          await onScreen(p.page, fault, `the owner: the refused answer (${lang}, ${label})`);
          assert.match(await fault.textContent(), new RegExp(WORDS[lang].refused));
        }
        await assertContrast(p.page, `${p.name}'s game page with bot notes (${lang}, ${label})`);
        await snap(p.page, `botnotes-${mine ? 'owner' : 'spectator'}-${lang}-${label}`);
      }
    }
  }
  // A click on a move shows the position after it.
  await owner.page.setViewportSize(DESKTOP);
  await oMove(owner).locator('.jump').click();
  assert.equal(await owner.page.locator('.replay-pos').textContent(), `2 / ${X.length + O.length}`);
  noErrors([owner, rival, spectator]);
  await closeAll(owner, rival, spectator);
});
