// The leaderboards, /leaderboard and /leaderboard/<game>/<variant>: a
// pool picked from the games' two-player variants, and its people, its
// bots (?bots=1) or its bot ladder (?ladder=1: each bot's rating with its
// uncertainty, rating ± 2 deviations); the caller's own rank under the
// board when it is on it; 2048 alone (/leaderboard/2048/solo) has its best
// scores. GET /api/leaderboard/{game}/{variant}[?bots=1] and
// GET /api/ladder/{game}/{variant} (docs/protocol.md, "Ratings").
import { h, put, nameTag } from './dom.js';
import { t, localize, num } from './i18n.js';
import { api } from './api.js';
import { loadCatalog, games } from './labels.js';
import { ratingText, profilePath } from './rating.js';
import { poolName, boardPath, useStyle, STYLE } from './profile.js';

const SOLO = '2048/solo';

// pools lists the rating pools of the catalog (every two-seat variant:
// ratings.Pool), then 2048's best scores.
export function pools(catalog) {
  const out = [];
  for (const g of catalog || []) for (const v of g.variants || []) if (v.seats === 2) out.push(`${g.id}/${v.id}`);
  if ((catalog || []).some((g) => g.id === '2048')) out.push(SOLO);
  return out;
}

// TABS are the boards of a pool, by the address's query.
const TABS = ['people', 'bots', 'ladder'];
const tabOf = (q) => (q.get('ladder') === '1' ? 'ladder' : q.get('bots') === '1' ? 'bots' : 'people');
const tabQuery = (tab) => (tab === 'bots' ? '?bots=1' : tab === 'ladder' ? '?ladder=1' : '');

