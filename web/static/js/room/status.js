// The room's head and status (a view of the room page, room.js): the
// title, the status line (whose turn, "thinking", the result in words),
// the first move's countdown under it, the page's title, and the rules.
import { h } from '../dom.js';
import { t, tOr, num } from '../i18n.js';
import { gameName, gameRules, variantShort, reasonText } from '../labels.js';
import { about } from '../games/index.js';
import * as M from './model.js';
import { who, seatWord } from './words.js';

export function statusView() {
  const back = h('a', { href: '/', 'data-nav': '', class: 'back' }, t('room.back'));
  const title = h('h1', { class: 'room-title' }, t('common.loading'));
  const head = h('div', { class: 'room-head' }, back, title);
  const status = h('div', { class: 'status', role: 'status', 'aria-live': 'polite' });
  const abort = h('p', { class: 'abort-countdown', hidden: true, 'aria-live': 'polite' });
  const rules = h('details', { class: 'rules-box' });
  let labelled = null; // the game the title and rules name

  // label names the game in the title and lists its rules (again after
  // the catalogue or the language changed: relabel).
  function label(m) {
    labelled = `${m.st.game} ${m.st.variant}`;
    title.textContent = `${gameName(m.st.game)} · ${variantShort(m.st.game, m.st.variant)}`;
    rules.replaceChildren(h('summary', {}, t('room.rules')), h('ul', {}, ...gameRules(m.st.game).map((x) => h('li', {}, x))));
  }

  // resultText is the result's head ("Alice (black) wins") and why.
  function resultText(m) {
    const st = m.st, r = M.result(m), sc = st.score || {};
    const p = {
      winner: r.winner != null ? who(m, r.winner) : '', loser: r.loser != null ? who(m, r.loser) : '',
      k: about(st.game).lineLength(st.variant),
      black: sc.black != null ? num(sc.black) : '', white: sc.white != null ? num(sc.white) : '',
      s0: sc[0] != null ? num(sc[0]) : '', komi: num(st.komi ?? 0.5),
    };
    // The winner's score first ("higher score, 2,480 to 1,912").
    if (r.scores) { p.ws = num(r.scores[0]); p.ls = num(r.scores[1]); }
    let headText;
    if (r.reason === 'aborted') headText = t('result.aborted');
    else if (M.seatCount(m) === 1) headText = t('result.over');
    else if (r.winner == null) headText = t('result.draw');
    else if (r.you) headText = t('result.youWin');
    else headText = t('result.wins', { winner: p.winner });
    const why = tOr(`reason.${st.game}.${r.reason}`, reasonText(r.reason, p), p);
    return { head: headText, why: st.komi != null ? tOr(`reason.${st.game}.${r.reason}.komi`, why, p) : why };
  }

  function render(m) {
    if (labelled !== `${m.st.game} ${m.st.variant}`) label(m);
    const st = m.st;
    status.className = 'status';
    tick(m); // at once: a finished or moved game shows no countdown, not for up to a tick
    if (st.status === 'finished') {
      const { head: hd, why } = resultText(m);
      status.classList.add('result');
      status.replaceChildren(h('strong', {}, hd), why ? ` — ${why}` : '');
      document.title = `${hd} — Tabuleiro`;
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
      status.replaceChildren(t('status.thinking', { who: who(m, st.turn) }), h('span', { class: 'dots', 'aria-hidden': 'true' }, '...'));
    } else {
      status.textContent = t('status.toMove', { who: who(m, st.turn) });
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
    abort.textContent = t(M.mine(m, st.turn) ? 'abort.yourCountdown' : 'abort.countdown', { n, who: st.turn != null ? who(m, st.turn) : '' });
  }

  return {
    head, status, abort, rules, render, tick,
    // missing: the room is gone and the server keeps no record of it.
    missing() { title.textContent = t('room.notFound'); },
    relabel(m) { back.textContent = t('room.back'); if (m.st) label(m); },
  };
}
