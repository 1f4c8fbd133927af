// 2048: one 4x4 board (solo) or two side by side (race). Tiles slide and
// merge with the seed's rules; arrow keys, swipes and the on-screen arrows
// play N, S, E, W.
import { s, h } from '../dom.js';
import { legalFor, MINI, miniFrame } from './common.js';

// What the page needs of 2048 besides its boards (games/index.js): the
// lobby's first computer level; no clock and no "your turn" (both seats
// move at will); seats shown by number; moves in a wrapping grid, not in
// pairs; and the arrow keys play rather than step through the replay.
export const about = { level: 'forte', clock: false, notify: false, seatMarks: 'numbers', moveList: 'grid', arrowsPlay: true, seats: (variant) => (variant === 'solo' ? 1 : 2) };

const ARROWS = { N: '↑', S: '↓', E: '→', W: '←' };
// moveText writes a move as its arrow.
export const moveText = (m) => ARROWS[m.move] || m.move;

const G = 12, C = 94, STEP = C + 10, W = 2 * G + 4 * STEP - 10;
const P = (i) => G + i * STEP;
const KEYS = { ArrowUp: 'N', ArrowDown: 'S', ArrowRight: 'E', ArrowLeft: 'W' };

// boardsOf lists st's boards: a race's `board` is the two boards, seat 0's
// first; solo's is the one board (docs/protocol.md, "Boards and moves").
export function boardsOf(st) {
  return st.variant === 'race' ? st.board : [st.board];
}

// slide applies a move as the seed does and returns the new board (without
// the random tile) and where every tile went.
export function slide(board, dir) {
  const out = board.map((row) => row.map(() => 0)), moves = [];
  for (let i = 0; i < 4; i++) {
    const line = [0, 1, 2, 3].map((j) => ({
      N: [j, i], S: [3 - j, i], W: [i, j], E: [i, 3 - j],
    })[dir]);
    const res = [];
    for (const [r, c] of line) {
      const v = board[r][c];
      if (!v) continue;
      const top = res[res.length - 1];
      if (top && top.v === v && !top.merged) { top.v *= 2; top.merged = true; moves.push({ from: [r, c], to: line[res.length - 1], v }); }
      else { res.push({ v, merged: false }); moves.push({ from: [r, c], to: line[res.length - 1], v }); }
    }
    res.forEach((t, k) => { const [r, c] = line[k]; out[r][c] = t.v; });
  }
  return { board: out, moves };
}

function tile(v, r, c, cls = '') {
  const g = s('g', { class: `tile t${Math.min(v, 4096)} ${cls}` },
    s('rect', { width: C, height: C, rx: 8 }),
    s('text', { x: C / 2, y: C / 2 + (v >= 1024 ? 12 : 15), class: v >= 1024 ? 'small' : '' }, String(v)));
  g.style.transform = `translate(${P(c)}px, ${P(r)}px)`;
  return g;
}

