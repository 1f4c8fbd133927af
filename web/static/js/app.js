// Tabuleiro's browser client: the lobby, the room pages (/r/<room>) and the
// first-visit name prompt. Everything from the network is inserted as text.
import { h, s, $, store, fmtClock } from './dom.js';
import { Conn } from './ws.js';
import { RULES, reasonText } from './rules.js';
import * as orbito from './games/orbito.js';
import * as morris from './games/morris.js';
import * as go from './games/go.js';
import * as g2048 from './games/g2048.js';
import * as queens from './games/queens.js';

const RENDERERS = { orbito, morris, go, 2048: g2048, queens };
const CLOCKS = [['', 'no clock'], ['60+0', '1 min'], ['180+2', '3 min + 2 s'], ['300+3', '5 min + 3 s'], ['600+5', '10 min + 5 s']];
const conn = new Conn();
let catalog = null;
let current = null; // the view on screen: {destroy()}

// ---------- identity ----------
function askName() {
  const dlg = $('#name-dialog'), input = $('#name-input');
  input.value = store.name;
  return new Promise((resolve) => {
    const done = (e) => {
      e.preventDefault();
      const v = input.value.trim().slice(0, 32);
      if (!v) { input.focus(); return; }
      store.name = v;
      $('#name-form').removeEventListener('submit', done);
      dlg.close();
      showMe();
      resolve(v);
    };
    $('#name-form').addEventListener('submit', done);
    dlg.showModal();
    input.focus();
  });
}
function showMe() { $('#me-name').textContent = store.name ? `Playing as ${store.name}` : ''; }

// ---------- catalog ----------
async function loadCatalog() {
  if (catalog) return catalog;
  try {
    const r = await fetch('/api/games');
    const j = await r.json();
    catalog = Array.isArray(j) ? j : j.games || [];
  } catch {
    catalog = [];
  }
  return catalog;
}
const gameInfo = (id) => (catalog || []).find((g) => g.id === id);
const gameName = (id) => (RULES[id] && RULES[id].name) || (gameInfo(id) && gameInfo(id).name) || id;
function variantInfo(game, variant) {
  const g = gameInfo(game);
  return g && (g.variants || []).find((v) => v.id === variant);
}
function seatLabel(game, variant, seat) {
  const v = variantInfo(game, variant);
  if (v && v.seatNames && v.seatNames[seat]) return v.seatNames[seat];
  if (game === 'queens') return seat === 0 ? 'first (primeiro)' : 'second (segundo)';
  if (game === '2048') return `board ${seat + 1}`;
  if (game === 'go' || game === 'orbito') return seat === 0 ? 'black X' : 'white O';
  return seat === 0 ? 'X' : 'O';
}
const namesOf = (players) => (players || []).map((p) => (typeof p === 'string' ? p : p && p.name) || '?');

