// A player's profile, /@/<name> (an account's name, or a player's id: a
// bot account's page is /@/<its id>): the name, the BOT mark, a bot's
// owner and a person's bots, the ratings of each pool with the curve of
// every rated game (graph.js), the games won, drawn and lost, the best
// 2048 score and the recent games, each one click from its replay.
// GET /api/profile/{name}, /api/players/{id}/history/{game}/{variant} and
// /api/players/{id}/records (docs/protocol.md, "Ratings").
import { h, put, nameTag } from './dom.js';
import { t, localize, num, date } from './i18n.js';
import { api } from './api.js';
import { loadCatalog, gameName, variantShort, playerName } from './labels.js';
import { ratingText, profilePath } from './rating.js';
import { draw } from './graph.js';
import { outcome } from './mygames.js';

const RECENT = 10; // recent games shown
const HEIGHT = 200; // the curve's height, px

// poolName is a pool ("go/9") as the page says it: "Go 9×9".
export function poolName(pool) {
  const i = pool.indexOf('/');
  const game = i < 0 ? pool : pool.slice(0, i), variant = i < 0 ? '' : pool.slice(i + 1);
  return variant ? `${gameName(game)} ${variantShort(game, variant)}` : gameName(game);
}

// useStyle links the stylesheet at href once: the styles of the pages
// that only some visitors open (boards.css) load with those pages.
export function useStyle(href) {
  if (!document.querySelector(`link[href="${href}"]`)) document.head.append(h('link', { rel: 'stylesheet', href }));
}
export const STYLE = '/assets/boards.css';

