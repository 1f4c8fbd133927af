// Text fits its box on every screen (issue 29): at 320 px, on a phone
// (390x844) and on a desktop (1366x900), in English, European and
// Brazilian Portuguese, no text runs past its box and no word is broken
// across lines: the lobby, a room with a clock and a long name against
// the computer, a 2048 race, a finished game's page, My games and a room
// that does not exist. A name too long for its box ends in an ellipsis,
// with the whole name in its title and as its text (what a screen reader
// reads), and a tap shows it whole.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import {
  startServer, launch, person, closeAll, noErrors, createRoom, takeSeat, waitStatus, waitFor, setLang, sleep, boardsOnScreen, cell, moveCount,
  assertTextFits, PHONE, DESKTOP, NARROW, LANGS, SHOTS,
} from '../lib.mjs';

let srv, browser;
before(async () => { srv = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await srv?.stop(); });

const SIZES = [['narrow', NARROW], ['phone', PHONE], ['desktop', DESKTOP]];
const LONG = 'Bartolomeu_Albuquerque_Gusmão';

// everywhere checks the page in every language at every size: no
// sideways scroll, the boards on screen, every text in its box; and
// writes a screenshot of each.
async function everywhere(p, name, { boards = true, extra, prepare } = {}) {
  mkdirSync(SHOTS, { recursive: true });
  for (const lang of LANGS) {
    await setLang(p.page, lang);
    if (prepare) await prepare();
    for (const [label, size] of SIZES) {
      await p.page.setViewportSize(size);
      await sleep(150);
      const over = await p.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.ok(over <= 0, `${name} (${lang}, ${label}) scrolls sideways by ${over}px`);
      if (boards) await boardsOnScreen(p.page, `${name} (${lang}, ${label})`);
      await assertTextFits(p.page, `${name} (${lang}, ${label})`);
      if (extra) await extra(lang, label);
      await p.page.evaluate(() => window.scrollTo(0, 0));
      await p.page.screenshot({ path: join(SHOTS, `fit-${name}-${lang}-${label}.png`), fullPage: label !== 'desktop' });
    }
  }
}

test('the lobby, a room with a clock and a long name, its review and My games fit at 320 px, on a phone and a desktop', async () => {
  const p = await person(browser, srv.url, LONG, { viewport: NARROW });
  // Go against the Basic computer with a clock, on the narrowest phone.
  const room = await createRoom(p, 'go', { variant: '9', opponent: 'bot', level: 'basico', clock: '300+3', seat: 0 });
  await waitStatus(p.page, 'playing');

  // The lobby, with that game among the live ones (the long name on its
  // card) and a card's computer levels and another's rules open (the
  // longest texts).
  const v = await person(browser, srv.url, 'Vi', { viewport: NARROW });
  await v.page.locator(`.live-card[data-room="${room}"] .pn`).first().waitFor();
  await everywhere(v, 'lobby', {
    boards: false,
    prepare: async () => {
      for (const sel of ['.game-card[data-game="go"] details.levels', '.game-card[data-game="queens"] details.more']) {
        if (!(await v.page.locator(`${sel}[open]`).count())) await v.page.locator(`${sel} > summary`).click();
      }
    },
    extra: async () => {
      const names = v.page.locator(`.live-card[data-room="${room}"] .pn`);
      assert.equal(await names.first().getAttribute('title'), LONG);
    },
  });
  noErrors([v]);
  await closeAll(v);
  const me = p.page.locator('.player .tag.you').locator('xpath=ancestor::li[1]').locator('.pname');
  const bot = p.page.locator('.player:not(:has(.tag.you)) .pname');
  await everywhere(p, 'room-clock', {
    extra: async (lang) => {
      // The long name: cut with an ellipsis, whole in its title and text.
      assert.equal(await me.getAttribute('title'), LONG);
      assert.equal(await me.textContent(), LONG);
      // The computer's name is whole, in its language's words, on every size.
      const name = await bot.textContent();
      assert.equal(name, { en: 'Basic computer', 'pt-PT': 'Computador Básico', 'pt-BR': 'Computador Básico' }[lang]);
      assert.ok(await bot.evaluate((el) => el.scrollWidth <= el.clientWidth + 1), `"${name}" is cut`);
      assert.ok(await p.page.locator('.player .clock').first().isVisible(), 'the clock shows');
    },
  });
  // A tap shows the cut name whole (a phone has no hover).
  await p.page.setViewportSize(NARROW);
  const cut = await me.evaluate((el) => el.scrollWidth > el.clientWidth + 1);
  assert.ok(cut, 'the long name is cut at 320 px');
  await me.click();
  assert.ok(await me.evaluate((el) => el.classList.contains('whole') && el.scrollWidth <= el.clientWidth + 1), 'a tap shows it whole');
  await me.click();

  // A move each, then resigned: the review is one click away; the game
  // page and My games fit too.
  await setLang(p.page, 'en');
  await cell(p.page, 'E5').click();
  await waitFor(async () => (await moveCount(p.page)) === 2, 'the computer\'s answer');
  await p.page.getByRole('button', { name: 'Resign', exact: true }).click();
  await p.page.getByRole('button', { name: 'Really resign?' }).click();
  await waitStatus(p.page, 'finished');
  await p.page.locator('.review-link').click();
  await p.page.waitForURL(new RegExp(`/g/${room}$`));
  await p.page.locator('.replay-pos').waitFor();
  await everywhere(p, 'game-page');
  await p.page.locator('.nav-games').click();
  await p.page.waitForURL(/\/games$/);
  await p.page.locator(`.games-item[data-room="${room}"]`).waitFor();
  await everywhere(p, 'my-games', { boards: false });
  // A room that does not exist.
  await p.page.goto(`${srv.url}/r/noSuchRoom1`);
  await p.page.locator('.not-found h1').waitFor();
  await everywhere(p, 'not-found', { boards: false });
  noErrors([p]);
  await closeAll(p);
});

test('2048 race: each name whole over its board at every size (no "Bru..."), scores under them', async () => {
  const bruno = await person(browser, srv.url, 'Bruno', { viewport: NARROW });
  const room = await createRoom(bruno, '2048', { variant: 'race', opponent: 'human' });
  const carla = await person(browser, srv.url, 'Carolina Mendes', { path: `/r/${room}`, viewport: NARROW });
  await takeSeat(carla);
  await waitStatus(bruno.page, 'playing');
  await everywhere(bruno, '2048-race', {
    extra: async (lang, label) => {
      for (const name of ['Bruno', 'Carolina Mendes']) {
        const el = bruno.page.locator('.b2048-title .who-name', { hasText: name });
        assert.equal(await el.textContent(), name);
        assert.ok(await el.evaluate((e) => e.scrollWidth <= e.clientWidth + 1 && e.scrollHeight <= e.clientHeight + 1), `${name} is cut (${lang}, ${label})`);
      }
    },
  });
  noErrors([bruno, carla]);
  await closeAll(bruno, carla);
});
