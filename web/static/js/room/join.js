// The join panel (a view of the room page, room.js): a visitor (an invite
// link, a waiting game in the lobby) takes the free seat here, naming
// themselves first if they like.
import { h, store } from '../dom.js';
import { t } from '../i18n.js';
import { gameName } from '../labels.js';
import * as M from './model.js';

export function joinView(ctx) {
  const el = h('div', { class: 'join-panel', hidden: true });

  function render(m) {
    if (M.isPlayer(m)) el.replaceChildren();
    el.hidden = !M.joinable(m);
    if (el.hidden || el.firstChild) return; // keep what they typed
    const { conn } = ctx;
    const host = M.players(m).map((x) => x.player).find((p) => p && !p.bot);
    const name = h('input', { name: 'name', maxlength: 32, autocomplete: 'nickname', value: (conn.player && conn.player.name) || store.name || '' });
    const play = h('button', { type: 'button', class: 'primary' }, t('join.play'));
    play.addEventListener('click', async () => {
      play.disabled = true;
      const want = name.value.trim().slice(0, 32);
      if (want && (!conn.player || want !== conn.player.name)) { try { await conn.rename(want); } catch { /* play as the guest */ } }
      store.asked = true;
      conn.follow(ctx.room, 'player');
    });
    el.append(
      h('p', {}, host ? t('join.invited', { name: host.name, game: gameName(m.st.game) }) : t('join.free', { game: gameName(m.st.game) })),
      h('label', { class: 'join-name' }, h('span', {}, t('join.name')), name), play);
  }

  return { el, render, relabel() { el.replaceChildren(); } };
}