export function profileView(main, { conn }, name) {
  useStyle(STYLE);
  let gone = false, prof = null, missing = false, failed = false, recs = null;
  const curves = new Map(); // pool -> points, or null while loading
  const head = h('div', { class: 'profile-head' });
  const status = h('p', { class: 'profile-status muted', role: 'status', 'aria-live': 'polite' }, t('common.loading'));
  const people = h('div', { class: 'profile-people' });
  const pools = h('div', { class: 'profile-pools' });
  const results = h('p', { class: 'profile-results' });
  const best = h('p', { class: 'profile-best', hidden: true });
  const recent = h('ol', { class: 'games-list profile-games', 'aria-labelledby': 'profile-games-h' });
  const recentBox = h('section', { class: 'profile-recent', 'aria-labelledby': 'profile-games-h', hidden: true },
    h('h2', { id: 'profile-games-h', 'data-i18n': 'profile.recent' }, t('profile.recent')), recent);
  const page = h('section', { class: 'profile-page', 'aria-labelledby': 'profile-h' },
    head, status, people, results, best, pools, recentBox);
  main.append(page);

  // The curves are drawn at their box's width, again when it changes.
  let width = 0;
  const resize = new ResizeObserver(() => {
    const w = Math.floor(pools.clientWidth);
    if (w && w !== width) { width = w; renderPools(); }
  });
  resize.observe(pools);

  function renderHead() {
    if (missing) {
      put(head, h('h1', { id: 'profile-h' }, t('profile.notFound')));
      status.hidden = false;
      status.textContent = t('profile.notFoundText', { name });
      return;
    }
    if (failed) { status.hidden = false; status.textContent = t('profile.failed'); return; }
    if (!prof) return;
    status.hidden = true;
    const mine = conn.player && conn.player.id === prof.id;
    put(head, h('h1', { id: 'profile-h', class: 'profile-name' },
      nameTag('span', 'profile-nm', prof.name || prof.id),
      prof.bot ? h('span', { class: 'bot-mark', title: t('profile.botTitle') }, t('profile.bot')) : null,
      mine ? h('span', { class: 'tag you' }, t('room.you')) : null));
    document.title = `${prof.name || prof.id} — Tabuleiro`;
    const links = (list) => list.flatMap((b, i) => [i ? ', ' : '', link(b, true)]);
    put(people,
      prof.owner && prof.owner.id ? h('p', { class: 'profile-owner' }, h('span', { class: 'muted' }, t('profile.owner')), ' ', link(prof.owner, false)) : null,
      Array.isArray(prof.bots) && prof.bots.length ? h('p', { class: 'profile-bots' }, h('span', { class: 'muted' }, t('profile.bots')), ' ', ...links(prof.bots)) : null);
    const r = prof.results || {};
    put(results, h('span', { class: 'res won' }, t('profile.won', { n: r.won || 0 })), ' · ',
      h('span', { class: 'res drawn' }, t('profile.drawn', { n: r.drawn || 0 })), ' · ',
      h('span', { class: 'res lost' }, t('profile.lost', { n: r.lost || 0 })));
    best.hidden = !(prof.best2048 > 0);
    if (!best.hidden) put(best, h('span', { class: 'muted' }, t('profile.best2048')), ' ', h('b', {}, num(prof.best2048)));
  }

  // link is a player's name, a link to their profile.
  function link(p, bot) {
    const to = profilePath({ ...p, botAccount: bot, account: !bot });
    return to ? nameTag('a', 'inline', p.name || p.id, { href: to, 'data-nav': '' }) : nameTag('span', 'inline', p.name || p.id);
  }

  // The pools the player has played, the most played first.
  const poolList = () => Object.entries((prof && prof.ratings) || {}).sort((a, b) => (b[1].games || 0) - (a[1].games || 0) || a[0].localeCompare(b[0]));

  function renderPools() {
    if (!prof) return;
    const list = poolList();
    if (!list.length) { put(pools, h('p', { class: 'muted profile-unrated' }, t('profile.unrated'))); return; }
    put(pools, ...list.map(([pool, r]) => {
      const pts = curves.get(pool);
      const w = Math.max(200, (width || 320) - 26); // the card's padding
      const graph = pts == null ? h('p', { class: 'muted' }, t('common.loading'))
        : pts.length ? draw(pts, {
          width: w, height: HEIGHT, label: t('profile.graphAria', { pool: poolName(pool), n: pts.length }),
          fmt: (v) => num(v), dateOf: (p) => (p.at ? date(p.at) : ''),
          tip: (p) => `${ratingText(p.rating)} · ${p.at ? date(p.at) : ''}`,
        }) : h('p', { class: 'muted' }, t('profile.noCurve'));
      return h('article', { class: 'pool-card', dataset: { pool } },
        h('h2', { class: 'pool-name' }, poolName(pool)),
        h('p', { class: 'pool-line' },
          h('b', { class: `rating pool-rating${r.provisional ? ' provisional' : ''}`, title: t(r.provisional ? 'rating.provisionalTitle' : 'rating.title') }, ratingText(r.rating, r.provisional)),
          ' ', h('span', { class: 'muted pool-rd', title: t('rating.rdTitle') }, `±${num(Math.round(r.rd || 0))}`),
          ' · ', h('span', { class: 'pool-games' }, t('profile.games', { n: r.games || 0 })),
          r.provisional ? [' · ', h('span', { class: 'muted' }, t('profile.provisional'))] : null,
          ' · ', h('a', { href: boardPath(pool), 'data-nav': '', class: 'pool-board' }, t('profile.board'))),
        h('div', { class: 'graph-box' }, graph));
    }));
  }

  function renderRecent() {
    recentBox.hidden = !recs || !recs.length;
    if (!recs) return;
    recent.replaceChildren(...recs.map((g) => {
      const others = (g.players || []).filter((p) => p.id !== prof.id);
      const res = outcome(g, prof.id);
      return h('li', { class: 'games-item', dataset: { room: g.room, outcome: res } },
        h('a', { href: `/g/${encodeURIComponent(g.room)}`, 'data-nav': '', class: 'games-title' }, `${gameName(g.game)} ${variantShort(g.game, g.variant)}`),
        h('span', { class: `games-outcome ${res}` }, t(`games.${res}`)),
        g.rated ? h('span', { class: 'badge rated-badge is-rated' }, t('rating.rated')) : null,
        others.length ? h('span', { class: 'games-against' }, h('span', { class: 'muted' }, t('games.against')), ' ',
          ...others.flatMap((p, i) => [i ? ', ' : '', nameTag('span', 'games-opp', playerName(g.game, p))])) : null,
        h('span', { class: 'games-meta muted' }, t('games.moves', { n: g.moves || 0 }), g.ended ? ` · ${date(g.ended)}` : ''));
    }));
  }

  function render() { renderHead(); renderPools(); renderRecent(); }

  async function load() {
    try {
      prof = await api(`/api/profile/${encodeURIComponent(name)}`);
    } catch (e) {
      if (gone) return;
      if (e.status === 404 || e.status === 400) missing = true; else failed = true;
      await loadCatalog();
      renderHead();
      return;
    }
    await loadCatalog();
    if (gone) return;
    render();
    for (const [pool] of poolList()) {
      curves.set(pool, null);
      api(`/api/players/${encodeURIComponent(prof.id)}/history/${pool}`).then((j) => {
        curves.set(pool, Array.isArray(j.points) ? j.points : []);
      }).catch(() => curves.set(pool, [])).then(() => { if (!gone) renderPools(); });
    }
    api(`/api/players/${encodeURIComponent(prof.id)}/records?limit=${RECENT}`).then((j) => {
      recs = Array.isArray(j.records) ? j.records : [];
      if (!gone) renderRecent();
    }).catch(() => {});
  }
  load();

  return {
    relabel() { localize(main); render(); },
    destroy() { gone = true; resize.disconnect(); document.title = 'Tabuleiro'; },
  };
}

// boardPath is the address of a pool's leaderboard.
export const boardPath = (pool) => `/leaderboard/${pool.split('/').map(encodeURIComponent).join('/')}`;
