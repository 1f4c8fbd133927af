// Three men's morris: a 3x3 board, rows 1..3 top to bottom, columns a..c.
// Points are joined by the rows, the columns and the two diagonals through
// the centre. Placement moves are a point ("b2"); movement moves are
// from+to ("b1a1"); a blocked player passes with a piece onto itself.
import { s } from '../dom.js';
import { Grid, legalFor, mark, stoneWord, drawLines, MINI, miniFrame, miniDisc } from './common.js';

// What the page needs of morris besides its board (games/index.js).
export const about = { level: 'normal', draws: true };

// moveText writes a movement "b1–a1" and a blocked player's pass (a piece
// onto itself) as a pass.
export function moveText(m, t) {
  if (m.move.length !== 4) return m.move;
  return m.move.slice(0, 2) === m.move.slice(2) ? t('move.pass') : `${m.move.slice(0, 2)}–${m.move.slice(2)}`;
}

const S = 160, M = 100, LET = 'abc';
const P = (i) => M + i * S;
const coord = (r, c) => `${LET[c]}${r + 1}`;
// near: a piece steps from a to b along a line: a row or column
// neighbour, or a diagonal step through the centre.
function near(a, b) {
  const dr = Math.abs(Number(a[1]) - Number(b[1])), dc = Math.abs(LET.indexOf(a[0]) - LET.indexOf(b[0]));
  return dr + dc === 1 || (dr === 1 && dc === 1 && (a === 'b2' || b === 'b2'));
}

