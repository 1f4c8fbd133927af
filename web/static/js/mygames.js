// My games, /games: the finished games of the player this browser holds,
// newest first, a page at a time (GET /api/players/{id}/records, with the
// session cookie, so that private games show too: docs/protocol.md, "A
// player's games"). Each links to its review, /g/<room>. The page's
// address names the page (/games?before=<ms>, and ?limit= games a page,
// 20 unless it says), so "older" is a link the back button returns from.
import { h, put, nameTag } from './dom.js';
import { t, localize, date } from './i18n.js';
import { loadCatalog, gameName, variantShort, playerName } from './labels.js';

const PAGE = 20; // games a page, unless the address says (?limit=, 1 to 100)

// outcome is a finished game as its player reads it: won, lost, drawn or
// aborted (a record without the player's seat: drawn or over).
export function outcome(rec, me) {
  const res = rec.result || {};
  const mine = (rec.players || []).find((p) => p.id === me);
  if (res.reason === 'aborted') return 'aborted';
  if (res.winner == null || res.winner < 0) return (rec.players || []).length > 1 ? 'drawn' : 'over';
  if (!mine) return 'over';
  return res.winner === mine.seat ? 'won' : 'lost';
}

export function myGamesView(main, { conn }) {
  const q0 = new URLSearchParams(location.search);
  const before = Number(q0.get('before')) || null;
  const limit = Math.min(100, Math.max(1, Math.floor(Number(q0.get('limit'))) || PAGE));
  const here = (extra) => { const q = new URLSearchParams(extra); if (limit !== PAGE) q.set('limit', String(limit)); return q.toString() ? `/games?${q}` : '/games'; };
  const status = h('p', { class: 'games-status muted', role: 'status', 'aria-live': 'polite' }, t('common.loading'));
  const list = h('ol', { class: 'games-list', 'aria-labelledby': 'games-h' });
  const pager = h('nav', { class: 'games-pager', 'aria-label': t('games.pages') });
  main.append(h('section', { class: 'games-page', 'aria-labelledby': 'games-h' },
    h('h1', { id: 'games-h', 'data-i18n': 'nav.myGames' }, t('nav.myGames')), status, list, pager));
  let got = null, me = null, gone = false;

  function render() {
    pager.setAttribute('aria-label', t('games.pages'));
    if (!got) return;
    const recs = got.records || [];
    status.textContent = recs.length ? '' : before ? t('games.noOlder') : t('games.none');
    status.hidden = recs.length > 0;
    list.replaceChildren(...recs.map((g) => {
      const others = (g.players || []).filter((p) => p.id !== me).map((p) => playerName(g.game, p));
      const res = outcome(g, me);
      return h('li', { class: 'games-item', dataset: { room: g.room, outcome: res } },
        h('a', { href: `/g/${encodeURIComponent(g.room)}`, 'data-nav': '', class: 'games-title' }, `${gameName(g.game)} ${variantShort(g.game, g.variant)}`),
        h('span', { class: `games-outcome ${res}` }, t(`games.${res}`)),
        others.length ? h('span', { class: 'games-against' }, h('span', { class: 'muted' }, t('games.against')), ' ',
          ...others.flatMap((n, i) => [i ? ', ' : '', nameTag('span', 'games-opp', n)])) : null,
        h('span', { class: 'games-meta muted' },
          t('games.moves', { n: g.moves || 0 }), g.ended ? ` · ${date(g.ended)}` : '', g.private ? ` · ${t('games.private')}` : ''));
    }));
    put(pager,
      before ? h('a', { href: here({}), 'data-nav': '', class: 'button games-newest' }, t('games.newest')) : null,
      got.next ? h('a', { href: here({ before: got.next }), 'data-nav': '', class: 'button games-older', rel: 'next' }, t('games.older')) : null);
  }

  async function load() {
    const id = conn.player && conn.player.id;
    if (!id || gone) return;
    me = id;
    const q = new URLSearchParams({ limit: String(limit) });
    if (before) q.set('before', String(before));
    try {
      // The session cookie goes with it: the player's own private games are listed too.
      const r = await fetch(`/api/players/${encodeURIComponent(id)}/records?${q}`);
      if (gone) return;
      if (!r.ok) throw new Error(String(r.status));
      got = await r.json();
    } catch {
      if (!gone) status.textContent = t('games.failed');
      return;
    }
    await loadCatalog();
    if (!gone) render();
  }
  // The player is known once the connection is welcomed.
  const off = conn.on('up', () => { if (!got) load(); });
  load();

  return {
    relabel() { localize(main); render(); },
    destroy() { gone = true; off(); },
  };
}
