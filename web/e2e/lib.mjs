// Helpers for the browser tests: start the real lobby binary, drive Debian's
// Chromium with playwright-core, play moves through the page like a person,
// and check what is on screen (not only what is in the DOM).
import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import net from 'node:net';
import assert from 'node:assert/strict';

const here = dirname(fileURLToPath(import.meta.url));
export const SHOTS = process.env.SHOTS_DIR || join(here, 'screenshots');
export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1366, height: 900 };
// The page's languages: European and Brazilian Portuguese and English.
export const LANGS = ['pt-PT', 'pt-BR', 'en'];

export function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => resolve(p)); });
    s.on('error', reject);
  });
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// startServer runs the lobby binary (LOBBY_BIN) on a free port, with Redis
// when redis is given, and waits until it answers /healthz.
export async function startServer({ redis, port, args: extra = [] } = {}) {
  const bin = process.env.LOBBY_BIN;
  assert.ok(bin, 'LOBBY_BIN must name the lobby binary (web/e2e/run.sh builds it)');
  port ||= await freePort();
  const args = ['-addr', `127.0.0.1:${port}`, ...extra];
  if (redis) args.push('-redis', redis);
  const url = `http://127.0.0.1:${port}`;
  let proc, out = '';
  const srv = {
    url, port,
    async start() {
      out = '';
      proc = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, TABULEIRO_REDIS: redis || '' } });
      proc.stdout.on('data', (d) => { out += d; });
      proc.stderr.on('data', (d) => { out += d; });
      for (let i = 0; i < 200; i++) {
        if (proc.exitCode != null) throw new Error(`lobby exited ${proc.exitCode}: ${out.slice(-2000)}`);
        try { const r = await fetch(`${url}/healthz`); if (r.ok) return; } catch { /* not yet */ }
        await sleep(50);
      }
      throw new Error(`lobby did not come up: ${out.slice(-2000)}`);
    },
    async stop(signal = 'SIGTERM') {
      const p = proc;
      if (!p || p.exitCode != null || p.signalCode != null) return;
      const done = new Promise((r) => p.once('exit', r));
      p.kill(signal);
      const t = setTimeout(() => p.kill('SIGKILL'), 5000);
      await done;
      clearTimeout(t);
    },
    log: () => out,
  };
  await srv.start();
  return srv;
}

export async function launch() {
  // playwright-core gives every launch a fresh temporary user-data-dir of
  // its own (it refuses --user-data-dir here) and removes it on close.
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage', '--autoplay-policy=no-user-gesture-required'],
  });
}

// person opens a fresh browser context (its own localStorage: its own
// guest identity) and records console errors. With a name, the person has
// chosen it before (it is in localStorage, and hello sends it); without
// one the person is a first-time visitor whom the server names.
export async function person(browser, base, name, {
  viewport = DESKTOP, path = '/', locale = 'en-US', colorScheme = 'light', hasTouch = false, init,
} = {}) {
  const context = await browser.newContext({ viewport, locale, colorScheme, hasTouch, isMobile: hasTouch });
  if (name) await context.addInitScript((n) => { if (!localStorage.getItem('tabuleiro.name')) localStorage.setItem('tabuleiro.name', n); }, name);
  if (init) await context.addInitScript(init);
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    // The page asks for a game's record and copes with a server that has
    // none (404: the records API is another branch's, feature-detected);
    // the browser logs that 404 itself.
    const at = m.location() && m.location().url;
    if (/Failed to load resource/.test(m.text()) && at && new URL(at, base).pathname.startsWith('/api/records/')) return;
    errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('dialog', (d) => { errors.push(`dialog opened: ${d.message()}`); d.dismiss(); });
  await page.goto(base + path);
  await page.locator('html[lang]').waitFor();
  await page.locator('#me:not([hidden])').waitFor();
  return { page, context, errors, name: name || 'visitor', named: !!name };
}

