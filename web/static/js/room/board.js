// The board (a view of the room page, room.js): the game's own renderer
// (games/<g>.js) drawing the position the model shows, the line over it
// that explains a refused click or command, and the game's side panel
// (go's score, queens' hands) for the page to place.
import { h } from '../dom.js';
import { t } from '../i18n.js';
import { gameOf } from '../games/index.js';
import * as M from './model.js';
import { why } from './words.js';

const EXPLAIN_MS = 6000;

// boardView: ctx is room.js's (model, conn, room); onPass(move, label)
// hears the pass a renderer offers (go's pass, a blocked morris player's).
export function boardView(ctx, { onPass }) {
  const line = h('div', { class: 'explain', role: 'alert', 'aria-live': 'assertive' });
  const host = h('div', { class: 'board-host' });
  const info = h('div', { class: 'info' });
  let renderer = null, timer = null;

  function explain(text) {
    line.textContent = text;
    line.classList.add('on');
    clearTimeout(timer);
    timer = setTimeout(quiet, EXPLAIN_MS);
  }
  function quiet() {
    clearTimeout(timer);
    line.textContent = '';
    line.classList.remove('on');
  }
  // What a renderer may ask of the page.
  const rctx = {
    t, explain, play: ctx.play, setPass: onPass,
    toggle: (point) => ctx.send('room.score.toggle', { point }),
    blocked: () => { const m = ctx.model(), b = M.blocked(m, ctx.conn.ready); return b ? why(m, b) : ''; },
  };

  function ensure(st) {
    if (renderer) return;
    const G = gameOf(st.game);
    if (!G) { host.replaceChildren(h('p', { class: 'error' }, t('room.cannotDraw', { game: st.game }))); return; }
    renderer = G.create({ ...rctx, variant: st.variant, game: st.game });
    host.replaceChildren(renderer.el);
    host.dataset.game = st.game;
  }

  function render(m, animate) {
    const st = m.st;
    ensure(st);
    const replaying = m.cursor != null, interactive = M.interactive(m);
    if (renderer) {
      const G = gameOf(st.game);
      renderer.update(M.shown(m), {
        seat: M.isPlayer(m) ? m.seat : null, interactive, animate: animate && !replaying,
        captures: G.captures ? G.captures(m, M.shownIndex(m)) : null,
      });
      if (renderer.info && !renderer.info.isConnected) info.replaceChildren(renderer.info);
    }
    host.classList.toggle('my-turn', interactive && (st.turn === m.seat || st.turn == null));
    host.classList.toggle('replaying', replaying);
    host.dataset.status = st.status;
    host.dataset.seq = st.seq;
    host.dataset.shown = M.shownIndex(m);
  }

  return {
    line, host, info, render, explain, quiet,
    // missing: the room is gone and the server keeps no record of it.
    missing() { host.replaceChildren(h('p', {}, t('room.notFoundText'), ' ', h('a', { href: '/', 'data-nav': '' }, t('room.back')))); },
    destroy() { clearTimeout(timer); if (renderer && renderer.destroy) renderer.destroy(); },
  };
}
