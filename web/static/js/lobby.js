// The lobby: your unfinished games, then live games (small live boards,
// one tap to watch or to take a free seat; a page of them, more from GET
// /api/rooms), then one card per game with one-tap play (quick match, the
// computer, a friend) on defaults the player can change and remembers.
import { h, store, nameTag } from './dom.js';
import { t, tNodes, num, localize } from './i18n.js';
import {
  loadCatalog, games, gameName, gameTagline, gameRules, variantName, variantShort, seats, seatLabel,
  levelName, levelDescription, levelStrength, playerName, CLOCKS, clockLabel, clockSpec,
} from './labels.js';
import { tOr } from './i18n.js';
import * as mini from './mini.js';
import { away } from './presence.js';
import { about } from './games/index.js';
import { botsSection } from './bots.js';
import { torneiosSection } from './torneio.js';
import { ratingTag, ratedBadge } from './rating.js';

// Live games shown with a small board (each followed "as": "watcher", which
// the room does not count among its spectators).
const PREVIEWS = 6;

const prefsKey = (g) => `tabuleiro.game.${g}`;
function loadChoice(g) {
  try { return JSON.parse(localStorage.getItem(prefsKey(g)) || '{}') || {}; } catch { return {}; }
}
function saveChoice(g, v) { try { localStorage.setItem(prefsKey(g), JSON.stringify(v)); } catch { /* private mode */ } }

