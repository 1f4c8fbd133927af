// The computer's analysis of a finished game on its page (/g/<room>):
// POST /api/records/<room>/analysis asks for it, GET polls it
// (docs/protocol.md, "Analysis"). Go shows black's win rate after every
// move as a graph; the solved games (morris, orbito on 2 orbits) list the
// moves that lost outlook; the others the moves where the strong bot
// preferred another. Each move the review marks (`mark`: ??, ?, ?!) is
// given to the page (onReview) for its move list, and a click on a mark
// here shows the position after that move (goTo). Where win rates are
// known, the move that lost its player the most (`worst`) is singled out
// on the graph and named under it.
import { h, s, put } from './dom.js';
import { t, current } from './i18n.js';

const KINDS = { '??': 'blunder', '?': 'mistake', '?!': 'inaccuracy' };

// markOf is the review's mark of a ply: its own, or "?" for a solved
// game's mistake in an analysis stored before marks existed.
export const markOf = (p) => (p && (p.mark || (p.mistake ? '?' : ''))) || '';

// moveName is a move as the page writes it.
const moveName = (m) => (m === 'pass' ? t('move.pass') : m || '');
const pct = (x) => new Intl.NumberFormat(current(), { style: 'percent' }).format(x);

// markTip says what a mark means, in words: its kind, the mover's win rate
// before and after when known, and the computer's move.
export function markTip(p) {
  const kind = t(`review.${KINDS[markOf(p)]}`);
  if (typeof p.winRate === 'number' && typeof p.drop === 'number') {
    return t('review.tipRate', { kind, from: pct(p.winRate), to: pct(p.winRate - p.drop), best: moveName(p.best) });
  }
  return p.best && p.best !== p.played ? t('review.tip', { kind, best: moveName(p.best) }) : kind;
}

const POLL_MS = 1500;
const MAX_POLLS = 400; // 10 minutes