// socketsPage opens a page in a context of its own on a static asset of
// the server, which runs none of the client's scripts, so no session cookie
// is ever set there: each WebSocket its scripts open is a new guest, as an
// outside script's is. (A person's page holds its guest's HttpOnly cookie,
// which every WebSocket it opens carries: they are all that one guest.)
// Close it with its context.
export async function socketsPage(browser, base) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${base}/assets/favicon.svg`);
  return { page, context };
}

export async function closeAll(...people) {
  for (const p of people) if (p) await p.context.close().catch(() => {});
}

// noErrors asserts that no page logged an error; allow lists messages a
// test expects (a refused connection while the server is down).
export function noErrors(people, allow = []) {
  for (const p of people) {
    const bad = p.errors.filter((e) => !allow.some((re) => re.test(e)));
    assert.deepEqual(bad, [], `console errors in ${p.name}'s page`);
  }
}

export const card = (page, game) => page.locator(`.game-card[data-game="${game}"]`);

// createRoom uses a game card of the lobby; it returns the room id. A
// person who was never asked for a name answers the dialog (or skips it).
// go: a game with a friend has the page's go rules (komi, stone removal)
// unless seedRules asks for the rule book's (komi 0.5, no removal).
export async function createRoom(p, game, { variant, opponent = 'human', level, seat, setup, clock, name, seedRules } = {}) {
  const c = card(p.page, game);
  await c.waitFor();
  if (variant) await c.locator('select[name=variant]').selectOption(variant);
  if (clock) await c.locator('select[name=clock]').selectOption(clock);
  if (setup || seat != null || seedRules) await c.locator('details.more > summary').click();
  if (seedRules) {
    await c.locator('input[name=komi]').fill('0.5');
    await c.locator('input[name=removal]').uncheck();
  }
  if (setup) await c.locator('textarea[name=setup]').fill(JSON.stringify(setup));
  if (seat != null) await c.locator('select[name=seat]').selectOption(String(seat));
  if (level) {
    if (!(await c.locator('details.levels[open]').count())) await c.locator('details.levels > summary').click();
    await c.locator(`.level-opt[data-level="${level}"]`).click();
  }
  const action = { bot: 'computer', none: 'solo', human: 'friend', watch: 'watchBots' }[opponent];
  if (opponent === 'watch' && !setup && seat == null) await c.locator('details.more > summary').click();
  await c.locator(`[data-action="${action}"]`).click();
  if (!p.named && opponent !== 'watch') { await answerName(p, name); p.named = true; }
  await p.page.waitForURL(/\/r\/[A-Za-z0-9_-]+(\?watch=1)?$/);
  return new URL(p.page.url()).pathname.split('/').pop();
}

// answerName deals with the first-seat name dialog when it opens: types
// name, or dismisses it (Esc) without one.
export async function answerName(p, name) {
  const dlg = p.page.locator('#name-dialog[open]');
  try { await dlg.waitFor({ timeout: 5000 }); } catch { return false; }
  if (name) {
    await p.page.locator('#name-input').fill(name);
    await p.page.locator('#name-form button[type=submit]').click();
  } else {
    await p.page.keyboard.press('Escape');
  }
  await dlg.waitFor({ state: 'detached' });
  return true;
}

// takeSeat presses Play in a room's join panel (an invite link), naming
// the person first when asked.
export async function takeSeat(p, name) {
  const panel = p.page.locator('.join-panel');
  await panel.waitFor();
  if (name) await panel.locator('input').fill(name);
  await panel.getByRole('button').click();
  await p.page.locator('.player .tag.you').waitFor();
}

// seatTwo has Alice create a room of game (createRoom's opts) and Bob take
// the other seat through its link.
export async function seatTwo(browser, base, game, opts) {
  const alice = await person(browser, base, 'Alice');
  const room = await createRoom(alice, game, opts);
  const bob = await person(browser, base, 'Bob', { path: `/r/${room}` });
  await takeSeat(bob);
  return { alice, bob, room };
}

export const seqOf = async (page) => Number(await page.locator('.board-host').getAttribute('data-seq'));
export const statusOf = async (page) => page.locator('.board-host').getAttribute('data-status');
export const moveCount = (page) => page.locator('.moves .mv[data-ply]').count();

