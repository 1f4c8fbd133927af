// What the page calls things: games, variants, seats, bot levels, results.
// The words come from the message catalogue (i18n.js); the server's catalog
// (GET /api/games) fills in what a catalogue does not name, so a game or
// level added on the server shows at once, in English.
import { t, tOr } from './i18n.js';
import { about } from './games/index.js';

let catalog = null;
let loading = null;

export function loadCatalog() {
  if (catalog) return Promise.resolve(catalog);
  loading ||= fetch('/api/games').then((r) => r.json()).then((j) => {
    catalog = Array.isArray(j) ? j : j.games || [];
    return catalog;
  }).catch(() => { loading = null; return []; });
  return loading;
}
export const games = () => catalog || [];
export const gameInfo = (id) => games().find((g) => g.id === id);

export function variantInfo(game, variant) {
  const g = gameInfo(game);
  return g && (g.variants || []).find((v) => v.id === variant);
}

export const gameName = (id) => tOr(`game.${id}.name`, (gameInfo(id) && gameInfo(id).name) || id);
export const gameTagline = (id) => tOr(`game.${id}.tagline`, '');
export function gameRules(id) {
  const out = [];
  for (let i = 1; i <= 6; i++) if (tOr(`game.${id}.rules.${i}`, '')) out.push(t(`game.${id}.rules.${i}`));
  if (!out.length && gameInfo(id) && gameInfo(id).rules) out.push(gameInfo(id).rules);
  return out;
}
export function variantName(game, variant) {
  const v = variantInfo(game, variant);
  return tOr(`game.${game}.variant.${variant}`, v && v.name ? v.name : variant);
}
export function variantShort(game, variant) {
  return tOr(`game.${game}.variant.${variant}.short`, variantName(game, variant));
}
export function seats(game, variant) {
  const v = variantInfo(game, variant);
  if (v) return v.seats;
  return about(game).seats(variant);
}

// seatLabel names a seat the way the game does: black/white (go, orbito),
// X/O (morris), first/second (queens), board 1/2 (2048).
export function seatLabel(game, variant, seat) {
  const v = variantInfo(game, variant);
  const server = v && v.seatNames && v.seatNames[seat];
  return tOr(`seat.${game}.${seat}`, server || String(seat + 1));
}

// CLOCKS are the clocks the page offers ("base+increment" in seconds; ''
// for none): the lobby's cards and a challenge to a bot online.
export const CLOCKS = ['', '60+0', '180+2', '300+3', '600+5', '900+10'];
export function clockLabel(v) {
  if (!v) return t('clock.none');
  const [b, i] = v.split('+').map(Number);
  return t('clock.fmt', { min: b / 60, inc: i });
}
// clockSpec is a clock of CLOCKS as room.create takes it.
export function clockSpec(v) {
  const [base, increment] = v.split('+').map(Number);
  return { base, increment };
}

export const levelName = (game, level) => tOr(`level.${game}.${level}.name`, tOr(`level.${level}`, level));
export function levelDescription(game, level) {
  const g = gameInfo(game);
  const l = g && (g.levels || []).find((x) => x.id === level);
  return tOr(`level.${game}.${level}.what`, l ? l.description : '');
}
export const levelStrength = (game, level) => tOr(`level.${game}.${level}.strength`, '');

// GUEST is the form of the name the server gives a guest who chose none
// (docs/protocol.md, hello): "guest-" and four digits. It is a key the
// page translates, not a name: each reader sees it in their own language
// ("convidado-0042", "visitante-0042"); a name the person chose is shown as
// written.
const GUEST = /^guest-(\d{4})$/;
export const isGuestName = (name) => GUEST.test(name || '');

// personName is how the page shows a person's name: a guest's default name
// in the page's language, any other as it is.
export function personName(name) {
  const m = GUEST.exec(name || '');
  return m ? t('player.guest', { number: m[1] }) : name || '?';
}

// playerName is what the page calls a seat's occupant: a person's name, or
// "Computer (normal)" for a bot.
export function playerName(game, p) {
  if (!p) return '';
  if (p.bot) return t('player.bot', { level: levelName(game, p.bot) });
  if (p.botAccount) return t('player.botAccount', { name: p.name || '?' });
  return personName(p.name);
}

// reasonText says why a game ended, with winner and loser named.
export function reasonText(reason, params) {
  if (!reason) return '';
  return tOr(`reason.${reason}`, String(reason).replace(/_/g, ' '), params);
}