// ---------- routing ----------
function navigate(url) {
  if (location.pathname + location.search !== url) history.pushState(null, '', url);
  route();
}
function route() {
  if (current && current.destroy) current.destroy();
  current = null;
  const m = location.pathname.match(/^\/r\/([A-Za-z0-9_-]{1,64})$/);
  const main = $('#main');
  main.replaceChildren();
  if (m) current = roomView(main, m[1], new URLSearchParams(location.search).has('watch'));
  else current = lobbyView(main);
}
document.addEventListener('click', (e) => {
  const a = e.target.closest && e.target.closest('a[data-nav]');
  if (!a || e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
  e.preventDefault();
  navigate(a.getAttribute('href'));
});
addEventListener('popstate', route);

// ---------- lobby ----------
function lobbyView(main) {
  const offs = [];
  const status = h('div', { class: 'queue-status', role: 'status', 'aria-live': 'polite' });
  const liveBody = h('tbody');
  const liveEmpty = h('p', { class: 'muted' }, 'No live games right now.');
  const games = h('div', { class: 'games' }, h('p', { class: 'loading' }, 'Loading games…'));
  main.append(
    h('section', { class: 'intro' }, h('h1', {}, 'Play board games live'), h('p', {}, 'Five games, against people or the computer; every game can be watched.')),
    status,
    h('section', { 'aria-labelledby': 'games-h' }, h('h2', { id: 'games-h' }, 'Games'), games),
    h('section', { 'aria-labelledby': 'live-h', class: 'live' }, h('h2', { id: 'live-h' }, 'Live games'),
      h('table', { class: 'live-table' }, h('thead', {}, h('tr', {}, ...['Game', 'Players', 'Status', 'Watching', ''].map((t) => h('th', { scope: 'col' }, t)))), liveBody), liveEmpty),
  );
  let searching = null;
  function showSearching() {
    status.replaceChildren();
    if (!searching) return;
    status.append(h('span', { class: 'spinner', 'aria-hidden': 'true' }), ` Looking for an opponent for ${gameName(searching.game)} ${searching.variant}… `,
      h('button', { type: 'button', onclick: () => { conn.send({ type: 'match.cancel' }); searching = null; showSearching(); } }, 'Cancel'));
  }
  function say(text, cls = 'error') { status.replaceChildren(h('span', { class: cls }, text)); }

  function renderLive(rooms) {
    rooms = (rooms || []).filter(Boolean);
    liveEmpty.hidden = rooms.length > 0;
    liveBody.replaceChildren(...rooms.map((r) => {
      const id = r.id || r.room;
      const players = namesOf(r.players);
      return h('tr', { dataset: { room: id } },
        h('td', {}, `${gameName(r.game)} ${r.variant || ''}`),
        h('td', { class: 'players-cell' }, players.join(' vs ')),
        h('td', {}, r.status || ''),
        h('td', {}, String(r.spectators ?? 0)),
        h('td', {}, h('a', { href: `/r/${id}?watch=1`, 'data-nav': '', class: 'button', 'aria-label': `Watch ${players.join(' versus ')}` }, 'Watch')));
    }));
  }
  fetch('/api/rooms').then((r) => r.json()).then((j) => renderLive(Array.isArray(j) ? j : j.rooms)).catch(() => {});
  offs.push(conn.on('lobby', (m) => { renderLive(m.rooms); renderQueues(m.queues); }));
  function renderQueues(qs) {
    for (const el of games.querySelectorAll('.game-card')) {
      const n = (qs || []).filter((q) => q.game === el.dataset.game).reduce((a, q) => a + (q.waiting || 0), 0);
      el.querySelector('.waiting').textContent = n ? `${n} waiting for a quick match` : '';
    }
  }
  conn.watchLobby(true);

  async function create(msg) {
    try {
      const rep = await conn.request({ type: 'room.create', ...msg });
      if (rep.room) navigate(`/r/${rep.room}`);
    } catch (e) { say(`Could not create the game: ${e.message}`); }
  }

  loadCatalog().then((cat) => {
    games.replaceChildren();
    if (!cat.length) { games.append(h('p', { class: 'error' }, 'The game list could not be loaded.')); return; }
    for (const g of cat) games.append(gameCard(g));
  });

  function gameCard(g) {
    const rules = RULES[g.id] ? RULES[g.id].summary : [g.rules || ''];
    const vsel = h('select', { name: 'variant' }, ...(g.variants || []).map((v) => h('option', { value: v.id }, v.name && v.name !== v.id ? `${v.name}` : v.id)));
    const lsel = h('select', { name: 'level' }, ...(g.levels || []).map((l) => h('option', { value: l.id, title: l.description || '' }, l.id)));
    const ssel = h('select', { name: 'seat' });
    const csel = h('select', { name: 'clock' }, ...CLOCKS.map(([v, t]) => h('option', { value: v }, t)));
    const setup = h('textarea', { name: 'setup', rows: 3, placeholder: '{"board": …} as in the protocol; empty for the normal start', spellcheck: 'false' });
    const priv = h('input', { type: 'checkbox', name: 'private' });
    const seats = () => { const v = (g.variants || []).find((x) => x.id === vsel.value); return v ? v.seats : 2; };
    // The server refuses a clock where it means nothing: one seat, or both seats moving at once (2048 race).
    const timed = () => seats() === 2 && g.id !== '2048';
    const btn = (label, cls, fn) => h('button', { type: 'button', class: cls, onclick: fn }, label);
    const bQuick = btn('Quick match', 'primary', () => {
      searching = { game: g.id, variant: vsel.value };
      if (!conn.send({ type: 'match.find', game: g.id, variant: vsel.value })) { searching = null; say('Not connected yet; try again in a moment.'); return; }
      showSearching();
    });
    const opts = () => {
      const o = { game: g.id, variant: vsel.value };
      if (csel.value && timed()) { const [b, i] = csel.value.split('+').map(Number); o.clock = { base: b, increment: i }; }
      if (priv.checked) o.private = true;
      if (setup.value.trim()) {
        try { o.setup = JSON.parse(setup.value); } catch { say('The starting position is not valid JSON.'); return null; }
      }
      return o;
    };
    const bFriend = btn('Invite a friend', '', () => { const o = opts(); if (o) create({ ...o, opponent: 'human' }); });
    const bBot = btn(`Play the computer`, '', () => {
      const o = opts(); if (!o) return;
      const seat = ssel.value === 'random' ? 'random' : Number(ssel.value);
      create({ ...o, opponent: seats() === 1 ? 'none' : 'bot', level: lsel.value, seat: seats() === 1 ? 0 : seat });
    });
    const bSolo = btn('Play', 'primary', () => { const o = opts(); if (o) create({ ...o, opponent: 'none' }); });
    const bWatch = btn('Watch the computer play', 'quiet', () => { const o = opts(); if (o) create({ ...o, clock: undefined, opponent: 'bot', level: lsel.value, watch: true }); });
    function sync() {
      const one = seats() === 1;
      ssel.replaceChildren(h('option', { value: 'random' }, 'random seat'), h('option', { value: '0' }, seatLabel(g.id, vsel.value, 0)), h('option', { value: '1' }, seatLabel(g.id, vsel.value, 1)));
      bQuick.hidden = one; bFriend.hidden = one; bBot.hidden = one; ssel.parentElement && (ssel.parentElement.hidden = one);
      bSolo.hidden = !one;
      csel.parentElement && (csel.parentElement.hidden = !timed());
    }
    const card = h('article', { class: 'game-card', dataset: { game: g.id } },
      h('h3', {}, gameName(g.id)),
      h('ul', { class: 'rules' }, ...rules.map((t) => h('li', {}, t))),
      h('div', { class: 'opts' },
        h('label', {}, 'Variant ', vsel),
        h('label', {}, 'Time ', csel)),
      h('div', { class: 'actions' }, bQuick, bFriend, bSolo),
      h('div', { class: 'waiting muted', 'aria-live': 'polite' }),
      h('div', { class: 'opts bot' }, h('label', {}, 'Computer level ', lsel), h('label', {}, 'Your seat ', ssel), bBot),
      h('details', {}, h('summary', {}, 'More'),
        h('label', { class: 'check' }, priv, ' Private (not listed in live games)'),
        h('label', { class: 'block' }, 'Starting position (JSON, optional)', setup),
        bWatch));
    vsel.addEventListener('change', sync);
    sync();
    return card;
  }

  offs.push(conn.on('match.found', (m) => navigate(`/r/${m.room}`)));
  offs.push(conn.on('error', (m) => { if (!m.id && !m.room) { searching = null; say(m.message || m.code); } }));
  return { destroy() { offs.forEach((f) => f()); conn.watchLobby(false); if (searching) conn.send({ type: 'match.cancel' }); } };
}

// ---------- room ----------
function roomView(main, room, watch) {
  const offs = [];
  let role = null, seat = null, st = null, renderer = null, joined = false;
  let history = [], moves = [], replay = null, rematchAsked = false, resignArmed = false;
  let clockBase = null, passMove = null, gone = false, resync = false;

  const title = h('h1', { class: 'room-title' }, 'Loading…');
  const statusEl = h('div', { class: 'status', role: 'status', 'aria-live': 'polite' });
  const explainEl = h('div', { class: 'explain', role: 'alert', 'aria-live': 'assertive' });
  const boardHost = h('div', { class: 'board-host' });
  const replayBar = h('div', { class: 'replay-bar', hidden: true });
  const playersEl = h('ul', { class: 'players', 'aria-label': 'Players' });
  const specEl = h('p', { class: 'spectators' });
  const controls = h('div', { class: 'controls' });
  const inviteEl = h('div', { class: 'invite', hidden: true });
  const infoEl = h('div', { class: 'info' });
  const movesEl = h('ol', { class: 'moves', 'aria-label': 'Moves' });
  const chatList = h('ul', { class: 'chat-list', 'aria-live': 'polite', 'aria-label': 'Chat messages' });
  const chatInput = h('input', { name: 'chat', maxlength: 300, autocomplete: 'off', 'aria-label': 'Chat message', placeholder: 'Say something' });
  const chatForm = h('form', { class: 'chat-form' }, chatInput, h('button', { type: 'submit' }, 'Send'));
  const rulesEl = h('details', { class: 'rules-box' });
  main.append(h('div', { class: 'room' },
    h('div', { class: 'board-col' }, h('div', { class: 'room-head' }, h('a', { href: '/', 'data-nav': '', class: 'back' }, '← Lobby'), title), statusEl, explainEl, boardHost, replayBar),
    h('aside', { class: 'side' }, playersEl, specEl, controls, inviteEl, infoEl,
      h('section', { class: 'moves-box' }, h('h2', {}, 'Moves'), movesEl),
      h('section', { class: 'chat' }, h('h2', {}, 'Chat'), chatList, chatForm),
      rulesEl)));

  chatForm.addEventListener('submit', (e) => {
    e.preventDefault();
    const text = chatInput.value.trim();
    if (!text) return;
    if (!conn.command({ type: 'room.chat', room, text })) return explain('Not connected: the message was not sent.');
    chatInput.value = '';
  });

  let explainTimer = null;
  function explain(text) {
    explainEl.textContent = text;
    explainEl.classList.add('on');
    clearTimeout(explainTimer);
    explainTimer = setTimeout(() => { explainEl.textContent = ''; explainEl.classList.remove('on'); }, 6000);
  }
  const playerAt = (k) => st && (st.players || []).find((p) => p.seat === k);
  const nameAt = (k) => { const p = playerAt(k); return p ? p.name : seatLabel(st.game, st.variant, k); };

  function blocked() {
    if (!conn.ready) return 'Connection lost: your move will be possible again once it is back.';
    if (replay != null) return 'You are looking at the replay: press "Live" to come back to the game.';
    if (role !== 'player') return 'You are watching this game; spectators cannot play.';
    if (!st) return 'The game is loading.';
    if (st.status === 'waiting') return 'The game has not started: waiting for an opponent to join.';
    if (st.status === 'finished') return 'The game is over.';
    if (st.turn != null && st.turn !== seat) return `It is not your turn: ${nameAt(st.turn)} is to move.`;
    return '';
  }
  function play(move) {
    if (!conn.command({ type: 'room.move', room, move })) explain('Not connected: the move was not sent.');
  }
  const ctxBase = { blocked, explain, play, setPass: (m, label) => { passMove = m ? { move: m, label } : null; renderControls(); } };

  function ensureRenderer() {
    if (renderer) return;
    const R = RENDERERS[st.game];
    if (!R) { boardHost.replaceChildren(h('p', { class: 'error' }, `This client cannot draw ${st.game}.`)); return; }
    renderer = R.create({ ...ctxBase, variant: st.variant, game: st.game });
    boardHost.replaceChildren(renderer.el);
    boardHost.dataset.game = st.game;
    title.textContent = `${gameName(st.game)} ${variantName()}`;
    document.title = `${gameName(st.game)} — Tabuleiro`;
    const rs = RULES[st.game];
    rulesEl.replaceChildren(h('summary', {}, 'Rules'), h('ul', {}, ...(rs ? rs.summary : []).map((t) => h('li', {}, t))));
  }
  function variantName() { const v = variantInfo(st.game, st.variant); return v && v.name ? v.name : st.variant; }

  // The move list and the positions seen are kept for this tab, so that a
  // reload keeps them (room.state carries the position, not the history).
  const saveKey = `tabuleiro.room.${room}`;
  const strip = ({ legal, legalBySeat, ...rest }) => rest;
  function noteState(m) {
    let prev = st;
    if (!prev) {
      try {
        const saved = JSON.parse(sessionStorage.getItem(saveKey) || 'null');
        if (saved && saved.seq <= m.seq && saved.history && saved.history.length) {
          moves = saved.moves || [];
          history = saved.history;
          prev = history[history.length - 1];
        }
      } catch { /* nothing saved */ }
    }
    if (m.moves && Array.isArray(m.moves)) {
      moves = m.moves.map((x) => (typeof x === 'string' ? { move: x } : x));
    } else if (prev && m.seq > prev.seq && m.lastMove &&
      (JSON.stringify(m.board) !== JSON.stringify(prev.board) || JSON.stringify(m.lastMove) !== JSON.stringify(prev.lastMove))) {
      moves.push(m.lastMove);
    }
    if (!prev || m.seq > prev.seq) {
      if (!prev || JSON.stringify(m.board) !== JSON.stringify(prev.board) || JSON.stringify(m.lastMove) !== JSON.stringify(prev.lastMove) || !history.length) history.push(strip(m));
      else history[history.length - 1] = strip(m);
    }
    st = m;
    clockBase = { clocks: m.clocks, at: performance.now() };
    try { sessionStorage.setItem(saveKey, JSON.stringify({ seq: m.seq, moves, history })); } catch { /* full: keep going */ }
  }

  function render(animate = true) {
    if (!st) return;
    ensureRenderer();
    const shown = replay != null ? history[replay] : st;
    const interactive = replay == null && role === 'player' && st.status === 'playing';
    if (renderer) {
      renderer.update(shown, { seat: role === 'player' ? seat : null, interactive, animate: animate && replay == null });
      if (renderer.info && !renderer.info.isConnected) infoEl.replaceChildren(renderer.info);
    }
    boardHost.classList.toggle('my-turn', interactive && (st.turn === seat || st.turn == null));
    boardHost.dataset.status = st.status;
    boardHost.dataset.seq = st.seq;
    renderStatus(); renderPlayers(); renderControls(); renderMoves(); renderReplay();
    specEl.textContent = `${st.spectators || 0} watching`;
  }

  function renderStatus() {
    statusEl.className = 'status';
    const r = st.result;
    if (st.status === 'finished') {
      const why = reasonText(r && r.reason);
      let text;
      if (!r || r.winner == null || r.winner < 0) text = 'Draw';
      else if (role === 'player' && r.winner === seat) text = 'You win';
      else text = `${nameAt(r.winner)} wins`;
      if (st.game === 'go' && st.score) text += ` (black ${st.score.black}, white ${st.score.white})`;
      statusEl.classList.add('result');
      statusEl.replaceChildren(h('strong', {}, text), why ? ` — ${why}` : '');
      document.title = `${text} — Tabuleiro`;
      return;
    }
    if (st.status === 'waiting') { statusEl.textContent = 'Waiting for an opponent to join…'; return; }
    if (st.turn == null) { statusEl.textContent = role === 'player' ? 'Race: play your board as fast and as well as you can.' : 'Race: both players move at the same time.'; return; }
    const p = playerAt(st.turn);
    if (role === 'player' && st.turn === seat) {
      statusEl.classList.add('your-turn');
      statusEl.textContent = 'Your turn';
      document.title = `Your turn — ${gameName(st.game)}`;
    } else if (p && p.bot) {
      statusEl.classList.add('thinking');
      statusEl.replaceChildren(`${p.name} (computer) is thinking`, h('span', { class: 'dots', 'aria-hidden': 'true' }, '...'));
    } else {
      statusEl.textContent = `${nameAt(st.turn)} to move`;
      document.title = `${gameName(st.game)} — Tabuleiro`;
    }
  }

  function seatCount() {
    const v = variantInfo(st.game, st.variant);
    if (v) return v.seats;
    if (st.game === '2048') return st.variant === 'solo' ? 1 : 2;
    return 2;
  }

  function renderPlayers() {
    const n = seatCount();
    const items = [];
    for (let k = 0; k < n; k++) {
      const p = playerAt(k);
      const isTurn = st.status === 'playing' && st.turn === k;
      const clock = h('span', { class: 'clock', dataset: { seat: k } });
      const markSvg = st.game === '2048' ? null : s('svg', { viewBox: '-12 -12 24 24', class: 'seat-mark', 'aria-hidden': 'true' },
        k === 0 ? [s('circle', { r: 10, class: 'disc x' }), s('path', { d: 'M-4 -4L4 4M4 -4L-4 4', class: 'sym x' })] : [s('circle', { r: 10, class: 'disc o' }), s('circle', { r: 4.5, class: 'sym o' })]);
      const conn_ = p ? (p.bot ? 'computer' : p.connected === false ? 'offline' : 'online') : 'free seat';
      items.push(h('li', { class: `player${isTurn ? ' turn' : ''}${p && p.connected === false && !p.bot ? ' gone' : ''}`, dataset: { seat: k } },
        markSvg || h('span'),
        h('span', { class: 'pline' },
          h('span', { class: 'pname' }, p ? p.name : '(free seat)'),
          p && p.bot ? h('span', { class: 'tag' }, `bot ${p.bot}`) : null,
          role === 'player' && seat === k ? h('span', { class: 'tag you' }, 'you') : null),
        clock,
        h('span', { class: 'pline small' },
          h('span', { class: `conn ${conn_.replace(' ', '-')}` }, h('span', { class: 'dot', 'aria-hidden': 'true' }), conn_),
          h('span', { class: 'seat-name' }, seatLabel(st.game, st.variant, k)),
          isTurn ? h('span', { class: 'turn-tag' }, 'to move') : null)));
    }
    playersEl.replaceChildren(...items);
    tickClocks();
    // The invite link, while a seat is free.
    const free = st.status === 'waiting' || (st.players || []).length < n;
    inviteEl.hidden = !(free && role === 'player' && n > 1);
    if (!inviteEl.hidden && !inviteEl.firstChild) {
      const url = `${location.origin}/r/${room}`;
      const inp = h('input', { value: url, readonly: true, 'aria-label': 'Invite link', class: 'invite-url' });
      const b = h('button', { type: 'button' }, 'Copy');
      b.addEventListener('click', async () => {
        inp.select();
        try { await navigator.clipboard.writeText(url); b.textContent = 'Copied'; } catch { b.textContent = 'Select and copy'; }
      });
      inviteEl.append(h('label', {}, 'Invite a friend with this link: '), inp, b);
    }
  }

  function tickClocks() {
    if (!st || !st.clocks || !clockBase) return;
    for (const el of playersEl.querySelectorAll('.clock')) {
      const k = Number(el.dataset.seat);
      let ms = st.clocks[k] ?? st.clocks[String(k)];
      if (ms == null) continue;
      if (st.status === 'playing' && (st.turn === k)) ms -= performance.now() - clockBase.at;
      el.textContent = fmtClock(ms);
      el.classList.toggle('low', ms < 10000);
    }
  }
  // The claim button waits for the opponent's claimableAt (server time, Unix ms).
  let claimEls = null;
  function tickClaim() {
    if (!claimEls) return;
    const left = claimEls.at ? Math.ceil((claimEls.at - Date.now()) / 1000) : 0;
    claimEls.button.hidden = left > 0;
    claimEls.wait.hidden = left <= 0;
    if (left > 0) claimEls.wait.textContent = `Opponent gone: you may claim the win in ${left} s`;
  }
  const clockTimer = setInterval(() => { tickClocks(); tickClaim(); }, 200);

  function renderControls() {
    controls.replaceChildren();
    claimEls = null;
    if (!st) return;
    const player = role === 'player';
    if (player && st.status === 'playing' && replay == null) {
      if (passMove && (st.turn === seat)) controls.append(h('button', { type: 'button', class: 'pass', onclick: () => play(passMove.move) }, passMove.label));
      controls.append(h('button', {
        type: 'button', class: resignArmed ? 'danger' : '',
        onclick: () => {
          if (!resignArmed) { resignArmed = true; renderControls(); setTimeout(() => { resignArmed = false; renderControls(); }, 4000); return; }
          resignArmed = false;
          if (!conn.command({ type: 'room.resign', room })) explain('Not connected.');
        },
      }, resignArmed ? 'Really resign?' : 'Resign'));
      const opp = (st.players || []).find((p) => p.seat !== seat);
      if (opp && !opp.bot && opp.connected === false) {
        claimEls = {
          at: opp.claimableAt,
          button: h('button', { type: 'button', class: 'claim', onclick: () => conn.command({ type: 'room.claim', room }) || explain('Not connected.') }, 'Claim the win (opponent gone)'),
          wait: h('span', { class: 'muted claim-wait', 'aria-live': 'polite' }),
        };
        controls.append(claimEls.button, claimEls.wait);
        tickClaim();
      }
    }
    if (player && st.status === 'finished' && seatCount() > 1) {
      controls.append(h('button', {
        type: 'button', class: 'rematch', disabled: rematchAsked,
        onclick: () => { rematchAsked = conn.command({ type: 'room.rematch', room }); if (!rematchAsked) explain('Not connected.'); renderControls(); },
      }, rematchAsked ? 'Rematch asked — waiting for the opponent' : 'Rematch'));
    }
    if (role === 'spectator' && st.status !== 'finished') controls.append(h('span', { class: 'muted' }, 'You are watching.'));
  }

  function seatTag(k) {
    if (st.game === '2048') return nameAt(k);
    if (st.game === 'queens') return k === 0 ? '1st' : '2nd';
    return k === 0 ? 'X' : 'O';
  }
  function renderMoves() {
    movesEl.replaceChildren(...moves.map((m, i) => h('li', { class: replay === i + 1 ? 'at' : '' },
      m.seat != null ? `${seatTag(m.seat)} ` : '', m.move)));
    movesEl.scrollTop = movesEl.scrollHeight;
  }

  function renderReplay() {
    const show = st.status === 'finished' && history.length > 1;
    replayBar.hidden = !show;
    if (!show) return;
    const last = history.length - 1, i = replay == null ? last : replay;
    const go_ = (k) => { k = Math.max(0, Math.min(last, k)); replay = k === last ? null : k; render(false); };
    const b = (label, aria, k, dis) => h('button', { type: 'button', 'aria-label': aria, disabled: dis, onclick: () => go_(k) }, label);
    replayBar.replaceChildren(h('span', { class: 'muted' }, 'Replay '),
      b('⏮', 'First position', 0, i === 0), b('◀', 'Previous move', i - 1, i === 0),
      h('span', { class: 'replay-pos' }, `${i} / ${last}`),
      b('▶', 'Next move', i + 1, i === last), b('⏭', 'Final position', last, i === last),
      replay != null ? h('button', { type: 'button', onclick: () => go_(last) }, 'Live') : null);
  }

  offs.push(conn.on('room.joined', (m) => {
    if (m.room !== room) {
      if (rematchAsked) navigate(`/r/${m.room}`);
      return;
    }
    joined = true; role = m.role; seat = m.role === 'player' ? m.seat : null;
    chatForm.hidden = false;
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
    noteState(m);
    // Our seat, from our player id, in case room.joined was missed.
    if (conn.player && role !== 'spectator') {
      const me = (m.players || []).find((p) => p.id && p.id === conn.player.id);
      if (me) { role = 'player'; seat = me.seat; }
    }
    render(true);
    // A rematch both players asked for: follow it to the new room.
    if (m.next && role === 'player' && rematchAsked) navigate(`/r/${m.next}`);
  }));
  offs.push(conn.on('room.chat', (m) => {
    if (m.room !== room) return;
    const at = m.at ? new Date(m.at) : new Date();
    chatList.append(h('li', {}, h('time', {}, isNaN(at) ? '' : at.toTimeString().slice(0, 5)), ' ', h('b', { class: 'from' }, typeof m.from === 'object' && m.from ? m.from.name : m.from), ': ', h('span', { class: 'text' }, m.text)));
    chatList.scrollTop = chatList.scrollHeight;
  }));
  offs.push(conn.on('error', (m) => {
    if (m.room && m.room !== room) return;
    if (!joined && (m.code === 'room_full' || m.code === 'game_over')) { conn.follow(room, 'spectator'); return; }
    if (!joined && m.code === 'unknown_room') {
      gone = true;
      title.textContent = 'Game not found';
      boardHost.replaceChildren(h('p', {}, 'This game does not exist, or it has ended and is gone. ', h('a', { href: '/', 'data-nav': '' }, 'Back to the lobby')));
      return;
    }
    if (m.command === 'room.rematch') { rematchAsked = false; renderControls(); }
    const what = { 'room.move': 'Move refused', 'room.claim': 'Cannot claim the win', 'room.rematch': 'No rematch', 'room.resign': 'Cannot resign', 'room.chat': 'Message not sent' }[m.command];
    if (m.room === room || m.command) explain(what ? `${what}: ${m.message || m.code}` : (m.message || m.code));
  }));
  offs.push(conn.on('up', () => { joined = false; resync = true; }));
  loadCatalog().then(() => { if (st) render(false); });
  conn.follow(room, watch ? 'spectator' : 'player');
  return {
    destroy() {
      offs.forEach((f) => f());
      clearInterval(clockTimer);
      if (renderer && renderer.destroy) renderer.destroy();
      if (!gone) conn.unfollow(room);
      document.title = 'Tabuleiro';
    },
  };
}

// ---------- start ----------
conn.on('down', () => { $('#conn-bar').hidden = false; document.body.classList.add('offline'); });
conn.on('up', (m) => {
  $('#conn-bar').hidden = true;
  document.body.classList.remove('offline');
  if (m.player && m.player.name && m.player.name !== store.name) { store.name = m.player.name; showMe(); }
});
$('#rename').addEventListener('click', async () => {
  await askName();
  if (conn.ws) conn.ws.close(); // say hello again with the new name
});

(async function start() {
  showMe();
  if (!store.name) await askName();
  conn.connect();
  route();
})();