export async function waitFor(fn, what, timeout = 10000) {
  const t0 = Date.now();
  let last;
  while (Date.now() - t0 < timeout) {
    try { last = await fn(); if (last) return last; } catch (e) { last = e; }
    await sleep(40);
  }
  throw new Error(`timed out waiting for ${what} (last: ${last})`);
}

export async function waitStatus(page, status, timeout = 10000) {
  await waitFor(async () => (await statusOf(page)) === status, `status ${status}`, timeout);
}

// whoseTurn returns the person whose page says it is their move.
export async function whoseTurn(people, timeout = 10000) {
  return waitFor(async () => {
    for (const p of people) if (await p.page.locator('.board-host.my-turn').count()) return p;
    return null;
  }, 'a player to have the move', timeout);
}

// cell finds a board cell by the coordinate its screen-reader label starts with.
export const cell = (page, coord) => page.locator(`[role=gridcell][aria-label^="${coord},"]`);

// act plays one move on p's page through `doIt`, then waits until p and
// every watcher have seen it (their seq passes the old one). It returns the
// new seq.
export async function act(p, watchers, doIt) {
  const before = await seqOf(p.page);
  await doIt(p.page);
  await waitFor(async () => (await seqOf(p.page)) > before, `${p.name}'s move to be accepted`);
  const after = await seqOf(p.page);
  const said = await p.page.locator('.explain').textContent();
  assert.equal(said, '', `${p.name}'s page complained after a good move: ${said}`);
  for (const w of watchers) await waitFor(async () => (await seqOf(w.page)) >= after, `${w.name} to see seq ${after}`);
  return after;
}

// playMoves plays moves in turn between people, each seen by all of them: a
// cell ('E5'), 'pass', or a piece's step as its two cells ('a3a2', morris).
export async function playMoves(people, moves) {
  for (const mv of moves) {
    const p = await whoseTurn(people);
    await act(p, people.filter((x) => x !== p), async (pg) => {
      if (mv === 'pass') return pg.getByRole('button', { name: 'Pass', exact: true }).click();
      const step = /^([a-z]\d)([a-z]\d)$/.exec(mv);
      if (!step) return cell(pg, mv).click();
      await cell(pg, step[1]).click();
      await cell(pg, step[2]).click();
    });
  }
}

// seen checks that the watcher's move list has n moves, the last being mv.
export async function seen(w, n, mv) {
  const items = w.page.locator('.moves .mv[data-ply]');
  await waitFor(async () => (await items.count()) === n, `${w.name} to list ${n} moves`);
  if (mv) assert.equal(await items.nth(n - 1).getAttribute('data-move'), mv, `move ${n} is ${mv}`);
}

// boardsOnScreen asserts what a person sees of the boards: each has a
// non-empty box inside the viewport (scrolled to the top, after the page
// scrolls it into view if it is below) and, on a phone, no wider than the
// screen. It returns the boxes.
export async function boardsOnScreen(page, what = 'the board') {
  const vp = page.viewportSize();
  const boards = page.locator('.board-host .board-svg');
  await waitFor(async () => (await boards.count()) > 0, `${what} to be drawn`);
  const boxes = [];
  for (let i = 0; i < await boards.count(); i++) {
    const b = boards.nth(i);
    await b.scrollIntoViewIfNeeded();
    const box = await b.boundingBox();
    assert.ok(box && box.width > 50 && box.height > 50, `${what} #${i} is ${box ? `${box.width}x${box.height}` : 'not drawn'} at ${vp.width}x${vp.height}`);
    assert.ok(box.x >= -0.5 && box.x + box.width <= vp.width + 0.5, `${what} #${i} runs off the screen sideways: x ${box.x}, width ${box.width} of ${vp.width}`);
    assert.ok(box.y >= -0.5 && box.y + box.height <= vp.height + 0.5, `${what} #${i} does not fit the screen: y ${box.y}, height ${box.height} of ${vp.height}`);
    boxes.push(box);
  }
  await page.evaluate(() => window.scrollTo(0, 0));
  return boxes;
}

