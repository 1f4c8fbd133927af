// The tournament page, /t/<id>: while it waits for its invitations, the
// entrants and their answers (an invited person accepts or declines here,
// the creator may start it at once); then the live standings (GET
// /api/torneios/<id>, read again every few seconds while it runs), ranked
// as the seed ranks them with the rule written under them, and every game,
// one click from watching its room. torneiosSection is the lobby's list of
// the tournaments waiting and running, with the invitations of the person
// looking and the way to create one (torneionew.js, /t/new).
import { h } from './dom.js';
import { t, num, time, localize } from './i18n.js';
import { loadCatalog, gameName, variantShort, levelName, personName } from './labels.js';
import { api } from './api.js';

const REFRESH_MS = 2000;

// entrantName is how the page shows an entrant: a level in the page's own
// words, a bot account or a person by the name the server found for it
// (`name`), else by its id.
export function entrantName(game, e) {
  if (e.level) return t('player.bot', { level: levelName(game, e.level) });
  if (e.bot) return e.name && e.name !== e.bot ? t('player.botAccount', { name: e.name }) : t('torneio.bot', { id: e.bot });
  return e.name && e.name !== e.player ? personName(e.name) : t('torneio.player', { id: e.player });
}

// entrantNode is entrantName, a link to the profile of a person or a bot
// account (/@/<id>: the profile page finds a player by id too).
function entrantNode(game, e) {
  const id = e.level ? '' : e.bot || e.player || '';
  const name = entrantName(game, e);
  return /^[A-Za-z0-9_.-]{1,64}$/.test(id) ? h('a', { href: `/@/${id}`, 'data-nav': '', class: 'profile-link' }, name) : name;
}

// share prints a standing's share of wins as the seed does: a percentage.
const share = (s) => `${num(s.share)}\u00a0%`;

// COLUMNS of the standings after the entrant: the key of the cell and of
// its header (a word on a desktop, a letter on a phone).
const COLUMNS = ['played', 'won', 'drawn', 'lost', 'points', 'share'];

// colHead is a column's header: its word, and a short form a phone shows.
const colHead = (k) => h('th', { scope: 'col', dataset: { k }, title: t(`torneio.col.${k}`) },
  h('span', { class: 'col-long' }, t(`torneio.col.${k}`)),
  h('span', { class: 'col-short', 'aria-hidden': 'true' }, t(`torneio.col.${k}.short`)));

// statusText says where a tournament is: waiting for answers until its
// deadline, running, finished or cancelled.
function statusText(v, played, total) {
  switch (v.status) {
    case 'waiting': return t('torneio.waiting', { time: v.deadline ? time(Date.parse(v.deadline)) : '' });
    case 'finished': return t('torneio.finished', { total: num(total) });
    case 'cancelled': return t('torneio.cancelled');
    default: return t('torneio.running', { played: num(played), total: num(total) });
  }
}

// answerButtons are an invited person's Accept and Decline, the one
// already given pressed; done runs after the server took the answer.
function answerButtons(id, mine, done, say) {
  const answer = async (which, btn) => {
    btn.disabled = true;
    try {
      await api(`/api/torneios/${encodeURIComponent(id)}/${which}`, { method: 'POST' });
      done(which);
    } catch (e) {
      say(t('torneio.answerFailed', { why: e.message }));
    } finally { btn.disabled = false; }
  };
  const mk = (which, cls) => {
    const b = h('button', { type: 'button', class: cls, dataset: { answer: which }, 'aria-pressed': String(mine === (which === 'accept' ? 'accepted' : 'declined')) },
      t(`torneio.${which}`));
    b.addEventListener('click', () => answer(which, b));
    return b;
  };
  return h('span', { class: 'answer-buttons' }, mk('accept', 'primary'), mk('decline', ''));
}

