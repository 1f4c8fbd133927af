// The page that creates a tournament, /t/new: the game, its two-seat
// variants with how many times each pair plays them each way, the
// entrants (the server's levels, yourself, your bots, the bots online whose
// owners opened them to tournaments, people you invite), the clock and how
// long the invitations wait; the count of games as you choose; then
// POST /api/torneios and the tournament's page. Below, your bots' setting
// "open to tournaments" (PATCH /api/bots/{id}).
import { h } from './dom.js';
import { t, num, localize } from './i18n.js';
import { loadCatalog, games, gameName, variantName, variantShort, seats, levelName, personName } from './labels.js';
import { api } from './api.js';

// The limits of docs/protocol.md ("Tournaments").
const MAX_GAMES = 240;
const MAX_ENTRANTS = 16;
const MAX_REPETITIONS = 50;
const CLOCKS = ['60+2', '180+2', '300+3', '600+5'];
const WAITS = [60, 120, 300, 600, 1800, 3600];
const DEFAULT_WAIT = 300;
const PLAYER_ID = /^[A-Za-z0-9_.-]{1,64}$/;

const twoSeat = (g) => (g.variants || []).filter((v) => seats(g.id, v.id) === 2);

export function torneioNewView(main, { conn, navigate, ensureNamed }) {
  const form = h('form', { class: 'torneio-new', novalidate: '' });
  const note = h('p', { class: 'torneio-note', role: 'alert' });
  main.append(h('div', { class: 'torneio' },
    h('h1', { class: 'torneio-title', 'data-i18n': 'torneio.new.title' }, t('torneio.new.title')),
    h('p', { class: 'muted', 'data-i18n': 'torneio.new.intro' }, t('torneio.new.intro')),
    form));
  let gone = false;
  // What the page knows: the chosen game, the picks (entrant key -> entrant,
  // kept when the game changes where they still make sense), the people
  // added by id, and the lists from the server.
  const picked = new Map();
  const added = new Map(); // player id -> {player, name}
  let game = null;
  let reps = {};
  let clock = CLOCKS[0];
  let wait = DEFAULT_WAIT;
  let myBots = [], openBots = [], recent = [];
  const me = () => conn && conn.player && conn.player.id;
  const key = (e) => (e.level ? `level:${e.level}` : e.bot ? `bot:${e.bot}` : `player:${e.player}`);

  function count() {
    const n = picked.size;
    const r = Object.values(reps).reduce((a, x) => a + x, 0);
    return { n, games: n * (n - 1) * r };
  }

  // pick is one checkbox that enters or leaves an entrant.
  function pick(e, label, extra) {
    const k = key(e);
    const box = h('input', { type: 'checkbox', name: 'entrant', value: k, checked: picked.has(k) });
    box.addEventListener('change', () => { if (box.checked) picked.set(k, e); else picked.delete(k); summary(); });
    return h('label', { class: 'check pick', dataset: { entrant: k } }, box, ' ', h('span', { class: 'pick-name' }, label), extra ? [' ', extra] : null);
  }

  const gameSel = h('select', { name: 'game' });
  const variantsBox = h('div', { class: 'pick-list' });
  const levelsBox = h('div', { class: 'pick-list' });
  const meBox = h('div', { class: 'pick-list' });
  const myBox = h('div', { class: 'pick-list' });
  const openBox = h('div', { class: 'pick-list' });
  const peopleBox = h('div', { class: 'pick-list' });
  const idInput = h('input', { name: 'player-id', autocomplete: 'off', spellcheck: 'false', 'aria-label': t('torneio.new.playerId'), placeholder: t('torneio.new.playerId'),
    'data-i18n-aria': 'torneio.new.playerId', 'data-i18n-placeholder': 'torneio.new.playerId' });
  const addBtn = h('button', { type: 'button', dataset: { action: 'add-player' }, 'data-i18n': 'torneio.new.add' }, t('torneio.new.add'));
  const yourId = h('p', { class: 'muted your-id' });
  const clockSel = h('select', { name: 'clock' });
  const waitSel = h('select', { name: 'wait' });
  const waitRow = h('label', { class: 'field' }, h('span', { 'data-i18n': 'torneio.new.wait' }, t('torneio.new.wait')), waitSel);
  const sum = h('p', { class: 'torneio-summary', role: 'status', 'aria-live': 'polite' });
  const submit = h('button', { type: 'submit', class: 'primary', dataset: { action: 'create' }, 'data-i18n': 'torneio.new.create' }, t('torneio.new.create'));
  const settings = h('div', { class: 'pick-list' });
  const settingsSec = h('section', { class: 'torneio-bots', 'aria-labelledby': 'bot-settings-h' },
    h('h2', { id: 'bot-settings-h', 'data-i18n': 'torneio.new.settings' }, t('torneio.new.settings')),
    h('p', { class: 'muted', 'data-i18n': 'torneio.new.settingsHint' }, t('torneio.new.settingsHint')), settings);

  const fieldset = (legend, ...kids) => h('fieldset', {}, h('legend', {}, legend), ...kids);
  function build() {
    form.replaceChildren(
      h('label', { class: 'field' }, h('span', {}, t('torneio.new.game')), gameSel),
      fieldset(t('torneio.new.variants'), h('p', { class: 'muted hint' }, t('torneio.new.repsHint')), variantsBox),
      fieldset(t('torneio.new.entrants'),
        h('h3', {}, t('torneio.new.levels')), levelsBox,
        h('h3', {}, t('torneio.new.you')), meBox,
        h('h3', {}, t('torneio.new.myBots')), myBox,
        h('h3', {}, t('torneio.new.openBots')), openBox,
        h('h3', {}, t('torneio.new.people')), peopleBox,
        h('div', { class: 'add-player' }, idInput, addBtn), yourId),
      h('div', { class: 'opts' },
        h('label', { class: 'field' }, h('span', {}, t('torneio.new.clock')), clockSel),
        waitRow),
      sum, note, submit, settingsSec);
  }

  function renderGames() {
    const list = games().filter((g) => twoSeat(g).length);
    if (!game || !list.some((g) => g.id === game)) game = (list.find((g) => g.id === 'queens') || list[0] || {}).id;
    gameSel.replaceChildren(...list.map((g) => h('option', { value: g.id, selected: g.id === game }, gameName(g.id))));
  }

  function renderVariants() {
    const g = games().find((x) => x.id === game);
    const vs = g ? twoSeat(g) : [];
    if (!vs.some((v) => reps[v.id])) reps = vs.length ? { [vs[0].id]: 1 } : {};
    variantsBox.replaceChildren(...vs.map((v) => {
      const on = h('input', { type: 'checkbox', name: 'variant', value: v.id, checked: !!reps[v.id] });
      const n = h('input', { type: 'number', name: `reps-${v.id}`, min: 1, max: MAX_REPETITIONS, value: reps[v.id] || 1, inputmode: 'numeric',
        'aria-label': t('torneio.new.repsAria', { variant: variantName(game, v.id) }) });
      const sync = () => {
        const x = Math.max(1, Math.min(MAX_REPETITIONS, Math.trunc(Number(n.value)) || 1));
        if (on.checked) reps[v.id] = x; else delete reps[v.id];
        summary();
      };
      on.addEventListener('change', sync);
      n.addEventListener('input', () => { if (!on.checked) on.checked = true; sync(); });
      return h('div', { class: 'variant-pick', dataset: { variant: v.id } },
        h('label', { class: 'check' }, on, ' ', h('span', { title: variantName(game, v.id) }, variantShort(game, v.id))),
        h('label', { class: 'reps' }, n, ' ', h('span', { class: 'muted' }, t('torneio.new.times'))));
    }));
  }

  function renderEntrants() {
    const g = games().find((x) => x.id === game);
    // A level of another game means nothing here.
    for (const [k, e] of picked) if (e.level && !(g && (g.levels || []).some((l) => l.id === e.level))) picked.delete(k);
    levelsBox.replaceChildren(...((g && g.levels) || []).map((l) => pick({ level: l.id }, levelName(game, l.id))));
    const id = me();
    meBox.replaceChildren(id ? pick({ player: id }, t('torneio.new.me')) : h('p', { class: 'muted' }, t('common.loading')));
    myBox.replaceChildren(...(myBots.length ? myBots.map((b) => pick({ bot: b.id }, t('player.botAccount', { name: b.name }),
      h('span', { class: `badge${b.online ? '' : ' off'}` }, t(b.online ? 'torneio.new.online' : 'torneio.new.offline'))))
      : [h('p', { class: 'muted' }, t('torneio.new.noBots'))]));
    const others = openBots.filter((b) => !myBots.some((m) => m.id === b.id));
    openBox.replaceChildren(...(others.length ? others.map((b) => pick({ bot: b.id }, t('player.botAccount', { name: b.name })))
      : [h('p', { class: 'muted' }, t('torneio.new.noOpenBots'))]));
    const people = [...recent, ...[...added.values()].filter((p) => !recent.some((r) => r.player === p.player))];
    peopleBox.replaceChildren(...(people.length ? people.map((p) => pick({ player: p.player }, p.name ? personName(p.name) : p.player))
      : [h('p', { class: 'muted' }, t('torneio.new.noPeople'))]));
    // Drawn once per id, so that a reader selecting it keeps the selection.
    if (yourId.dataset.id !== (id || '') || yourId.dataset.lang !== document.documentElement.lang) {
      yourId.dataset.id = id || '';
      yourId.dataset.lang = document.documentElement.lang;
      yourId.replaceChildren(...(id ? [t('torneio.new.yourId'), ' ', h('code', { class: 'player-id' }, id)] : []));
    }
  }

  function renderOptions() {
    clockSel.replaceChildren(...CLOCKS.map((c) => {
      const [b, i] = c.split('+').map(Number);
      return h('option', { value: c, selected: c === clock }, t('clock.fmt', { min: b / 60, inc: i }));
    }));
    waitSel.replaceChildren(...WAITS.map((s) => h('option', { value: String(s), selected: s === wait }, t('torneio.new.minutes', { n: s / 60 }))));
  }

  function renderSettings() {
    settingsSec.hidden = !myBots.length;
    settings.replaceChildren(...myBots.map((b) => {
      const box = h('input', { type: 'checkbox', name: 'open', checked: b.open });
      box.addEventListener('change', async () => {
        box.disabled = true;
        try {
          const got = await api(`/api/bots/${encodeURIComponent(b.id)}`, { method: 'PATCH', body: { open: box.checked } });
          b.open = got.open;
        } catch (e) {
          box.checked = b.open;
          note.textContent = t('torneio.new.settingFailed', { why: e.message });
        } finally { box.disabled = false; }
      });
      return h('label', { class: 'check pick', dataset: { bot: b.id } }, box, ' ', h('span', { class: 'pick-name' }, t('torneio.new.openLabel', { name: b.name })));
    }));
  }

  // summary counts the entrants and games as chosen, and says what stops
  // the tournament from being created.
  function summary() {
    const { n, games: total } = count();
    const invites = [...picked.values()].some((e) => e.player && e.player !== me());
    waitRow.hidden = !invites;
    let problem = '';
    if (n < 2) problem = t('torneio.new.fewEntrants');
    else if (n > MAX_ENTRANTS) problem = t('torneio.new.manyEntrants', { max: num(MAX_ENTRANTS) });
    else if (!Object.keys(reps).length) problem = t('torneio.new.noVariant');
    else if (total > MAX_GAMES) problem = t('torneio.new.tooMany', { max: num(MAX_GAMES) });
    sum.replaceChildren(t('torneio.new.count', { entrants: num(n), games: num(total) }), problem ? h('span', { class: 'error' }, ` — ${problem}`) : '');
    sum.dataset.games = String(total);
    submit.disabled = !!problem;
  }

  function renderAll() {
    build();
    renderGames();
    renderVariants();
    renderEntrants();
    renderOptions();
    renderSettings();
    summary();
  }

  gameSel.addEventListener('change', () => { game = gameSel.value; reps = {}; renderVariants(); renderEntrants(); summary(); });
  clockSel.addEventListener('change', () => { clock = clockSel.value; });
  waitSel.addEventListener('change', () => { wait = Number(waitSel.value); });
  const addPlayer = () => {
    const id = idInput.value.trim();
    if (!PLAYER_ID.test(id) || id.startsWith('bot.')) { note.textContent = t('torneio.new.badId', { id }); return; }
    note.textContent = '';
    if (!added.has(id)) added.set(id, { player: id, name: '' });
    picked.set(`player:${id}`, { player: id });
    idInput.value = '';
    renderEntrants();
    summary();
  };
  addBtn.addEventListener('click', addPlayer);
  idInput.addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); addPlayer(); } });

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    if (submit.disabled) return;
    note.textContent = '';
    const entrants = [...picked.values()];
    if (entrants.some((x) => x.player && x.player === me())) await ensureNamed();
    const [base, increment] = clock.split('+').map(Number);
    const body = { game, entrants, partidas: Object.entries(reps).map(([v, n]) => [v, n]), clock: { base, increment } };
    if (entrants.some((x) => x.player && x.player !== me())) body.wait = wait;
    submit.disabled = true;
    try {
      const { id } = await api('/api/torneios', { method: 'POST', body });
      navigate(`/t/${id}`);
    } catch (err) {
      note.textContent = t('torneio.new.failed', { why: err.message });
      submit.disabled = false;
    }
  });

  // The lists: your bots, the bots online open to tournaments, and the
  // people of your last games.
  async function loadLists() {
    const id = me();
    const [mine, online, recs] = await Promise.all([
      api('/api/bots/mine').catch(() => ({ bots: [] })),
      api('/api/bots').catch(() => ({ bots: [] })),
      id ? api(`/api/players/${encodeURIComponent(id)}/records?limit=50`).catch(() => ({ records: [] })) : { records: [] },
    ]);
    if (gone) return;
    myBots = mine.bots || [];
    openBots = (online.bots || []).filter((b) => b.open);
    const seen = new Set();
    recent = [];
    for (const r of recs.records || []) {
      for (const p of r.players || []) {
        if (!p.id || p.bot || p.botAccount || p.id === id || p.id.startsWith('bot.') || seen.has(p.id)) continue;
        seen.add(p.id);
        recent.push({ player: p.id, name: p.name });
      }
    }
    renderEntrants();
    renderSettings();
    summary();
  }

  loadCatalog().then(() => { if (!gone) { renderAll(); loadLists(); } });
  const off = conn && conn.on ? conn.on('up', () => { renderEntrants(); summary(); loadLists(); }) : () => {};
  return {
    relabel() { localize(main); if (games().length) { renderAll(); } },
    destroy() { gone = true; off(); },
  };
}
