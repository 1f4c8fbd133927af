// Go on 9x9, 13x13 or 19x19 with the seed's coordinates: columns A..S with
// the letter I included, row 1 at the bottom. Shows star points, the last
// move, captures, the live area score and, at the end, each side's area on
// the board. Where the points are small on screen (13x13 and 19x19 on a
// phone) a tap selects a point and a second tap, or the confirm button,
// plays it, as on OGS. In the stone-removal phase a click toggles a group.
import { s, h, put } from '../dom.js';
import { num } from '../i18n.js';
import { Grid, legalFor, stoneWord, MINI, miniFrame, miniDisc } from './common.js';

// About go (games/index.js): the lobby's first level, the SGF download,
// the komi of a game with a friend.
export const about = { level: 'facil', sgf: true, komi: (v) => (v === '9' ? 7.5 : 6.5) };

const S = 40, M = 44, LET = 'ABCDEFGHIJKLMNOPQRS';
// Below this many CSS pixels between lines a tap only selects.
const CONFIRM_PITCH = 30;

function stars(n) {
  const e = n === 9 ? [2, 6] : [3, n - 4];
  const pts = [];
  if (n === 19) { for (const a of [3, 9, 15]) for (const b of [3, 9, 15]) pts.push([a, b]); return pts; }
  for (const a of e) for (const b of e) pts.push([a, b]);
  pts.push([(n - 1) / 2, (n - 1) / 2]);
  return pts;
}

export function create(ctx) {
  const { t } = ctx;
  const n = parseInt(ctx.variant, 10) || 9, W = (n - 1) * S + 2 * M;
  const P = (i) => M + i * S;
  const coord = (r, c) => `${LET[c]}${n - r}`;
  const svg = s('svg', { viewBox: `0 0 ${W} ${W}`, class: 'board-svg go' });
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
  // The confirm bar of tap-to-select.
  const confirmBtn = h('button', { type: 'button', class: 'primary confirm-move' });
  const cancelBtn = h('button', { type: 'button', class: 'confirm-cancel' });
  const confirmBar = h('div', { class: 'confirm-bar', hidden: true }, confirmBtn, cancelBtn);
  const el = h('div', { class: 'go-wrap' }, svg, confirmBar);
  let state = null, legal = [], selected = null, lastOpts = null;

  // confirming: the points are too small on screen to trust one tap.
  function confirming() {
    if (n < 13) return false;
    const w = svg.getBoundingClientRect().width;
    return (w > 0 && w / (n + 1) < CONFIRM_PITCH) || matchMedia('(pointer: coarse)').matches;
  }
  function select(m) {
    selected = m;
    confirmBar.hidden = !m;
    if (m) {
      confirmBtn.textContent = t('go.confirm', { move: m });
      cancelBtn.textContent = t('common.cancel');
    }
    if (state) paint(lastOpts);
  }
  confirmBtn.addEventListener('click', () => { const m = selected; select(null); if (m) ctx.play(m); });
  cancelBtn.addEventListener('click', () => select(null));

  function activate(r, c) {
    const m = coord(r, c);
    // Stone removal: a stone toggles its group; an empty point resumes.
    if (state.status === 'scoring' && state.board[r][c] !== '.' && lastOpts.interactive) return ctx.toggle(m);
    const pm = ctx.premove;
    if (pm.pending()) return pm.cancel();
    const pre = pm.allowed(), why = pre ? '' : ctx.blocked();
    if (why) return ctx.explain(why);
    if (state.board[r][c] !== '.') return ctx.explain(t('why.go.taken', { cell: m }));
    if (pre) return pm.set(m); // no confirm step: a premove shows, and a click cancels it
    if (!legal.includes(m)) return ctx.explain(t('why.go.illegal', { cell: m }));
    if (confirming() && selected !== m) return select(m);
    select(null);
    ctx.play(m);
  }

  function paint(opts) {
    const st = state;
    const lm = st.lastMove && st.lastMove.move;
    const area = Array.isArray(st.area) ? st.area : null;
    const dead = new Set(Array.isArray(st.dead) ? st.dead : []);
    const scoring = st.status === 'scoring';
    for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) {
      const ch = st.board[r][c], m = coord(r, c), slot = stones[r][c];
      const own = area && area[r] ? area[r][c] : '.';
      const kids = [];
      if (ch !== '.') {
        kids.push(s('circle', { cx: P(c), cy: P(r), r: S * 0.46, class: `stone ${ch === 'X' ? 'black' : 'white'}${dead.has(m) ? ' dead' : ''}` }));
        if (lm === m && !dead.has(m)) kids.push(s('rect', { x: P(c) - 7, y: P(r) - 7, width: 14, height: 14, class: ch === 'X' ? 'last-mark on-black' : 'last-mark on-white' }));
      } else if (selected === m || (opts && opts.premove === m)) {
        kids.push(s('circle', { cx: P(c), cy: P(r), r: S * 0.46, class: `stone ghost ${opts && opts.seat === 1 ? 'white' : 'black'}` }),
          s('circle', { cx: P(c), cy: P(r), r: S * 0.52, class: selected === m ? 'select-ring' : 'premove-ring' }));
      }
      // Area at the end: a square on each point a side owns without a stone of its own.
      if ((own === 'X' || own === 'O') && ch !== own) {
        kids.push(s('rect', { x: P(c) - 8, y: P(r) - 8, width: 16, height: 16, class: own === 'X' ? 'area black' : 'area white' }));
      }
      if (dead.has(m)) kids.push(s('path', { d: `M${P(c) - 11} ${P(r) - 11}l22 22m0-22l-22 22`, class: 'dead-mark' }));
      slot.replaceChildren(...kids);
      cells[r][c].classList.toggle('legal', legal.includes(m));
      cells[r][c].classList.toggle('premove', !!opts && opts.premove === m);
      cells[r][c].classList.toggle('markable', scoring && ch !== '.' && !!(opts && opts.interactive));
      cells[r][c].setAttribute('aria-label', [m, stoneWord(t, ch, 'go'), dead.has(m) ? t('cell.dead') : '', lm === m ? t('cell.last') : '',
        selected === m ? t('cell.selected') : '', opts && opts.premove === m && ch === '.' ? t('cell.premove') : '',
        own === 'X' ? t('cell.areaBlack') : own === 'O' ? t('cell.areaWhite') : ''].filter(Boolean).join(', '));
    }
  }

  function update(st, opts) {
    if (state && st.seq !== state.seq) selected = null;
    if (!opts.interactive) selected = null;
    confirmBar.hidden = !selected;
    state = st; lastOpts = opts;
    legal = opts.interactive ? legalFor(st, opts.seat) : [];
    svg.setAttribute('aria-label', t('board.go', { n, last: LET[n - 1] }));
    paint(opts);
    ctx.setPass && ctx.setPass(legal.includes('pass') ? 'pass' : null, t('move.passButton'));
    const sc = st.score || {};
    const caps = opts.captures || { black: 0, white: 0, known: false };
    const plus = caps.known ? '' : '+';
    const lm = st.lastMove && st.lastMove.move;
    const area = Array.isArray(st.area);
    // The live count says so; a past position of a finished game says the
    // game's final score, not a live one; komi where the game has it.
    const fin = opts.final && opts.final.score ? opts.final.score : null;
    const [base, score] = area || st.status !== 'playing' ? ['go.scoreFinal', sc]
      : opts.replay && fin ? ['go.scoreFinal', fin] : opts.replay ? ['go.scoreAt', sc] : ['go.score', sc];
    const key = base + (st.komi != null ? 'Komi' : '');
    put(info,
      h('div', { class: 'score-line' }, t(key, { black: score.black ?? '–', white: score.white ?? '–', komi: num(st.komi ?? 0) })),
      h('div', { class: 'caps-line' }, t('go.caps', { black: `${caps.black}${plus}`, white: `${caps.white}${plus}` })),
      h('div', { class: 'last-line' }, lm ? t('go.last', { who: t(st.lastMove.seat === 0 ? 'go.black' : 'go.white'), move: lm === 'pass' ? t('move.pass') : lm }) : t('go.noMove')),
      area ? h('div', { class: 'area-key' }, t('go.areaKey')) : null,
    );
  }
  return { el, update, info };
}

