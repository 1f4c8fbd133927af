// The players' controls and offers (a view of the room page, room.js):
// pass, resign (two clicks), abort, draw offers and takebacks with their
// answers (docs/protocol.md, "Abort, draws and takebacks"), claiming the
// win from an opponent who left, the notification switch; and after the
// game the rematch, asked, offered or followed, or "play again" after a
// game for one (2048 solo).
import { h, icon, nameTag } from '../dom.js';
import { t, tNodes } from '../i18n.js';
import { playerName } from '../labels.js';
import { about } from '../games/index.js';
import * as notify from '../notify.js';
import * as M from './model.js';
import { whoNode } from './words.js';

const RESIGN_ARMED_MS = 4000;

export function offersView(ctx) {
  const controls = h('div', { class: 'controls' });
  const rematchBox = h('div', { class: 'rematch-box', hidden: true, role: 'status', 'aria-live': 'polite' });
  let pass = null;      // the pass the board offers: {move, label}
  let resignArmed = false;
  let claimEls = null;  // the claim button and its countdown, while a claim stands

  const send = (type) => () => ctx.send(type);
  const button = (cls, label, onclick) => h('button', { type: 'button', class: cls, onclick }, label);

  function render(m) {
    controls.replaceChildren();
    claimEls = null;
    if (!m.st) return;
    const st = m.st, player = M.isPlayer(m);
    if (M.interactive(m)) {
      if (pass && st.turn === m.seat) controls.append(button('pass', pass.label, () => ctx.play(pass.move)));
      controls.append(button(`resign${resignArmed ? ' danger' : ''}`, resignArmed ? t('room.resignSure') : t('room.resign'), () => {
        if (!resignArmed) {
          resignArmed = true;
          render(ctx.model());
          setTimeout(() => { resignArmed = false; render(ctx.model()); }, RESIGN_ARMED_MS);
          return;
        }
        resignArmed = false;
        ctx.send('room.resign');
      }));
      const o = M.offers(m, about(st.game));
      if (o) renderOffers(m, o);
      const c = M.claim(m);
      if (c) {
        claimEls = {
          at: c.at,
          button: button('claim', t('claim.button'), send('room.claim')),
          wait: h('span', { class: 'muted claim-wait', 'aria-live': 'polite' }),
        };
        controls.append(claimEls.button, claimEls.wait);
        tick();
      }
    }
    if (player && st.status === 'waiting' && st.abortable && m.cursor == null) controls.append(abortButton());
    if (player && st.status !== 'finished' && about(st.game).notify && notify.supported()) {
      const on = notify.enabled();
      controls.append(h('button', {
        type: 'button', class: 'notify', 'aria-pressed': on ? 'true' : 'false',
        onclick: async () => { await notify.toggle(); render(ctx.model()); },
      }, icon(on ? 'bell' : 'bellOff'), ' ', on ? t('notify.on') : t('notify.off')));
    }
    if (m.role === 'spectator' && st.status !== 'finished' && !M.joinable(m)) controls.append(h('span', { class: 'muted' }, t('room.youWatch')));
    renderRematch(m);
  }

  const abortButton = () => button('abort', t('rules.abort'), send('room.abort'));

  // renderOffers: abort, then the draw and the takeback, each offered,
  // standing (mine: withdraw) or to answer (theirs).
  function renderOffers(m, o) {
    if (o.abort) controls.append(abortButton());
    const group = h('div', { class: 'offers', role: 'group', 'aria-label': t('rules.offers') });
    const offer = (kind, x, words) => {
      if (!x) return;
      if (x.state === 'mine') {
        group.append(h('span', { class: 'offer-note' }, words.mine), button(`${kind}-cancel`, t('rules.cancel'), send(`room.${kind}.decline`)));
      } else if (x.state === 'theirs') {
        group.append(h('span', { class: 'offer-note' }, ...words.theirs(whoNode(m, x.by))),
          button(`${kind}-accept`, t('rules.accept'), send(`room.${kind}.accept`)),
          button(`${kind}-decline`, t('rules.decline'), send(`room.${kind}.decline`)));
      } else {
        group.append(button(`${kind}-${words.verb}`, words.ask, send(`room.${kind}.${words.verb}`)));
      }
    };
    offer('draw', o.draw, { mine: t('rules.drawOffered'), theirs: (w) => tNodes('rules.drawOfferedBy', { who: w }), ask: t('rules.offerDraw'), verb: 'offer' });
    offer('takeback', o.takeback, { mine: t('rules.takebackAsked'), theirs: (w) => tNodes('rules.takebackAskedBy', { who: w }), ask: t('rules.takeback'), verb: 'ask' });
    if (group.childNodes.length) controls.append(group);
  }

  function renderRematch(m) {
    rematchBox.replaceChildren();
    const r = M.rematch(m), again = M.again(m);
    rematchBox.hidden = !r && !again;
    if (again) rematchBox.append(button('again primary', t('rematch.again'), () => ctx.dispatch({ type: 'again' })));
    if (!r) return;
    // Who asked, each name in its box.
    const askers = () => h('span', {}, ...r.asked.flatMap((k, i) => [i ? ', ' : '', whoNode(m, k)]));
    const ask = () => ctx.send('room.rematch');
    if (M.isPlayer(m)) {
      if (r.mine) {
        const other = (m.st.players || []).find((p) => p.seat !== m.seat);
        rematchBox.append(h('button', { type: 'button', class: 'rematch', disabled: true },
          h('span', {}, ...tNodes('rematch.asked', { who: nameTag('span', 'inline', other ? playerName(m.st.game, other) : '') }))));
      } else if (r.asked.length) {
        rematchBox.classList.add('offer');
        rematchBox.append(h('p', { class: 'rematch-offer' }, ...tNodes('rematch.offer', { who: askers() })), button('rematch primary', t('rematch.accept'), ask));
      } else {
        rematchBox.append(button('rematch', t('rematch.ask'), ask));
      }
    } else if (r.asked.length) {
      rematchBox.append(h('p', {}, ...tNodes('rematch.spectator', { who: askers() })));
    }
    if (r.next && !M.isPlayer(m)) rematchBox.append(h('a', { href: `/r/${r.next}?watch=1`, 'data-nav': '', class: 'button' }, t('rematch.watch')));
  }

  // tick counts down to the moment the win may be claimed.
  function tick() {
    if (!claimEls) return;
    const left = claimEls.at ? Math.ceil((claimEls.at - Date.now()) / 1000) : 0;
    claimEls.button.hidden = left > 0;
    claimEls.wait.hidden = left <= 0;
    if (left > 0) claimEls.wait.textContent = t('claim.wait', { n: left });
  }

  return {
    controls, rematchBox, render, tick,
    // setPass: the board offers a pass (move and its button's words), or none.
    setPass(move, label) { pass = move ? { move, label } : null; render(ctx.model()); },
  };
}