export function leaderboardView(main, { conn, navigate }, game, variant) {
  useStyle(STYLE);
  const tab = tabOf(new URLSearchParams(location.search));
  let pool = game && variant ? `${game}/${variant}` : null;
  let gone = false, board = null, failed = '';
  const picker = h('select', { name: 'pool', id: 'board-pool' });
  picker.addEventListener('change', () => navigate(boardPath(picker.value) + (picker.value === SOLO ? '' : tabQuery(tab))));
  const tabs = h('nav', { class: 'board-tabs', 'aria-label': t('board.tabs') });
  const status = h('p', { class: 'board-status muted', role: 'status', 'aria-live': 'polite' }, t('common.loading'));
  const table = h('table', { class: 'board-table', hidden: true });
  const me = h('p', { class: 'board-me', hidden: true });
  const rule = h('p', { class: 'board-rule muted' });
  main.append(h('section', { class: 'board-page', 'aria-labelledby': 'board-h' },
    h('h1', { id: 'board-h', 'data-i18n': 'board.title' }, t('board.title')),
    h('div', { class: 'board-pick' }, h('label', { for: 'board-pool', 'data-i18n': 'board.pool' }, t('board.pool')), picker),
    tabs, status, me, table, rule));

  function renderPicker() {
    const list = pools(games());
    if (pool && !list.includes(pool)) list.push(pool);
    picker.replaceChildren(...list.map((p) => h('option', { value: p, selected: p === pool }, p === SOLO ? t('board.solo') : poolName(p))));
    put(tabs, ...(pool === SOLO ? [] : TABS.map((k) => h('a', {
      href: boardPath(pool) + tabQuery(k), 'data-nav': '', class: `board-tab${k === tab ? ' on' : ''}`,
      'aria-current': k === tab ? 'page' : null, dataset: { tab: k },
    }, t(`board.${k}`)))));
    tabs.setAttribute('aria-label', t('board.tabs'));
  }

  const nameCell = (p, bot) => {
    const to = profilePath({ ...p, botAccount: bot, account: !bot });
    const nm = to ? nameTag('a', 'board-nm', p.name || p.id, { href: to, 'data-nav': '' }) : nameTag('span', 'board-nm', p.name || p.id);
    return h('td', { class: 'board-name' }, nm);
  };

  function renderBoard() {
    if (failed) { status.hidden = false; status.textContent = failed; table.hidden = true; me.hidden = true; return; }
    if (!board) return;
    const solo = pool === SOLO;
    const rows = solo ? board.scores || [] : tab === 'ladder' ? board.bots || [] : board.players || [];
    status.hidden = rows.length > 0;
    status.textContent = rows.length ? '' : t(solo ? 'board.emptySolo' : tab === 'ladder' ? 'board.emptyLadder' : 'board.empty');
    table.hidden = !rows.length;
    const head = solo ? ['board.rank', 'board.player', 'board.score']
      : ['board.rank', tab === 'people' ? 'board.player' : 'board.bot', 'board.rating', 'board.games'];
    const mineId = conn.player && conn.player.id;
    put(table,
      h('caption', { class: 'sr' }, solo ? t('board.solo') : `${poolName(pool)} — ${t(`board.${tab}`)}`),
      h('thead', {}, h('tr', {}, ...head.map((k) => h('th', { scope: 'col', class: k.replace('.', '-') }, t(k))))),
      h('tbody', {}, ...rows.map((r, i) => {
        const bot = tab !== 'people' || !!r.bot;
        const cells = [h('td', { class: 'board-rank' }, num(r.rank || i + 1)), nameCell(r, !solo && bot)];
        if (solo) cells.push(h('td', { class: 'board-score' }, num(r.score || 0)));
        else if (tab === 'ladder') {
          // The range under the rating: a phone has no room for a column more.
          cells.push(h('td', { class: 'board-rating' }, h('span', { class: 'board-value' }, ratingText(r.rating, r.provisional)),
            h('span', { class: 'board-range muted', title: t('board.rangeTitle') }, `${num(r.low)}–${num(r.high)}`)),
            h('td', { class: 'board-games' }, num(r.games || 0), r.paused ? h('span', { class: 'badge board-paused' }, t('board.paused')) : r.online ? null : h('span', { class: 'muted board-off' }, ` · ${t('board.offline')}`)));
        } else {
          cells.push(h('td', { class: 'board-rating' }, ratingText(r.rating), h('span', { class: 'muted board-rd' }, ` ±${num(Math.round(r.rd || 0))}`)),
            h('td', { class: 'board-games' }, num(r.games || 0)));
        }
        return h('tr', { class: r.id === mineId ? 'mine' : '', dataset: { id: r.id } }, ...cells);
      })));
    const m = board.me;
    me.hidden = !m || tab === 'ladder';
    if (!me.hidden) {
      put(me, h('span', { class: 'muted' }, t('board.you')), ' ', h('b', {}, `#${num(m.rank)}`), ' · ',
        solo ? num(m.score || 0) : [ratingText(m.rating), h('span', { class: 'muted' }, ` ±${num(Math.round(m.rd || 0))}`)]);
    }
    rule.textContent = solo ? '' : t(tab === 'ladder' ? 'board.ruleLadder' : 'board.rule');
  }

  async function load() {
    await loadCatalog();
    if (gone) return;
    if (!pool) pool = pools(games())[0] || SOLO;
    renderPicker();
    const [g, v] = [pool.slice(0, pool.indexOf('/')), pool.slice(pool.indexOf('/') + 1)];
    const path = tab === 'ladder' && pool !== SOLO ? `/api/ladder/${encodeURIComponent(g)}/${encodeURIComponent(v)}`
      : `/api/leaderboard/${encodeURIComponent(g)}/${encodeURIComponent(v)}${tab === 'bots' && pool !== SOLO ? '?bots=1' : ''}`;
    try {
      board = await api(path);
    } catch (e) {
      failed = e.status === 404 || e.status === 400 ? t('board.noPool') : t('board.failed');
    }
    if (!gone) renderBoard();
  }

  load();
  return {
    relabel() { localize(main); renderPicker(); renderBoard(); },
    destroy() { gone = true; },
  };
}