export function create(ctx) {
  const { t } = ctx;
  const DIR = (d) => t(`dir.${d}`);
  // The boards sit in a row of their own; the arrow pad goes below it. (In
  // a race the pad used to be a third flex item of the row, 100% wide, and
  // squeezed the player's own board to 0 px.)
  const row = h('div', { class: 'boards-2048' });
  const root = h('div', { class: 'play-2048' }, row);
  const views = [];
  let state = null, seat = null, interactive = false, legal = [];

  function view(i) {
    if (views[i]) return views[i];
    const svg = s('svg', { viewBox: `0 0 ${W} ${W}`, class: 'board-svg b2048', role: 'img' });
    svg.append(s('rect', { width: W, height: W, rx: 14, class: 'bg' }));
    for (let r = 0; r < 4; r++) for (let c = 0; c < 4; c++) svg.append(s('rect', { x: P(c), y: P(r), width: C, height: C, rx: 8, class: 'slot' }));
    const tiles = s('g', { class: 'tiles' });
    svg.append(tiles);
    const title = h('div', { class: 'b2048-title' });
    const wrap = h('div', { class: 'b2048-wrap', dataset: { seat: i } }, title, svg);
    let sx = null, sy = null;
    svg.addEventListener('pointerdown', (e) => { sx = e.clientX; sy = e.clientY; });
    svg.addEventListener('pointerup', (e) => {
      if (sx == null) return;
      const dx = e.clientX - sx, dy = e.clientY - sy; sx = null;
      if (Math.max(Math.abs(dx), Math.abs(dy)) < 24) return;
      try_(i, Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? 'E' : 'W') : (dy > 0 ? 'S' : 'N'));
    });
    row.append(wrap);
    return (views[i] = { svg, tiles, title, wrap, board: null });
  }

  function try_(i, d) {
    if (i !== seat) return ctx.explain(seat == null ? t('why.spectator') : t('why.2048.theirs'));
    const why = ctx.blocked();
    if (why) return ctx.explain(why);
    if (!legal.includes(d)) return ctx.explain(t('why.2048.stuck', { dir: DIR(d) }));
    ctx.play(d);
  }

  const onKey = (e) => {
    const d = KEYS[e.key];
    if (!d || seat == null || !interactive) return;
    const t = e.target;
    if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT')) return;
    e.preventDefault();
    try_(seat, d);
  };
  document.addEventListener('keydown', onKey);

  const pad = h('div', { class: 'pad', role: 'group' },
    ...['N', 'W', 'S', 'E'].map((d) => h('button', { type: 'button', class: `pad-${d}`, dataset: { dir: d }, onclick: () => try_(seat, d) }, ARROWS[d])));

  function draw(v, b, anim) {
    const old = v.board;
    v.board = b;
    if (anim && old) {
      const { board: slid, moves } = slide(old, anim);
      let spawn = null, diff = 0;
      for (let r = 0; r < 4; r++) for (let c = 0; c < 4; c++) if (slid[r][c] !== b[r][c]) { diff++; if (!slid[r][c]) spawn = [r, c]; }
      if (diff === 1 && spawn) {
        const els = moves.map((m) => { const g = tile(m.v, m.from[0], m.from[1]); g._to = m.to; return g; });
        v.tiles.replaceChildren(...els);
        v.svg.getBoundingClientRect();
        requestAnimationFrame(() => {
          for (const g of els) { g.classList.add('anim'); g.style.transform = `translate(${P(g._to[1])}px, ${P(g._to[0])}px)`; }
        });
        setTimeout(() => {
          if (v.board !== b) return;
          plain(v, b, spawn, slid, old);
        }, 130);
        return;
      }
    }
    plain(v, b);
  }

  function plain(v, b, spawn, slid, old) {
    const kids = [];
    for (let r = 0; r < 4; r++) for (let c = 0; c < 4; c++) {
      if (!b[r][c]) continue;
      const isSpawn = spawn && spawn[0] === r && spawn[1] === c;
      const merged = slid && old && !isSpawn && b[r][c] !== old[r][c] && slid[r][c] === b[r][c] && isMerge(old, b, r, c);
      kids.push(tile(b[r][c], r, c, isSpawn ? 'spawn' : merged ? 'merged' : ''));
    }
    v.tiles.replaceChildren(...kids);
    const rows = b.map((row, r) => t('board.2048row', { r: r + 1, cells: row.map((x) => x || t('cell.empty')).join(', ') })).join('; ');
    v.svg.setAttribute('aria-label', `${t('board.2048')} ${rows}`);
  }
  const isMerge = (old, b, r, c) => b[r][c] > 0 && !old.flat().includes(b[r][c]) || b[r][c] === 2 * old[r][c];

  function update(st, opts) {
    const prev = state;
    state = st; seat = opts.seat; interactive = opts.interactive;
    legal = interactive ? legalFor(st, seat) : [];
    const boards = boardsOf(st);
    const names = st.players || [];
    const score = st.score || {};
    boards.forEach((b, i) => {
      const v = view(i);
      const p = names.find((x) => x.seat === i);
      const sc = score[i] ?? 0;
      const done = Array.isArray(st.finished) && st.finished[i] && st.status === 'playing';
      const name = p ? ctx.name(p) : t('room.emptySeat');
      v.title.replaceChildren(h('span', { class: 'who' }, h('span', { class: 'seat-num small', 'aria-hidden': 'true' }, String(i + 1)), h('span', { class: 'who-name nm', title: name }, name)),
        done ? h('span', { class: 'done' }, t('2048.done')) : '', h('span', { class: 'sc' }, t('2048.score', { n: sc })));
      v.wrap.classList.toggle('mine', i === seat);
      const moved = opts.animate && prev && st.lastMove && st.lastMove.seat === i && st.seq > prev.seq ? st.lastMove.move : null;
      draw(v, b, moved);
    });
    pad.setAttribute('aria-label', t('2048.pad'));
    for (const b of pad.children) b.setAttribute('aria-label', t('2048.slide', { dir: DIR(b.dataset.dir) }));
    pad.hidden = seat == null || !interactive;
    for (const b of pad.children) b.setAttribute('aria-disabled', legal.includes(b.dataset.dir) ? 'false' : 'true');
    if (!pad.isConnected) root.append(pad);
    row.classList.toggle('race', boards.length > 1);
  }

  return { el: root, update, destroy: () => document.removeEventListener('keydown', onKey) };
}

// mini draws st's boards for the lobby (a race's two side by side).
export function mini(st) {
  const svg = miniFrame('m2048');
  const boards = boardsOf(st);
  const w = boards.length > 1 ? MINI / 2 - 3 : MINI;
  boards.slice(0, 2).forEach((bd, k) => {
    const ox = k * (w + 6), oy = (MINI - w) / 2, c = w / 4;
    svg.append(s('rect', { x: ox, y: oy, width: w, height: w, rx: 4, class: 'm-bg' }));
    bd.forEach((row, r) => row.forEach((v, col) => {
      if (!v) return;
      svg.append(s('rect', { x: ox + col * c + 1, y: oy + r * c + 1, width: c - 2, height: c - 2, rx: 2, class: `m-t t${Math.min(v, 4096)}` }));
    }));
  });
  return svg;
}
