// Orbito-n: a 2n x 2n board of n square orbits. Row 1 is the top row (as the
// seed prints it). After every turn every stone moves one step
// counter-clockwise along its orbit; the board animates that rotation.
import { s } from '../dom.js';
import { Grid, legalFor, mark, stoneWord, drawLines, MINI, miniFrame, miniDisc } from './common.js';

// What the page needs of orbito besides its board (games/index.js names
// every field): the lobby's first computer level, draw offers, and the
// length of a winning line (the result's words).
export const about = { level: 'normal', draws: true, lineLength: (variant) => 2 * (parseInt(variant, 10) || 2) };

const S = 100, M = 44;
const LET = 'abcdefghij';

// rotStep gives the cell a stone at (r, c) moves to in one counter-clockwise
// step of its orbit on an N x N board.
export function rotStep(r, c, N) {
  const o = Math.min(r, c, N - 1 - r, N - 1 - c), lo = o, hi = N - 1 - o;
  if (r === lo && c > lo) return [r, c - 1];   // top edge: leftwards
  if (c === lo && r < hi) return [r + 1, c];   // left edge: downwards
  if (r === hi && c < hi) return [r, c + 1];   // bottom edge: rightwards
  return [r - 1, c];                           // right edge: upwards
}

export function rotate(board) {
  const N = board.length;
  const out = Array.from({ length: N }, () => Array(N).fill('.'));
  for (let r = 0; r < N; r++) for (let c = 0; c < N; c++) {
    const [r2, c2] = rotStep(r, c, N);
    out[r2][c2] = board[r][c];
  }
  return out.map((row) => row.join(''));
}

const coord = (r, c) => `${LET[c]}${r + 1}`;
const parse = (m) => [parseInt(m.slice(1), 10) - 1, LET.indexOf(m[0])];
const cx = (c) => M + (c + 0.5) * S;

