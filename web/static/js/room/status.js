// The room's head and status (a view of the room page, room.js): the
// title, the status line (whose turn, "thinking", the result in words),
// the way to the finished game's review under it (one click, for players
// and spectators), the first move's countdown, the page's title, and the
// rules.
import { h, nameTag } from '../dom.js';
import { t, tNodes, has, num } from '../i18n.js';
import { gameName, gameRules, variantShort, reasonText } from '../labels.js';
import { about } from '../games/index.js';
import * as M from './model.js';
import { whoNode, seatWord } from './words.js';
import { playerName } from '../labels.js';
import { ratedBadge, diffTag, ratingText } from '../rating.js';

export function statusView() {
  const back = h('a', { href: '/', 'data-nav': '', class: 'back' }, t('room.back'));
  const title = h('h1', { class: 'room-title' }, t('common.loading'));
  const badge = h('span', { class: 'room-rated' });
  const head = h('div', { class: 'room-head' }, back, title, badge);
  const status = h('div', { class: 'status', role: 'status', 'aria-live': 'polite' });
  const abort = h('p', { class: 'abort-countdown', hidden: true, 'aria-live': 'polite' });
  const reviewLink = h('a', { class: 'button primary review-link', 'data-nav': '', href: '/' }, t('room.review'));
  const review = h('p', { class: 'review-line', hidden: true }, reviewLink);
  const rules = h('details', { class: 'rules-box' });
  let labelled = null; // the game the title and rules name

  // label names the game in the title and lists its rules (again after
  // the catalogue or the language changed: relabel).
  function label(m) {
    labelled = `${m.st.game} ${m.st.variant}`;
    title.textContent = `${gameName(m.st.game)} · ${variantShort(m.st.game, m.st.variant)}`;
    rules.replaceChildren(h('summary', {}, t('room.rules')), h('ul', {}, ...gameRules(m.st.game).map((x) => h('li', {}, x))));
  }

  // resultText is the result's head ("Alice (black) wins") and why, as
  // nodes (each name in its box: words.whoNode), and the head as text
  // (the page's title).
  function resultText(m) {
    const st = m.st, r = M.result(m), sc = st.score || {};
    const p = {
      winner: r.winner != null ? whoNode(m, r.winner) : '', loser: r.loser != null ? whoNode(m, r.loser) : '',
      k: about(st.game).lineLength(st.variant),
      black: sc.black != null ? num(sc.black) : '', white: sc.white != null ? num(sc.white) : '',
      s0: sc[0] != null ? num(sc[0]) : '', komi: num(st.komi ?? 0.5),
    };
    // The winner's score first ("higher score, 2,480 to 1,912").
    if (r.scores) { p.ws = num(r.scores[0]); p.ls = num(r.scores[1]); }
    let head;
    if (r.reason === 'aborted') head = [t('result.aborted')];
    else if (M.seatCount(m) === 1) head = [t('result.over')];
    else if (r.winner == null) head = [t('result.draw')];
    else if (r.you) head = [t('result.youWin')];
    else head = tNodes('result.wins', { winner: p.winner });
    // The most particular words the catalogue has: with komi, for the game, or any game's.
    const key = [st.komi != null ? `reason.${st.game}.${r.reason}.komi` : '', `reason.${st.game}.${r.reason}`, `reason.${r.reason}`].find((k) => k && has(k));
    const why = !r.reason ? [] : key ? tNodes(key, p) : [reasonText(r.reason, {})];
    return { head, why, text: head.map((x) => (typeof x === 'string' ? x : x.textContent)).join('') };
  }

  // changesLine: "Ratings: Ana 1512 +12 · Bia 1488 −12".
  function changesLine(m) {
    const ch = M.ratingChanges(m);
    if (!ch) return null;
    const parts = [];
    for (const c of ch) {
      if (!c) continue;
      const p = M.playerAt(m, c.seat);
      if (parts.length) parts.push(' · ');
      parts.push(h('span', { class: 'rating-change', dataset: { seat: c.seat } },
        nameTag('span', 'inline', p ? playerName(m.st.game, p) : seatWord(m, c.seat)), ' ',
        h('span', { class: 'rating' }, ratingText(c.after, M.seatRating(m, c.seat)?.provisional)), ' ', diffTag(c.diff)));
    }
    return h('span', { class: 'rating-changes' }, h('span', { class: 'rating-changes-label' }, t('rating.changes')), ' ', ...parts);
  }

  function render(m) {
    if (labelled !== `${m.st.game} ${m.st.variant}`) label(m);
    const st = m.st;
    const r = M.rated(m);
    badge.replaceChildren(...(r == null ? [] : [ratedBadge(r)]));
    status.className = 'status';
    tick(m); // at once: a finished or moved game shows no countdown, not for up to a tick
    const to = M.review(m);
    review.hidden = !to;
    if (to) reviewLink.setAttribute('href', to);
    if (st.status === 'finished') {
      const { head: hd, why, text } = resultText(m);
      status.classList.add('result');
      status.replaceChildren(h('strong', {}, ...hd), ...(why.length ? [' — ', ...why] : []), changesLine(m) || '');
      document.title = `${text} — Tabuleiro`;
      return;
    }
    document.title = `${gameName(st.game)} — Tabuleiro`;
    if (st.status === 'waiting') { status.textContent = t('status.waiting'); return; }
    if (st.status === 'scoring') {
      status.classList.add('scoring');
      status.textContent = t('status.scoring');
      return;
    }
    if (M.adjourned(m)) { status.textContent = t('status.adjourned'); return; }
    if (st.turn == null) { status.textContent = M.isPlayer(m) ? t('status.racePlayer') : t('status.race'); return; }
    const p = M.playerAt(m, st.turn);
    if (M.mine(m, st.turn)) {
      status.classList.add('your-turn');
      status.textContent = M.seatCount(m) > 1 ? t('status.yourTurnSeat', { seat: seatWord(m, m.seat) }) : t('status.yourTurn');
      document.title = `${t('status.yourTurn')} — ${gameName(st.game)}`;
    } else if (p && p.bot) {
      status.classList.add('thinking');
      status.replaceChildren(...tNodes('status.thinking', { who: whoNode(m, st.turn) }), h('span', { class: 'dots', 'aria-hidden': 'true' }, '...'));
    } else {
      status.replaceChildren(...tNodes('status.toMove', { who: whoNode(m, st.turn) }));
    }
  }

  // tick counts the first move's countdown down (docs/protocol.md, "Abort,
  // draws and takebacks"): the game is aborted at abortAt unless the seat
  // in turn moves.
  function tick(m) {
    const n = m.st ? M.abortIn(m, Date.now()) : null;
    abort.hidden = n == null;
    if (n == null) return;
    const st = m.st;
    abort.replaceChildren(...tNodes(M.mine(m, st.turn) ? 'abort.yourCountdown' : 'abort.countdown', { n, who: st.turn != null ? whoNode(m, st.turn) : '' }));
  }

  return {
    head, status, review, abort, rules, render, tick,
    relabel(m) { back.textContent = t('room.back'); reviewLink.textContent = t('room.review'); if (m.st) label(m); },
  };
}
