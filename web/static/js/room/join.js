// The join panel (a view of the room page, room.js): a visitor (an invite
// link, a waiting game in the lobby) takes the free seat here, naming
// themselves first if they like.
import { h, store, nameTag } from '../dom.js';
import { t, tNodes } from '../i18n.js';
import { gameName, personName, isGuestName } from '../labels.js';
import * as M from './model.js';

export function joinView(ctx) {
  const el = h('div', { class: 'join-panel', hidden: true });

  function render(m) {
    if (M.isPlayer(m)) el.replaceChildren();
    el.hidden = !M.joinable(m);
    if (el.hidden || el.firstChild) return; // keep what they typed
    const { conn } = ctx;
    const host = M.players(m).map((x) => x.player).find((p) => p && !p.bot);
    // A guest's default name shows in the page's language; kept as it is,
    // it stays the server's (every reader sees it in theirs).
    const given = (conn.player && conn.player.name) || store.name || '';
    const shown = isGuestName(given) ? personName(given) : given;
    const name = h('input', { name: 'name', maxlength: 32, autocomplete: 'nickname', value: shown });
    // A rated game seats accounts only: a guest is shown the way to one.
    const guest = M.rated(m) && !(conn.me && conn.me.account);
    const play = h('button', { type: 'button', class: 'primary', disabled: guest }, t('join.play'));
    play.addEventListener('click', async () => {
      play.disabled = true;
      const want = name.value.trim().slice(0, 32);
      if (want && want !== shown && (!conn.player || want !== conn.player.name)) { try { await conn.rename(want); } catch { /* play as the guest */ } }
      store.asked = true;
      conn.follow(ctx.room, 'player');
    });
    el.append(
      h('p', {}, ...(host ? tNodes('join.invited', { name: nameTag('span', 'inline', personName(host.name)), game: gameName(m.st.game) }) : [t('join.free', { game: gameName(m.st.game) })])),
      h('label', { class: 'join-name' }, h('span', {}, t('join.name')), name), play,
      guest ? h('p', { class: 'rated-note' }, h('a', { href: '/account', 'data-nav': '' }, t('rating.joinGuest'))) : null);
  }

  return { el, render, relabel() { el.replaceChildren(); } };
}
