// Go on 9x9, 13x13 or 19x19 with the seed's coordinates: columns A..S with
// the letter I included, row 1 at the bottom. Shows star points, the last
// move, captures and the live area score.
import { s, h } from '../dom.js';
import { Grid, legalFor, stoneWord } from './common.js';

const S = 40, M = 44, LET = 'ABCDEFGHIJKLMNOPQRS';

function stars(n) {
  const e = n === 9 ? [2, 6] : [3, n - 4];
  const pts = [];
  if (n === 19) { for (const a of [3, 9, 15]) for (const b of [3, 9, 15]) pts.push([a, b]); return pts; }
  for (const a of e) for (const b of e) pts.push([a, b]);
  pts.push([(n - 1) / 2, (n - 1) / 2]);
  return pts;
}

export function create(ctx) {
  const n = parseInt(ctx.variant, 10) || 9, W = (n - 1) * S + 2 * M;
  const P = (i) => M + i * S;
  const coord = (r, c) => `${LET[c]}${n - r}`;
  const svg = s('svg', { viewBox: `0 0 ${W} ${W}`, class: 'board-svg go', 'aria-label': `Go board, ${n} by ${n}; columns A to ${LET[n - 1]}, row 1 at the bottom` });
  svg.append(s('rect', { x: 0, y: 0, width: W, height: W, rx: 12, class: 'bg' }));
  for (let i = 0; i < n; i++) {
    svg.append(s('line', { x1: P(0), y1: P(i), x2: P(n - 1), y2: P(i), class: 'line' }));
    svg.append(s('line', { x1: P(i), y1: P(0), x2: P(i), y2: P(n - 1), class: 'line' }));
  }
  for (const [a, b] of stars(n)) svg.append(s('circle', { cx: P(b), cy: P(a), r: 4.5, class: 'star' }));
  for (let i = 0; i < n; i++) {
    svg.append(s('text', { x: P(i), y: M / 2 + 4, class: 'coord' }, LET[i]));
    svg.append(s('text', { x: P(i), y: W - M / 2 + 12, class: 'coord' }, LET[i]));
    svg.append(s('text', { x: M / 2 - 4, y: P(i) + 6, class: 'coord' }, String(n - i)));
    svg.append(s('text', { x: W - M / 2 + 4, y: P(i) + 6, class: 'coord' }, String(n - i)));
  }
  const grid = new Grid(svg, n, n, (r, c) => activate(r, c));
  const cells = [], stones = [];
  for (let r = 0; r < n; r++) {
    const row = s('g', { role: 'row' });
    for (let c = 0; c < n; c++) {
      const st = s('g', { class: 'stone-slot' });
      const g = grid.add(r, c, s('g', { class: 'cell' },
        s('rect', { x: P(c) - S / 2, y: P(r) - S / 2, width: S, height: S, class: 'hit' }),
        st,
        s('circle', { cx: P(c), cy: P(r), r: S * 0.46, class: 'focus-ring' })));
      row.append(g);
      (cells[r] ||= [])[c] = g; (stones[r] ||= [])[c] = st;
    }
    svg.append(row);
  }
  const info = h('div', { class: 'game-info' });
  let state = null, legal = [], caps = [0, 0], capsKnown = true;

  function activate(r, c) {
    const why = ctx.blocked();
    if (why) return ctx.explain(why);
    const m = coord(r, c);
    if (state.board[r][c] !== '.') return ctx.explain(`${m} is taken: play on an empty intersection.`);
    if (!legal.includes(m)) return ctx.explain(`${m} is not allowed: the stone would have no liberties (suicide) or would repeat an earlier board (ko).`);
    ctx.play(m);
  }

  function update(st, opts) {
    const prev = state;
    // Count captures from the boards we saw change; a server that reports
    // "captures" itself is believed instead.
    if (prev && st.seq > prev.seq && st.lastMove && prev.board && JSON.stringify(st.lastMove) !== JSON.stringify(prev.lastMove)) {
      const mover = st.lastMove.seat, victim = mover === 0 ? 'O' : 'X';
      let k = 0;
      for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) if (prev.board[r][c] === victim && st.board[r][c] === '.') k++;
      caps[mover] += k;
    } else if (!prev) capsKnown = !st.lastMove; // joined mid-game: earlier captures unknown
    state = st;
    legal = opts.interactive ? legalFor(st, opts.seat) : [];
    const lm = st.lastMove && st.lastMove.move;
    for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) {
      const ch = st.board[r][c], m = coord(r, c), slot = stones[r][c];
      const kids = [];
      if (ch !== '.') {
        kids.push(s('circle', { cx: P(c), cy: P(r), r: S * 0.46, class: ch === 'X' ? 'stone black' : 'stone white' }));
        if (lm === m) kids.push(s('rect', { x: P(c) - 7, y: P(r) - 7, width: 14, height: 14, class: ch === 'X' ? 'last-mark on-black' : 'last-mark on-white' }));
      }
      slot.replaceChildren(...kids);
      cells[r][c].classList.toggle('legal', legal.includes(m));
      cells[r][c].setAttribute('aria-label', `${m}, ${stoneWord(ch, 'go')}${lm === m ? ', last move' : ''}`);
    }
    ctx.setPass && ctx.setPass(legal.includes('pass') ? 'pass' : null, 'Pass');
    const sc = st.score || {};
    const capsSrv = st.captures;
    const cb = capsSrv ? (capsSrv.black ?? capsSrv[0] ?? capsSrv['0']) : caps[0];
    const cw = capsSrv ? (capsSrv.white ?? capsSrv[1] ?? capsSrv['1']) : caps[1];
    const known = !!capsSrv || capsKnown;
    info.replaceChildren(
      h('div', { class: 'score-line' }, `Area score (live): black ${sc.black ?? '–'}, white ${sc.white ?? '–'} (white wins ties)`),
      h('div', { class: 'caps-line' }, `Captured: by black ${cb}${known ? '' : '+'}, by white ${cw}${known ? '' : '+'}`),
      h('div', { class: 'last-line' }, lm ? `Last move: ${st.lastMove.seat === 0 ? 'black' : 'white'} ${lm}` : 'No move yet'),
    );
  }
  return { el: svg, update, info };
}
