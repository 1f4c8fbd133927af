// The computer's analysis of a finished game on its page (/g/<room>):
// POST /api/records/<room>/analysis asks for it, GET polls it
// (docs/protocol.md, "Analysis"). Go shows black's win rate after every
// move as a graph; the solved games (morris, orbito on 2 orbits) list the
// moves that lost outlook; the others the moves where the strong bot
// preferred another.
import { h, s, put } from './dom.js';
import { t } from './i18n.js';

const POLL_MS = 1500;
const MAX_POLLS = 400; // 10 minutes

export function analysisPanel(room, game) {
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
    const plies = Array.isArray(a.plies) ? a.plies : [];
    if (plies.length && plies.every((p) => typeof p.winRate === 'number')) return put(body, graph(plies));
    const start = plies[0] && plies[0].outlook ? h('p', { class: 'analysis-start' }, t('analysis.startOutlook', { outlook: t(`outlook.${plies[0].outlook}`) })) : null;
    const marks = plies.filter((p) => p.mistake || (!p.outlook && p.best && p.played && p.best !== p.played));
    put(body, start, marks.length
      ? h('ol', { class: 'analysis-marks' }, ...marks.map((p) => h('li', { class: p.mistake ? 'mistake' : 'other', dataset: { ply: p.ply } },
        t(p.mistake ? 'analysis.mistake' : 'analysis.other', { n: p.ply + 1, played: p.played, best: p.best }))))
      : h('p', { class: 'muted' }, t('analysis.noMistakes')));
  }
  // graph draws black's (seat 0's) win rate before each move, 0 to 100%.
  function graph(plies) {
    const W = 300, H = 100, n = plies.length;
    const pts = plies.map((p, i) => {
      const black = p.seat === 0 ? p.winRate : 1 - p.winRate;
      return `${(n > 1 ? (i / (n - 1)) * W : W / 2).toFixed(1)},${((1 - black) * H).toFixed(1)}`;
    }).join(' ');
    return h('figure', { class: 'winrate' },
      s('svg', { viewBox: `0 0 ${W} ${H}`, class: 'winrate-graph', role: 'img', 'aria-label': t('analysis.graph'), preserveAspectRatio: 'none' },
        s('rect', { x: 0, y: 0, width: W, height: H, fill: 'none', stroke: 'currentColor', 'stroke-opacity': 0.3 }),
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
