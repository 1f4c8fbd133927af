// Ratings on the page (issue 27; docs/web.md, "Ratings"): two accounts, Ana
// on a desktop in English and Bia on a phone in Brazilian Portuguese, play
// a rated morris game in their pages to the end (Bia resigns): the rated
// choice where Ana creates it (a guest sees it off, with the way to an
// account), "1500?" beside each name in the room and on the lobby's live
// card a guest in European Portuguese sees, "Rated" on the room and the
// card, and at the end each seat's new rating with its change, "+N" green
// and "−N" red, the figures the server gives. Then, after sixty more rated
// games between them over their own pages' WebSockets (the board takes
// players whose deviation is 75 or less), Bia's profile from Ana's click on
// her name, with its curve of every rated game, one click from a game's
// replay; and the morris leaderboard from the header, with both players
// and Bia's own rank; a guest at a rated game's invitation is shown the
// way to an account instead of a seat. Every page on screen at phone and desktop sizes in
// the three languages, its text fitting, with screenshots.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, launch, person, closeAll, noErrors, createRoom, takeSeat, waitStatus, whoseTurn, act, cell,
  waitFor, boardsOnScreen, setLang, shoot, pageFetch, assertTextFits, assertContrast, card, PHONE, DESKTOP, LANGS,
} from '../lib.mjs';
import { onScreen } from '../onscreen.mjs';

let srv, browser;
// -rate: the seeding games send a few hundred messages from two pages.
before(async () => { srv = await startServer({ args: ['-rate', '200', '-burst', '400'] }); browser = await launch(); });
after(async () => { await browser?.close(); await srv?.stop(); });

const POOL = 'morris/3';
const SEEDED = 60; // rated games after the first: both deviations fall under 75 (56 do it)

// account makes p's guest an account named name (POST /api/account from
// its page, as the account page does) and reloads the page as it.
async function account(p, name) {
  const r = await pageFetch(p, 'POST', '/api/account', { name, password: 'uma senha comprida' });
  assert.equal(r.status, 201, `account ${name}: ${JSON.stringify(r.body)}`);
  await p.page.reload();
  await waitFor(async () => (await p.page.locator('#me-name').textContent()) === name, `${name} in the header`);
  p.id = r.body.id;
  p.account = name;
  return r.body.id;
}

// everywhere runs check at phone and desktop sizes in every language,
// with the page's text fitting and at AA contrast (in the dark theme too),
// then takes the screenshots (shoot).
async function everywhere(page, name, check, { boards = false } = {}) {
  const vp = page.viewportSize();
  const lang0 = await page.locator('html').getAttribute('lang');
  for (const lang of LANGS) {
    await setLang(page, lang);
    for (const size of [PHONE, DESKTOP]) {
      await page.setViewportSize(size);
      await check(lang, size);
      await assertTextFits(page, `${name} (${lang}, ${size.width}px)`);
      await assertContrast(page, `${name} (${lang}, ${size.width}px)`);
    }
  }
  // The dark theme, too (the system's: the page follows it by default).
  await page.emulateMedia({ colorScheme: 'dark' });
  await assertContrast(page, `${name} (dark)`);
  await page.emulateMedia({ colorScheme: 'light' });
  await setLang(page, lang0);
  await page.setViewportSize(vp);
  await shoot(page, name, { boards });
}

const RATED = { en: 'Rated', 'pt-PT': 'A valer pontos', 'pt-BR': 'Ranqueada' };

// seedClient opens a WebSocket in p's page: its session cookie goes with
// the upgrade, so it is p's account. window.seed answers requests by id
// and keeps each room's last state.
async function seedClient(p) {
  await p.page.evaluate(() => new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://${location.host}/ws`);
    const wait = new Map(), states = new Map(), watchers = [];
    let n = 0;
    const seed = {
      me: null,
      ask(msg) { return new Promise((res) => { const id = `s${n++}`; wait.set(id, res); ws.send(JSON.stringify({ ...msg, id })); }); },
      send(msg) { ws.send(JSON.stringify(msg)); },
      state: (room) => states.get(room) || null,
      // until resolves with the room's state once ok(state) holds.
      until(room, ok) {
        return new Promise((res) => {
          const st = states.get(room);
          if (st && ok(st)) { res(st); return; }
          watchers.push({ room, ok, res });
        });
      },
    };
    ws.onmessage = (e) => {
      const m = JSON.parse(e.data);
      if (m.type === 'welcome') { seed.me = m.player.id; window.seed = seed; resolve(); return; }
      if (m.id != null && wait.has(m.id)) { wait.get(m.id)(m); wait.delete(m.id); }
      if (m.type === 'room.state') {
        states.set(m.room, m);
        for (let i = watchers.length - 1; i >= 0; i--) {
          const w = watchers[i];
          if (w.room === m.room && w.ok(m)) { watchers.splice(i, 1); w.res(m); }
        }
      }
    };
    ws.onerror = reject;
    ws.onopen = () => ws.send(JSON.stringify({ type: 'hello' }));
  }));
}

