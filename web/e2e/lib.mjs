// Helpers for the browser tests: start the real lobby binary, drive Debian's
// Chromium with playwright-core, play moves through the page like a person.
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

export function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => resolve(p)); });
    s.on('error', reject);
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// startServer runs the lobby binary (LOBBY_BIN) on a free port, with Redis
// when redis is given, and waits until it answers /healthz.
export async function startServer({ redis, port } = {}) {
  const bin = process.env.LOBBY_BIN;
  assert.ok(bin, 'LOBBY_BIN must name the lobby binary (web/e2e/run.sh builds it)');
  port ||= await freePort();
  const args = ['-addr', `127.0.0.1:${port}`];
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
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
  return browser;
}

// person opens a fresh browser context (its own localStorage: its own
// guest identity), answers the name prompt and records console errors.
export async function person(browser, base, name, { viewport = DESKTOP, path = '/' } = {}) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('dialog', (d) => { errors.push(`dialog opened: ${d.message()}`); d.dismiss(); });
  await page.goto(base + path);
  await page.locator('#name-input').fill(name);
  await page.locator('#name-form button[type=submit]').click();
  await page.locator('#name-dialog').waitFor({ state: 'hidden' });
  return { page, context, errors, name };
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

// createRoom uses a game card of the lobby; it returns the room id.
export async function createRoom(p, game, { variant, opponent = 'human', level, seat, setup, clock } = {}) {
  const c = card(p.page, game);
  await c.waitFor();
  if (variant) await c.locator('select[name=variant]').selectOption(variant);
  if (clock) await c.locator('select[name=clock]').selectOption(clock);
  if (setup) {
    await c.locator('summary').click();
    await c.locator('textarea[name=setup]').fill(JSON.stringify(setup));
  }
  if (opponent === 'bot') {
    if (level) await c.locator('select[name=level]').selectOption(level);
    if (seat != null) await c.locator('select[name=seat]').selectOption(String(seat));
    await c.getByRole('button', { name: 'Play the computer' }).click();
  } else if (opponent === 'none') {
    await c.getByRole('button', { name: 'Play', exact: true }).click();
  } else {
    await c.getByRole('button', { name: 'Invite a friend' }).click();
  }
  await p.page.waitForURL(/\/r\/[A-Za-z0-9_-]+$/);
  return new URL(p.page.url()).pathname.split('/').pop();
}

export const seqOf = async (page) => Number(await page.locator('.board-host').getAttribute('data-seq'));
export const statusOf = async (page) => page.locator('.board-host').getAttribute('data-status');
export const moveCount = (page) => page.locator('ol.moves > li').count();

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
  assert.doesNotMatch(said, /refused|not sent|Not connected/, `${p.name}'s page complained after a good move`);
  for (const w of watchers) await waitFor(async () => (await seqOf(w.page)) >= after, `${w.name} to see seq ${after}`);
  return after;
}

export async function shoot(page, name) {
  mkdirSync(SHOTS, { recursive: true });
  const vp = page.viewportSize();
  for (const [label, size] of [['phone', PHONE], ['desktop', DESKTOP]]) {
    await page.setViewportSize(size);
    await sleep(250);
    const over = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(over <= 0, `${name} overflows a ${label} screen sideways by ${over}px`);
    await page.screenshot({ path: join(SHOTS, `${name}-${label}.png`), fullPage: label === 'phone' });
  }
  await page.setViewportSize(vp);
}