// mini draws st's board for the lobby.
export function mini(st) {
  const svg = miniFrame('mgo');
  const b = st.board, n = b.length;
  const step = MINI / n, p = (i) => step / 2 + i * step;
  svg.append(s('rect', { width: MINI, height: MINI, rx: 4, class: 'm-bg' }));
  for (let i = 0; i < n; i++) {
    svg.append(s('line', { x1: p(0), y1: p(i), x2: p(n - 1), y2: p(i), class: 'm-line' }));
    svg.append(s('line', { x1: p(i), y1: p(0), x2: p(i), y2: p(n - 1), class: 'm-line' }));
  }
  b.forEach((row, r) => [...row].forEach((ch, c) => { if (ch !== '.') svg.append(miniDisc(ch, p(c), p(r), step * 0.46)); }));
  return svg;
}

const count = (board, ch) => board.reduce((n, row) => n + [...row].filter((x) => x === ch).length, 0);
const memo = new WeakMap(); // positions -> [{black, white, known}], one per position

// captures counts the stones each side took up to the position after move
// k, from a room's history (model.js: moves, positions, st), for the
// board's "captured" line and the capture sound. With every position known
// it compares consecutive boards; otherwise (a late spectator without the
// server's record) it takes stones placed less stones standing, from the
// whole move list and the board shown.
export function captures({ moves, positions, st }, k) {
  const seenAll = positions.slice(0, k + 1).filter(Boolean).length === k + 1;
  if (!seenAll) {
    const at = k === moves.length ? st : positions[k];
    if (!at || !Array.isArray(at.board)) return { black: 0, white: 0, known: false };
    const start = positions[0] && Array.isArray(positions[0].board) ? positions[0].board : null;
    const initial = (ch) => (start ? count(start, ch) : 0);
    const placed = (seat) => moves.slice(0, k).filter((m) => m.seat === seat && m.move !== 'pass').length;
    return {
      black: Math.max(0, placed(1) + initial('O') - count(at.board, 'O')),
      white: Math.max(0, placed(0) + initial('X') - count(at.board, 'X')),
      known: true,
    };
  }
  let caps = memo.get(positions);
  if (!caps) memo.set(positions, caps = [{ black: 0, white: 0, known: !!positions[0] }]);
  for (let j = caps.length; j <= k; j++) {
    const a = positions[j - 1], b = positions[j], prev = caps[j - 1];
    const c = { black: prev.black, white: prev.white, known: prev.known && !!a && !!b };
    const mv = moves[j - 1];
    if (a && b && mv && Array.isArray(a.board) && Array.isArray(b.board)) {
      const victim = mv.seat === 0 ? 'O' : 'X';
      let n = 0;
      a.board.forEach((row, r) => { for (let x = 0; x < row.length; x++) if (row[x] === victim && b.board[r][x] === '.') n++; });
      if (mv.seat === 0) c.black += n; else c.white += n;
    }
    caps[j] = c;
  }
  return caps[k];
}