// seedGame: a rated morris game between a and b over their seed sockets:
// a creates it, b sits, each plays one move, then loser resigns.
async function seedGame(a, b, loser) {
  const made = await a.page.evaluate(() => window.seed.ask({ type: 'room.create', game: 'morris', variant: '3', opponent: 'human', rated: true }));
  assert.ok(made.room, `room.create: ${JSON.stringify(made)}`);
  const room = made.room;
  await b.page.evaluate((r) => window.seed.ask({ type: 'room.join', room: r, as: 'player' }), room);
  let seq = 0;
  for (let ply = 0; ply < 2; ply++) {
    const st = await a.page.evaluate(([r, q]) => window.seed.until(r, (x) => x.status === 'playing' && x.seq >= q && x.turn != null), [room, seq]);
    const mover = st.players.find((x) => x.seat === st.turn).id === a.id ? a : b;
    seq = await mover.page.evaluate(async ([r, q]) => {
      const s = await window.seed.until(r, (x) => x.seq >= q && Array.isArray(x.legal) && x.legal.length > 0);
      window.seed.send({ type: 'room.move', room: r, move: s.legal[0] });
      return (await window.seed.until(r, (x) => x.seq > s.seq)).seq;
    }, [room, st.seq]);
  }
  await loser.page.evaluate((r) => window.seed.send({ type: 'room.resign', room: r }), room);
  for (const p of [a, b]) await p.page.evaluate((r) => window.seed.until(r, (x) => x.status === 'finished'), room);
  return room;
}

// rating is p's rating in the pool as GET /api/players/{id} gives it.
async function rating(p) {
  const r = await fetch(`${srv.url}/api/players/${encodeURIComponent(p.id)}`);
  assert.equal(r.status, 200);
  return (await r.json()).ratings[POOL] || null;
}

