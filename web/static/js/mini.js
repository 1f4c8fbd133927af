// Small boards for the lobby's live games: a picture of the position, no
// input. Drawn from a room.state's board whatever the game.
import { s } from './dom.js';

const SIZE = 120;

function frame(cls) {
  return s('svg', { viewBox: `0 0 ${SIZE} ${SIZE}`, class: `mini ${cls}`, role: 'img' });
}

function disc(ch, x, y, r) {
  return s('circle', { cx: x, cy: y, r, class: ch === 'X' ? 'm-x' : 'm-o' });
}

// render returns an <svg> for st (game and board), labelled by label.
export function render(st, label) {
  const game = st.game, b = st.board;
  let svg;
  if (game === '2048') {
    const boards = Array.isArray(b) && Array.isArray(b[0]) && Array.isArray(b[0][0]) ? b : [b];
    svg = frame('m2048');
    const w = boards.length > 1 ? SIZE / 2 - 3 : SIZE;
    boards.slice(0, 2).forEach((bd, k) => {
      const ox = k * (w + 6), oy = (SIZE - w) / 2, c = w / 4;
      svg.append(s('rect', { x: ox, y: oy, width: w, height: w, rx: 4, class: 'm-bg' }));
      (bd || []).forEach((row, r) => (row || []).forEach((v, col) => {
        if (!v) return;
        svg.append(s('rect', { x: ox + col * c + 1, y: oy + r * c + 1, width: c - 2, height: c - 2, rx: 2, class: `m-t t${Math.min(v, 4096)}` }));
      }));
    });
  } else if (Array.isArray(b) && typeof b[0] === 'string') {
    const n = b.length, m = b[0].length;
    if (game === 'go') {
      svg = frame('mgo');
      const step = SIZE / n, p = (i) => step / 2 + i * step;
      svg.append(s('rect', { width: SIZE, height: SIZE, rx: 4, class: 'm-bg' }));
      for (let i = 0; i < n; i++) {
        svg.append(s('line', { x1: p(0), y1: p(i), x2: p(n - 1), y2: p(i), class: 'm-line' }));
        svg.append(s('line', { x1: p(i), y1: p(0), x2: p(i), y2: p(n - 1), class: 'm-line' }));
      }
      b.forEach((row, r) => [...row].forEach((ch, c) => { if (ch !== '.') svg.append(disc(ch, p(c), p(r), step * 0.46)); }));
    } else if (game === 'morris') {
      svg = frame('mmorris');
      const p = (i) => 20 + i * 40;
      svg.append(s('rect', { width: SIZE, height: SIZE, rx: 8, class: 'm-bg' }));
      const L = [[0, 0, 0, 2], [1, 0, 1, 2], [2, 0, 2, 2], [0, 0, 2, 0], [0, 1, 2, 1], [0, 2, 2, 2], [0, 0, 2, 2], [0, 2, 2, 0]];
      for (const [r1, c1, r2, c2] of L) svg.append(s('line', { x1: p(c1), y1: p(r1), x2: p(c2), y2: p(r2), class: 'm-line' }));
      b.forEach((row, r) => [...row].forEach((ch, c) => { if (ch !== '.') svg.append(disc(ch, p(c), p(r), 13)); }));
    } else {
      svg = frame(game === 'queens' ? 'mqueens' : 'morbito');
      const c = SIZE / Math.max(n, m);
      svg.append(s('rect', { width: SIZE, height: SIZE, rx: 4, class: 'm-bg' }));
      b.forEach((row, r) => [...row].forEach((ch, col) => {
        if (game === 'queens' && (r + col) % 2) svg.append(s('rect', { x: col * c, y: r * c, width: c, height: c, class: 'm-dark' }));
        if (ch === '.') return;
        if (game === 'queens') {
          const owner = st.owners && typeof st.owners[r] === 'string' ? st.owners[r][col] : '0';
          svg.append(disc(owner === '1' ? 'O' : 'X', col * c + c / 2, r * c + c / 2, c * 0.38));
        } else svg.append(disc(ch, col * c + c / 2, r * c + c / 2, c * 0.38));
      }));
    }
  } else {
    svg = frame('mnone');
  }
  svg.setAttribute('aria-label', label);
  return svg;
}
