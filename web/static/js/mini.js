// Small boards for the lobby's live games: a picture of the position, no
// input, drawn by the game's own module (games/<g>.js, mini).
import { gameOf } from './games/index.js';
import { miniFrame } from './games/common.js';

// render returns an <svg> for st (a room.state), labelled by label.
export function render(st, label) {
  const g = gameOf(st.game);
  const svg = g ? g.mini(st) : miniFrame('mnone');
  svg.setAttribute('aria-label', label);
  return svg;
}