test('a rated game between two accounts: ratings beside the names, the changes at the end, a profile with its curve, a leaderboard', async () => {
  const tag = Date.now() % 100000;
  const ana = await person(browser, srv.url, 'Ana', { viewport: DESKTOP, locale: 'en-US' });
  const bia = await person(browser, srv.url, 'Bia', { viewport: PHONE, locale: 'pt-BR' });
  const carl = await person(browser, srv.url, 'Carl', { viewport: PHONE, locale: 'pt-PT' });
  await account(ana, `ana${tag}`);
  await account(bia, `bia${tag}`);

  // The rated choice: on, and live, for an account; off for a guest, with the way to an account.
  const anaBox = card(ana.page, 'morris').locator('input[name=rated]');
  await waitFor(async () => (await anaBox.isChecked()) && (await anaBox.isEnabled()), 'Ana\'s rated choice, on');
  await onScreen(ana.page, anaBox, 'the rated choice');
  assert.equal(await card(ana.page, 'morris').locator('.rated-choice').textContent(), ' Rated');
  assert.match(await card(ana.page, 'morris').locator('.rated-hint').textContent(), /change your rating/);
  await everywhere(ana.page, 'ratings-lobby-account', async () => { await onScreen(ana.page, anaBox, 'the rated choice'); });
  const carlBox = card(carl.page, 'morris').locator('input[name=rated]');
  await carlBox.waitFor();
  assert.ok(!(await carlBox.isChecked()) && (await carlBox.isDisabled()), 'a guest cannot ask for a rated game');
  const hint = card(carl.page, 'morris').locator('.rated-hint a[href="/account"]');
  assert.equal(await hint.textContent(), 'Crie uma conta para jogar a valer pontos');
  await onScreen(carl.page, hint, 'the guest\'s way to an account');
  await everywhere(carl.page, 'ratings-lobby-guest', async () => { await onScreen(carl.page, hint, 'the hint'); });

  // Ana invites a friend: a rated game; Bia takes the seat.
  const room = await createRoom(ana, 'morris', { variant: '3' });
  await bia.page.goto(`${srv.url}/r/${room}`);
  await takeSeat(bia);
  for (const p of [ana, bia]) await waitStatus(p.page, 'playing');
  const badge = (p) => p.page.locator('.room-head .rated-badge');
  assert.equal(await badge(ana).textContent(), 'Rated');
  assert.equal(await badge(bia).textContent(), 'Ranqueada');
  // Two new accounts: 1500, provisional, beside each name, in both pages.
  for (const p of [ana, bia]) {
    const seats = p.page.locator('.players .player');
    await waitFor(async () => (await seats.locator('.seat-rating .rating').allTextContents()).join(' ') === '1500? 1500?', `${p.account}'s page: both ratings`);
    for (const n of [ana.account, bia.account]) {
      const link = seats.locator(`a.profile-link[href="/@/${n}"]`);
      assert.equal(await link.textContent(), n);
      await onScreen(p.page, link, `${n}'s name`);
    }
    await onScreen(p.page, seats.locator('.seat-rating').first(), 'a rating beside a name');
    await onScreen(p.page, badge(p), 'the rated label');
    await boardsOnScreen(p.page);
  }
  // The lobby's live card, as a guest sees it: both ratings and "rated".
  const live = carl.page.locator(`.live-card[data-room="${room}"]`);
  await live.waitFor();
  await waitFor(async () => (await live.locator('.rating').allTextContents()).join(' ') === '1500? 1500?', 'the ratings on the live card');
  assert.equal(await live.locator('.rated-badge').textContent(), 'A valer pontos');
  await everywhere(carl.page, 'ratings-lobby-live', async (lang) => {
    await onScreen(carl.page, live.locator('.rating').first(), 'a rating on the live card');
    assert.equal(await live.locator('.rated-badge').textContent(), RATED[lang]);
  });

  // Two moves, then Bia resigns: the end of a rated game.
  for (const mv of ['c3', 'b3']) {
    const p = await whoseTurn([ana, bia]);
    await act(p, [ana, bia].filter((x) => x !== p), (pg) => cell(pg, mv).click());
  }
  await bia.page.locator('.controls button.resign').click();
  await bia.page.locator('.controls button.resign.danger').click();
  for (const p of [ana, bia]) await waitStatus(p.page, 'finished');
  const anaR = await waitFor(async () => { const r = await rating(ana); return r && r.games === 1 && r; }, 'Ana rated');
  const biaR = await rating(bia);
  assert.ok(anaR.rating > 1500 && biaR.rating < 1500, `the winner up, the loser down: ${anaR.rating}, ${biaR.rating}`);
  const up = `+${anaR.rating - 1500}`, down = `\u2212${1500 - biaR.rating}`;
  for (const p of [ana, bia]) {
    const changes = p.page.locator('.status.result .rating-changes');
    await changes.waitFor();
    await waitFor(async () => (await changes.locator('.rating-diff').allTextContents()).sort().join(' ') === [up, down].sort().join(' '), `${p.account}'s page: the changes`);
    assert.equal(await changes.locator('.rating-change', { hasText: ana.account }).locator('.rating-diff.up').textContent(), up);
    assert.equal(await changes.locator('.rating-change', { hasText: bia.account }).locator('.rating-diff.down').textContent(), down);
    // Beside the names too: the new rating and its change.
    const seat = (n) => p.page.locator('.players .player', { has: p.page.locator(`a[href="/@/${n}"]`) });
    assert.equal(await seat(ana.account).locator('.seat-rating').textContent(), `${anaR.rating}${anaR.provisional ? '?' : ''}${up}`);
    assert.equal(await seat(bia.account).locator('.seat-rating').textContent(), `${biaR.rating}${biaR.provisional ? '?' : ''}${down}`);
    const colour = await seat(ana.account).locator('.rating-diff').evaluate((el) => getComputedStyle(el).color);
    const red = await seat(bia.account).locator('.rating-diff').evaluate((el) => getComputedStyle(el).color);
    assert.notEqual(colour, red, 'a gain and a loss in two colours');
    await onScreen(p.page, changes, 'the changes under the result');
  }
  await everywhere(bia.page, 'ratings-room-end', async () => {
    await onScreen(bia.page, bia.page.locator('.status.result .rating-changes'), 'the changes');
    await onScreen(bia.page, bia.page.locator('.players .seat-rating').first(), 'a new rating beside a name');
  }, { boards: true });

  // Sixty more rated games over their own pages' sockets, won in turn (the creator resigns).
  await seedClient(ana);
  await seedClient(bia);
  for (let i = 0; i < SEEDED; i++) {
    const [a, b] = i % 2 ? [ana, bia] : [bia, ana];
    await seedGame(a, b, a);
  }
  await waitFor(async () => (await rating(ana)).games === SEEDED + 1 && (await rating(bia)).games === SEEDED + 1, 'every game rated', 30000);
  const anaEnd = await rating(ana), biaEnd = await rating(bia);
  assert.ok(anaEnd.rd <= 75 && biaEnd.rd <= 75, `deviations ${anaEnd.rd}, ${biaEnd.rd}`);

  // Bia's profile, from Ana's click on her name in the finished room.
  await ana.page.goto(`${srv.url}/r/${room}`);
  await ana.page.locator(`.players a.profile-link[href="/@/${bia.account}"]`).click();
  await ana.page.waitForURL(`**/@/${bia.account}`);
  const hist = await (await fetch(`${srv.url}/api/players/${bia.id}/history/morris/3`)).json();
  assert.equal(hist.points.length, SEEDED + 1, 'a point a rated game');
  const pool = ana.page.locator(`.pool-card[data-pool="${POOL}"]`);
  await pool.locator('svg.graph path.graph-line').waitFor();
  assert.equal(await ana.page.locator('.profile-name .profile-nm').textContent(), bia.account);
  assert.equal(await pool.locator('.pool-rating').textContent(), `${biaEnd.rating}${biaEnd.provisional ? '?' : ''}`);
  assert.equal(await pool.locator('.pool-rd').textContent(), `±${Math.round(biaEnd.rd)}`);
  const segs = (await pool.locator('path.graph-line').getAttribute('d')).split('L').length;
  assert.equal(segs, SEEDED + 1, 'the curve joins every rated game');
  const prof = await (await fetch(`${srv.url}/api/players/${bia.id}`)).json();
  const res = prof.results;
  assert.equal(res.won + res.drawn + res.lost, SEEDED + 1);
  assert.equal(await ana.page.locator('.profile-results .res.won').textContent(), `${res.won} wins`);
  await everywhere(ana.page, 'ratings-profile', async (lang, size) => {
    await onScreen(ana.page, ana.page.locator('.profile-name'), 'the name');
    const graph = pool.locator('svg.graph');
    await onScreen(ana.page, graph, 'the curve');
    const box = await graph.boundingBox(), cardBox = await pool.boundingBox();
    assert.ok(box.width > cardBox.width * 0.9 && box.width <= cardBox.width, `the curve fills its card: ${box.width} of ${cardBox.width} at ${size.width}px`);
    assert.ok((await graph.locator('text.graph-tick').count()) >= 3, 'rating ticks');
    await onScreen(ana.page, ana.page.locator('.profile-games .games-item').first(), 'a recent game');
  });
  // One click from a recent game to its replay, with the changes from its record.
  const first = ana.page.locator('.profile-games .games-item a.games-title').first();
  const to = await first.getAttribute('href');
  await first.click();
  await ana.page.waitForURL(`**${to}`);
  await ana.page.locator('.status.result .rating-changes').waitFor();
  await boardsOnScreen(ana.page, 'a recent game\'s replay');

  // The leaderboard, from the header's link, on Bia's phone: both players, her rank.
  await bia.page.locator('.nav-board').click();
  await bia.page.waitForURL('**/leaderboard');
  await bia.page.locator('select#board-pool').selectOption(POOL);
  await bia.page.waitForURL(`**/leaderboard/${POOL}`);
  const board = await (await fetch(`${srv.url}/api/leaderboard/morris/3`)).json();
  assert.deepEqual(board.players.map((x) => x.name).sort(), [ana.account, bia.account].sort(), 'the API ranks both');
  const rows = bia.page.locator('.board-table tbody tr');
  await waitFor(async () => (await rows.count()) === 2, 'two rows');
  for (const [i, line] of board.players.entries()) {
    const row = rows.nth(i);
    assert.equal(await row.locator('.board-name a').textContent(), line.name);
    assert.equal(await row.locator('.board-name a').getAttribute('href'), `/@/${line.name}`);
    assert.match(await row.locator('.board-rating').textContent(), new RegExp(`^${line.rating}`));
  }
  const mine = board.players.find((x) => x.name === bia.account);
  assert.match(await bia.page.locator('.board-me').textContent(), new RegExp(`#${mine.rank}`));
  await everywhere(bia.page, 'ratings-leaderboard', async () => {
    await onScreen(bia.page, rows.nth(0), 'the first line');
    await onScreen(bia.page, rows.nth(1), 'the second line');
    await onScreen(bia.page, bia.page.locator('.board-me'), 'your rank');
    await onScreen(bia.page, bia.page.locator('select#board-pool'), 'the pool picker');
  });
  // The bots' board of the same pool: nobody, said so.
  await bia.page.locator('.board-tab[data-tab="bots"]').click();
  await bia.page.waitForURL(`**/leaderboard/${POOL}?bots=1`);
  await waitFor(async () => (await bia.page.locator('.board-status').textContent()) === 'Ninguém está neste ranking ainda.', 'the empty bots\' board');

  // A person's bots on her profile, each one click from its own: the BOT mark.
  const bot = await pageFetch(ana, 'POST', '/api/bots', { name: `Robozinho ${tag}` });
  assert.equal(bot.status, 201, JSON.stringify(bot.body));
  await ana.page.goto(`${srv.url}/@/${ana.account}`);
  const botLink = ana.page.locator(`.profile-bots a[href="/@/${bot.body.id}"]`);
  await botLink.waitFor();
  assert.equal(await botLink.textContent(), `Robozinho ${tag}`);
  await onScreen(ana.page, botLink, 'her bot');
  assert.equal(await ana.page.locator('.profile-name .tag.you').count(), 1, 'her own profile says so');
  await botLink.click();
  await ana.page.waitForURL(`**/@/${bot.body.id}`);
  await ana.page.locator('.profile-name .bot-mark').waitFor();
  assert.equal(await ana.page.locator('.profile-name .profile-nm').textContent(), `Robozinho ${tag}`);
  assert.equal(await ana.page.locator('.profile-unrated').textContent(), 'No rated games yet.');
  // Its owner, one click away.
  const owner = ana.page.locator(`.profile-owner a[href="/@/${ana.account}"]`);
  assert.equal(await owner.textContent(), ana.account);
  assert.equal(await ana.page.locator('.profile-owner').textContent(), `Owner: ${ana.account}`);
  await everywhere(ana.page, 'ratings-profile-bot', async () => {
    await onScreen(ana.page, ana.page.locator('.profile-name .bot-mark'), 'the BOT mark');
    await onScreen(ana.page, owner, 'its owner');
  });
  // The bot on the morris ladder (its token, as a bot program would): the
  // ladder's board shows it with its range, rating ± 2 deviations.
  const joined = await fetch(`${srv.url}/api/bot/ladder/morris/3`, { method: 'POST', headers: { Authorization: `Bearer ${bot.body.token}` } });
  assert.equal(joined.status, 200, await joined.text());
  const ladder = await (await fetch(`${srv.url}/api/ladder/morris/3`)).json();
  const entry = ladder.bots.find((x) => x.id === bot.body.id);
  assert.ok(entry, JSON.stringify(ladder));
  await ana.page.goto(`${srv.url}/leaderboard/${POOL}`);
  await ana.page.locator('.board-tab[data-tab="ladder"]').click();
  await ana.page.waitForURL(`**/leaderboard/${POOL}?ladder=1`);
  const lrow = ana.page.locator('.board-table tbody tr', { has: ana.page.locator(`a[href="/@/${bot.body.id}"]`) });
  await lrow.waitFor();
  assert.equal(await lrow.locator('.board-range').textContent(), `${entry.low.toLocaleString('en-US')}–${entry.high.toLocaleString('en-US')}`);
  assert.equal(await lrow.locator('.board-rating .board-value').textContent(), `${entry.rating}${entry.provisional ? '?' : ''}`);
  await everywhere(ana.page, 'ratings-ladder', async () => {
    await onScreen(ana.page, lrow, 'the bot on the ladder');
    await onScreen(ana.page, ana.page.locator('.board-rule'), 'the ladder\'s rule');
  });

  // An unknown name: said so.
  await ana.page.goto(`${srv.url}/@/nobody-here-${tag}`);
  await waitFor(async () => (await ana.page.locator('#profile-h').textContent()) === 'No such player', 'the unknown player');

  // Casual, chosen: Ana unticks Rated and invites a friend; the room says so.
  await ana.page.goto(`${srv.url}/`);
  const box = card(ana.page, 'morris').locator('input[name=rated]');
  await box.uncheck();
  assert.equal(await card(ana.page, 'morris').locator('.rated-hint').textContent(), 'Casual: your rating stays as it is');
  const room3 = await createRoom(ana, 'morris', { variant: '3' });
  await waitFor(async () => (await badge(ana).textContent()) === 'Casual', 'a casual room');
  await ana.page.locator('.controls button.abort').click();
  await waitStatus(ana.page, 'finished');
  assert.notEqual(room3, room);
  // Quick match, rated again (the choice is remembered until changed).
  await ana.page.goto(`${srv.url}/`);
  assert.ok(!(await box.isChecked()), 'casual remembered');
  await box.check();
  await bia.page.goto(`${srv.url}/`);
  for (const p of [ana, bia]) await card(p.page, 'morris').locator('[data-action="quick"]').click();
  for (const p of [ana, bia]) await p.page.waitForURL(/\/r\/[A-Za-z0-9_-]+$/);
  assert.equal(new URL(ana.page.url()).pathname, new URL(bia.page.url()).pathname, 'paired together');
  await waitFor(async () => (await badge(bia).textContent()) === 'Ranqueada', 'a rated quick match');
  await waitFor(async () => (await bia.page.locator('.players .seat-rating .rating').count()) === 2, 'both ratings');
  await bia.page.locator('.controls button.resign').click();
  await bia.page.locator('.controls button.resign.danger').click();
  for (const p of [ana, bia]) await waitStatus(p.page, 'finished');

  // A guest at a rated game's invitation: no seat, the way to an account instead.
  await ana.page.goto(`${srv.url}/`);
  const room2 = await createRoom(ana, 'morris', { variant: '3' });
  await carl.page.goto(`${srv.url}/r/${room2}`);
  const panel = carl.page.locator('.join-panel');
  await panel.locator('.rated-note a[href="/account"]').waitFor();
  assert.equal(await panel.locator('.rated-note').textContent(), 'Esta partida vale pontos: crie uma conta ou entre para a jogar');
  assert.ok(await panel.getByRole('button').isDisabled(), 'no Play for a guest');
  await onScreen(carl.page, panel.locator('.rated-note'), 'the note');

  noErrors([ana, bia, carl], [/404 \(Not Found\)/]);
  await closeAll(ana, bia, carl);
});

