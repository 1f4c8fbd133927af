// Ratings beside names (docs/web.md, "Ratings"): a player (a seat, a
// lobby card's, a record's) carries `rating` and `provisional` in a game
// with a pool, for accounts and bot accounts. The page writes "1523", or
// "1500?" while provisional (lichess), and links an account's or a bot
// account's name to its profile, /@/<name>.
import { h, nameTag } from './dom.js';
import { t, num } from './i18n.js';

// An account's name (docs/protocol.md, "Accounts") is its profile's
// address; a bot account's is its id (its name need not be unique).
const ACCOUNT_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9_.-]{0,30}[A-Za-z0-9])?$/;
const BOT_ID = /^bot\.[A-Za-z0-9_-]{1,60}$/;

// ratingText is a rating as the page shows it: "1523", "1500?" while
// provisional, '' for none.
export function ratingText(r, provisional) {
  if (typeof r !== 'number' || !Number.isFinite(r) || r <= 0) return '';
  return `${Math.round(r)}${provisional ? '?' : ''}`;
}

// rated is a player's rating text ('' for a guest, a server's bot, a free seat).
export const rated = (p) => (p ? ratingText(p.rating, p.provisional) : '');

// diffText writes a change of rating: "+12", "−8" (a true minus sign), "±0".
export function diffText(d) {
  if (typeof d !== 'number' || !Number.isFinite(d)) return '';
  d = Math.round(d);
  return d > 0 ? `+${d}` : d < 0 ? `\u2212${-d}` : '\u00b10';
}

// diffClass is the colour class of a change: up (green), down (red) or even.
export const diffClass = (d) => (d > 0 ? 'up' : d < 0 ? 'down' : 'even');

// profilePath is the address of a player's profile, null for none: a
// seat is an account's when it carries a rating (only accounts have one)
// or `account: true`.
export function profilePath(p) {
  if (!p || p.bot || !p.id) return null;
  if (p.botAccount || BOT_ID.test(p.id)) return BOT_ID.test(p.id) ? `/@/${p.id}` : null;
  const account = p.account === true || ratingText(p.rating) !== '';
  if (!account) return null;
  return `/@/${encodeURIComponent(ACCOUNT_NAME.test(p.name || '') ? p.name : p.id)}`;
}

// ratingTag is the rating beside a name (a span, null for none), its
// title saying what it is.
export function ratingTag(p, cls = '') {
  const text = rated(p);
  if (!text) return null;
  return h('span', {
    class: `rating${p.provisional ? ' provisional' : ''}${cls ? ` ${cls}` : ''}`,
    title: p.provisional ? t('rating.provisionalTitle') : t('rating.title'),
  }, text);
}

// diffTag is a change of rating ("+12" green, "−8" red), null for none.
export function diffTag(d, cls = '') {
  const text = diffText(d);
  if (!text) return null;
  return h('span', { class: `rating-diff ${diffClass(d)}${cls ? ` ${cls}` : ''}` }, text);
}

// nameLink is a name in its box (nameTag), a link to its profile if any.
export function nameLink(cls, text, p) {
  const to = profilePath(p);
  if (!to) return nameTag('span', cls, text);
  return nameTag('a', `${cls} profile-link`, text, { href: to, 'data-nav': '' });
}

// ratedBadge is a game's "rated" or "casual" label.
export function ratedBadge(isRated) {
  return h('span', { class: `badge rated-badge${isRated ? ' is-rated' : ''}` }, t(isRated ? 'rating.rated' : 'rating.casual'));
}

