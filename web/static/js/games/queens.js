// Queens: an n x n board with the seed's coordinates, row 0 at the bottom and
// columns 0..n-1 left to right. Choose one of your pieces, see the squares it
// may take, then place it. Moves are "D@3,1" (piece @ row,col).
import { s, h, put } from '../dom.js';
import { Grid, legalFor, mark, MINI, miniFrame, miniDisc } from './common.js';

// What the page needs of queens besides its board (games/index.js): the
// lobby's first computer level.
export const about = { level: 'gulosa' };

const SIZES = { tradicional: 8, grande: 20, impar: 13, 'x-random': 8 };

// ownerAt is the seat that placed the piece at board row index i (top row
// first) and column c: `owners` has the shape of `board`, '0' or '1' for
// the seat, '?' where a setup did not say (drawn as the first seat's, as
// before) and '.' on an empty square (docs/engines/queens.md).
const ownerAt = (owners, i, c) => (owners[i][c] === '1' ? 1 : 0);

// handOf is the pieces seat still holds: `hands` is keyed by the seats'
// names, {"primeiro": [...], "segundo": [...]}.
const SEAT_NAMES = ['primeiro', 'segundo'];
const handOf = (st, seat) => st.hands[SEAT_NAMES[seat]];

export function create(ctx) {
  const { t } = ctx;
  const NAME = (p) => t(`piece.${p}`);
  const n = SIZES[ctx.variant] || 8;
  const S = 60, M = 40, W = n * S + 2 * M;
  const svg = s('svg', { viewBox: `0 0 ${W} ${W}`, class: 'board-svg queens' });
  const grid = new Grid(svg, n, n, (i, c) => activate(i, c));
  const cells = [], slots = [];
  for (let i = 0; i < n; i++) {
    const row = s('g', { role: 'row' });
    for (let c = 0; c < n; c++) {
      const slot = s('g');
      const g = grid.add(i, c, s('g', { class: `cell ${(i + c) % 2 ? 'dark' : 'light'}` },
        s('rect', { x: M + c * S, y: M + i * S, width: S, height: S, class: 'sq' }),
        s('rect', { x: M + c * S + 4, y: M + i * S + 4, width: S - 8, height: S - 8, class: 'target' }),
        slot,
        s('rect', { x: M + c * S + 3, y: M + i * S + 3, width: S - 6, height: S - 6, class: 'focus-ring' })));
      row.append(g);
      (cells[i] ||= [])[c] = g; (slots[i] ||= [])[c] = slot;
    }
    svg.append(row);
  }
  const fs = n > 10 ? 13 : 16;
  for (let c = 0; c < n; c++) svg.append(s('text', { x: M + c * S + S / 2, y: W - M / 2 + 6, class: 'coord', 'font-size': fs }, String(c)));
  for (let i = 0; i < n; i++) svg.append(s('text', { x: M / 2, y: M + i * S + S / 2 + 6, class: 'coord', 'font-size': fs }, String(n - 1 - i)));

  const hand = h('div', { class: 'hand', role: 'group' });
  const info = h('div', { class: 'game-info' });
  // choices: the pieces this player may pick now (those with a legal
  // square; in the opponent's turn, for a premove, every piece in hand).
  let state = null, legal = [], pick = null, choices = [], premove = null;

  function activate(i, c) {
    const pm = ctx.premove;
    if (pm.pending()) return pm.cancel();
    const pre = pm.allowed(), why = pre ? '' : ctx.blocked();
    if (why) return ctx.explain(why);
    const r = n - 1 - i, sq = `${r},${c}`;
    if (state.board[i][c] !== '.') return ctx.explain(t('why.queens.taken', { cell: sq }));
    let p = pick;
    if (!p && choices.length === 1) p = choices[0];
    if (!p) return ctx.explain(t('why.queens.choose'));
    const mv = `${p}@${sq}`;
    if (pre) { pick = null; return pm.set(mv); }
    if (!legal.includes(mv)) {
      if (!legal.some((m) => m[0] === p)) return ctx.explain(t('why.queens.noSquare', { piece: NAME(p) }));
      return ctx.explain(t('why.queens.attacked', { piece: NAME(p), cell: sq }));
    }
    pick = null;
    ctx.play(mv);
  }

  function paint() {
    const b = state.board, lm = state.lastMove && state.lastMove.move;
    const targets = new Set(pick ? legal.filter((m) => m[0] === pick).map((m) => m.slice(2)) : []);
    for (let i = 0; i < n; i++) for (let c = 0; c < n; c++) {
      const ch = b[i][c], sq = `${n - 1 - i},${c}`, cell = cells[i][c];
      const own = ch === '.' ? null : ownerAt(state.owners, i, c);
      const isLast = lm && lm.slice(2) === sq, pre = !!premove && premove.slice(2) === sq;
      cell.classList.toggle('legal', targets.has(sq));
      cell.classList.toggle('premove', pre);
      cell.classList.toggle('last', !!isLast);
      const kids = [];
      if (ch !== '.') {
        const g = mark(own === 1 ? 1 : 0, M + c * S + S / 2, M + i * S + S / 2, S * 0.38, { class: `mark qpiece ${own === 1 ? 'mark-o' : 'mark-x'}` });
        g.lastChild.remove(); // the letter replaces the X / O symbol
        g.append(s('text', { y: 8, class: 'plet' }, ch));
        kids.push(g);
      }
      slots[i][c].replaceChildren(...kids);
      cell.setAttribute('aria-label', [sq, ch === '.' ? t('cell.empty') : t('cell.queensPiece', { piece: NAME(ch), seat: t(`seat.queens.${own === 1 ? 1 : 0}`) }),
        targets.has(sq) ? t('cell.queensTarget', { piece: NAME(pick) }) : '', pre ? `${t('cell.premove')} (${NAME(premove[0])})` : '',
        isLast ? t('cell.last') : ''].filter(Boolean).join(', '));
    }
  }

  function paintHand(seat) {
    const mine = seat != null ? handOf(state, seat) : null;
    const counts = {};
    for (const p of mine || []) counts[p] = (counts[p] || 0) + 1;
    const can = new Set(choices);
    if (pick && !can.has(pick)) pick = null;
    hand.replaceChildren(...Object.keys(counts).map((p) => h('button', {
      type: 'button', class: `hand-piece${pick === p ? ' on' : ''}`, 'aria-pressed': pick === p ? 'true' : 'false',
      'aria-label': t(can.has(p) ? 'queens.handAria' : 'queens.handAriaStuck', { piece: NAME(p), letter: p, n: counts[p] }),
      onclick: () => { pick = pick === p ? null : p; paint(); paintHand(seat); },
    }, h('b', {}, p), ` ${NAME(p)} ×${counts[p]}`)));
    hand.hidden = !mine || !mine.length || !choices.length;
    const hs = [0, 1].map((k) => handOf(state, k));
    put(info,
      h('div', {}, t('queens.letters')),
      ...hs.map((x, k) => x ? h('div', {}, t('queens.toPlace', { seat: t(`seat.queens.${k}`), pieces: x.length ? x.join(' ') : t('queens.none') })) : null));
  }

  function update(st, opts) {
    svg.setAttribute('aria-label', t('board.queens', { n }));
    hand.setAttribute('aria-label', t('queens.hand'));
    if (!state || st.seq !== state.seq) pick = null;
    state = st; premove = opts.premove;
    legal = opts.interactive ? legalFor(st, opts.seat) : [];
    choices = [...new Set(opts.premoving ? handOf(st, opts.seat) || [] : legal.map((m) => m[0]))];
    if (!pick && choices.length === 1) pick = choices[0];
    paintHand(opts.seat);
    paint();
  }
  const el = h('div', { class: 'queens-wrap' }, hand, svg);
  return { el, update, info };
}

// mini draws st's board for the lobby.
export function mini(st) {
  const svg = miniFrame('mqueens');
  const b = st.board, c = MINI / b.length;
  svg.append(s('rect', { width: MINI, height: MINI, rx: 4, class: 'm-bg' }));
  b.forEach((row, r) => [...row].forEach((ch, col) => {
    if ((r + col) % 2) svg.append(s('rect', { x: col * c, y: r * c, width: c, height: c, class: 'm-dark' }));
    if (ch !== '.') svg.append(miniDisc(ownerAt(st.owners, r, col) === 1 ? 'O' : 'X', col * c + c / 2, r * c + c / 2, c * 0.38));
  }));
  return svg;
}
