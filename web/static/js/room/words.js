// What the room page's views call seats, players, moves and refusals, in
// the page's language, read from the model.
import { h, nameTag } from '../dom.js';
import { t, tNodes } from '../i18n.js';
import { seatLabel, playerName } from '../labels.js';
import { moveText } from '../games/index.js';
import { playerAt, seatCount } from './model.js';

// seatWord names seat k the way the game does (black, X, board 1...).
export const seatWord = (m, k) => seatLabel(m.st.game, m.st.variant, k);

// who names seat k's occupant with the seat, so that two bots of one
// level are told apart: "Computer (normal), white".
export function who(m, k) {
  const p = playerAt(m, k);
  const name = p ? playerName(m.st.game, p) : t('room.emptySeat');
  return seatCount(m) > 1 ? t('room.whoSeat', { name, seat: seatWord(m, k) }) : name;
}

// whoNode is who as the page shows it in a sentence: the name in a box
// that ends it in an ellipsis rather than break it or overflow (a name
// of one long word on a narrow phone), the whole name in its title.
export function whoNode(m, k) {
  const p = playerAt(m, k);
  const name = nameTag('span', 'inline', p ? playerName(m.st.game, p) : t('room.emptySeat'));
  return h('span', { class: 'who' }, seatCount(m) > 1 ? tNodes('room.whoSeat', { name, seat: seatWord(m, k) }) : name);
}

// move writes a move {seat, move} as the move list does.
export const move = (m, mv) => moveText(m.st.game, mv, t);

// why says why a move cannot be played (model.blocked's answer).
export const why = (m, b) => (b.seat != null ? t(b.key, { who: who(m, b.seat) }) : t(b.key));
