// The room page (/r/<room>), and a finished game's page (/g/<room>): the
// board, the players and their clocks, the whole game's replay, the result
// in words, the offers and the rematch, chat, and for a visitor a free
// seat to take. It joins as a spectator: a player who holds a seat is
// seated by the server whatever it asks, and a visitor takes a free seat
// with the "Play" of the join panel.
//
// This file wires the page: the model (room/model.js: what the page knows,
// changed only by its events) and the views (room/*.js: one a panel, each
// {render(model), relabel()}); docs/web.md, "The room page", says where to
// change what. Every message of the connection and every click that
// changes what the page knows is an event of dispatch(); what the model
// asks back (fetch the record, save the history, follow the rematch, say
// why, play a sound) is done in effect().
import { h } from './dom.js';
import { t, localize } from './i18n.js';
import { loadCatalog } from './labels.js';
import * as M from './room/model.js';
import { statusView } from './room/status.js';
import { boardView } from './room/board.js';
import { playersView } from './room/players.js';
import { joinView } from './room/join.js';
import { offersView } from './room/offers.js';
import { movesView } from './room/moves.js';
import { recordsView } from './room/records.js';
import { chatView } from './room/chat.js';
import { scoringView } from './room/scoring.js';
import { feel } from './room/feel.js';

const TICK_MS = 200;

// The history this tab saw of a room, kept in sessionStorage so that a
// reload keeps the positions (the server's record gives them all once the
// game is over, or to a server without records nothing else would).
const saveKey = (room) => `tabuleiro.room.${room}`;
function loadSaved(room) {
  try { return JSON.parse(sessionStorage.getItem(saveKey(room)) || 'null'); } catch { return null; }
}
function save(room, value) {
  try { sessionStorage.setItem(saveKey(room), JSON.stringify(value)); } catch { /* full: keep going */ }
}

// plyOf reads the position a page's address names: /g/<room>#12 or
// /r/<room>?ply=12 (null: the live or last position).
export function plyOf(loc) {
  const hash = /^#(\d{1,5})$/.exec(loc.hash || '');
  const q = new URLSearchParams(loc.search || '').get('ply');
  const k = hash ? hash[1] : q != null && /^\d{1,5}$/.test(q) ? q : null;
  return k == null ? null : Number(k);
}

