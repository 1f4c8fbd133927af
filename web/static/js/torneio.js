// The tournament page, /t/<id>: the live standings (GET /api/torneios/<id>,
// read again every few seconds while the tournament runs) and every game,
// one click from watching its room. torneiosSection is the lobby's list of
// live tournaments.
import { h } from './dom.js';
import { t, num, localize } from './i18n.js';
import { loadCatalog, gameName, variantShort, levelName } from './labels.js';

const REFRESH_MS = 2000;

// entrantName is how the page shows an entrant: a level in the page's own
// words, a bot account or a person by the name the server found for it
// (`name`), else by its id.
export function entrantName(game, e) {
  if (e.level) return t('player.bot', { level: levelName(game, e.level) });
  if (e.bot) return e.name && e.name !== e.bot ? t('player.botAccount', { name: e.name }) : t('torneio.bot', { id: e.bot });
  return e.name && e.name !== e.player ? e.name : t('torneio.player', { id: e.player });
}

// share prints a standing's share of wins as the seed does: a percentage.
const share = (s) => `${num(s.share)} %`;

export function torneioView(main, id) {
  const title = h('h1', { class: 'torneio-title' }, t('common.loading'));
  const status = h('p', { class: 'torneio-status', role: 'status', 'aria-live': 'polite' });
  const table = h('table', { class: 'standings' });
  const games = h('ol', { class: 'torneio-games' });
  main.append(h('div', { class: 'torneio' }, title, status,
    h('section', { 'aria-labelledby': 'standings-h' }, h('h2', { id: 'standings-h', 'data-i18n': 'torneio.standings' }, t('torneio.standings')), table),
    h('section', { 'aria-labelledby': 'games-h' }, h('h2', { id: 'games-h', 'data-i18n': 'torneio.games' }, t('torneio.games')), games)));
  let v = null, timer = 0, gone = false;

  function render() {
    if (!v) return;
    title.textContent = t('torneio.title', { game: gameName(v.game) });
    const played = v.games.filter((g) => g.status === 'finished').length;
    status.textContent = t(v.status === 'finished' ? 'torneio.finished' : 'torneio.running', { played: num(played), total: num(v.games.length) });
    status.dataset.status = v.status;
    const order = v.standings.map((s, i) => i).sort((a, b) => v.standings[b].share - v.standings[a].share || v.standings[b].won - v.standings[a].won || a - b);
    table.replaceChildren(
      h('thead', {}, h('tr', {}, ...['entrant', 'played', 'won', 'drawn', 'lost', 'share'].map((k) => h('th', { scope: 'col' }, t(`torneio.col.${k}`))))),
      h('tbody', {}, ...order.map((i) => {
        const s = v.standings[i];
        return h('tr', { dataset: { entrant: String(i) } },
          h('th', { scope: 'row' }, entrantName(v.game, s)),
          h('td', { dataset: { k: 'played' } }, num(s.played)), h('td', { dataset: { k: 'won' } }, num(s.won)),
          h('td', { dataset: { k: 'drawn' } }, num(s.drawn)), h('td', { dataset: { k: 'lost' } }, num(s.lost)),
          h('td', { dataset: { k: 'share' } }, share(s)));
      })));
    games.replaceChildren(...v.games.filter((g) => g.room).map((g) => {
      const [a, b] = g.entrants.map((i) => entrantName(v.game, v.entrants[i]));
      let res = t('torneio.playing');
      if (g.status === 'finished') res = g.winner == null ? t('torneio.draw') : t('torneio.won', { name: g.winner === 0 ? a : b });
      return h('li', { dataset: { room: g.room, status: g.status } },
        h('a', { href: `/r/${g.room}?watch=1`, 'data-nav': '' }, `${variantShort(v.game, g.variant)}: ${a} – ${b}`),
        ' ', h('span', { class: 'muted' }, res));
    }));
  }

  async function load() {
    timer = 0;
    try {
      const r = await fetch(`/api/torneios/${encodeURIComponent(id)}`);
      if (gone) return;
      if (r.status === 404) { title.textContent = t('torneio.unknown'); return; }
      if (r.ok) { v = await r.json(); render(); }
    } catch { /* offline: try again */ }
    if (!gone && (!v || v.status !== 'finished')) timer = setTimeout(load, REFRESH_MS);
  }
  loadCatalog().then(load, load);
  return {
    relabel() { localize(main); render(); },
    destroy() { gone = true; clearTimeout(timer); },
  };
}

// torneiosSection lists the live tournaments for the lobby, read again
// every few seconds; it shows nothing when none runs.
export function torneiosSection() {
  const list = h('ul', { class: 'torneio-list', 'aria-labelledby': 'torneios-h' });
  const el = h('section', { class: 'torneios', 'aria-labelledby': 'torneios-h', hidden: true },
    h('h2', { id: 'torneios-h', 'data-i18n': 'lobby.torneios' }, t('lobby.torneios')), list);
  let timer = 0, gone = false, items = [];
  function render() {
    el.hidden = !items.length;
    list.replaceChildren(...items.map((s) => h('li', {},
      h('a', { href: `/t/${s.id}`, 'data-nav': '', dataset: { torneio: s.id } },
        t('torneio.title', { game: gameName(s.game) })),
      ' ', h('span', { class: 'muted' }, t('torneio.running', { played: num(s.played), total: num(s.games) })),
      Array.isArray(s.lineup) && s.lineup.length ? h('span', { class: 'torneio-names' }, s.lineup.map((e) => entrantName(s.game, e)).join(', ')) : null)));
  }
  async function load() {
    timer = 0;
    try {
      const r = await fetch('/api/torneios');
      if (r.ok && !gone) { items = ((await r.json()).torneios || []).filter((s) => s.status === 'running'); render(); }
    } catch { /* offline */ }
    if (!gone) timer = setTimeout(load, 5000);
  }
  load();
  return { el, relabel: render, destroy() { gone = true; clearTimeout(timer); } };
}
