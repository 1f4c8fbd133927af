// The board (a view of the room page, room.js): the game's own renderer
// (games/<g>.js) drawing the position the model shows, the line over it
// that explains a refused click or command, the premove chosen in the
// opponent's turn (drawn by the renderer, said under the board with its
// Cancel), and the game's side panel (go's score, queens' hands) for the
// page to place.
import { h } from '../dom.js';
import { t } from '../i18n.js';
import { playerName } from '../labels.js';
import { gameOf } from '../games/index.js';
import * as M from './model.js';
import { why, move as moveWords } from './words.js';

const EXPLAIN_MS = 6000;

// boardView: ctx is room.js's (model, conn, room); onPass(move, label)
// hears the pass a renderer offers (go's pass, a blocked morris player's).
export function boardView(ctx, { onPass }) {
  const line = h('div', { class: 'explain', role: 'alert', 'aria-live': 'assertive' });
  const host = h('div', { class: 'board-host' });
  const info = h('div', { class: 'info' });
  const pre = h('p', { class: 'premove-note', role: 'status', 'aria-live': 'polite', hidden: true });
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
    // A click in the opponent's turn (model.premoveAllowed) chooses a
    // premove; a click while one stands cancels it.
    premove: {
      allowed: () => ctx.conn.ready && M.premoveAllowed(ctx.model()),
      pending: () => !!ctx.model().premove,
      set: (move) => ctx.dispatch({ type: 'premove', move }),
      cancel: () => ctx.dispatch({ type: 'premove.cancel' }),
    },
    name: (p) => playerName(ctx.model().st.game, p),
  };

  // renderPremove says the premove under the board, with its Cancel.
  function renderPremove(m) {
    const p = m.premove;
    pre.hidden = !p;
    if (!p) { pre.replaceChildren(); return; }
    pre.replaceChildren(t('premove.set', { move: moveWords(m, { seat: m.seat, move: p.move }) }), ' ',
      h('button', { type: 'button', class: 'premove-cancel', onclick: rctx.premove.cancel }, t('premove.cancel')));
  }

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
        premoving: M.premoveAllowed(m), premove: m.premove ? m.premove.move : null,
        // a past position, and the game's end where it is over (go's final score)
        replay: replaying, final: st.status === 'finished' ? st : null,
      });
      if (renderer.info && !renderer.info.isConnected) info.replaceChildren(renderer.info);
    }
    host.classList.toggle('my-turn', interactive && (st.turn === m.seat || st.turn == null));
    host.classList.toggle('replaying', replaying);
    host.dataset.status = st.status;
    host.dataset.seq = st.seq;
    host.dataset.shown = M.shownIndex(m);
    host.dataset.premove = m.premove ? m.premove.move : '';
    renderPremove(m);
  }

  return {
    line, host, info, pre, render, explain, quiet,
    relabel(m) { renderPremove(m); },
    destroy() { clearTimeout(timer); if (renderer && renderer.destroy) renderer.destroy(); },
  };
}