export function roomView(main, room, { conn, navigate, record = false }) {
  let m = M.init(room, {
    page: record ? 'record' : 'room', me: conn.player && conn.player.id, saved: record ? null : loadSaved(room), ply: plyOf(location),
  });
  let alive = true;

  // What the views may ask of the page.
  const ctx = {
    room, conn,
    model: () => m,
    dispatch: (ev) => dispatch(ev),
    goTo: (k) => dispatch({ type: 'goto', k }),
    explain: (text) => board.explain(text),
    // send a room command; said so when the connection is down.
    send: (type, fields) => conn.command({ type, room, ...fields }) || board.explain(t('why.offline')),
    play: (move) => conn.command({ type: 'room.move', room, move }) || board.explain(t('why.notSentMove')),
  };
  const status = statusView(ctx);
  const offers = offersView(ctx);
  const board = boardView(ctx, { onPass: (move, label) => offers.setPass(move, label) });
  const players = playersView(ctx);
  const join = joinView(ctx);
  const moves = movesView(ctx);
  const records = recordsView(ctx, { onReview: (a) => moves.setReview(a, m) });
  const chat = chatView(ctx);
  const scoring = scoringView(ctx);
  // The order views are drawn in (the board first: it tells the offers
  // which pass it offers).
  const views = [board, status, players, join, scoring, offers, moves, chat, records];

  // ---------- the layout ----------
  const boardCol = h('div', { class: 'board-col' }, status.head, status.status, status.review, status.abort, board.line, board.host, board.pre, moves.bar);
  const side = h('aside', { class: 'side' }, players.list, players.spectators, join.el, scoring.el, offers.controls, offers.rematchBox, players.invite, board.info,
    h('section', { class: 'moves-box' }, moves.head, moves.list, records.downloads),
    chat.section, status.rules);
  const layout = h('div', { class: 'room' }, boardCol, side);
  main.append(layout);
  // On a phone the players sit above the board, where their clocks are seen.
  const phone = matchMedia('(max-width: 820px)');
  const place = () => { if (phone.matches) boardCol.insertBefore(players.list, board.host); else side.prepend(players.list); };
  place();
  phone.addEventListener('change', place);

  // render draws every panel from the model; animate: the state changed
  // by a move the board may show moving.
  function render(animate = false) {
    if (m.source === 'missing' && !m.st) { layout.replaceWith(gone); document.title = `${t('room.notFound')} — Tabuleiro`; return; }
    if (!m.st) return;
    for (const v of views) v.render(m, animate);
  }
  // A room the server does not have and never recorded: a page that says
  // so, not empty panels.
  const gone = h('section', { class: 'not-found', 'aria-labelledby': 'not-found-h' },
    h('h1', { id: 'not-found-h', 'data-i18n': 'room.notFound' }, t('room.notFound')),
    h('p', { 'data-i18n': 'room.notFoundText' }, t('room.notFoundText')),
    h('p', { class: 'row-links' },
      h('a', { href: '/', 'data-nav': '', class: 'button primary', 'data-i18n': 'room.notFoundLobby' }, t('room.notFoundLobby')),
      h('a', { href: '/games', 'data-nav': '', class: 'button', 'data-i18n': 'nav.myGames' }, t('nav.myGames'))));

  // The address follows the replay (/g/<room>#12), so that a link shows a
  // position; it is replaced, not pushed: the back button leaves the page.
  function follow() {
    const want = M.address(m);
    if (location.hash !== want || new URLSearchParams(location.search).has('ply')) {
      const q = new URLSearchParams(location.search);
      q.delete('ply');
      const search = q.toString() ? `?${q}` : '';
      history.replaceState(history.state, '', `${location.pathname}${search}${want}`);
    }
  }

  // What each event redraws: everything, only the chat, or nothing (the
  // fx it leads to say the rest).
  const REDRAW = {
    'room.state': 'moved', 'room.joined': 'all', records: 'all', goto: 'all', premove: 'all', 'premove.cancel': 'all',
    'room.chat': 'chat', 'room.chat.muted': 'chat',
  };

  function dispatch(ev) {
    const r = M.step(m, ev, performance.now());
    m = r.model;
    const redraw = REDRAW[ev.type];
    if (redraw === 'chat') chat.render(m);
    else if (redraw) render(redraw === 'moved');
    if (alive && m.st && (redraw === 'all' || redraw === 'moved')) follow();
    for (const f of r.fx) effect(f);
  }

  function effect(f) {
    switch (f.type) {
      case 'follow': conn.follow(room, f.as); break;
      case 'fetchRecords': fetchRecords(); break;
      case 'save': save(room, f.value); break;
      case 'navigate': navigate(f.url); break;
      case 'explain': board.explain(f.key ? t(f.key, f.params) : f.text); break;
      case 'quiet': board.quiet(); break;
      case 'play': ctx.play(f.move); break;
      case 'create': create(f.spec); break;
      default: feel(f, m);
    }
  }

  // create starts a room like this one (2048 solo's "play again") and goes there.
  async function create(spec) {
    try {
      const rep = await conn.request({ type: 'room.create', ...spec });
      if (alive && rep.room) navigate(`/r/${rep.room}`);
    } catch (e) { if (alive) board.explain(t('lobby.createFailed', { why: e.message })); }
  }

  // fetchRecords asks the server for the whole game (docs/protocol.md,
  // "Game records"): a server without it answers 404 and the page keeps
  // what it saw.
  async function fetchRecords() {
    let rec = null;
    try {
      const r = await fetch(`/api/records/${encodeURIComponent(room)}?positions=1`);
      if (r.ok) rec = await r.json();
    } catch { /* none */ }
    if (alive) dispatch({ type: 'records', record: rec });
  }

  // ---------- the connection ----------
  const offs = ['room.joined', 'room.state', 'room.chat', 'room.chat.muted', 'error']
    .map((type) => conn.on(type, (msg) => { if (!msg.room || msg.room === room) dispatch(msg); }));
  offs.push(conn.on('match.found', (msg) => { if (msg.room !== room) navigate(`/r/${msg.room}`); }));
  offs.push(conn.on('up', () => dispatch({ type: 'up', me: conn.player && conn.player.id })));
  offs.push(conn.on('renamed', () => render()));
  const clock = setInterval(() => { players.tick(m, performance.now()); offers.tick(); status.tick(m); scoring.tick(); }, TICK_MS);

  loadCatalog().then(() => { if (alive && m.st) { status.relabel(m); render(); } });
  dispatch({ type: 'open' });

  return {
    relabel() {
      localize(main);
      for (const v of views) if (v.relabel) v.relabel(m);
      render();
    },
    destroy() {
      alive = false;
      offs.forEach((f) => f());
      clearInterval(clock);
      phone.removeEventListener('change', place);
      for (const v of views) if (v.destroy) v.destroy();
      if (M.live(m)) conn.unfollow(room);
      document.title = 'Tabuleiro';
    },
  };
}