// analysisPanel is the panel of room's analysis. onReview(analysis) hears
// a done analysis (again at each relabel); goTo(k) shows the position
// after k moves; seatName(seat) names a side.
export function analysisPanel(room, game, { onReview = () => {}, goTo = () => {}, seatName = String } = {}) {
  const body = h('div', { class: 'analysis-body' });
  const title = h('h2', {}, t('analysis.title'));
  const el = h('section', { class: 'analysis' }, title, body);
  const url = `/api/records/${encodeURIComponent(room)}/analysis`;
  let timer = null, polls = 0, stopped = false;
  // paint draws what the panel shows now again, in the current language.
  let paint = () => {};

  function button() {
    paint = button;
    put(body, h('button', { type: 'button', class: 'analyse', onclick: ask }, t('analysis.start')));
  }
  function pending() {
    paint = pending;
    put(body, h('p', { class: 'muted analysis-pending' }, t('analysis.pending')));
  }
  async function ask() {
    pending();
    try {
      const r = await fetch(url, { method: 'POST' });
      const j = await r.json();
      if (r.ok && j.status === 'done') return show(j);
      if (r.status === 202) return poll();
      put(body, h('p', { class: 'error' }, j.message || String(r.status)));
    } catch { button(); }
  }
  function poll() {
    if (stopped || ++polls > MAX_POLLS) return;
    timer = setTimeout(async () => {
      try {
        const r = await fetch(url);
        const j = await r.json();
        if (r.ok && j.status === 'done') return show(j);
      } catch { /* try again */ }
      poll();
    }, POLL_MS);
  }
  function show(a) {
    paint = () => show(a);
    onReview(a);
    const plies = Array.isArray(a.plies) ? a.plies : [];
    const worst = Number.isInteger(a.worst) && plies[a.worst] ? plies[a.worst] : null;
    const rates = plies.length && plies.every((p) => typeof p.winRate === 'number');
    const jump = (p, ...kids) => h('button', { type: 'button', class: 'jump', onclick: () => goTo(p.ply + 1) }, ...kids);
    const markSpan = (p) => h('span', { class: `review-mark review-${KINDS[markOf(p)]}`, title: markTip(p) }, markOf(p));
    if (rates) {
      const marked = plies.filter((p) => markOf(p));
      return put(body, graph(plies, a.worst),
        worst ? h('p', { class: 'analysis-worst' }, jump(worst, h('span', { class: 'review-mark review-worst', 'aria-hidden': 'true' }, '▼'),
          t('review.worstSummary', { n: worst.ply + 1, played: moveName(worst.played), who: seatName(worst.seat), from: pct(worst.winRate), to: pct(worst.winRate - worst.drop) }))) : null,
        marked.length ? h('ol', { class: 'analysis-marks' }, ...marked.map((p) => h('li', { class: KINDS[markOf(p)], dataset: { ply: p.ply } },
          jump(p, markSpan(p), ' ', t('review.item', { n: p.ply + 1, played: moveName(p.played), tip: markTip(p) }))))) : null);
    }
    const start = plies[0] && plies[0].outlook ? h('p', { class: 'analysis-start' }, t('analysis.startOutlook', { outlook: t(`outlook.${plies[0].outlook}`) })) : null;
    const marks = plies.filter((p) => markOf(p) || (!p.outlook && p.best && p.played && p.best !== p.played));
    put(body, start, marks.length
      ? h('ol', { class: 'analysis-marks' }, ...marks.map((p) => h('li', { class: markOf(p) ? KINDS[markOf(p)] : 'other', dataset: { ply: p.ply } },
        jump(p, markOf(p) ? markSpan(p) : null, markOf(p) ? ' ' : null,
          t(p.mistake ? 'analysis.mistake' : 'analysis.other', { n: p.ply + 1, played: p.played, best: p.best })))))
      : h('p', { class: 'muted' }, t('analysis.noMistakes')));
  }
  // graph draws black's (seat 0's) win rate before each move, 0 to 100%,
  // and a band over the move that lost its player the most.
  function graph(plies, worst) {
    const W = 300, H = 100, n = plies.length;
    const x = (i) => (n > 1 ? (i / (n - 1)) * W : W / 2);
    const pts = plies.map((p, i) => {
      const black = p.seat === 0 ? p.winRate : 1 - p.winRate;
      return `${x(i).toFixed(1)},${((1 - black) * H).toFixed(1)}`;
    }).join(' ');
    let band = null;
    if (Number.isInteger(worst) && plies[worst]) {
      const x0 = x(worst), x1 = worst + 1 < n ? x(worst + 1) : Math.min(W, x0 + 6);
      const w = Math.max(6, x1 - x0);
      band = s('rect', { class: 'worst-band', x: Math.min(x0, W - w).toFixed(1), y: 0, width: w.toFixed(1), height: H, 'data-ply': worst },
        s('title', {}, t('review.worst')));
    }
    return h('figure', { class: 'winrate' },
      s('svg', { viewBox: `0 0 ${W} ${H}`, class: 'winrate-graph', role: 'img', 'aria-label': t('analysis.graph'), preserveAspectRatio: 'none' },
        s('rect', { x: 0, y: 0, width: W, height: H, fill: 'none', stroke: 'currentColor', 'stroke-opacity': 0.3 }),
        band,
        s('line', { x1: 0, y1: H / 2, x2: W, y2: H / 2, stroke: 'currentColor', 'stroke-opacity': 0.3, 'stroke-dasharray': '4 4' }),
        s('polyline', { points: pts, fill: 'none', stroke: 'currentColor', 'stroke-width': 2, 'vector-effect': 'non-scaling-stroke' })),
      h('figcaption', { class: 'muted' }, t('analysis.graph')));
  }

  // A done analysis shows at once; otherwise the button.
  fetch(url).then(async (r) => {
    const j = await r.json().catch(() => ({}));
    if (r.ok && j.status === 'done') show(j);
    else if (r.status === 202) { pending(); poll(); }
    else button();
  }).catch(button);
  void game;
  return {
    el,
    relabel() { title.textContent = t('analysis.title'); paint(); },
    destroy() { stopped = true; clearTimeout(timer); },
  };
}