export function torneioView(main, id, { conn }) {
  const title = h('h1', { class: 'torneio-title' }, t('common.loading'));
  const status = h('p', { class: 'torneio-status', role: 'status', 'aria-live': 'polite' });
  const specLine = h('p', { class: 'torneio-spec muted' });
  const panel = h('div', { class: 'torneio-panel' });
  const note = h('p', { class: 'torneio-note', role: 'alert' });
  const entrants = h('ul', { class: 'torneio-entrants' });
  const table = h('table', { class: 'standings' });
  const rule = h('p', { class: 'torneio-rule muted', 'data-i18n': 'torneio.rule' }, t('torneio.rule'));
  const withdrawn = h('p', { class: 'torneio-withdrawn muted' });
  const games = h('ol', { class: 'torneio-games' });
  const entrantsSec = h('section', { 'aria-labelledby': 'entrants-h', class: 'torneio-waiting' },
    h('h2', { id: 'entrants-h', 'data-i18n': 'torneio.entrants' }, t('torneio.entrants')), entrants);
  const standingsSec = h('section', { 'aria-labelledby': 'standings-h' },
    h('h2', { id: 'standings-h', 'data-i18n': 'torneio.standings' }, t('torneio.standings')), table, rule, withdrawn);
  const gamesSec = h('section', { 'aria-labelledby': 'games-h' }, h('h2', { id: 'games-h', 'data-i18n': 'torneio.games' }, t('torneio.games')), games);
  main.append(h('div', { class: 'torneio' }, title, status, specLine, panel, note, entrantsSec, standingsSec, gamesSec));
  let v = null, timer = 0, gone = false;
  const me = () => conn && conn.player && conn.player.id;
  const say = (text) => { note.textContent = text; };

  function renderPanel() {
    panel.replaceChildren();
    if (v.status !== 'waiting') return;
    const mine = v.entrants.find((e) => e.player && e.player === me() && e.invite);
    if (mine && v.owner !== me()) {
      const state = mine.invite === 'accepted' ? t('torneio.youAccepted') : mine.invite === 'declined' ? t('torneio.youDeclined') : t('torneio.invited');
      panel.append(h('p', { class: 'torneio-invite', dataset: { invite: mine.invite } }, h('span', {}, state), ' ',
        answerButtons(id, mine.invite, () => { say(''); load(); }, say)));
    }
    if (v.owner === me()) {
      const b = h('button', { type: 'button', class: 'primary', dataset: { action: 'start' } }, t('torneio.startNow'));
      b.addEventListener('click', async () => {
        b.disabled = true;
        try { await api(`/api/torneios/${encodeURIComponent(id)}/start`, { method: 'POST' }); say(''); load(); } catch (e) { say(t('torneio.answerFailed', { why: e.message })); b.disabled = false; }
      });
      panel.append(h('p', { class: 'torneio-owner' }, b, ' ', h('span', { class: 'muted' }, t('torneio.startNowHint'))));
    }
  }

  function render() {
    if (!v) return;
    title.textContent = t('torneio.title', { game: gameName(v.game) });
    const played = v.games.filter((g) => g.status === 'finished').length;
    status.textContent = statusText(v, played, v.games.length);
    status.dataset.status = v.status;
    const c = v.clock;
    specLine.textContent = t('torneio.spec', {
      partidas: (v.partidas || []).map(([variant, n]) => t('torneio.partida', { variant: variantShort(v.game, variant), n: num(n) })).join(', '),
      clock: c ? t('clock.fmt', { min: num(c.base / 60), inc: num(c.increment) }) : t('clock.none'),
    });
    renderPanel();
    const waiting = v.status === 'waiting';
    entrantsSec.hidden = !waiting;
    standingsSec.hidden = waiting || v.status === 'cancelled';
    gamesSec.hidden = !v.games.length;
    entrants.replaceChildren(...v.entrants.map((e, i) => h('li', { dataset: { entrant: String(i), invite: e.invite || '' } },
      h('span', { class: 'entrant-name' }, entrantNode(v.game, e)),
      e.invite ? h('span', { class: `badge invite-${e.invite}` }, t(`torneio.invite.${e.invite}`)) : null)));
    // Ranked as the server ranks them (rank, then the entrants' order).
    const order = v.standings.map((s, i) => i).sort((a, b) => (v.standings[a].rank || 0) - (v.standings[b].rank || 0) || a - b);
    table.replaceChildren(
      h('thead', {}, h('tr', {},
        h('th', { scope: 'col', class: 'rank', title: t('torneio.col.rank') }, h('span', { class: 'sr' }, t('torneio.col.rank')), h('span', { 'aria-hidden': 'true' }, '#')),
        h('th', { scope: 'col' }, t('torneio.col.entrant')),
        ...COLUMNS.map(colHead))),
      h('tbody', {}, ...order.map((i) => {
        const s = v.standings[i];
        return h('tr', { dataset: { entrant: String(i), rank: String(s.rank || '') } },
          h('td', { class: 'rank', dataset: { k: 'rank' } }, s.rank ? num(s.rank) : ''),
          h('th', { scope: 'row' }, entrantNode(v.game, s)),
          h('td', { dataset: { k: 'played' } }, num(s.played)), h('td', { dataset: { k: 'won' } }, num(s.won)),
          h('td', { dataset: { k: 'drawn' } }, num(s.drawn)), h('td', { dataset: { k: 'lost' } }, num(s.lost)),
          h('td', { dataset: { k: 'points' } }, num(s.points || 0)),
          h('td', { dataset: { k: 'share' } }, share(s)));
      })));
    const out = v.withdrawn || [];
    withdrawn.hidden = !out.length;
    withdrawn.textContent = out.length ? t('torneio.withdrawn', { names: out.map((e) => `${entrantName(v.game, e)} (${t(`torneio.invite.${e.invite}`)})`).join(', ') }) : '';
    games.replaceChildren(...v.games.filter((g) => g.room).map((g) => {
      const [a, b] = g.entrants.map((i) => entrantName(v.game, v.entrants[i]));
      let res = t('torneio.playing');
      if (g.status === 'finished') res = g.winner == null ? t('torneio.draw') : t('torneio.won', { name: g.winner === 0 ? a : b });
      return h('li', { dataset: { room: g.room, status: g.status } },
        h('a', { href: `/r/${g.room}?watch=1`, 'data-nav': '' }, `${variantShort(v.game, g.variant)}: ${a} – ${b}`),
        ' ', h('span', { class: 'muted' }, res));
    }));
  }

  async function load() {
    clearTimeout(timer);
    timer = 0;
    try {
      const r = await fetch(`/api/torneios/${encodeURIComponent(id)}`);
      if (gone) return;
      if (r.status === 404) { title.textContent = t('torneio.unknown'); return; }
      if (r.ok) { v = await r.json(); render(); }
    } catch { /* offline: try again */ }
    if (!gone && (!v || (v.status !== 'finished' && v.status !== 'cancelled'))) timer = setTimeout(load, REFRESH_MS);
  }
  const off = conn && conn.on ? conn.on('up', render) : () => {};
  loadCatalog().then(load, load);
  return {
    relabel() { localize(main); render(); },
    destroy() { gone = true; clearTimeout(timer); off(); },
  };
}