export function create(ctx) {
  const { t } = ctx;
  const n = parseInt(ctx.variant, 10) || 2, N = 2 * n, W = N * S + 2 * M;
  const svg = s('svg', { viewBox: `0 0 ${W} ${W}`, class: 'board-svg orbito' });
  svg.append(s('rect', { x: M, y: M, width: N * S, height: N * S, rx: 18, class: 'bg' }));
  // The orbits, each with arrows showing the counter-clockwise turn.
  for (let o = 0; o < n; o++) {
    const a = M + (o + 0.5) * S, b = M + (N - o - 0.5) * S, mid = (a + b) / 2;
    svg.append(s('rect', { x: a, y: a, width: b - a, height: b - a, rx: 12, class: `orbit orbit-${o}` }));
    const k = 9;
    svg.append(s('path', { class: 'orbit-arrow', d: `M${mid - k} ${a}l${2 * k} ${-k}v${2 * k}z` })); // top: left
    svg.append(s('path', { class: 'orbit-arrow', d: `M${mid + k} ${b}l${-2 * k} ${-k}v${2 * k}z` })); // bottom: right
    svg.append(s('path', { class: 'orbit-arrow', d: `M${a} ${mid + k}l${-k} ${-2 * k}h${2 * k}z` })); // left: down
    svg.append(s('path', { class: 'orbit-arrow', d: `M${b} ${mid - k}l${-k} ${2 * k}h${2 * k}z` })); // right: up
  }
  for (let c = 0; c < N; c++) svg.append(s('text', { x: cx(c), y: M / 2 + 8, class: 'coord' }, LET[c]));
  for (let r = 0; r < N; r++) svg.append(s('text', { x: M / 2, y: cx(r) + 8, class: 'coord' }, String(r + 1)));

  const grid = new Grid(svg, N, N, (r, c) => activate(r, c));
  const cells = [];
  for (let r = 0; r < N; r++) {
    const row = s('g', { role: 'row' });
    for (let c = 0; c < N; c++) {
      const g = grid.add(r, c, s('g', { class: 'cell' },
        s('rect', { x: M + c * S, y: M + r * S, width: S, height: S, class: 'hit' }),
        s('circle', { cx: cx(c), cy: cx(r), r: 10, class: 'legal-dot' }),
        s('rect', { x: M + c * S + 6, y: M + r * S + 6, width: S - 12, height: S - 12, rx: 10, class: 'focus-ring' })));
      row.append(g);
      (cells[r] ||= [])[c] = g;
    }
    svg.append(row);
  }
  const stones = s('g', { class: 'stones', 'aria-hidden': 'true' });
  const last = s('rect', { width: S - 20, height: S - 20, rx: 8, class: 'last-move', visibility: 'hidden' });
  const wins = s('g', { class: 'wins', 'aria-hidden': 'true' });
  svg.append(wins, stones, last); // the winning line under the stones, its rings around them

  let state = null, legal = [];
  function activate(r, c) {
    const pm = ctx.premove;
    if (pm.pending()) return pm.cancel();
    const pre = pm.allowed(), why = pre ? '' : ctx.blocked();
    if (why) return ctx.explain(why);
    const m = coord(r, c);
    if (state.board[r][c] !== '.') return ctx.explain(t('why.orbito.taken', { cell: m }));
    if (pre) return pm.set(m);
    if (!legal.includes(m)) return ctx.explain(t('why.illegal', { cell: m }));
    ctx.play(m);
  }

  function drawStones(board) {
    stones.replaceChildren();
    const els = [];
    board.forEach((row, r) => [...row].forEach((ch, c) => {
      if (ch === '.') return;
      const g = mark(ch === 'X' ? 0 : 1, 0, 0, S * 0.36);
      g.style.transform = `translate(${cx(c)}px, ${cx(r)}px)`;
      stones.append(g);
      els.push([g, r, c]);
    }));
    return els;
  }

  function update(st, opts) {
    const prev = state;
    state = st;
    legal = opts.interactive ? legalFor(st, opts.seat) : [];
    const b = st.board;
    svg.setAttribute('aria-label', t('board.orbito', { N, n }));
    const inLine = drawLines(wins, st.lines, (cell) => { const [r, c] = parse(cell); return c >= 0 ? [cx(c), cx(r)] : null; }, S * 0.42);
    // The last move's stone has moved one step since it was placed.
    const lm = st.lastMove && typeof st.lastMove.move === 'string' ? parse(st.lastMove.move) : null;
    let lastAt = '';
    if (lm && lm[1] >= 0) {
      const [r2, c2] = rotStep(lm[0], lm[1], N);
      lastAt = coord(r2, c2);
      last.setAttribute('x', M + c2 * S + 10); last.setAttribute('y', M + r2 * S + 10);
      last.setAttribute('visibility', 'visible');
    } else last.setAttribute('visibility', 'hidden');
    for (let r = 0; r < N; r++) for (let c = 0; c < N; c++) {
      const m = coord(r, c), ok = legal.includes(m), pre = opts.premove === m;
      cells[r][c].classList.toggle('legal', ok);
      cells[r][c].classList.toggle('premove', pre);
      cells[r][c].setAttribute('aria-label', [m, stoneWord(t, b[r][c], 'orbito'), ok ? t('cell.legal') : '', pre ? t('cell.premove') : '',
        lastAt === m ? t('cell.lastStone') : '', inLine.has(m) ? t('cell.line') : ''].filter(Boolean).join(', '));
    }
    // Animate the rotation: draw the board as it was right after the stone
    // was placed, then let every stone slide one step along its orbit.
    if (opts.animate && prev && lm && prev.board && st.seq > prev.seq) {
      const pre = prev.board.map((row) => [...row]);
      if (pre[lm[0]] && pre[lm[0]][lm[1]] === '.') {
        pre[lm[0]][lm[1]] = st.lastMove.seat === 1 ? 'O' : 'X';
        const preS = pre.map((row) => row.join(''));
        if (rotate(preS).join('|') === b.join('|')) {
          const els = drawStones(preS);
          svg.getBoundingClientRect();
          requestAnimationFrame(() => requestAnimationFrame(() => {
            for (const [g, r, c] of els) {
              const [r2, c2] = rotStep(r, c, N);
              g.classList.add('anim');
              g.style.transform = `translate(${cx(c2)}px, ${cx(r2)}px)`;
            }
          }));
          return;
        }
      }
    }
    drawStones(b);
  }

  return { el: svg, update };
}

// mini draws st's board for the lobby.
export function mini(st) {
  const svg = miniFrame('morbito');
  const b = st.board, c = MINI / b.length;
  svg.append(s('rect', { width: MINI, height: MINI, rx: 4, class: 'm-bg' }));
  b.forEach((row, r) => [...row].forEach((ch, col) => { if (ch !== '.') svg.append(miniDisc(ch, col * c + c / 2, r * c + c / 2, c * 0.38)); }));
  return svg;
}