// setLang switches the page's language with its own switch ('pt' is
// European Portuguese, the page's "pt" before pt-BR came).
export async function setLang(page, lang) {
  const code = lang === 'pt' ? 'pt-PT' : lang;
  await page.locator('#lang').selectOption(code);
  await page.locator(`html[lang="${code}"]`).waitFor();
}

// shoot writes screenshots of the page at phone and desktop sizes, in every
// language (the page's own switch), after checking that nothing scrolls
// sideways and that every board is on screen. It leaves the page as it was.
export async function shoot(page, name, { boards = true } = {}) {
  mkdirSync(SHOTS, { recursive: true });
  const vp = page.viewportSize();
  const lang0 = await page.locator('html').getAttribute('lang');
  for (const lang of LANGS) {
    await setLang(page, lang);
    for (const [label, size] of [['phone', PHONE], ['desktop', DESKTOP]]) {
      await page.setViewportSize(size);
      await sleep(200);
      const over = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.ok(over <= 0, `${name} overflows a ${label} screen sideways by ${over}px`);
      if (boards) await boardsOnScreen(page, `${name} (${lang}, ${label})`);
      await page.screenshot({ path: join(SHOTS, `${name}-${lang}-${label}.png`), fullPage: label === 'phone' });
    }
  }
  await setLang(page, lang0);
  await page.setViewportSize(vp);
}

// contrast measures every visible text of the page against what is behind
// it (WCAG 2.1: 4.5:1, or 3:1 for large text) and returns the failures.
export async function contrastFailures(page) {
  return page.evaluate(() => {
    const parse = (c) => {
      const m = c.match(/rgba?\(([^)]+)\)/);
      if (!m) return null;
      const [r, g, b, a = 1] = m[1].split(/[\s,/]+/).filter(Boolean).map(Number);
      return { r, g, b, a };
    };
    const lin = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    const lum = (c) => 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b);
    const over = (top, under) => ({ r: top.r * top.a + under.r * (1 - top.a), g: top.g * top.a + under.g * (1 - top.a), b: top.b * top.a + under.b * (1 - top.a), a: 1 });
    const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
    // The colour behind an HTML element: its and its ancestors' backgrounds.
    function htmlBackground(el) {
      const layers = [];
      for (let e = el; e && e.nodeType === 1; e = e.parentElement) {
        const bg = parse(getComputedStyle(e).backgroundColor);
        if (bg && bg.a > 0) { layers.push(bg); if (bg.a >= 1) break; }
      }
      let c = { r: 255, g: 255, b: 255, a: 1 };
      for (const l of layers.reverse()) c = over(l, c);
      return c;
    }
    // The colour behind SVG text: the filled shape under its centre drawn
    // before it in the same <svg> (a tile, a board), else the page's.
    function svgBackground(text) {
      const svg = text.ownerSVGElement;
      const tb = text.getBoundingClientRect();
      const cx = tb.x + tb.width / 2, cy = tb.y + tb.height / 2;
      let found = null;
      for (const shape of svg.querySelectorAll('rect, circle')) {
        if (shape.compareDocumentPosition(text) & Node.DOCUMENT_POSITION_PRECEDING) break; // drawn after the text
        const fill = parse(getComputedStyle(shape).fill || '');
        if (!fill || fill.a === 0 || getComputedStyle(shape).fillOpacity === '0') continue;
        const b = shape.getBoundingClientRect();
        if (cx >= b.x && cx <= b.x + b.width && cy >= b.y && cy <= b.y + b.height) found = fill;
      }
      const page = htmlBackground(svg.parentElement);
      return found ? over(found, page) : page;
    }
    const out = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const seen = new Set();
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (!n.textContent.trim()) continue;
      const el = n.parentElement;
      if (!el || seen.has(el)) continue;
      seen.add(el);
      const cs = getComputedStyle(el);
      const r = el.getBoundingClientRect();
      if (!r.width || !r.height || cs.visibility === 'hidden' || el.closest('[hidden], option, [aria-hidden="true"]:not(svg)')) continue;
      if (el.closest('.sr, .skip')) continue;
      let opacity = 1;
      for (let e = el; e && e.nodeType === 1; e = e.parentElement) opacity *= Number(getComputedStyle(e).opacity);
      if (el.closest('button:disabled')) continue; // WCAG exempts inactive controls
      const svgText = el instanceof SVGElement;
      const fg = parse(svgText ? cs.fill : cs.color);
      if (!fg) continue;
      const bg = svgText ? svgBackground(el) : htmlBackground(el);
      const ink = over({ ...fg, a: fg.a * opacity }, bg);
      // SVG text scales with its board: measure the size drawn.
      const size = svgText ? r.height / 1.25 : parseFloat(cs.fontSize);
      const bold = Number(cs.fontWeight) >= 700;
      const large = size >= 24 || (bold && size >= 18.66);
      const need = large ? 3 : 4.5;
      const got = ratio(ink, bg);
      if (got < need) out.push(`${got.toFixed(2)} < ${need}: "${n.textContent.trim().slice(0, 40)}" (${el.tagName.toLowerCase()}.${[...el.classList].join('.')}) ${svgText ? cs.fill : cs.color} on rgb(${Math.round(bg.r)},${Math.round(bg.g)},${Math.round(bg.b)})`);
    }
    return out;
  });
}