// torneiosSection lists the tournaments waiting and running for the lobby,
// read again every few seconds: each one's page a click away, an
// invitation of the person looking answered in place, and the way to
// create one.
export function torneiosSection({ conn } = {}) {
  const list = h('ul', { class: 'torneio-list', 'aria-labelledby': 'torneios-h' });
  const note = h('p', { class: 'torneio-note', role: 'alert' });
  const create = h('a', { href: '/t/new', 'data-nav': '', class: 'button torneio-create', 'data-i18n': 'torneio.create' }, t('torneio.create'));
  const el = h('section', { class: 'torneios', 'aria-labelledby': 'torneios-h' },
    h('div', { class: 'torneios-head' }, h('h2', { id: 'torneios-h', 'data-i18n': 'lobby.torneios' }, t('lobby.torneios')), create),
    note, list);
  let timer = 0, gone = false, items = [];
  const me = () => conn && conn.player && conn.player.id;
  function item(s) {
    const mine = (s.lineup || []).find((e) => e.player && e.player === me() && e.invite);
    const line = s.status === 'waiting'
      ? t('torneio.lobbyWaiting', { time: s.deadline ? time(Date.parse(s.deadline)) : '' })
      : t('torneio.running', { played: num(s.played), total: num(s.games) });
    return h('li', { dataset: { status: s.status } },
      h('a', { href: `/t/${s.id}`, 'data-nav': '', dataset: { torneio: s.id } }, t('torneio.title', { game: gameName(s.game) })),
      ' ', h('span', { class: 'muted' }, line),
      Array.isArray(s.lineup) && s.lineup.length ? h('span', { class: 'torneio-names' }, s.lineup.map((e) => entrantName(s.game, e)).join(', ')) : null,
      s.status === 'waiting' && mine ? h('span', { class: 'torneio-invite', dataset: { invite: mine.invite } },
        h('span', {}, mine.invite === 'pending' ? t('torneio.invited') : t(mine.invite === 'accepted' ? 'torneio.youAccepted' : 'torneio.youDeclined')), ' ',
        answerButtons(s.id, mine.invite, () => { note.textContent = ''; load(); }, (text) => { note.textContent = text; })) : null);
  }
  function render() {
    list.replaceChildren(...items.map(item));
  }
  async function load() {
    clearTimeout(timer);
    timer = 0;
    try {
      const r = await fetch('/api/torneios');
      if (r.ok && !gone) { items = ((await r.json()).torneios || []).filter((s) => s.status === 'running' || s.status === 'waiting'); render(); }
    } catch { /* offline */ }
    if (!gone) timer = setTimeout(load, 5000);
  }
  load();
  const off = conn && conn.on ? conn.on('up', render) : () => {};
  return { el, relabel: () => { localize(el); render(); }, destroy() { gone = true; clearTimeout(timer); off(); } };
}
