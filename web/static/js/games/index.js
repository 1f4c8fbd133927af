// The five games as the page knows them: each games/<g>.js module gives its
// board (create), its small lobby picture (mini), what the page needs to
// know of it (about) and, where the wire notation is not what a person
// reads, moveText. Adding a game is adding its module here; the room page,
// the lobby and the lobby's small boards ask this file, never the game's
// id.
import * as orbito from './orbito.js';
import * as morris from './morris.js';
import * as go from './go.js';
import * as g2048 from './g2048.js';
import * as queens from './queens.js';
import { movePlain } from './common.js';

const GAMES = { orbito, morris, go, 2048: g2048, queens };

// gameOf is the module of game id, null for a game the page cannot draw.
export const gameOf = (id) => GAMES[id] || null;

// ABOUT is what a game's `about` says when it does not say otherwise.
const ABOUT = {
  level: null,            // the computer level a newcomer meets first in the lobby (else the catalog's second)
  clock: true,            // the lobby offers a clock (two seats taking turns)
  notify: true,           // "notify me when it's my turn" makes sense (turns)
  draws: false,           // draw offers (the server's `draws`: orbito, morris)
  sgf: false,             // the record has an SGF download
  seatMarks: 'discs',     // how the page marks a seat: 'discs' (X, O) or 'numbers' (1, 2)
  moveList: 'pairs',      // the move list: numbered 'pairs' when seats alternate, or a wrapping 'grid'
  arrowsPlay: false,      // the arrow keys play (2048) instead of stepping through the replay
  lineLength: () => 3,    // how many in a row win (the result's words)
  seats: () => 2,         // how many seats a variant has, until the server's catalog says
};

// about is what the page needs to know of game id.
export const about = (id) => ({ ...ABOUT, ...(gameOf(id) || {}).about });

// moveText is a move {seat, move} of game as the move list writes it.
export function moveText(game, m, t) {
  const g = gameOf(game);
  return g && g.moveText ? g.moveText(m, t) : movePlain(m, t);
}
