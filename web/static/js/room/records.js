// The record's side of a finished game (a view of the room page, room.js):
// the downloads (SGF for go, the text notation) once the server's record
// came, and on the game page (/g/<room>) the computer's analysis
// (analysis.js), whose review marks the move list.
import { h } from '../dom.js';
import { t } from '../i18n.js';
import { about } from '../games/index.js';
import { analysisPanel } from '../analysis.js';
import * as M from './model.js';
import { seatWord } from './words.js';

// recordsView: onReview(analysis) hears the analysis once it is done.
export function recordsView(ctx, { onReview }) {
  const downloads = h('p', { class: 'downloads', hidden: true });
  let filled = false, analysis = null;

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
  }

  return {
    downloads, render,
    relabel() { filled = false; if (analysis) analysis.relabel(); },
    destroy() { if (analysis) analysis.destroy(); },
  };
}
