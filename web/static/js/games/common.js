// Shared pieces of the SVG boards: keyboard-navigable cells, the two marks
// (X and O differ by shape, not only by colour), and legal-move helpers.
import { s } from '../dom.js';

// legalFor returns the moves `seat` may play in state. `legal` is a list for
// the seat to move, or (2048 race) an object keyed by seat.
export function legalFor(state, seat) {
  if (seat == null || !state || state.status === 'finished') return [];
  if (state.legalBySeat) return state.legalBySeat[seat] || state.legalBySeat[String(seat)] || [];
  const L = state.legal;
  if (!L) return [];
  if (Array.isArray(L)) {
    if (state.turn == null) return state.players && state.players.length > 1 && state.game !== '2048' ? [] : L;
    return state.turn === seat ? L : [];
  }
  return L[seat] || L[String(seat)] || [];
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

export const SEAT_CHAR = { X: 0, O: 1 };
export const seatName = (seat) => (seat === 0 ? 'X' : seat === 1 ? 'O' : '');
export const stoneWord = (ch, game) => {
  if (game === 'go' || game === 'orbito') return ch === 'X' ? 'black stone' : ch === 'O' ? 'white stone' : 'empty';
  return ch === 'X' ? 'X piece' : ch === 'O' ? 'O piece' : 'empty';
};

// Grid wires keyboard and pointer input for a rows x cols board of cells.
// Cells are <g role="gridcell"> with a roving tabindex: the arrows move the
// cursor, Enter or Space plays it, a click plays the cell clicked.
export class Grid {
  constructor(svg, rows, cols, onActivate) {
    this.svg = svg; this.rows = rows; this.cols = cols; this.onActivate = onActivate;
    this.cells = [];
    this.cur = [Math.floor(rows / 2), Math.floor(cols / 2)];
    svg.setAttribute('role', 'grid');
    svg.addEventListener('keydown', (e) => this.key(e));
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

  // rowGroups wraps the cells of each row in a role="row" group.
  row(r) {
    const g = s('g', { role: 'row' });
    return g;
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

export function boardsEqual(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}
