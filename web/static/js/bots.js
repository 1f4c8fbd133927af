// The bots online: bot accounts whose programs are connected to the bot API
// (docs/bots-api.md). The lobby lists them (GET /api/bots, asked again every
// few seconds while the lobby is shown); one tap starts a game against one
// (POST /api/bots/{id}/challenge) on any two-seat variant of any game and
// a clock, as the lobby's cards offer them (remembered in
// tabuleiro.botChallenge), and the page joins the new room as it joins any
// of its own.
import { h, nameTag } from './dom.js';
import { t } from './i18n.js';
import { games, gameName, variantName, seats, CLOCKS, clockLabel, clockSpec } from './labels.js';
import { about } from './games/index.js';

const POLL_MS = 5000;
const CHOICE = 'tabuleiro.botChallenge';
function loadChoice() { try { return JSON.parse(localStorage.getItem(CHOICE) || '{}') || {}; } catch { return {}; } }
function saveChoice(v) { try { localStorage.setItem(CHOICE, JSON.stringify(v)); } catch { /* private mode */ } }

export function botsSection({ navigate, ensureNamed, say }) {
  const list = h('ul', { class: 'bot-list', 'aria-labelledby': 'bots-h' });
  const count = h('span', { class: 'count muted' });
  const section = h('section', { class: 'bots', 'aria-labelledby': 'bots-h', hidden: true },
    h('h2', { id: 'bots-h' }, h('span', { 'data-i18n': 'bots.online' }, t('bots.online')), ' ', count),
    list);
  let bots = [];
  let timer = null;
  let gone = false;

  // The two-seat variants a bot may be challenged to, by game: a bot
  // account says nothing of what it plays, so every one is offered (its
  // program may resign what it does not know).
  const choices = () => games().map((g) => ({ g, vs: (g.variants || []).filter((v) => seats(g.id, v.id) === 2) })).filter((c) => c.vs.length);

  function render() {
    section.hidden = bots.length === 0;
    count.textContent = bots.length ? `(${bots.length})` : '';
    list.replaceChildren(...bots.map(card));
  }
  function card(b) {
    const saved = loadChoice();
    const sel = h('select', { name: 'game', 'aria-label': t('bots.gameAria', { name: b.name }) },
      ...choices().map(({ g, vs }) => h('optgroup', { label: gameName(g.id) },
        ...vs.map((v) => h('option', { value: `${g.id}/${v.id}`, selected: saved.variant === `${g.id}/${v.id}` }, `${gameName(g.id)} · ${variantName(g.id, v.id)}`)))));
    const clock = h('select', { name: 'clock', 'aria-label': t('bots.clockAria') },
      ...CLOCKS.map((v) => h('option', { value: v, selected: v === (saved.clock || '') }, clockLabel(v))));
    // The server refuses a clock where both seats move at once (2048 race).
    const sync = () => { clock.hidden = !about(sel.value.split('/')[0]).clock; };
    const remember = () => { sync(); saveChoice({ variant: sel.value, clock: clock.value }); };
    sel.addEventListener('change', remember);
    clock.addEventListener('change', remember);
    sync();
    const play = h('button', { type: 'button', class: 'primary', dataset: { action: 'challenge' } }, t('bots.play'));
    play.addEventListener('click', async () => {
      await ensureNamed();
      const [game, variant] = sel.value.split('/');
      const body = { game, variant, seat: 'random' };
      if (clock.value && !clock.hidden) body.clock = clockSpec(clock.value);
      play.disabled = true;
      try {
        const rep = await fetch(`/api/bots/${encodeURIComponent(b.id)}/challenge`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' }, // the session cookie says who
          body: JSON.stringify(body),
        });
        const j = await rep.json().catch(() => ({}));
        if (!rep.ok) throw new Error((j.error && j.error.message) || rep.statusText);
        navigate(`/r/${j.room}`);
      } catch (e) {
        say(t('lobby.createFailed', { why: e.message }));
      } finally { play.disabled = false; }
    });
    return h('li', { class: 'bot-card', dataset: { bot: b.id } },
      h('div', { class: 'bot-head' }, nameTag('b', 'bot-name', b.name), h('span', { class: 'badge' }, t('bots.badge')),
        h('span', { class: 'muted' }, t('bots.games', { n: b.games || 0 }))),
      h('div', { class: 'bot-actions' }, sel, clock, play));
  }
  async function poll() {
    try {
      const j = await (await fetch('/api/bots')).json();
      if (gone) return;
      const next = Array.isArray(j.bots) ? j.bots : [];
      // Redraw only when the list changed, so a choice in progress stays.
      if (JSON.stringify(next.map((b) => [b.id, b.name])) !== JSON.stringify(bots.map((b) => [b.id, b.name]))) { bots = next; render(); }
    } catch { /* offline: try again */ }
    if (!gone) timer = setTimeout(poll, POLL_MS);
  }
  poll();
  return {
    el: section,
    relabel() { render(); },
    destroy() { gone = true; clearTimeout(timer); },
  };
}