test('2048 alone: an account\'s best score on the board of best scores and on its profile', async () => {
  const dan = await person(browser, srv.url, 'Dan', { viewport: PHONE, locale: 'en-US' });
  await account(dan, `dan${Date.now() % 100000}`);
  // The card of a game alone offers no rated choice.
  assert.ok(await card(dan.page, '2048').locator('.rated-row').isHidden(), 'no rated choice for a game alone');
  await createRoom(dan, '2048', { variant: 'solo', opponent: 'none' });
  await waitStatus(dan.page, 'playing');
  for (let i = 0; i < 20; i++) {
    const dirs = await dan.page.locator('.pad button[aria-disabled="false"]').evaluateAll((bs) => bs.map((b) => b.dataset.dir));
    if (!dirs.length) break;
    await act(dan, [], (pg) => pg.locator(`.pad button[data-dir="${dirs[i % dirs.length]}"]`).click());
  }
  await dan.page.locator('.controls button.resign').click();
  await dan.page.locator('.controls button.resign.danger').click();
  await waitStatus(dan.page, 'finished');
  const best = await waitFor(async () => {
    const j = await (await fetch(`${srv.url}/api/players/${dan.id}`)).json();
    return j.best2048 > 0 && j.best2048;
  }, 'the best score kept');
  await dan.page.goto(`${srv.url}/leaderboard/2048/solo`);
  const row = dan.page.locator('.board-table tbody tr', { has: dan.page.locator(`a[href="/@/${dan.account}"]`) });
  await row.waitFor();
  assert.equal(await row.locator('.board-score').textContent(), best.toLocaleString('en-US'));
  assert.equal(await dan.page.locator('.board-tabs a').count(), 0, 'no people, bots or ladder for scores');
  assert.match(await dan.page.locator('.board-me').textContent(), new RegExp(`^Your rank: #\\d+ · ${best.toLocaleString('en-US')}$`));
  await everywhere(dan.page, 'ratings-best-scores', async () => {
    await onScreen(dan.page, row, 'Dan\'s line');
    await onScreen(dan.page, dan.page.locator('.board-me'), 'his rank');
  });
  await row.locator('a').click();
  await dan.page.waitForURL(`**/@/${dan.account}`);
  await waitFor(async () => (await dan.page.locator('.profile-best').textContent()) === `Best 2048 score: ${best.toLocaleString('en-US')}`, 'the best score on the profile');
  await onScreen(dan.page, dan.page.locator('.profile-best'), 'the best score');
  noErrors([dan]);
  await closeAll(dan);
});
