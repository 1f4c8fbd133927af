// The chat (a view of the room page, room.js): the lines, each with its
// speaker's seat or a spectator tag and a × to mute another person in
// this person's view; a seated player's switch of the spectators' chat,
// and what a spectator is told: the players never read their lines, and
// the chat is off when it is (docs/protocol.md, "Chat").
import { h, nameTag } from '../dom.js';
import { personName } from '../labels.js';
import { t, time as fmtTime } from '../i18n.js';
import * as M from './model.js';
import { seatWord } from './words.js';

export function chatView(ctx) {
  const head = h('h2', {}, t('chat.title'));
  const list = h('ul', { class: 'chat-list', 'aria-live': 'polite', 'aria-label': t('chat.aria') });
  const input = h('input', { name: 'chat', maxlength: 500, autocomplete: 'off', 'aria-label': t('chat.input'), placeholder: t('chat.placeholder') });
  const sendButton = h('button', { type: 'submit' }, t('chat.send'));
  const form = h('form', { class: 'chat-form', hidden: true }, input, sendButton);
  const toggle = h('p', { class: 'chat-switch' });
  let shown = null, shownMuted = null; // the lines and mutes the list shows

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    if (!ctx.conn.command({ type: 'room.chat', room: ctx.room, text })) return ctx.explain(t('chat.notSent'));
    input.value = '';
  });

  function item(m, line) {
    const spectator = line.role === 'spectator';
    const tag = spectator
      ? h('span', { class: 'chat-role spectator' }, t('chat.spectator'))
      : h('span', { class: 'chat-role seat' }, m.st && line.seat != null ? seatWord(m, line.seat) : t('chat.player'));
    const mine = ctx.conn.player && line.by === ctx.conn.player.id;
    const mute = line.by && !mine
      ? h('button', { type: 'button', class: 'chat-mute', title: t('chat.mute'), 'aria-label': t('chat.mute'), onclick: () => ctx.send('room.chat.mute', { player: line.by }) }, '×')
      : null;
    return h('li', { class: spectator ? 'chat-spectator' : 'chat-player' }, h('time', {}, line.at ? fmtTime(line.at) : ''), ' ', tag, ' ',
      nameTag('b', 'from', personName(line.from)), ': ', h('span', { class: 'text' }, line.text),
      ...(mute ? [' ', mute] : []));
  }

  // renderLines shows the lines: one more at the end when that is all
  // that changed, else all of them again.
  function renderLines(m) {
    const { lines, muted } = m.chat;
    if (lines === shown && muted === shownMuted) return;
    const added = muted === shownMuted && shown && shown.length && lines.length > 1 && lines[lines.length - 2] === shown[shown.length - 1];
    shown = lines; shownMuted = muted;
    if (added) {
      const line = lines[lines.length - 1];
      if (!muted.includes(line.by)) list.append(item(m, line));
    } else list.replaceChildren(...M.chatLines(m).map((line) => item(m, line)));
    list.scrollTop = list.scrollHeight;
  }

  // renderSwitch: the players' switch of the spectators' chat, or the
  // spectators' note that it is off.
  function renderSwitch(m) {
    toggle.replaceChildren();
    const apart = M.spectatorsApart(m);
    input.setAttribute('placeholder', t(apart ? 'chat.placeholderSpectator' : 'chat.placeholder'));
    if (!m.st || m.st.watch) return;
    const on = m.st.spectatorChat !== false;
    if (M.isPlayer(m)) {
      toggle.append(h('button', {
        type: 'button', class: 'spectator-chat', 'aria-pressed': on ? 'true' : 'false',
        onclick: () => ctx.send('room.chat.spectators', { on: !on }),
      }, on ? t('chat.spectatorsOn') : t('chat.spectatorsOff')));
    } else if (!on) toggle.append(h('span', { class: 'muted' }, t('chat.spectatorsClosed')));
    else if (apart) toggle.append(h('span', { class: 'chat-apart' }, t('chat.spectatorsApart')));
    input.disabled = !M.isPlayer(m) && !on;
  }

  return {
    section: h('section', { class: 'chat' }, head, list, toggle, form),
    render(m) {
      if (m.joined) form.hidden = false;
      renderLines(m);
      renderSwitch(m);
    },
    relabel() {
      head.textContent = t('chat.title');
      list.setAttribute('aria-label', t('chat.aria'));
      input.setAttribute('aria-label', t('chat.input'));
      sendButton.textContent = t('chat.send');
      shown = null;
    },
  };
}
