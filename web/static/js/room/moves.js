// The moves and the replay (a view of the room page, room.js): the move
// list in numbered rows (pairs when the seats alternate, a wrapping grid
// in 2048), the position shown marked (aria-current), the game review's
// marks on it (analysis.js); the replay bar under the board (⏮ ◀ ▶ ⏭, back
// to the live game) and the arrow keys (←/→ a move, ↑/Home the start,
// ↓/End the last). Every step is a 'goto' event of the model.
import { h, icon } from '../dom.js';
import { t } from '../i18n.js';
import { about } from '../games/index.js';
import { markOf, markTip } from '../analysis.js';
import * as M from './model.js';
import { seatWord, move as moveWords } from './words.js';

const MARKS = { '??': 'blunder', '?': 'mistake', '?!': 'inaccuracy' };

export function movesView(ctx) {
  const head = h('h2', {}, t('room.moves'));
  const list = h('ol', { class: 'moves', 'aria-label': t('room.moves') });
  const bar = h('nav', { class: 'replay-bar', hidden: true, 'aria-label': t('replay.aria') });
  let review = null; // the game review's marks, once the analysis is done

  // reviewOf is the review's word on move i (0-based): its mark and
  // whether it lost its player the most win rate.
  function reviewOf(m, i) {
    const p = review && Array.isArray(review.plies) ? review.plies.find((x) => x.ply === i) : null;
    if (!p || p.played !== m.moves[i].move) return null;
    const mark = markOf(p), worst = review.worst === i;
    return mark || worst ? { p, mark, worst } : null;
  }

  function moveButton(m, mv, i) {
    const ply = i + 1, current = M.shownIndex(m) === ply, rv = reviewOf(m, i);
    let label = t('move.aria', { n: ply, who: mv.seat != null ? seatWord(m, mv.seat) : '', move: moveWords(m, mv) });
    if (rv && rv.mark) label += ` — ${markTip(rv.p)}`;
    if (rv && rv.worst) label += ` — ${t('review.worst')}`;
    const tip = rv ? [rv.mark ? markTip(rv.p) : '', rv.worst ? t('review.worst') : ''].filter(Boolean).join(' — ') : null;
    return h('button', {
      type: 'button', class: `mv${current ? ' at' : ''}${rv ? ' reviewed' : ''}`, dataset: { ply, move: mv.move, seat: mv.seat ?? '', mark: rv ? rv.mark : null },
      'aria-current': current ? 'step' : null,
      'aria-label': label, title: tip,
      disabled: !M.known(m, ply) && m.records.status === 'none' ? true : null,
      onclick: () => ctx.goTo(ply),
    }, about(m.st.game).seatMarks === 'numbers' && mv.seat != null ? h('span', { class: 'seat-num small', 'aria-hidden': 'true' }, String(mv.seat + 1)) : null, moveWords(m, mv),
    rv && rv.mark ? h('span', { class: `review-mark review-${MARKS[rv.mark]}`, 'aria-hidden': 'true' }, rv.mark) : null,
    rv && rv.worst ? h('span', { class: 'review-mark review-worst', 'aria-hidden': 'true' }, '▼') : null);
  }

  function renderList(m) {
    const { moves } = m;
    const pairs = about(m.st.game).moveList === 'pairs' && moves.every((x, i) => i === 0 || x.seat == null || x.seat !== moves[i - 1].seat);
    list.classList.toggle('pairs', pairs);
    if (pairs && moves.length) {
      const offset = moves[0].seat === 1 ? 1 : 0;
      const rows = [];
      moves.forEach((mv, i) => {
        const r = Math.floor((i + offset) / 2);
        if (!rows[r]) rows[r] = h('li', {}, h('span', { class: 'n' }, `${r + 1}.`), ...(i === 0 && offset ? [h('span', { class: 'mv skip' }, '…')] : []));
        rows[r].append(moveButton(m, mv, i));
      });
      list.replaceChildren(...rows);
    } else {
      list.replaceChildren(...moves.map((mv, i) => h('li', {}, h('span', { class: 'n' }, `${i + 1}.`), moveButton(m, mv, i))));
    }
    const at = list.querySelector('.mv.at');
    if (at) {
      // Keep the current move in view inside the list (not the page).
      const top = at.offsetTop - list.offsetTop, bottom = top + at.offsetHeight;
      if (top < list.scrollTop || bottom > list.scrollTop + list.clientHeight) list.scrollTop = Math.max(0, bottom - list.clientHeight + 8);
    } else list.scrollTop = list.scrollHeight;
  }

  function renderBar(m) {
    const last = m.moves.length, i = M.shownIndex(m);
    bar.hidden = last === 0;
    if (bar.hidden) return;
    const b = (name, key, k, dis) => h('button', { type: 'button', class: `rb rb-${name}`, 'aria-label': t(key), title: t(key), disabled: dis, onclick: () => ctx.goTo(k) }, icon(name));
    bar.replaceChildren(
      b('first', 'replay.first', 0, i === 0), b('prev', 'replay.prev', i - 1, i === 0),
      h('span', { class: 'replay-pos', 'aria-live': 'polite' }, t('replay.pos', { i, n: last })),
      b('next', 'replay.next', i + 1, i === last), b('last', 'replay.last', last, i === last),
      ...(m.cursor != null && m.st.status !== 'finished' ? [h('button', { type: 'button', class: 'rb-live', onclick: () => ctx.goTo(last) }, t('replay.live'))] : []));
  }

  const onKey = (e) => {
    const m = ctx.model();
    if (!m.st || e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
    const tg = e.target;
    if (tg && tg.closest && tg.closest('input, textarea, select, [role=grid][data-keys="on"], dialog')) return;
    if (about(m.st.game).arrowsPlay && M.interactive(m)) return; // the arrows play
    const i = M.shownIndex(m);
    const to = { ArrowLeft: i - 1, ArrowRight: i + 1, Home: 0, ArrowUp: 0, End: m.moves.length, ArrowDown: m.moves.length }[e.key];
    if (to == null || !m.moves.length) return;
    e.preventDefault();
    ctx.goTo(to);
  };
  document.addEventListener('keydown', onKey);

  return {
    head, list, bar,
    render(m) { renderList(m); renderBar(m); },
    // setReview takes the done analysis whose marks the list shows.
    setReview(a, m) { review = a; if (m.st) renderList(m); },
    relabel() {
      head.textContent = t('room.moves');
      list.setAttribute('aria-label', t('room.moves'));
      bar.setAttribute('aria-label', t('replay.aria'));
    },
    destroy() { document.removeEventListener('keydown', onKey); },
  };
}