// assertContrast fails with every text under AA.
export async function assertContrast(page, where) {
  const bad = await contrastFailures(page);
  assert.deepEqual(bad, [], `${where}: text under WCAG AA contrast`);
}

// matchUp: Alice creates a game for a friend, Bob opens the invite link
// and takes the seat, Wendy taps the game in the lobby's live games. The
// viewports may differ per person.
export async function matchUp(browser, srv, game, opts = {}, sizes = {}) {
  const alice = await person(browser, srv.url, 'Alice', { viewport: sizes.alice || DESKTOP });
  const room = await createRoom(alice, game, opts);
  const invite = await alice.page.locator('.invite-url').inputValue();
  assert.equal(invite, `${srv.url}/r/${room}`);
  const bob = await person(browser, srv.url, 'Bob', { path: new URL(invite).pathname, viewport: sizes.bob || DESKTOP });
  await takeSeat(bob);
  const wendy = await person(browser, srv.url, 'Wendy', { viewport: sizes.wendy || DESKTOP });
  const live = wendy.page.locator(`.live-card[data-room="${room}"]`);
  await live.waitFor();
  assert.match(await live.textContent(), /Alice/);
  await live.locator('svg.mini').waitFor(); // its small live board
  await live.locator('a').click();
  await wendy.page.waitForURL(new RegExp(`/r/${room}\\?watch=1$`));
  for (const p of [alice, bob, wendy]) await waitStatus(p.page, 'playing');
  await waitFor(async () => /1 watching/.test(await alice.page.locator('.spectators').textContent()), 'the spectator count');
  return { alice, bob, wendy, room, people: [alice, bob, wendy] };
}

