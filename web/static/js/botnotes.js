// What a bot did, move by move, on the game page (/g/<room>) of a game
// with a bot account (docs/bots-api.md, "What your bot did"): every move's
// time, as the server measured it, for everyone; the info a bot sent with
// each move and the answers the server refused it (an illegal move with the
// error, its bot_error resignation with what failed) for the bot's owner
// only. The record API gives those to the owner alone: the record the
// page fetched carries the page's session cookie, so it already holds them
// when this browser's player owns the bot.
import { h, put } from './dom.js';
import { t, num } from './i18n.js';

// seconds writes a duration of ms: "850 ms", "1.2 s", "3 min 5 s".
export function seconds(ms) {
  if (ms < 1000) return t('botnotes.ms', { n: num(Math.round(ms)) });
  if (ms < 60000) return t('botnotes.s', { n: num(Math.round(ms / 100) / 10) });
  return t('botnotes.min', { m: num(Math.floor(ms / 60000)), s: num(Math.round((ms % 60000) / 1000)) });
}

// botNotesPanel is the panel of rec, a record of GET /api/records/<room>:
// null when no seat is a bot account. goTo(k) shows the position after k
// moves, seatName(seat) names a side, moveText(move) writes a move.
export function botNotesPanel(room, rec, { goTo = () => {}, seatName = String, moveText = (m) => m.move } = {}) {
  if (!rec || !Array.isArray(rec.players) || !rec.players.some((p) => p.botAccount)) return null;
  const title = h('h2', {}, t('botnotes.title'));
  const body = h('div', { class: 'botnotes-body' });
  const el = h('section', { class: 'botnotes', 'aria-labelledby': 'botnotes-title' }, title, body);
  title.id = 'botnotes-title';
  const shown = rec;

  function paint() {
    title.textContent = t('botnotes.title');
    const moves = Array.isArray(shown.moves) ? shown.moves : [];
    const faults = Array.isArray(shown.faults) ? shown.faults : [];
    const mine = faults.length > 0 || moves.some((m) => m.info);
    const rows = [];
    const faultRow = (f) => h('li', { class: 'botnotes-fault', dataset: { ply: f.ply, seat: f.seat } },
      h('span', { class: 'botnotes-mark', 'aria-hidden': 'true' }, '✗'), ' ',
      f.code === 'bot_error'
        ? t('botnotes.botError', { who: seatName(f.seat) })
        : t('botnotes.refused', { who: seatName(f.seat), move: f.move || '', error: f.message ? `${f.code}: ${f.message}` : f.code }),
      ' ', h('span', { class: 'botnotes-time' }, seconds(f.ms || 0)),
      f.info ? h('span', { class: 'botnotes-info' }, f.info) : null);
    moves.forEach((m, i) => {
      faults.filter((f) => f.ply === i).forEach((f) => rows.push(faultRow(f)));
      rows.push(h('li', { dataset: { ply: i + 1, seat: m.seat } },
        h('button', { type: 'button', class: 'jump', onclick: () => goTo(i + 1), 'aria-label': t('botnotes.aria', { n: i + 1, who: seatName(m.seat), move: moveText(m), time: seconds(m.ms || 0) }) },
          `${i + 1}. `, h('span', { class: 'botnotes-who' }, seatName(m.seat)), ' ', h('strong', {}, moveText(m))),
        ' ', h('span', { class: 'botnotes-time' }, seconds(m.ms || 0)),
        m.info ? h('span', { class: 'botnotes-info' }, m.info) : null));
    });
    faults.filter((f) => f.ply >= moves.length).forEach((f) => rows.push(faultRow(f)));
    put(body, h('p', { class: 'muted botnotes-hint' }, t(mine ? 'botnotes.yours' : 'botnotes.ownerOnly')),
      rows.length ? h('ol', { class: 'botnotes-list' }, rows) : h('p', { class: 'muted' }, t('botnotes.none')));
  }

  paint();
  return { el, relabel: paint, destroy() {} };
}
