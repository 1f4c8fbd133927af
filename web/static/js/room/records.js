// The record's side of a finished game (a view of the room page, room.js):
// the downloads (SGF for go, the text notation) once the server's record
// came, and on the game page (/g/<room>) the computer's analysis
// (analysis.js), whose review marks the move list, and in a bot account's
// game what the bots did (botnotes.js: each move's time, and the bot's
// info to its owner).
import { h } from '../dom.js';
import { t } from '../i18n.js';
import { about } from '../games/index.js';
import { analysisPanel } from '../analysis.js';
import { botNotesPanel } from '../botnotes.js';
import * as M from './model.js';
import { seatWord, move as moveWords } from './words.js';

// recordsView: onReview(analysis) hears the analysis once it is done.
export function recordsView(ctx, { onReview }) {
  const downloads = h('p', { class: 'downloads', hidden: true });
  let filled = false, analysis = null, notes = null;

  function render(m) {
    downloads.hidden = !M.downloadable(m);
    if (!downloads.hidden && !filled) {
      filled = true;
      const room = encodeURIComponent(ctx.room);
      downloads.replaceChildren(h('span', { class: 'muted' }, t('room.download')), ' ',
        ...(about(m.st.game).sgf ? [h('a', { href: `/api/records/${room}/sgf`, download: '' }, 'SGF'), ' · '] : []),
        h('a', { href: `/api/records/${room}/txt`, download: '' }, t('room.downloadText')));
    }
    if (m.page === 'record' && m.source === 'archive' && !analysis) {
      analysis = analysisPanel(ctx.room, m.st.game, { onReview, goTo: ctx.goTo, seatName: (k) => seatWord(ctx.model(), k) });
      downloads.after(analysis.el);
    }
    if (m.page === 'record' && m.source === 'archive' && notes === null && m.records.status === 'loaded') {
      notes = botNotesPanel(ctx.room, m.records.record, { goTo: ctx.goTo, seatName: (k) => seatWord(ctx.model(), k), moveText: (mv) => moveWords(ctx.model(), mv) }) || false;
      if (notes) (analysis ? analysis.el : downloads).after(notes.el);
    }
  }

  return {
    downloads, render,
    relabel() { filled = false; if (analysis) analysis.relabel(); if (notes) notes.relabel(); },
    destroy() { if (analysis) analysis.destroy(); },
  };
}