export function lobbyView(main, { conn, navigate, ensureNamed }) {
  const offs = [];
  // names puts each name in its box (a name never breaks mid-word).
  const names = (list, sep = ', ') => h('span', {}, ...list.flatMap((n, i) => [i ? sep : '', nameTag('span', 'inline pn', n)]));
  const status = h('div', { class: 'queue-status', role: 'status', 'aria-live': 'polite' });
  const liveList = h('ul', { class: 'live-grid', 'aria-labelledby': 'live-h' });
  const liveEmpty = h('div', { class: 'live-empty' });
  const liveMore = h('button', { type: 'button', class: 'link live-more', hidden: true });
  const liveNext = h('button', { type: 'button', class: 'link live-next', hidden: true });
  const liveCount = h('span', { class: 'count muted' });
  const liveCounts = h('p', { class: 'live-counts muted' });
  const openList = h('ul', { class: 'my-games-list', 'aria-labelledby': 'open-h' });
  const openSection = h('div', { class: 'open-games', 'aria-labelledby': 'open-h', hidden: true },
    h('h2', { id: 'open-h', 'data-i18n': 'lobby.yourGames' }, t('lobby.yourGames')), openList);
  const torneios = torneiosSection({ conn });
  const cards = h('div', { class: 'games' }, h('p', { class: 'loading', 'data-i18n': 'common.loading' }, t('common.loading')));
  const botList = botsSection({ navigate, ensureNamed, say: (text) => say(text) });
  const myList = h('ul', { class: 'my-games-list', 'aria-labelledby': 'my-h' });
  const mySection = h('section', { class: 'my-games', 'aria-labelledby': 'my-h', hidden: true },
    h('h2', { id: 'my-h', 'data-i18n': 'lobby.myGames' }, t('lobby.myGames')), myList,
    h('a', { href: '/games', 'data-nav': '', class: 'all-games', 'data-i18n': 'lobby.allMyGames' }, t('lobby.allMyGames')));
  main.append(h('div', { class: 'lobby' },
    h('section', { class: 'live', 'aria-labelledby': 'live-h' },
      openSection,
      h('h2', { id: 'live-h' }, h('span', { 'data-i18n': 'lobby.live' }, t('lobby.live')), ' ', liveCount),
      liveList, liveEmpty, liveCounts, liveMore, ' ', liveNext, botList.el, torneios.el),
    h('section', { class: 'play', 'aria-labelledby': 'play-h' },
      h('h2', { id: 'play-h', 'data-i18n': 'lobby.play' }, t('lobby.play')),
      status, cards),
    mySection));

  // ---------- my games (the finished games of the guest this browser holds) ----------
  let myGames = [], myFor = null;
  function renderMine() {
    mySection.hidden = !myGames.length;
    myList.replaceChildren(...myGames.map((g) => {
      const me = (g.players || []).find((p) => p.id === myFor);
      const others = (g.players || []).filter((p) => p !== me).map((p) => playerName(g.game, p));
      const res = g.result || {};
      const outcome = res.reason === 'aborted' ? t('lobby.myAborted')
        : res.winner == null ? t('result.draw')
          : me && res.winner === me.seat ? t('lobby.myWon') : t('lobby.myLost');
      const title = `${gameName(g.game)} ${variantShort(g.game, g.variant)}`;
      return h('li', { class: 'my-game', dataset: { room: g.room } },
        h('a', { href: `/g/${g.room}`, 'data-nav': '' }, title),
        ' ', others.length ? h('span', { class: 'muted' }, ...tNodes('lobby.myAgainst', { players: names(others) })) : '',
        ' · ', h('span', { class: 'my-outcome' }, outcome),
        ' · ', h('span', { class: 'muted' }, t('lobby.moveN', { n: g.moves || 0 })));
    }));
  }
  function loadMine() {
    const id = conn.player && conn.player.id;
    if (!id) return;
    // The session cookie goes with it: our own private games are listed too.
    fetch(`/api/players/${encodeURIComponent(id)}/records?limit=5`).then((r) => (r.ok ? r.json() : null)).then((j) => {
      if (!j) return;
      myFor = id;
      myGames = Array.isArray(j.records) ? j.records : [];
      renderMine();
    }).catch(() => {});
  }
  offs.push(conn.on('up', loadMine));
  loadMine();

  // ---------- your unfinished games ----------
  // The lobby's "mine"; a room of yours it lacks (stopped, or on another
  // node) is in the welcome's "rooms", named from its record.
  let mine = [], welcomeRooms = [];
  const records = new Map(); // room -> a summary made of its record, or null
  function renderOpen() {
    const byId = new Map(mine.map((r) => [r.id, r]));
    for (const id of welcomeRooms) {
      if (!byId.has(id) && !records.has(id)) {
        records.set(id, null);
        fetch(`/api/records/${encodeURIComponent(id)}`).then((r) => (r.ok ? r.json() : null)).then((x) => {
          if (x) { records.set(id, { ...x, id }); renderOpen(); }
        }).catch(() => {});
      }
      if (!byId.has(id) && records.get(id)) byId.set(id, records.get(id));
    }
    const list = [...byId.values()].filter((r) => r.status !== 'finished');
    openSection.hidden = !list.length;
    const me = conn.player && conn.player.id;
    openList.replaceChildren(...list.map((r) => {
      const others = (r.players || []).filter((p) => p && p.id !== me && (p.id || p.bot || p.name));
      return h('li', { dataset: { room: r.id } },
        h('a', { href: `/r/${r.id}`, 'data-nav': '' }, `${gameName(r.game)} ${variantShort(r.game, r.variant)}`),
        others.length ? [' ', t('lobby.against'), ' ', ...playersLine(r, others)] : '',
        ' · ', h('span', { class: 'badge' }, t(r.status === 'waiting' ? 'lobby.waitingBadge' : r.adjourned ? 'lobby.adjourned' : 'lobby.playing')),
        r.private ? [' ', h('span', { class: 'badge' }, t('lobby.privateBadge'))] : '',
        r.rated ? [' ', ratedBadge(true)] : '');
    }));
  }
  const welcomed = (ids) => { welcomeRooms = (ids || []).slice(0, 20); renderOpen(); };
  offs.push(conn.on('up', (m) => welcomed(m.rooms)));
  welcomed(conn.myRooms);

  // ---------- live games ----------
  // rooms: the lobby's page; extra: what "more" fetched (GET /api/rooms).
  let rooms = [], counts = null, extra = [];
  const pager = { cursor: '', done: false, busy: false };
  let showAll = false;
  const previews = new Map(); // room -> last room.state (null until it comes)

  function sortRooms(list) {
    const rank = (r) => (r.status === 'playing' ? 0 : 1);
    return list.filter(Boolean).sort((a, b) => rank(a) - rank(b) || (b.spectators || 0) - (a.spectators || 0));
  }
  const total = () => (counts ? counts.playing + counts.waiting : rooms.length);
  function shownRooms() {
    const list = sortRooms(rooms);
    if (!showAll) return list;
    const seen = new Set(list.map((r) => r.id));
    return list.concat(extra.filter((r) => !seen.has(r.id) && !r.adjourned));
  }
  function renderLive() {
    const list = shownRooms();
    const n = total();
    liveCount.textContent = counts ? `(${num(counts.playing)})` : list.length ? `(${num(list.length)})` : '';
    const c = counts || {};
    liveCounts.textContent = [c.waiting && t('lobby.countWaiting', { n: c.waiting }),
      c.adjourned && t('lobby.countAdjourned', { n: c.adjourned })].filter(Boolean).join(' · ');
    liveEmpty.replaceChildren();
    if (!list.length) {
      liveEmpty.append(h('p', { class: 'muted' }, t('lobby.noLive')),
        h('button', { type: 'button', onclick: () => watchComputer({ game: 'go', variant: '9', level: 'facil' }) }, t('lobby.watchComputer')));
    }
    const max = showAll ? list.length : PREVIEWS;
    liveMore.hidden = n <= PREVIEWS && list.length <= PREVIEWS;
    liveMore.textContent = showAll ? t('lobby.showFewer') : t('lobby.showAll', { n: Math.max(n, list.length) });
    liveNext.hidden = !showAll || pager.done || list.length >= n;
    liveNext.disabled = pager.busy;
    liveNext.textContent = t('lobby.showMore', { n: Math.max(0, n - list.length) });
    const shown = list.slice(0, max);
    // Watch the first playing rooms for their boards; let go of the others.
    const want = new Set(shown.filter((r) => r.status === 'playing').slice(0, PREVIEWS).map((r) => r.id));
    for (const id of [...previews.keys()]) if (!want.has(id)) { previews.delete(id); conn.unfollow(id); }
    for (const id of want) if (!previews.has(id)) { previews.set(id, null); conn.follow(id, 'watcher'); }
    liveList.replaceChildren(...shown.map(liveCard));
  }
  // playersLine is the players' names, each in its box (a name never
  // breaks mid-word) and marked when its player is away.
  function playersLine(r, players) {
    const out = [];
    players.forEach((p, i) => {
      if (i) out.push(' – ');
      out.push(nameTag('span', 'inline pn', playerName(r.game, p)));
      const rt = ratingTag(p);
      if (rt) out.push(' ', rt);
      if (away(p)) out.push(' ', h('span', { class: 'away-mark' }, t('lobby.away')));
    });
    return out;
  }
  // loadMore fetches pages of GET /api/rooms (newest first) until one adds
  // a room not shown yet, or none is left.
  async function loadMore() {
    if (pager.busy) return;
    pager.busy = true;
    renderLive();
    try {
      for (const before = shownRooms().length; !pager.done && shownRooms().length === before;) {
        const j = await (await fetch(`/api/rooms?limit=24&cursor=${encodeURIComponent(pager.cursor)}`)).json();
        const have = new Set(extra.map((x) => x.id));
        extra = extra.concat(j.rooms.filter((x) => !have.has(x.id)));
        counts = j.counts;
        pager.cursor = j.next || '';
        pager.done = !j.next;
      }
    } catch { /* offline: the button stays */ }
    pager.busy = false;
    renderLive();
  }
  function liveCard(r) {
    const id = r.id || r.room;
    const seated = (r.players || []).filter((p) => p && (p.id || p.bot || p.name));
    const who = seated.map((p) => playerName(r.game, p)).join(' – ');
    const waiting = r.status === 'waiting';
    const title = `${gameName(r.game)} ${variantShort(r.game, r.variant)}`;
    const st = previews.get(id);
    const board = st ? mini.render(st, t('lobby.miniLabel', { game: title })) : h('div', { class: 'mini mini-empty', 'aria-hidden': 'true' });
    const href = waiting ? `/r/${id}` : `/r/${id}?watch=1`;
    const label = waiting ? t('lobby.joinAria', { game: title, players: who }) : t('lobby.watchAria', { game: title, players: who });
    const moves = st && Array.isArray(st.moves) ? st.moves.length : null;
    return h('li', { class: `live-card${waiting ? ' waiting' : ''}`, dataset: { room: id, game: r.game } },
      h('a', { href, 'data-nav': '', class: 'live-link', 'aria-label': label },
        h('div', { class: 'mini-host' }, board),
        h('div', { class: 'live-meta' },
          h('b', { class: 'live-title' }, title),
          // Each name in its box: never broken mid-word, cut only when wider than the card.
          h('span', { class: 'players-cell' }, ...(seated.length ? playersLine(r, seated) : [t('lobby.nobody')])),
          h('span', { class: 'live-sub' },
            waiting ? h('span', { class: 'badge' }, t('lobby.waitingBadge')) : t('lobby.watching', { n: r.spectators || 0 }),
            r.watch ? ` · ${t('lobby.botsOnly')}` : '',
            r.rated ? [' · ', ratedBadge(true)] : '',
            moves ? ` · ${t('lobby.moveN', { n: moves })}` : ''),
          h('span', { class: 'live-go' }, waiting ? t('lobby.join') : t('lobby.watch')))));
  }
  liveMore.addEventListener('click', () => {
    showAll = !showAll;
    if (!showAll) { extra = []; pager.cursor = ''; pager.done = false; }
    renderLive();
    if (showAll && rooms.length < total()) loadMore();
  });
  liveNext.addEventListener('click', () => loadMore());
  offs.push(conn.on('room.state', (m) => {
    if (!previews.has(m.room)) return;
    const old = previews.get(m.room);
    // Keep the move count from the join's full state: broadcasts add one.
    if (!m.moves && old && Array.isArray(old.moves)) m = { ...m, moves: m.lastMove && m.seq > old.seq ? [...old.moves, m.lastMove] : old.moves };
    previews.set(m.room, m);
    const card = liveList.querySelector(`.live-card[data-room="${CSS.escape(m.room)}"]`);
    const r = rooms.find((x) => (x.id || x.room) === m.room);
    if (!card || !r) return;
    // Update the card in place (its board and its line of figures), so that
    // a finger on it or a focus in it stays where it was.
    const fresh = liveCard({ ...r, spectators: m.spectators });
    const board = card.querySelector('.mini'), next = fresh.querySelector('.mini');
    if (board && board.tagName === next.tagName && board.tagName.toLowerCase() === 'svg') {
      board.replaceChildren(...next.childNodes);
      board.setAttribute('class', next.getAttribute('class'));
      board.setAttribute('aria-label', next.getAttribute('aria-label'));
    } else if (board) board.replaceWith(next);
    card.querySelector('.live-sub').replaceWith(fresh.querySelector('.live-sub'));
  }));

  offs.push(conn.on('lobby', (m) => {
    ({ rooms, counts } = m);
    mine = m.mine || [];
    renderLive(); renderQueues(m.queues); renderOpen();
  }));
  conn.watchLobby(true);

  // ---------- playing ----------
  let searching = null;
  function showSearching() {
    status.replaceChildren();
    if (!searching) return;
    status.append(h('span', { class: 'spinner', 'aria-hidden': 'true' }),
      ` ${t('lobby.searching', { game: `${gameName(searching.game)} ${variantShort(searching.game, searching.variant)}` })} `,
      h('button', { type: 'button', onclick: () => { conn.send({ type: 'match.cancel' }); searching = null; showSearching(); } }, t('common.cancel')));
  }
  function say(text) { status.replaceChildren(h('span', { class: 'error' }, text)); }
  async function create(msg) {
    await ensureNamed();
    try {
      const rep = await conn.request({ type: 'room.create', ...msg });
      if (rep.room) navigate(`/r/${rep.room}`);
    } catch (e) { say(t('lobby.createFailed', { why: e.message })); }
  }
  // watchComputer starts a room where the computer plays itself; the
  // creator watches (no seat, so no name to ask for).
  function watchComputer(msg) {
    conn.request({ type: 'room.create', ...msg, watch: true })
      .then((rep) => rep.room && navigate(`/r/${rep.room}?watch=1`))
      .catch((e) => say(t('lobby.createFailed', { why: e.message })));
  }
  function renderQueues(qs) {
    for (const el of cards.querySelectorAll('.game-card')) {
      const n = (qs || []).filter((q) => q.game === el.dataset.game).reduce((a, q) => a + (q.waiting || 0), 0);
      el.querySelector('.waiting').textContent = n ? t('lobby.queueWaiting', { n }) : '';
    }
  }

  function gameCard(g) {
    const saved = loadChoice(g.id);
    const variants = g.variants || [];
    const levels = g.levels || [];
    const choice = {
      variant: variants.some((v) => v.id === saved.variant) ? saved.variant : (variants[0] || {}).id,
      clock: CLOCKS.includes(saved.clock) ? saved.clock : '',
      level: levels.some((l) => l.id === saved.level) ? saved.level
        : levels.some((l) => l.id === about(g.id).level) ? about(g.id).level : (levels[1] || levels[0] || {}).id,
      seat: ['random', '0', '1'].includes(saved.seat) ? saved.seat : 'random',
      rated: saved.rated !== false, // rated unless the player chose casual
    };
    const remember = () => saveChoice(g.id, choice);
    // Short names fit a phone's select ("4×4", "tradicional"); the full one is the option's title.
    const vsel = h('select', { name: 'variant' }, ...variants.map((v) => h('option', { value: v.id, selected: v.id === choice.variant, title: variantName(g.id, v.id) }, variantShort(g.id, v.id))));
    const csel = h('select', { name: 'clock' }, ...CLOCKS.map((v) => h('option', { value: v, selected: v === choice.clock }, clockLabel(v))));
    const ssel = h('select', { name: 'seat' });
    const setup = h('textarea', { name: 'setup', rows: 3, placeholder: t('lobby.setupHint'), spellcheck: 'false' });
    const priv = h('input', { type: 'checkbox', name: 'private' });
    // Rated or casual (docs/protocol.md, "Ratings"): an account's choice,
    // rated unless it chose casual; a guest plays casual, told how to rate.
    const ratedBox = h('input', { type: 'checkbox', name: 'rated' });
    ratedBox.addEventListener('change', () => { choice.rated = ratedBox.checked; remember(); });
    const ratedHint = h('span', { class: 'rated-hint muted' });
    const ratedRow = h('div', { class: 'rated-row' },
      h('label', { class: 'check rated-choice' }, ratedBox, ' ', h('span', { class: 'rated-word' })), ratedHint);
    const isAccount = () => !!(conn.me && conn.me.account);
    // ratedOpt is what room.create and match.find say: nothing for a guest
    // (the server's default, casual), the choice for an account.
    const ratedOpt = () => (isAccount() ? { rated: !!choice.rated } : {});
    const nSeats = () => seats(g.id, choice.variant);
    // The server refuses a clock where it means nothing: one seat, or both
    // seats moving at once (2048 race: games/<g>.js about.clock).
    const timed = () => nSeats() === 2 && about(g.id).clock;
    const opts = () => {
      const o = { game: g.id, variant: choice.variant };
      if (choice.clock && timed()) o.clock = clockSpec(choice.clock);
      if (priv.checked) o.private = true;
      if (setup.value.trim()) {
        try { o.setup = JSON.parse(setup.value); } catch { say(t('lobby.badSetup')); return null; }
      }
      return o;
    };
    const btn = (key, cls, fn) => h('button', { type: 'button', class: cls, dataset: { action: key }, onclick: fn }, t(`lobby.${key}`));
    const bQuick = btn('quick', 'primary', async () => {
      await ensureNamed();
      searching = { game: g.id, variant: choice.variant };
      if (!conn.send({ type: 'match.find', game: g.id, variant: choice.variant, ...ratedOpt() })) { searching = null; say(t('common.offline')); return; }
      showSearching();
    });
    const bBot = btn('computer', '', () => {
      const o = opts(); if (!o) return;
      const seat = choice.seat === 'random' ? 'random' : Number(choice.seat);
      create({ ...o, opponent: 'bot', level: choice.level, seat });
    });
    // Go's rules with a friend: komi, handicap, stone removal (docs/protocol.md).
    const K = about(g.id).komi;
    const komi = h('input', { type: 'number', name: 'komi', step: 1, min: -99.5, max: 99.5, value: K ? K(choice.variant) : '' });
    const hcap = h('select', { name: 'handicap' }, ...[0, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => h('option', { value: n }, n || '–')));
    const removal = h('input', { type: 'checkbox', name: 'removal', checked: true });
    const bFriend = btn('friend', '', () => {
      const o = opts(); if (!o) return;
      if (K) Object.assign(o, { komi: Number(komi.value), removal: removal.checked }, +hcap.value ? { handicap: +hcap.value } : {});
      create({ ...o, opponent: 'human', ...ratedOpt() });
    });
    const bSolo = btn('solo', 'primary', () => { const o = opts(); if (o) create({ ...o, opponent: 'none' }); });
    const bWatch = btn('watchBots', 'quiet', () => { const o = opts(); if (o) { delete o.clock; watchComputer({ ...o, level: choice.level }); } });

    // The computer's levels, each described in words (what it is, how
    // strong it measured); the chosen one is named in the summary.
    const levelSummary = h('summary', {});
    const levelList = h('div', { class: 'level-list', role: 'radiogroup', 'aria-label': t('lobby.levelsAria', { game: gameName(g.id) }) },
      ...levels.map((l) => {
        const input = h('input', { type: 'radio', name: `level-${g.id}`, value: l.id, checked: l.id === choice.level });
        input.addEventListener('change', () => { choice.level = l.id; remember(); sync(); });
        const strength = levelStrength(g.id, l.id);
        return h('label', { class: 'level-opt', dataset: { level: l.id } }, input,
          h('span', { class: 'level-text' },
            h('b', { class: 'level-name' }, levelName(g.id, l.id)),
            h('span', { class: 'level-what' }, levelDescription(g.id, l.id)),
            strength ? h('span', { class: 'level-strength' }, strength) : null));
      }));
    const levelBox = h('details', { class: 'levels' }, levelSummary, levelList);

    function syncRated() {
      const account = isAccount();
      ratedRow.hidden = nSeats() !== 2;
      ratedBox.disabled = !account;
      ratedBox.checked = account && !!choice.rated;
      ratedRow.querySelector('.rated-word').textContent = t('rating.ratedGame');
      ratedHint.replaceChildren(...(account ? [t(choice.rated ? 'rating.ratedHint' : 'rating.casualHint')]
        : [h('a', { href: '/account', 'data-nav': '' }, t('rating.guestHint'))]));
    }
    ratedBox.addEventListener('change', syncRated);
    syncs.add(syncRated);
    function sync() {
      const one = nSeats() === 1;
      ssel.replaceChildren(...[['random', t('lobby.seatRandom')], ['0', seatLabel(g.id, choice.variant, 0)], ['1', seatLabel(g.id, choice.variant, 1)]]
        .map(([v, label]) => h('option', { value: v, selected: v === choice.seat }, label)));
      bQuick.hidden = one; bFriend.hidden = one; bBot.hidden = one; ssel.parentElement && (ssel.parentElement.hidden = one);
      bSolo.hidden = !one;
      syncRated();
      csel.parentElement && (csel.parentElement.hidden = !timed());
      const kind = tOr(`level.${g.id}.${choice.level}.kind`, '');
      levelSummary.replaceChildren(h('span', { class: 'muted' }, t('lobby.level')), ' ',
        h('b', {}, levelName(g.id, choice.level)), kind ? h('span', { class: 'muted' }, ` · ${kind}`) : '');
    }
    vsel.addEventListener('change', () => { choice.variant = vsel.value; remember(); sync(); if (K) komi.value = K(choice.variant); });
    csel.addEventListener('change', () => { choice.clock = csel.value; remember(); });
    ssel.addEventListener('change', () => { choice.seat = ssel.value; remember(); });
    const card = h('article', { class: 'game-card', dataset: { game: g.id } },
      h('div', { class: 'card-head' }, h('h3', {}, gameName(g.id)), h('span', { class: 'waiting muted', 'aria-live': 'polite' })),
      gameTagline(g.id) ? h('p', { class: 'tagline' }, gameTagline(g.id)) : null,
      h('div', { class: 'opts' },
        h('label', {}, h('span', {}, t('lobby.variant')), vsel),
        h('label', {}, h('span', {}, t('lobby.clock')), csel)),
      h('div', { class: 'actions' }, bQuick, bBot, bFriend, bSolo),
      ratedRow,
      levelBox,
      h('details', { class: 'more' }, h('summary', {}, t('lobby.rulesMore')),
        h('ul', { class: 'rules' }, ...gameRules(g.id).map((x) => h('li', {}, x))),
        h('div', { class: 'opts' }, h('label', {}, h('span', {}, t('lobby.yourSeat')), ssel)),
        h('label', { class: 'check' }, priv, ' ', t('lobby.private')),
        K ? h('fieldset', { class: 'go-rules' }, h('legend', {}, t('lobby.goRules')),
          h('label', {}, h('span', {}, t('lobby.komi')), komi), h('label', {}, h('span', {}, t('lobby.handicap')), hcap),
          h('label', { class: 'check' }, removal, ' ', t('lobby.removal'))) : null,
        h('label', { class: 'block' }, t('lobby.setup'), setup),
        bWatch));
    sync();
    return card;
  }

  const syncs = new Set(); // each card's rated choice, again when the page learns who it is
  offs.push(conn.on('me', () => syncs.forEach((f) => f())));
  function renderCards() {
    syncs.clear();
    cards.replaceChildren();
    if (!games().length) { cards.append(h('p', { class: 'error' }, t('lobby.noGames'))); return; }
    for (const g of games()) cards.append(gameCard(g));
  }
  loadCatalog().then(() => { renderCards(); renderLive(); renderOpen(); botList.relabel(); });

  offs.push(conn.on('match.found', (m) => navigate(`/r/${m.room}`)));
  offs.push(conn.on('error', (m) => { if (!m.id && !m.room) { searching = null; say(m.message || m.code); } }));
  return {
    relabel() { localize(main); renderCards(); renderLive(); renderOpen(); showSearching(); botList.relabel(); torneios.relabel(); renderMine(); },
    destroy() {
      torneios.destroy();
      offs.forEach((f) => f());
      botList.destroy();
      for (const id of previews.keys()) conn.unfollow(id);
      conn.watchLobby(false);
      if (searching) conn.send({ type: 'match.cancel' });
    },
  };
}
