// The players and their clocks (a view of the room page, room.js): one
// line a seat (seat mark, name, "you", seat, connection, clock, "to
// move"), the spectators, and the invite link while a seat is free. The
// clocks tick locally between the server's figures (tick).
import { h, s, fmtClock, nameTag } from '../dom.js';
import { t } from '../i18n.js';
import { playerName } from '../labels.js';
import { about } from '../games/index.js';
import * as sound from '../sound.js';
import * as M from './model.js';
import { seatWord } from './words.js';
import { nameLink, ratingTag, diffTag } from '../rating.js';

const LOW_TIME = 10000;

// seatMark is seat k's mark: X's dark disc with a cross and O's light disc
// with a ring, or the seat's number (2048).
function seatMark(m, k) {
  if (about(m.st.game).seatMarks === 'numbers') return h('span', { class: 'seat-num', 'aria-hidden': 'true' }, String(k + 1));
  return s('svg', { viewBox: '-12 -12 24 24', class: 'seat-mark', 'aria-hidden': 'true' },
    k === 0 ? [s('circle', { r: 10, class: 'disc x' }), s('path', { d: 'M-4 -4L4 4M4 -4L-4 4', class: 'sym x' })]
      : [s('circle', { r: 10, class: 'disc o' }), s('circle', { r: 4.5, class: 'sym o' })]);
}

// ratingView: seat k's rating, and its change at the end of a rated game.
function ratingView(m, k) {
  const r = M.seatRating(m, k);
  if (!r) return null;
  return h('span', { class: 'seat-rating' }, ratingTag(r), r.diff != null ? diffTag(r.diff) : null);
}

export function playersView(ctx) {
  const list = h('ul', { class: 'players', 'aria-label': t('room.players') });
  const spectators = h('p', { class: 'spectators' });
  const invite = h('div', { class: 'invite', hidden: true });
  let lowWarned = false;

  function render(m) {
    const st = m.st;
    list.replaceChildren(...M.players(m).map(({ seat: k, player: p, you, turn, state }) =>
      h('li', { class: `player${turn ? ' turn' : ''}${state === 'offline' ? ' gone' : ''}${p ? '' : ' empty'}`, dataset: { seat: k } },
        seatMark(m, k),
        h('span', { class: 'pline' },
          p ? nameLink('pname', playerName(st.game, p), p) : nameTag('span', 'pname', t('room.emptySeat')),
          ratingView(m, k),
          you ? h('span', { class: 'tag you' }, t('room.you')) : null),
        h('span', { class: 'clock', dataset: { seat: k } }),
        h('span', { class: 'pline small' },
          h('span', { class: 'seat-name' }, seatWord(m, k)),
          h('span', { class: `conn ${state}` }, h('span', { class: 'dot', 'aria-hidden': 'true' }), t(`conn.${state}`)),
          turn ? h('span', { class: 'turn-tag' }, t('room.toMove')) : null))));
    tick(m, performance.now());
    spectators.textContent = t('room.watching', { n: st.spectators || 0 });
    invite.hidden = !(M.freeSeat(m) && M.isPlayer(m));
    if (!invite.hidden) {
      const url = `${location.origin}/r/${ctx.room}`;
      const inp = h('input', { value: url, readonly: true, 'aria-label': t('invite.aria'), class: 'invite-url' });
      const b = h('button', { type: 'button' }, t('invite.copy'));
      b.addEventListener('click', async () => {
        inp.select();
        try { await navigator.clipboard.writeText(url); b.textContent = t('invite.copied'); } catch { b.textContent = t('invite.selectCopy'); }
      });
      invite.replaceChildren(h('label', {}, t('invite.label')), inp, b);
    }
  }

  // tick shows each seat's time left at now (performance.now()), and
  // sounds once when mine runs low.
  function tick(m, now) {
    if (!m.st || !m.st.clocks) return;
    const st = m.st;
    for (const el of list.querySelectorAll('.clock')) {
      const k = Number(el.dataset.seat), ms = M.clockMs(m, k, now);
      if (ms == null) continue;
      el.textContent = fmtClock(ms);
      el.classList.toggle('low', ms < LOW_TIME);
      if (M.mine(m, k) && st.status === 'playing' && st.turn === k && ms < LOW_TIME && ms > 0 && !lowWarned) {
        lowWarned = true;
        sound.play('lowtime');
      }
    }
  }

  return {
    list, spectators, invite, render, tick,
    relabel() { list.setAttribute('aria-label', t('room.players')); },
  };
}
