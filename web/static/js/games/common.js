// Shared pieces of the SVG boards: keyboard-navigable cells, the two marks
// (X and O differ by shape, not only by colour), winning lines, and
// legal-move helpers.
import { s } from '../dom.js';

// legalFor returns the moves `seat` may play in state (docs/protocol.md):
// `legalBySeat` where both seats move freely (2048 race), else `legal`, the
// moves of the seat in `turn`. With no seat in turn `legal` is [] in a
// whole state, and this seat's own moves in a state made from its patch
// (a patch carries the receiver's own moves, and no legalBySeat).
export function legalFor(state, seat) {
  if (seat == null || !state || state.status === 'finished') return [];
  if (state.legalBySeat) return state.legalBySeat[seat] || [];
  if (!Array.isArray(state.legal)) return [];
  return state.turn == null || state.turn === seat ? state.legal : [];
}

// mark draws a player's piece centred at (x, y): seat 0 is a dark disc with
// a light cross (X), seat 1 a light disc with a dark ring (O).
export function mark(seat, x, y, r, extra = {}) {
  if (seat === 0) {
    const d = r * 0.42;
    return s('g', { class: 'mark mark-x', transform: `translate(${x} ${y})`, ...extra },
      s('circle', { r, class: 'disc' }),
      s('path', { d: `M${-d} ${-d}L${d} ${d}M${d} ${-d}L${-d} ${d}`, class: 'sym' }));
  }
  return s('g', { class: 'mark mark-o', transform: `translate(${x} ${y})`, ...extra },
    s('circle', { r, class: 'disc' }),
    s('circle', { r: r * 0.45, class: 'sym' }));
}

// stoneWord names what stands on a cell, in the page's language.
export function stoneWord(t, ch, game) {
  if (ch === '.') return t('cell.empty');
  if (game === 'go' || game === 'orbito') return t(ch === 'X' ? 'cell.black' : 'cell.white');
  return t(ch === 'X' ? 'cell.x' : 'cell.o');
}

// drawLines draws the winning lines of a finished game ("lines" in
// room.state: [{seat, cells: ["a1", ...]}]) into layer: a stroke from one
// end of each line to the other and a ring on every cell. center(cell)
// gives a cell's [x, y]; the cells come in the game's reading order, which
// need not run along the line, so the ends are the two cells farthest apart.
export function drawLines(layer, lines, center, r) {
  layer.replaceChildren();
  const on = new Set();
  for (const ln of Array.isArray(lines) ? lines : []) {
    const pts = (ln.cells || []).map((c) => { on.add(c); return center(c); }).filter(Boolean);
    if (pts.length < 2) continue;
    let a = pts[0], b = pts[1], best = -1;
    for (const p of pts) for (const q of pts) {
      const d = (p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2;
      if (d > best) { best = d; a = p; b = q; }
    }
    layer.append(s('line', { x1: a[0], y1: a[1], x2: b[0], y2: b[1], class: `win-line seat-${ln.seat}` }));
    for (const p of pts) layer.append(s('circle', { cx: p[0], cy: p[1], r, class: 'win-cell' }));
  }
  return on;
}

// How focus last moved: a board entered with Tab takes the arrow keys (its
// cursor); a board clicked leaves them to the page (the replay), as on
// lichess.
let lastInput = null;
function watchInput() {
  if (lastInput) return;
  lastInput = 'pointer';
  addEventListener('pointerdown', () => { lastInput = 'pointer'; }, true);
  addEventListener('keydown', (e) => { if (e.key === 'Tab') lastInput = 'key'; }, true);
}

// Grid wires keyboard and pointer input for a rows x cols board of cells.
// Cells are <g role="gridcell"> with a roving tabindex: once the board is
// entered with the keyboard the arrows move the cursor (the svg then has
// data-keys="on"), Enter or Space plays it; a click plays the cell clicked.
export class Grid {
  constructor(svg, rows, cols, onActivate) {
    watchInput();
    this.svg = svg; this.rows = rows; this.cols = cols; this.onActivate = onActivate;
    this.cells = [];
    this.cur = [Math.floor(rows / 2), Math.floor(cols / 2)];
    svg.setAttribute('role', 'grid');
    // Tab goes to the cursor cell, not to the <svg> (Chrome lets Tab stop on it).
    svg.setAttribute('tabindex', '-1');
    svg.addEventListener('keydown', (e) => this.key(e));
    svg.addEventListener('focusin', () => { if (lastInput === 'key') svg.dataset.keys = 'on'; });
    svg.addEventListener('pointerdown', () => { delete svg.dataset.keys; });
    svg.addEventListener('focusout', (e) => { if (!svg.contains(e.relatedTarget)) delete svg.dataset.keys; });
  }

  // add registers the cell element for (r, c) and returns it.
  add(r, c, el) {
    el.setAttribute('role', 'gridcell');
    el.setAttribute('tabindex', r === this.cur[0] && c === this.cur[1] ? '0' : '-1');
    el.dataset.r = r; el.dataset.c = c;
    el.addEventListener('click', () => { this.moveTo(r, c, false); this.onActivate(r, c); });
    (this.cells[r] ||= [])[c] = el;
    return el;
  }

  moveTo(r, c, focus = true) {
    const old = this.cells[this.cur[0]]?.[this.cur[1]];
    if (old) old.setAttribute('tabindex', '-1');
    this.cur = [r, c];
    const el = this.cells[r]?.[c];
    if (el) { el.setAttribute('tabindex', '0'); if (focus) el.focus(); }
  }

  key(e) {
    const d = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[e.key];
    let [r, c] = this.cur;
    const keys = this.svg.dataset.keys === 'on';
    if ((d || e.key === 'Home' || e.key === 'End') && !keys) return; // the page's (replay)
    if (d) {
      e.preventDefault();
      r = Math.min(this.rows - 1, Math.max(0, r + d[0]));
      c = Math.min(this.cols - 1, Math.max(0, c + d[1]));
      this.moveTo(r, c);
    } else if (e.key === 'Home') { e.preventDefault(); this.moveTo(r, 0); }
    else if (e.key === 'End') { e.preventDefault(); this.moveTo(r, this.cols - 1); }
    else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      this.onActivate(r, c);
    }
  }
}

// The lobby's small boards (each game's mini()): a picture of a position
// in a 120-unit square, no input.
export const MINI = 120;
export function miniFrame(cls) {
  return s('svg', { viewBox: `0 0 ${MINI} ${MINI}`, class: `mini ${cls}`, role: 'img' });
}
export function miniDisc(ch, x, y, r) {
  return s('circle', { cx: x, cy: y, r, class: ch === 'X' ? 'm-x' : 'm-o' });
}

// movePlain is how the move list writes a move: "pass" in the page's
// language, any other move in the wire notation.
export const movePlain = (m, t) => (m.move === 'pass' ? t('move.pass') : m.move);
