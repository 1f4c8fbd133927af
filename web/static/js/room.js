// The room page (/r/<room>): the board, the players and their clocks, the
// whole game's replay (buttons, arrow keys, a move list that marks the
// position shown), the result in words, rematch, chat, and for a visitor a
// free seat to take. It joins as a spectator: a player who holds a seat is
// seated by the server whatever it asks, and a visitor takes a free seat
// with the "Play" of the join panel, where the name is asked for.
import { h, s, put, store, fmtClock, icon } from './dom.js';
import { t, tOr, localize, time as fmtTime, num } from './i18n.js';
import {
  loadCatalog, gameName, gameRules, variantShort, seats as seatsOf, seatLabel, playerName, reasonText, levelName,
} from './labels.js';
import * as sound from './sound.js';
import * as notify from './notify.js';
import * as orbito from './games/orbito.js';
import * as morris from './games/morris.js';
import * as go from './games/go.js';
import * as g2048 from './games/g2048.js';
import * as queens from './games/queens.js';
import { analysisPanel, markOf, markTip } from './analysis.js';
import { adjourned } from './presence.js';

const RENDERERS = { orbito, morris, go, 2048: g2048, queens };
const LOW_TIME = 10000;

export function roomView(main, room, { conn, navigate, record = false }) {
  const offs = [];
  let role = null, seat = null, st = null, renderer = null, joined = false;
  let moves = [];            // the history: [{seat, move}]
  let positions = [];        // positions[i]: the position after move i (0: the start); may have holes
  let replay = null;         // the index shown, null: the live position
  let records = null;        // null, 'loading', 'none', or the record (GET /api/records/<room>)
  let archived = false;      // the room is gone; the page shows its record
  let resignArmed = false, passMove = null, gone = false, resync = false, lowWarned = false;
  let chatLines = [], chatFromState = false, capsMemo = null;

  // ---------- the page ----------
  const title = h('h1', { class: 'room-title' }, t('common.loading'));
  const statusEl = h('div', { class: 'status', role: 'status', 'aria-live': 'polite' });
  const abortEl = h('p', { class: 'abort-countdown', hidden: true, 'aria-live': 'polite' });
  const explainEl = h('div', { class: 'explain', role: 'alert', 'aria-live': 'assertive' });
  const boardHost = h('div', { class: 'board-host' });
  const replayBar = h('nav', { class: 'replay-bar', hidden: true, 'aria-label': t('replay.aria') });
  const playersEl = h('ul', { class: 'players', 'aria-label': t('room.players') });
  const specEl = h('p', { class: 'spectators' });
  const joinPanel = h('div', { class: 'join-panel', hidden: true });
  const controls = h('div', { class: 'controls' });
  const rematchEl = h('div', { class: 'rematch-box', hidden: true, role: 'status', 'aria-live': 'polite' });
  const inviteEl = h('div', { class: 'invite', hidden: true });
  const infoEl = h('div', { class: 'info' });
  const movesEl = h('ol', { class: 'moves', 'aria-label': t('room.moves') });
  const downloads = h('p', { class: 'downloads', hidden: true });
  const chatList = h('ul', { class: 'chat-list', 'aria-live': 'polite', 'aria-label': t('chat.aria') });
  const chatInput = h('input', { name: 'chat', maxlength: 500, autocomplete: 'off', 'aria-label': t('chat.input'), placeholder: t('chat.placeholder') });
  const chatSend = h('button', { type: 'submit' }, t('chat.send'));
  const chatForm = h('form', { class: 'chat-form', hidden: true }, chatInput, chatSend);
  const rulesEl = h('details', { class: 'rules-box' });
  const movesHead = h('h2', {}, t('room.moves'));
  const chatHead = h('h2', {}, t('chat.title'));
  // The players' switch of the spectators' chat, and what a spectator
  // sees while it is off (rooms/chat.go).
  const chatSwitch = h('p', { class: 'chat-switch' });
  let muted = [];
  const back = h('a', { href: '/', 'data-nav': '', class: 'back' }, t('room.back'));
  const boardCol = h('div', { class: 'board-col' },
    h('div', { class: 'room-head' }, back, title), statusEl, explainEl, boardHost, replayBar);
  // Where a lichess player looks for them: beside the board, under the
  // status line (abort countdown) and with resign (the offers).
  statusEl.after(abortEl);
  const side = h('aside', { class: 'side' }, playersEl, specEl, joinPanel, controls, rematchEl, inviteEl, infoEl,
    h('section', { class: 'moves-box' }, movesHead, movesEl, downloads),
    h('section', { class: 'chat' }, chatHead, chatList, chatSwitch, chatForm),
    rulesEl);
  main.append(h('div', { class: 'room' }, boardCol, side));
  // On a phone the players sit above the board, where their clocks are seen.
  const phone = matchMedia('(max-width: 820px)');
  const place = () => { if (phone.matches) boardCol.insertBefore(playersEl, boardHost); else side.prepend(playersEl); };
  place();
  phone.addEventListener('change', place);

  chatForm.addEventListener('submit', (e) => {
    e.preventDefault();
    const text = chatInput.value.trim();
    if (!text) return;
    if (!conn.command({ type: 'room.chat', room, text })) return explain(t('chat.notSent'));
    chatInput.value = '';
  });

  let explainTimer = null;
  function explain(text) {
    explainEl.textContent = text;
    explainEl.classList.add('on');
    clearTimeout(explainTimer);
    explainTimer = setTimeout(() => { explainEl.textContent = ''; explainEl.classList.remove('on'); }, 6000);
  }

  // ---------- who is who ----------
  const seatCount = () => (st ? seatsOf(st.game, st.variant) : 2);
  // A seat nobody holds comes as {seat, name: ""}: no id, no bot.
  const seated = (p) => !!p && !!(p.id || p.bot || p.name);
  const playerAt = (k) => { const p = st && (st.players || []).find((x) => x.seat === k); return seated(p) ? p : null; };
  const seatWord = (k) => seatLabel(st.game, st.variant, k);
  // who names a seat's occupant with the seat, so that two bots of one
  // level are told apart: "Computer (normal), white".
  function who(k) {
    const p = playerAt(k);
    const name = p ? playerName(st.game, p) : t('room.emptySeat');
    return seatCount() > 1 ? t('room.whoSeat', { name, seat: seatWord(k) }) : name;
  }

  function blocked() {
    if (!conn.ready) return t('why.offline');
    if (replay != null) return t('why.replay');
    if (role !== 'player') return t('why.spectator');
    if (!st) return t('common.loading');
    if (st.status === 'waiting') return t('why.waiting');
    if (st.status === 'finished') return t('why.over');
    if (st.turn != null && st.turn !== seat) return t('why.notYourTurn', { who: who(st.turn) });
    return '';
  }
  function play(move) {
    if (!conn.command({ type: 'room.move', room, move })) explain(t('why.notSentMove'));
  }
  const ctxBase = {
    blocked, explain, play, t,
    setPass: (m, label) => { passMove = m ? { move: m, label } : null; renderControls(); },
  };

  function ensureRenderer() {
    if (renderer) return;
    const R = RENDERERS[st.game];
    if (!R) { boardHost.replaceChildren(h('p', { class: 'error' }, t('room.cannotDraw', { game: st.game }))); return; }
    renderer = R.create({ ...ctxBase, variant: st.variant, game: st.game });
    boardHost.replaceChildren(renderer.el);
    boardHost.dataset.game = st.game;
    labelPage();
  }
  function labelPage() {
    if (!st) return;
    title.textContent = `${gameName(st.game)} · ${variantShort(st.game, st.variant)}`;
    rulesEl.replaceChildren(h('summary', {}, t('room.rules')), h('ul', {}, ...gameRules(st.game).map((x) => h('li', {}, x))));
  }

  // ---------- the history ----------
  // The page knows the moves (the join's full state carries them all, and
  // every broadcast one more) and the positions it saw. The server's record
  // (GET /api/records/<room>?positions=1) gives every position of the game,
  // for a visitor who came late; until it answers, or where the server has
  // no records, the positions this tab saw are kept in sessionStorage so
  // that a reload keeps them.
  const saveKey = `tabuleiro.room.${room}`;
  const strip = ({ legal, legalBySeat, moves: _m, chat: _c, type: _t, ...rest }) => rest;
  const sameMove = (a, b) => a && b && a.move === b.move && (a.seat == null || b.seat == null || a.seat === b.seat);

  function noteState(m) {
    const prev = st;
    if (!prev) restoreSaved(m);
    let moved = false;
    if (Array.isArray(m.moves)) {
      const next = m.moves.map((x) => (typeof x === 'string' ? { move: x } : x));
      moved = !!prev && next.length > moves.length;
      if (next.length < moves.length || next.some((x, i) => moves[i] && !sameMove(x, moves[i]))) positions = [];
      moves = next;
      capsMemo = null;
    } else if (prev && m.seq > prev.seq && m.lastMove &&
      (JSON.stringify(m.board) !== JSON.stringify(prev.board) || JSON.stringify(m.lastMove) !== JSON.stringify(prev.lastMove))) {
      moves.push(m.lastMove);
      moved = true;
    }
    positions[moves.length] = strip(m);
    positions.length = moves.length + 1;
    st = m;
    clockBase = { clocks: m.clocks, at: performance.now() };
    try {
      sessionStorage.setItem(saveKey, JSON.stringify({ seq: m.seq, moves, positions }));
    } catch { /* full: keep going */ }
    return { prev, moved };
  }
  function restoreSaved(m) {
    try {
      const saved = JSON.parse(sessionStorage.getItem(saveKey) || 'null');
      if (!saved || saved.seq > m.seq || !Array.isArray(saved.moves)) return;
      const mine = Array.isArray(m.moves) ? m.moves : null;
      if (mine && saved.moves.some((x, i) => !mine[i] || !sameMove(x, mine[i]))) return;
      moves = saved.moves;
      positions = (saved.positions || []).map((p) => p || undefined);
    } catch { /* nothing saved */ }
  }

  // fetchRecords asks the server for the whole game once. It is a contract
  // other branches implement: a server without it answers 404 and the page
  // keeps what it saw.
  async function fetchRecords() {
    if (records) return;
    records = 'loading';
    try {
      const r = await fetch(`/api/records/${encodeURIComponent(room)}?positions=1`);
      if (!r.ok) { records = 'none'; return; }
      records = await r.json();
    } catch { records = 'none'; return; }
    adoptRecords();
    render(false);
  }
  function adoptRecords() {
    const rec = records;
    if (!rec || typeof rec !== 'object') return;
    const rm = Array.isArray(rec.moves) ? rec.moves : [];
    if (Array.isArray(rec.positions) && rm.every((x, i) => !moves[i] || sameMove(x, moves[i]))) {
      if (rm.length > moves.length) { moves = rm.map((x) => ({ seat: x.seat, move: x.move })); }
      rec.positions.forEach((p, i) => { if (p && (i < moves.length || !positions[i])) positions[i] = p; });
      capsMemo = null;
    }
    if (!chatFromState && Array.isArray(rec.chat) && rec.chat.length && !chatLines.length) {
      chatLines = rec.chat.slice();
      renderChat();
    }
    put(downloads, h('span', { class: 'muted' }, t('room.download')), ' ',
      st && st.game === 'go' ? h('a', { href: `/api/records/${room}/sgf`, download: '' }, 'SGF') : null,
      st && st.game === 'go' ? ' · ' : null,
      h('a', { href: `/api/records/${room}/txt`, download: '' }, t('room.downloadText')));
    downloads.hidden = !(st && st.status === 'finished');
  }

  const known = (i) => !!positions[i];
  function shownAt(i) {
    if (i == null || i === moves.length || !known(i)) return st;
    return {
      ...st, status: 'playing', result: null, lines: undefined, area: undefined, rematch: undefined, next: undefined,
      ...positions[i], lastMove: i > 0 ? moves[i - 1] : null, legal: [], legalBySeat: undefined,
    };
  }
  // Go captures, counted from consecutive positions (known: every one of
  // them was there to compare).
  function capturesAt(k) {
    if (!st || st.game !== 'go') return null;
    const seenAll = positions.slice(0, k + 1).filter(Boolean).length === k + 1;
    if (!seenAll) {
      // Not every position is known (a late spectator without the server's
      // record): stones placed less stones standing, from the whole move
      // list the join gave and the board shown.
      const at = k === moves.length ? st : positions[k];
      if (!at || !Array.isArray(at.board)) return { black: 0, white: 0, known: false };
      const count = (ch) => at.board.reduce((n, row) => n + [...row].filter((x) => x === ch).length, 0);
      const start = positions[0] && Array.isArray(positions[0].board) ? positions[0].board : null;
      const initial = (ch) => (start ? start.reduce((n, row) => n + [...row].filter((x) => x === ch).length, 0) : 0);
      const placed = (seat) => moves.slice(0, k).filter((m) => m.seat === seat && m.move !== 'pass').length;
      return {
        black: Math.max(0, placed(1) + initial('O') - count('O')),
        white: Math.max(0, placed(0) + initial('X') - count('X')),
        known: true,
      };
    }
    if (!capsMemo) capsMemo = [{ black: 0, white: 0, known: known(0) }];
    for (let j = capsMemo.length; j <= k; j++) {
      const a = positions[j - 1], b = positions[j], prev = capsMemo[j - 1];
      const c = { black: prev.black, white: prev.white, known: prev.known && !!a && !!b };
      const mv = moves[j - 1];
      if (a && b && mv && Array.isArray(a.board) && Array.isArray(b.board)) {
        const victim = mv.seat === 0 ? 'O' : 'X';
        let n = 0;
        a.board.forEach((row, r) => { for (let x = 0; x < row.length; x++) if (row[x] === victim && b.board[r][x] === '.') n++; });
        if (mv.seat === 0) c.black += n; else c.white += n;
      }
      capsMemo[j] = c;
    }
    return capsMemo[k];
  }

  // ---------- drawing ----------
  function render(animate = true) {
    if (!st) return;
    ensureRenderer();
    const i = replay;
    const interactive = i == null && role === 'player' && st.status === 'playing';
    if (renderer) {
      renderer.update(shownAt(i), {
        seat: role === 'player' ? seat : null, interactive, animate: animate && i == null,
        captures: capturesAt(i == null ? moves.length : i),
      });
      if (renderer.info && !renderer.info.isConnected) infoEl.replaceChildren(renderer.info);
    }
    boardHost.classList.toggle('my-turn', interactive && (st.turn === seat || st.turn == null));
    boardHost.classList.toggle('replaying', i != null);
    boardHost.dataset.status = st.status;
    boardHost.dataset.seq = st.seq;
    boardHost.dataset.shown = i == null ? moves.length : i;
    renderStatus(); renderPlayers(); renderJoin(); renderControls(); renderRematch(); renderMoves(); renderReplay(); renderChatSwitch();
    specEl.textContent = t('room.watching', { n: st.spectators || 0 });
    downloads.hidden = !(records && typeof records === 'object' && st.status === 'finished');
  }

  function scoreOf(k) {
    const sc = st.score || {};
    return sc[k] ?? sc[String(k)];
  }
  function resultText() {
    const r = st.result || {};
    const n = seatCount();
    const won = r.winner != null && r.winner >= 0;
    const p = {
      winner: won ? who(r.winner) : '', loser: won && n > 1 ? who(1 - r.winner) : '',
      k: st.game === 'orbito' ? 2 * (parseInt(st.variant, 10) || 2) : 3,
      black: st.score && st.score.black != null ? num(st.score.black) : '', white: st.score && st.score.white != null ? num(st.score.white) : '',
      s0: scoreOf(0) != null ? num(scoreOf(0)) : '',
    };
    // The winner's score first ("higher score, 2,480 to 1,912").
    if (won && scoreOf(r.winner) != null && scoreOf(1 - r.winner) != null) { p.ws = num(scoreOf(r.winner)); p.ls = num(scoreOf(1 - r.winner)); }
    let head;
    if (r.reason === 'aborted') head = t('result.aborted');
    else if (n === 1) head = t('result.over');
    else if (!won) head = t('result.draw');
    else if (role === 'player' && r.winner === seat) head = t('result.youWin');
    else head = t('result.wins', { winner: p.winner });
    const why = tOr(`reason.${st.game}.${r.reason}`, reasonText(r.reason, p), p);
    return { head, why };
  }

  function renderStatus() {
    statusEl.className = 'status';
    if (st.status === 'finished') {
      const { head, why } = resultText();
      statusEl.classList.add('result');
      statusEl.replaceChildren(h('strong', {}, head), why ? ` — ${why}` : '');
      document.title = `${head} — Tabuleiro`;
      return;
    }
    document.title = `${gameName(st.game)} — Tabuleiro`;
    if (st.status === 'waiting') { statusEl.textContent = t('status.waiting'); return; }
    if (role !== 'player' && adjourned(st)) { statusEl.classList.add('adjourned'); statusEl.textContent = t('status.adjourned'); return; }
    if (st.turn == null) { statusEl.textContent = role === 'player' ? t('status.racePlayer') : t('status.race'); return; }
    const p = playerAt(st.turn);
    if (role === 'player' && st.turn === seat) {
      statusEl.classList.add('your-turn');
      statusEl.textContent = seatCount() > 1 ? t('status.yourTurnSeat', { seat: seatWord(seat) }) : t('status.yourTurn');
      document.title = `${t('status.yourTurn')} — ${gameName(st.game)}`;
    } else if (p && p.bot) {
      statusEl.classList.add('thinking');
      statusEl.replaceChildren(t('status.thinking', { who: who(st.turn) }), h('span', { class: 'dots', 'aria-hidden': 'true' }, '...'));
    } else {
      statusEl.textContent = t('status.toMove', { who: who(st.turn) });
    }
  }

  function seatMark(k) {
    if (st.game === '2048') return h('span', { class: 'seat-num', 'aria-hidden': 'true' }, String(k + 1));
    return s('svg', { viewBox: '-12 -12 24 24', class: 'seat-mark', 'aria-hidden': 'true' },
      k === 0 ? [s('circle', { r: 10, class: 'disc x' }), s('path', { d: 'M-4 -4L4 4M4 -4L-4 4', class: 'sym x' })]
        : [s('circle', { r: 10, class: 'disc o' }), s('circle', { r: 4.5, class: 'sym o' })]);
  }
  function renderPlayers() {
    const n = seatCount();
    const items = [];
    for (let k = 0; k < n; k++) {
      const p = playerAt(k);
      const isTurn = st.status === 'playing' && st.turn === k;
      const state = !p ? 'free' : p.bot ? 'computer' : p.connected === false ? 'offline' : 'online';
      items.push(h('li', { class: `player${isTurn ? ' turn' : ''}${state === 'offline' ? ' gone' : ''}${p ? '' : ' empty'}`, dataset: { seat: k } },
        seatMark(k),
        h('span', { class: 'pline' },
          h('span', { class: 'pname' }, p ? playerName(st.game, p) : t('room.emptySeat')),
          role === 'player' && seat === k ? h('span', { class: 'tag you' }, t('room.you')) : null),
        h('span', { class: 'clock', dataset: { seat: k } }),
        h('span', { class: 'pline small' },
          h('span', { class: 'seat-name' }, seatWord(k)),
          h('span', { class: `conn ${state}` }, h('span', { class: 'dot', 'aria-hidden': 'true' }), t(`conn.${state}`)),
          isTurn ? h('span', { class: 'turn-tag' }, t('room.toMove')) : null)));
    }
    playersEl.replaceChildren(...items);
    tickClocks();
    tickAbort(); // at once: a finished or moved game shows no countdown, not for up to a tick
    const free = freeSeat();
    inviteEl.hidden = !(free && role === 'player' && n > 1);
    if (!inviteEl.hidden) {
      const url = `${location.origin}/r/${room}`;
      const inp = h('input', { value: url, readonly: true, 'aria-label': t('invite.aria'), class: 'invite-url' });
      const b = h('button', { type: 'button' }, t('invite.copy'));
      b.addEventListener('click', async () => {
        inp.select();
        try { await navigator.clipboard.writeText(url); b.textContent = t('invite.copied'); } catch { b.textContent = t('invite.selectCopy'); }
      });
      inviteEl.replaceChildren(h('label', {}, t('invite.label')), inp, b);
    }
  }
  const freeSeat = () => st && st.status !== 'finished' && seatCount() > 1 && (st.players || []).filter(seated).length < seatCount();

  // The join panel: a visitor (invite link, a waiting game in the lobby)
  // takes the free seat here, naming themselves first if they like.
  let joinName = null;
  function renderJoin() {
    const show = !archived && joined && role !== 'player' && freeSeat();
    joinPanel.hidden = !show;
    if (!show) return;
    if (joinPanel.firstChild) return; // keep what they typed
    const host = (st.players || []).find((p) => seated(p) && !p.bot);
    joinName = h('input', { name: 'name', maxlength: 32, autocomplete: 'nickname', value: (conn.player && conn.player.name) || store.name || '' });
    const go_ = h('button', { type: 'button', class: 'primary' }, t('join.play'));
    go_.addEventListener('click', async () => {
      go_.disabled = true;
      const name = joinName.value.trim().slice(0, 32);
      if (name && (!conn.player || name !== conn.player.name)) { try { await conn.rename(name); } catch { /* play as the guest */ } }
      store.asked = true;
      conn.follow(room, 'player');
    });
    joinPanel.append(
      h('p', {}, host ? t('join.invited', { name: host.name, game: gameName(st.game) }) : t('join.free', { game: gameName(st.game) })),
      h('label', { class: 'join-name' }, h('span', {}, t('join.name')), joinName), go_);
  }

  let clockBase = null;
  function tickClocks() {
    if (!st || !st.clocks || !clockBase) return;
    for (const el of playersEl.querySelectorAll('.clock')) {
      const k = Number(el.dataset.seat);
      let ms = st.clocks[k] ?? st.clocks[String(k)];
      if (ms == null) continue;
      // Before a seat's first move its clock does not run (abortAt stands).
      if (st.status === 'playing' && st.turn === k && st.abortAt == null) ms -= performance.now() - clockBase.at;
      el.textContent = fmtClock(ms);
      el.classList.toggle('low', ms < LOW_TIME);
      if (role === 'player' && k === seat && st.status === 'playing' && st.turn === k && ms < LOW_TIME && ms > 0 && !lowWarned) {
        lowWarned = true;
        sound.play('lowtime');
      }
    }
  }
  let claimEls = null;
  function tickClaim() {
    if (!claimEls) return;
    const left = claimEls.at ? Math.ceil((claimEls.at - Date.now()) / 1000) : 0;
    claimEls.button.hidden = left > 0;
    claimEls.wait.hidden = left <= 0;
    if (left > 0) claimEls.wait.textContent = t('claim.wait', { n: left });
  }
  // The first-move countdown: the game is aborted at abortAt unless the
  // seat in turn moves (docs/protocol.md, "Abort, draws and takebacks").
  function tickAbort() {
    const at = st && st.status === 'playing' ? st.abortAt : null;
    abortEl.hidden = at == null;
    if (at == null) return;
    const n = Math.max(0, Math.ceil((at - Date.now()) / 1000));
    const mine = role === 'player' && st.turn === seat;
    abortEl.textContent = t(mine ? 'abort.yourCountdown' : 'abort.countdown', { n, who: st.turn != null ? who(st.turn) : '' });
  }
  const clockTimer = setInterval(() => { tickClocks(); tickClaim(); tickAbort(); }, 200);

  function renderControls() {
    controls.replaceChildren();
    claimEls = null;
    if (!st) return;
    const player = role === 'player';
    if (player && st.status === 'playing' && replay == null) {
      if (passMove && st.turn === seat) controls.append(h('button', { type: 'button', class: 'pass', onclick: () => play(passMove.move) }, passMove.label));
      if (seatCount() > 1 || st.game === '2048') {
        controls.append(h('button', {
          type: 'button', class: `resign${resignArmed ? ' danger' : ''}`,
          onclick: () => {
            if (!resignArmed) { resignArmed = true; renderControls(); setTimeout(() => { resignArmed = false; renderControls(); }, 4000); return; }
            resignArmed = false;
            if (!conn.command({ type: 'room.resign', room })) explain(t('why.offline'));
          },
        }, resignArmed ? t('room.resignSure') : t('room.resign')));
      }
      if (seatCount() === 2) renderOffers();
      const opp = (st.players || []).find((p) => p.seat !== seat);
      if (opp && !opp.bot && opp.connected === false) {
        claimEls = {
          at: opp.claimableAt,
          button: h('button', { type: 'button', class: 'claim', onclick: () => conn.command({ type: 'room.claim', room }) || explain(t('why.offline')) }, t('claim.button')),
          wait: h('span', { class: 'muted claim-wait', 'aria-live': 'polite' }),
        };
        controls.append(claimEls.button, claimEls.wait);
        tickClaim();
      }
    }
    if (player && st.status === 'waiting' && st.abortable && replay == null) controls.append(abortButton());
    if (player && st.status !== 'finished' && st.game !== '2048' && notify.supported()) {
      const on = notify.enabled();
      controls.append(h('button', {
        type: 'button', class: 'notify', 'aria-pressed': on ? 'true' : 'false',
        onclick: async () => { await notify.toggle(); renderControls(); },
      }, icon(on ? 'bell' : 'bellOff'), ' ', on ? t('notify.on') : t('notify.off')));
    }
    if (role === 'spectator' && st.status !== 'finished' && joinPanel.hidden) controls.append(h('span', { class: 'muted' }, t('room.youWatch')));
  }

  // ---------- rules of play: abort, draw offers, takebacks ----------
  const send = (type) => () => conn.command({ type, room }) || explain(t('why.offline'));
  function abortButton() {
    return h('button', { type: 'button', class: 'abort', onclick: send('room.abort') }, t('rules.abort'));
  }
  function renderOffers() {
    if (st.abortable) controls.append(abortButton());
    const draws = st.game === 'orbito' || st.game === 'morris';
    const offer = h('div', { class: 'offers', role: 'group', 'aria-label': t('rules.offers') });
    const mineMoved = moves.some((m) => m.seat === seat);
    if (draws && !st.abortable) {
      if (st.drawOffer === seat) {
        offer.append(h('span', { class: 'offer-note' }, t('rules.drawOffered')),
          h('button', { type: 'button', class: 'draw-cancel', onclick: send('room.draw.decline') }, t('rules.cancel')));
      } else if (st.drawOffer != null) {
        offer.append(h('span', { class: 'offer-note' }, t('rules.drawOfferedBy', { who: who(st.drawOffer) })),
          h('button', { type: 'button', class: 'draw-accept', onclick: send('room.draw.accept') }, t('rules.accept')),
          h('button', { type: 'button', class: 'draw-decline', onclick: send('room.draw.decline') }, t('rules.decline')));
      } else {
        offer.append(h('button', { type: 'button', class: 'draw-offer', onclick: send('room.draw.offer') }, t('rules.offerDraw')));
      }
    }
    const tb = st.takeback;
    if (st.turn != null && (tb || mineMoved)) {
      if (tb && tb.seat === seat) {
        offer.append(h('span', { class: 'offer-note' }, t('rules.takebackAsked')),
          h('button', { type: 'button', class: 'takeback-cancel', onclick: send('room.takeback.decline') }, t('rules.cancel')));
      } else if (tb) {
        offer.append(h('span', { class: 'offer-note' }, t('rules.takebackAskedBy', { who: who(tb.seat) })),
          h('button', { type: 'button', class: 'takeback-accept', onclick: send('room.takeback.accept') }, t('rules.accept')),
          h('button', { type: 'button', class: 'takeback-decline', onclick: send('room.takeback.decline') }, t('rules.decline')));
      } else {
        offer.append(h('button', { type: 'button', class: 'takeback-ask', onclick: send('room.takeback.ask') }, t('rules.takeback')));
      }
    }
    if (offer.childNodes.length) controls.append(offer);
  }

  function renderRematch() {
    rematchEl.replaceChildren();
    const asked = Array.isArray(st.rematch) ? st.rematch : [];
    const show = st.status === 'finished' && seatCount() > 1 && !archived;
    rematchEl.hidden = !show;
    if (!show) return;
    const askers = asked.map((k) => who(k)).join(', ');
    if (role === 'player') {
      if (asked.includes(seat)) {
        const other = (st.players || []).find((p) => p.seat !== seat);
        rematchEl.append(h('button', { type: 'button', class: 'rematch', disabled: true }, t('rematch.asked', { who: other ? playerName(st.game, other) : '' })));
      } else if (asked.length) {
        rematchEl.classList.add('offer');
        rematchEl.append(h('p', { class: 'rematch-offer' }, t('rematch.offer', { who: askers })),
          h('button', { type: 'button', class: 'rematch primary', onclick: askRematch }, t('rematch.accept')));
      } else {
        rematchEl.append(h('button', { type: 'button', class: 'rematch', onclick: askRematch }, t('rematch.ask')));
      }
    } else if (asked.length) {
      rematchEl.append(h('p', {}, t('rematch.spectator', { who: askers })));
    }
    if (st.next && role !== 'player') {
      rematchEl.append(h('a', { href: `/r/${st.next}?watch=1`, 'data-nav': '', class: 'button' }, t('rematch.watch')));
    }
  }
  function askRematch() {
    if (!conn.command({ type: 'room.rematch', room })) explain(t('why.offline'));
  }

  // ---------- the moves and the replay ----------
  function moveText(m) {
    if (st.game === '2048') return { N: '↑', S: '↓', E: '→', W: '←' }[m.move] || m.move;
    if (m.move === 'pass') return t('move.pass');
    if (st.game === 'morris' && m.move.length === 4) return m.move.slice(0, 2) === m.move.slice(2) ? t('move.pass') : `${m.move.slice(0, 2)}–${m.move.slice(2)}`;
    return m.move;
  }
  // reviewOf is the game review's word on move i (0-based): its mark and
  // whether it lost its player the most win rate (analysis.js).
  function reviewOf(i) {
    const p = review && Array.isArray(review.plies) ? review.plies.find((x) => x.ply === i) : null;
    if (!p || p.played !== moves[i].move) return null;
    const mark = markOf(p), worst = review.worst === i;
    return mark || worst ? { p, mark, worst } : null;
  }
  function moveButton(m, i) {
    const ply = i + 1;
    const current = (replay == null ? moves.length : replay) === ply;
    const rv = reviewOf(i);
    let label = t('move.aria', { n: ply, who: m.seat != null ? seatWord(m.seat) : '', move: moveText(m) });
    if (rv && rv.mark) label += ` — ${markTip(rv.p)}`;
    if (rv && rv.worst) label += ` — ${t('review.worst')}`;
    const tip = rv ? [rv.mark ? markTip(rv.p) : '', rv.worst ? t('review.worst') : ''].filter(Boolean).join(' — ') : null;
    return h('button', {
      type: 'button', class: `mv${current ? ' at' : ''}${rv ? ' reviewed' : ''}`, dataset: { ply, move: m.move, seat: m.seat ?? '', mark: rv ? rv.mark : null },
      'aria-current': current ? 'step' : null,
      'aria-label': label, title: tip,
      disabled: !known(ply) && records === 'none' ? true : null,
      onclick: () => goTo(ply),
    }, st.game === '2048' && m.seat != null ? h('span', { class: 'seat-num small', 'aria-hidden': 'true' }, String(m.seat + 1)) : null, moveText(m),
    rv && rv.mark ? h('span', { class: `review-mark review-${{ '??': 'blunder', '?': 'mistake', '?!': 'inaccuracy' }[rv.mark]}`, 'aria-hidden': 'true' }, rv.mark) : null,
    rv && rv.worst ? h('span', { class: 'review-mark review-worst', 'aria-hidden': 'true' }, '▼') : null);
  }
  function renderMoves() {
    const alternating = st.game !== '2048' && moves.every((m, i) => i === 0 || m.seat == null || m.seat !== moves[i - 1].seat);
    movesEl.classList.toggle('pairs', alternating);
    if (alternating && moves.length) {
      const offset = moves[0].seat === 1 ? 1 : 0;
      const rows = [];
      moves.forEach((m, i) => {
        const r = Math.floor((i + offset) / 2);
        if (!rows[r]) rows[r] = h('li', {}, h('span', { class: 'n' }, `${r + 1}.`), ...(i === 0 && offset ? [h('span', { class: 'mv skip' }, '…')] : []));
        rows[r].append(moveButton(m, i));
      });
      movesEl.replaceChildren(...rows);
    } else {
      movesEl.replaceChildren(...moves.map((m, i) => h('li', {}, h('span', { class: 'n' }, `${i + 1}.`), moveButton(m, i))));
    }
    const at = movesEl.querySelector('.mv.at');
    if (at) {
      // Keep the current move in view inside the list (not the page).
      const top = at.offsetTop - movesEl.offsetTop, bottom = top + at.offsetHeight;
      if (top < movesEl.scrollTop || bottom > movesEl.scrollTop + movesEl.clientHeight) movesEl.scrollTop = Math.max(0, bottom - movesEl.clientHeight + 8);
    } else movesEl.scrollTop = movesEl.scrollHeight;
  }

  // goTo shows the position after move k (0: the start); the last one is
  // the live game.
  async function goTo(k) {
    const last = moves.length;
    k = Math.max(0, Math.min(last, k));
    if (!known(k) && k !== last) {
      await fetchRecords();
      if (!known(k)) {
        // Step to the nearest position this page has, in the direction asked.
        const from = replay == null ? last : replay;
        const dir = k < from ? -1 : 1;
        let j = k;
        while (j > 0 && j < last && !known(j)) j += dir;
        if (!known(j) && j !== last) { explain(t('replay.unknown')); return; }
        k = j;
      }
    }
    replay = k === last ? null : k;
    render(false);
  }
  const shownIndex = () => (replay == null ? moves.length : replay);
  function renderReplay() {
    replayBar.hidden = moves.length === 0;
    if (replayBar.hidden) return;
    const last = moves.length, i = shownIndex();
    const b = (name, key, k, dis) => h('button', { type: 'button', class: `rb rb-${name}`, 'aria-label': t(key), title: t(key), disabled: dis, onclick: () => goTo(k) }, icon(name));
    put(replayBar,
      b('first', 'replay.first', 0, i === 0), b('prev', 'replay.prev', i - 1, i === 0),
      h('span', { class: 'replay-pos', 'aria-live': 'polite' }, t('replay.pos', { i, n: last })),
      b('next', 'replay.next', i + 1, i === last), b('last', 'replay.last', last, i === last),
      replay != null && st.status !== 'finished' ? h('button', { type: 'button', class: 'rb-live', onclick: () => goTo(last) }, t('replay.live')) : null);
  }
  const onKey = (e) => {
    if (!st || e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
    const tg = e.target;
    if (tg && tg.closest && tg.closest('input, textarea, select, [role=grid][data-keys="on"], dialog')) return;
    if (st.game === '2048' && role === 'player' && st.status === 'playing' && replay == null) return; // the arrows play
    const i = shownIndex();
    const to = { ArrowLeft: i - 1, ArrowRight: i + 1, Home: 0, ArrowUp: 0, End: moves.length, ArrowDown: moves.length }[e.key];
    if (to == null || !moves.length) return;
    e.preventDefault();
    goTo(to);
  };
  document.addEventListener('keydown', onKey);

  // ---------- chat ----------
  // A line shows its speaker's seat (a player) or marks a spectator, and
  // offers to mute its speaker in this person's own view.
  function chatItem(m) {
    const at = m.at ? fmtTime(m.at) : '';
    const spectator = m.role === 'spectator' || (!m.role && m.seat == null);
    const tag = spectator
      ? h('span', { class: 'chat-role spectator' }, t('chat.spectator'))
      : h('span', { class: 'chat-role seat' }, st && m.seat != null ? seatWord(m.seat) : t('chat.player'));
    const mine = conn.player && m.by === conn.player.id;
    const mute = m.by && !mine
      ? h('button', { type: 'button', class: 'chat-mute', title: t('chat.mute'), 'aria-label': t('chat.mute'),
        onclick: () => conn.command({ type: 'room.chat.mute', room, player: m.by }) || explain(t('why.offline')) }, '×')
      : null;
    return h('li', { class: spectator ? 'chat-spectator' : 'chat-player' }, h('time', {}, at), ' ', tag, ' ',
      h('b', { class: 'from' }, typeof m.from === 'object' && m.from ? m.from.name : m.from), ': ', h('span', { class: 'text' }, m.text),
      ...(mute ? [' ', mute] : []));
  }
  function renderChat() {
    chatList.replaceChildren(...chatLines.filter((l) => !muted.includes(l.by)).map(chatItem));
    chatList.scrollTop = chatList.scrollHeight;
  }
  function renderChatSwitch() {
    chatSwitch.replaceChildren();
    if (!st || st.watch) return;
    const on = st.spectatorChat !== false;
    if (role === 'player') {
      chatSwitch.append(h('button', {
        type: 'button', class: 'spectator-chat', 'aria-pressed': on ? 'true' : 'false',
        onclick: () => conn.command({ type: 'room.chat.spectators', room, on: !on }) || explain(t('why.offline')),
      }, on ? t('chat.spectatorsOn') : t('chat.spectatorsOff')));
    } else if (!on) chatSwitch.append(h('span', { class: 'muted' }, t('chat.spectatorsClosed')));
    chatInput.disabled = role !== 'player' && !on;
  }

  // ---------- the feel: sounds, notifications ----------
  function feel(prev, moved, m) {
    if (!prev) return;
    if (moved && m.lastMove) {
      const mine = role === 'player' && m.turn === seat && m.status === 'playing' && m.lastMove.seat !== seat;
      const caps = m.game === 'go' ? capturesAt(moves.length) : null, before = m.game === 'go' ? capturesAt(moves.length - 1) : null;
      const took = caps && before && (caps.black + caps.white > before.black + before.white);
      if (m.status === 'finished') sound.play('end');
      else if (took) sound.play('capture');
      else if (mine) sound.play('turn');
      else sound.play('move');
      if (mine) {
        const opp = playerAt(m.lastMove.seat);
        notify.yourTurn(t('notify.title'), t('notify.body', { game: gameName(m.game), who: opp ? playerName(m.game, opp) : '', move: moveText(m.lastMove) }), `tabuleiro-${room}`);
      }
    } else if (prev.status !== 'finished' && m.status === 'finished') sound.play('end');
    else if (prev.status === 'waiting' && m.status === 'playing' && role === 'player' && m.turn === seat) {
      sound.play('turn');
      notify.yourTurn(t('notify.title'), t('notify.start', { game: gameName(m.game) }), `tabuleiro-${room}`);
    }
  }

  // ---------- the network ----------
  offs.push(conn.on('room.joined', (m) => {
    if (m.room !== room) return;
    joined = true; role = m.role; seat = m.role === 'player' ? m.seat : null;
    chatForm.hidden = false;
    if (role === 'player') joinPanel.replaceChildren();
    if (st) render(false);
  }));
  offs.push(conn.on('match.found', (m) => { if (m.room !== room) navigate(`/r/${m.room}`); }));
  offs.push(conn.on('room.state', (m) => {
    if (m.room !== room) return;
    if (st && m.seq < st.seq) {
      if (!resync) return;
      st.seq = m.seq - 1; // the server restarted from a snapshot: count from there
    }
    resync = false;
    if (Array.isArray(m.chat)) { chatLines = m.chat.slice(); chatFromState = true; renderChat(); }
    const { prev, moved } = noteState(m);
    if (conn.player && role !== 'spectator') {
      const me = (m.players || []).find((p) => p.id && p.id === conn.player.id);
      if (me) { role = 'player'; seat = me.seat; }
    }
    if (prev && prev.status !== 'finished' && m.status === 'finished') { replay = null; records = records === 'none' ? 'none' : null; }
    if (moved) { clearTimeout(explainTimer); explainEl.textContent = ''; explainEl.classList.remove('on'); }
    render(true);
    feel(prev, moved, m);
    if (m.status === 'finished' && !records) fetchRecords();
    // A rematch both players asked for: follow it to the new room.
    if (m.next && role === 'player' && Array.isArray(m.rematch) && m.rematch.includes(seat)) navigate(`/r/${m.next}`);
  }));
  offs.push(conn.on('room.chat', (m) => {
    if (m.room !== room) return;
    chatLines.push(m);
    if (chatLines.length > 500) chatLines.shift();
    if (muted.includes(m.by)) return;
    chatList.append(chatItem(m));
    chatList.scrollTop = chatList.scrollHeight;
  }));
  offs.push(conn.on('room.chat.muted', (m) => {
    if (m.room !== room) return;
    muted = Array.isArray(m.muted) ? m.muted : [];
    renderChat();
  }));
  offs.push(conn.on('error', (m) => {
    if (m.room && m.room !== room) return;
    if (m.room === room && !joined && m.code === 'unknown_room') { showArchive(); return; }
    if (m.room === room && !m.command && (m.code === 'room_full' || m.code === 'game_over') && role !== 'player') {
      conn.follow(room, 'spectator');
      if (m.code === 'room_full') explain(t('join.full'));
      return;
    }
    const what = { 'room.move': 'err.move', 'room.claim': 'err.claim', 'room.rematch': 'err.rematch', 'room.resign': 'err.resign', 'room.chat': 'err.chat', 'room.chat.mute': 'err.chat', 'room.chat.spectators': 'err.chat', 'room.abort': 'err.rules', 'room.draw.offer': 'err.rules', 'room.draw.accept': 'err.rules', 'room.draw.decline': 'err.rules', 'room.takeback.ask': 'err.rules', 'room.takeback.accept': 'err.rules', 'room.takeback.decline': 'err.rules' }[m.command];
    if (m.room === room || m.command) explain(what ? t(what, { why: m.message || m.code }) : (m.message || m.code));
  }));
  offs.push(conn.on('up', () => { joined = false; resync = true; }));
  offs.push(conn.on('renamed', () => { if (st) render(false); }));

  // A room the server no longer has: its record, when the server keeps one.
  async function showArchive() {
    gone = true;
    await fetchRecords();
    const rec = records;
    if (!rec || typeof rec !== 'object') {
      title.textContent = t('room.notFound');
      boardHost.replaceChildren(h('p', {}, t('room.notFoundText'), ' ', h('a', { href: '/', 'data-nav': '' }, t('room.back'))));
      return;
    }
    archived = true;
    role = 'spectator';
    const pos = Array.isArray(rec.positions) ? rec.positions : [];
    const lastPos = pos[pos.length - 1] || {};
    st = {
      room, game: rec.game, variant: rec.variant, seq: 0, status: 'finished', spectators: 0,
      players: (rec.players || []).map((p) => ({ ...p, connected: false })), turn: null, legal: [],
      result: rec.result, clocks: null, ...lastPos, lastMove: (rec.moves || []).slice(-1)[0] || null,
    };
    moves = (rec.moves || []).map((x) => ({ seat: x.seat, move: x.move }));
    positions = pos.slice();
    positions[moves.length] = positions[moves.length] || strip(st);
    capsMemo = null;
    adoptRecords();
    downloads.hidden = false;
    if (record && !analysis) {
      analysis = analysisPanel(room, rec.game, {
        onReview(a) { review = a; if (st) renderMoves(); },
        goTo: (k) => goTo(k),
        seatName: (k) => seatWord(k),
      });
      downloads.after(analysis.el);
    }
    render(false);
  }
  let analysis = null; // the game page's analysis (analysis.js)
  let review = null;   // its done analysis: the marks of the move list

  loadCatalog().then(() => { if (st) { labelPage(); render(false); } });
  // The game page (/g/<room>) shows the record alone; a room page follows the room.
  if (record) showArchive(); else conn.follow(room, 'spectator');
  return {
    relabel() {
      localize(main);
      replayBar.setAttribute('aria-label', t('replay.aria'));
      playersEl.setAttribute('aria-label', t('room.players'));
      movesEl.setAttribute('aria-label', t('room.moves'));
      chatList.setAttribute('aria-label', t('chat.aria'));
      chatInput.setAttribute('aria-label', t('chat.input'));
      chatInput.setAttribute('placeholder', t('chat.placeholder'));
      chatSend.textContent = t('chat.send');
      movesHead.textContent = t('room.moves');
      chatHead.textContent = t('chat.title');
      back.textContent = t('room.back');
      joinPanel.replaceChildren();
      if (records && typeof records === 'object') adoptRecords();
      renderChat();
      if (analysis) analysis.relabel();
      if (st) { labelPage(); render(false); }
    },
    destroy() {
      offs.forEach((f) => f());
      clearInterval(clockTimer);
      document.removeEventListener('keydown', onKey);
      phone.removeEventListener('change', place);
      if (renderer && renderer.destroy) renderer.destroy();
      if (analysis) analysis.destroy();
      if (!gone) conn.unfollow(room);
      document.title = 'Tabuleiro';
    },
  };
}