export function create(ctx) {
  const { t } = ctx;
  const W = 2 * S + 2 * M;
  const svg = s('svg', { viewBox: `0 0 ${W} ${W}`, class: 'board-svg morris' });
  svg.append(s('rect', { x: M / 2, y: M / 2, width: W - M, height: W - M, rx: 18, class: 'bg' }));
  const lines = [];
  for (let i = 0; i < 3; i++) lines.push([0, i, 2, i], [i, 0, i, 2]);
  lines.push([0, 0, 2, 2], [0, 2, 2, 0]);
  for (const [r1, c1, r2, c2] of lines) svg.append(s('line', { x1: P(c1), y1: P(r1), x2: P(c2), y2: P(r2), class: 'line' }));
  for (let c = 0; c < 3; c++) svg.append(s('text', { x: P(c), y: 34, class: 'coord' }, LET[c]));
  for (let r = 0; r < 3; r++) svg.append(s('text', { x: 26, y: P(r) + 8, class: 'coord' }, String(r + 1)));
  // The winning line, under the pieces; its rings show around them.
  const wins = s('g', { class: 'wins', 'aria-hidden': 'true' });
  svg.append(wins);

  const grid = new Grid(svg, 3, 3, (r, c) => activate(r, c));
  const cells = [], pieces = [];
  for (let r = 0; r < 3; r++) {
    const row = s('g', { role: 'row' });
    for (let c = 0; c < 3; c++) {
      const pc = s('g', { class: 'piece' });
      const g = grid.add(r, c, s('g', { class: 'cell' },
        s('circle', { cx: P(c), cy: P(r), r: S * 0.42, class: 'hit' }),
        s('circle', { cx: P(c), cy: P(r), r: 12, class: 'point' }),
        s('circle', { cx: P(c), cy: P(r), r: 18, class: 'legal-dot' }),
        pc,
        s('circle', { cx: P(c), cy: P(r), r: S * 0.36, class: 'focus-ring' }),
        s('circle', { cx: P(c), cy: P(r), r: S * 0.34, class: 'last-ring' })));
      row.append(g);
      (cells[r] ||= [])[c] = g; (pieces[r] ||= [])[c] = pc;
    }
    svg.append(row);
  }

  let state = null, legal = [], from = null, seat = null, premove = null;
  const mine = () => (seat === 0 ? 'X' : 'O');
  const placed = () => state.board.join('').split(mine()).length - 1;

  function activate(r, c) {
    const pm = ctx.premove;
    if (pm.pending()) return pm.cancel();
    if (pm.allowed()) return premoveAt(r, c);
    const why = ctx.blocked();
    if (why) return ctx.explain(why);
    const m = coord(r, c), ch = state.board[r][c];
    const placing = legal.some((x) => x.length === 2);
    if (placing) {
      if (ch !== '.') return ctx.explain(t('why.morris.taken', { cell: m }));
      if (!legal.includes(m)) return ctx.explain(t('why.illegal', { cell: m }));
      return ctx.play(m);
    }
    if (from) {
      const mv = from + m;
      if (m === from) {
        if (legal.includes(mv)) return ctx.play(mv); // blocked: pass
        from = null; paint(); return ctx.explain(t('why.morris.cleared'));
      }
      if (legal.includes(mv)) { from = null; return ctx.play(mv); }
      if (ch === mine() && legal.some((x) => x.startsWith(m))) { from = m; paint(); return; }
      if (ch !== '.') return ctx.explain(t('why.morris.takenTo', { cell: m }));
      return ctx.explain(t('why.morris.cannotReach', { from, cell: m }));
    }
    if (ch === '.') return ctx.explain(t('why.morris.chooseFirst', { mark: mine() }));
    if (ch !== mine()) return ctx.explain(t('why.morris.notYours', { cell: m, mark: mine() }));
    if (!legal.some((x) => x.startsWith(m))) return ctx.explain(t('why.morris.stuck', { cell: m }));
    from = m; paint();
  }

  // premoveAt chooses a premove in the opponent's turn: a point while this
  // player still places pieces, else one of their pieces and then a
  // neighbour that is not theirs (the opponent's piece may have left it
  // by then; the server's legal moves decide when the turn comes).
  function premoveAt(r, c) {
    const m = coord(r, c), ch = state.board[r][c];
    if (placed() < 3) {
      if (ch !== '.') return ctx.explain(t('why.morris.taken', { cell: m }));
      return ctx.premove.set(m);
    }
    if (from) {
      if (m === from) { from = null; paint(); return ctx.explain(t('why.morris.cleared')); }
      if (ch === mine()) { from = m; paint(); return; }
      if (!near(from, m)) return ctx.explain(t('why.morris.cannotReach', { from, cell: m }));
      const mv = from + m;
      from = null;
      return ctx.premove.set(mv);
    }
    if (ch !== mine()) return ctx.explain(ch === '.' ? t('why.morris.chooseFirst', { mark: mine() }) : t('why.morris.notYours', { cell: m, mark: mine() }));
    from = m; paint();
  }

  function paint() {
    const b = state.board;
    const lm = state.lastMove && state.lastMove.move;
    const lastTo = lm ? lm.slice(-2) : '';
    svg.setAttribute('aria-label', t('board.morris'));
    const inLine = drawLines(wins, state.lines, (cell) => [P(LET.indexOf(cell[0])), P(parseInt(cell.slice(1), 10) - 1)], S * 0.3);
    for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) {
      const m = coord(r, c), ch = b[r][c];
      let ok;
      if (from) ok = legal.includes(from + m) && m !== from;
      else ok = legal.includes(m) || legal.some((x) => x.length === 4 && x.startsWith(m));
      const cell = cells[r][c], pre = !!premove && (premove === m || (premove.length === 4 && (premove.slice(0, 2) === m || premove.slice(2) === m)));
      cell.classList.toggle('legal', !!ok);
      cell.classList.toggle('premove', pre);
      cell.classList.toggle('selected', from === m);
      cell.classList.toggle('last', lastTo === m);
      cell.setAttribute('aria-label', [m, stoneWord(t, ch, 'morris'), from === m ? t('cell.selected') : '', pre ? t('cell.premove') : '',
        ok ? (from ? t('cell.canMoveHere') : ch === '.' ? t('cell.legal') : t('cell.canMove')) : '',
        lastTo === m ? t('cell.last') : '', inLine.has(m) ? t('cell.line') : ''].filter(Boolean).join(', '));
      // A premove's piece, where it will land, drawn faint.
      const ghost = ch === '.' && pre && (premove === m || premove.slice(2) === m);
      pieces[r][c].replaceChildren(...(ch !== '.' ? [mark(ch === 'X' ? 0 : 1, P(c), P(r), S * 0.27)]
        : ghost ? [mark(seat, P(c), P(r), S * 0.27, { class: `mark ${seat === 0 ? 'mark-x' : 'mark-o'} ghost` })] : []));
    }
    ctx.setPass && ctx.setPass(legal.find((x) => x.length === 4 && x.slice(0, 2) === x.slice(2)) || null, t('move.passBlocked'));
  }

  function update(st, opts) {
    if (!state || st.seq !== state.seq || (!opts.interactive && !opts.premoving)) from = null;
    state = st; seat = opts.seat; premove = opts.premove;
    legal = opts.interactive ? legalFor(st, opts.seat) : [];
    paint();
  }
  return { el: svg, update };
}

// mini draws st's board for the lobby.
export function mini(st) {
  const svg = miniFrame('mmorris');
  const p = (i) => 20 + i * 40;
  svg.append(s('rect', { width: MINI, height: MINI, rx: 8, class: 'm-bg' }));
  const L = [[0, 0, 0, 2], [1, 0, 1, 2], [2, 0, 2, 2], [0, 0, 2, 0], [0, 1, 2, 1], [0, 2, 2, 2], [0, 0, 2, 2], [0, 2, 2, 0]];
  for (const [r1, c1, r2, c2] of L) svg.append(s('line', { x1: p(c1), y1: p(r1), x2: p(c2), y2: p(r2), class: 'm-line' }));
  st.board.forEach((row, r) => [...row].forEach((ch, c) => { if (ch !== '.') svg.append(miniDisc(ch, p(c), p(r), 13)); }));
  return svg;
}