// textFailures lists what a person would see of text that does not fit:
// an element whose text runs past its box (scrollWidth over clientWidth),
// unless the box ends it in an ellipsis and names the whole text in its
// title; and a word broken across two lines (a run of letters whose
// pieces sit on different lines; breaks after a hyphen, a dash or a slash
// are a line's to make); and a select too narrow for the option it shows.
// Text the person wrote in chat and SVG text (the boards) are left out.
export async function textFailures(page) {
  return page.evaluate(() => {
    const out = [];
    const shown = (el) => {
      const r = el.getBoundingClientRect(), cs = getComputedStyle(el);
      return r.width > 0 && r.height > 0 && cs.visibility !== 'hidden' && cs.opacity !== '0';
    };
    const skip = (el) => el.closest('[hidden], .sr, .skip, option, select, textarea, noscript, svg, .chat-list .text, dialog:not([open])');
    const boxOf = (el) => { let b = el; while (b && getComputedStyle(b).display.startsWith('inline') && !getComputedStyle(b).display.includes('-')) b = b.parentElement; return b; };
    const checked = new Set();
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = n.textContent;
      if (!text.trim()) continue;
      const el = n.parentElement;
      if (!el || skip(el) || !shown(el)) continue;
      const what = `"${text.trim().slice(0, 40)}" (${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? `.${el.className.trim().replace(/\s+/g, '.')}` : ''})`;
      // The box that holds the text: its own, or its nearest block's.
      for (const box of new Set([el, boxOf(el)])) {
        if (!box || checked.has(box) || getComputedStyle(box).display === 'inline') continue;
        checked.add(box);
        const over = box.scrollWidth - box.clientWidth;
        if (over <= 1) continue;
        const cs = getComputedStyle(box);
        const ellipsis = cs.textOverflow === 'ellipsis' && cs.overflowX !== 'visible';
        const named = (box.getAttribute('title') || box.getAttribute('aria-label') || '').trim() === box.textContent.trim();
        if (ellipsis && named) continue;
        out.push(`${what} runs ${over}px past its box${ellipsis ? ' (an ellipsis without the whole text in its title)' : ''}`);
      }
      // Words broken across lines.
      const re = /[^\s\-–—/]+/g;
      for (let m = re.exec(text); m; m = re.exec(text)) {
        if (m[0].length < 2) continue;
        const range = document.createRange();
        range.setStart(n, m.index);
        range.setEnd(n, m.index + m[0].length);
        const tops = [...range.getClientRects()].filter((r) => r.width > 0).map((r) => r.top);
        if (tops.length > 1 && Math.max(...tops) - Math.min(...tops) > 6) out.push(`the word "${m[0]}" of ${what} is broken across lines`);
      }
    }
    // A select shows its chosen option's text: it must fit beside the arrow.
    const ctx = document.createElement('canvas').getContext('2d');
    for (const sel of document.querySelectorAll('select')) {
      if (sel.closest('[hidden]') || !shown(sel) || sel.selectedIndex < 0) continue;
      const cs = getComputedStyle(sel);
      ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
      const text = sel.options[sel.selectedIndex].text;
      const room = sel.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 20; // the arrow
      const need = ctx.measureText(text).width;
      if (need > room + 1) out.push(`the select ${sel.name || sel.id} shows "${text}" in ${Math.round(room)}px, which needs ${Math.round(need)}px`);
    }
    return out;
  });
}

// assertTextFits fails with every text that does not fit (textFailures).
export async function assertTextFits(page, where) {
  const bad = await textFailures(page);
  assert.deepEqual(bad, [], `${where}: text that does not fit its box`);
}

// NARROW is the narrowest phone the page is made for (320 CSS pixels).
export const NARROW = { width: 320, height: 640 };

// pageFetch sends a JSON request from p's page, as the page's own scripts
// do: the session cookie (HttpOnly, which no script reads) and the Origin
// go with it. It resolves with {status, body}.
export async function pageFetch(p, method, path, body) {
  return p.page.evaluate(async ([m, u, b]) => {
    const init = { method: m, headers: {} };
    if (b !== undefined) { init.headers['Content-Type'] = 'application/json'; init.body = JSON.stringify(b); }
    const r = await fetch(u, init);
    const text = await r.text();
    let j = null;
    try { j = JSON.parse(text); } catch { /* empty */ }
    return { status: r.status, body: j };
  }, [method, path, body]);
}

// watchFirstTorneioGame opens the first game listed on a tournament's page
// (one click), checks its board is on screen and comes back to the page.
export async function watchFirstTorneioGame(page, id) {
  const first = page.locator('.torneio-games a').first();
  await first.waitFor();
  await first.click();
  await page.waitForURL(/\/r\/[A-Za-z0-9_-]+\?watch=1$/);
  await boardsOnScreen(page, 'a tournament game');
  await page.goBack();
  await page.waitForURL(`**/t/${id}`);
}
