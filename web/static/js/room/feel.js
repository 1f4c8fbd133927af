// The feel of the room page: a sound for each move (a capture, your turn,
// the end) and, in a hidden tab, a notification when it is your turn. It
// hears the model's 'moved', 'ended' and 'started' fx (room.js).
import { t } from '../i18n.js';
import { gameName, playerName } from '../labels.js';
import { gameOf } from '../games/index.js';
import * as sound from '../sound.js';
import * as notify from '../notify.js';
import * as M from './model.js';
import { move as moveWords } from './words.js';

const taken = (c) => (c ? c.black + c.white : 0);

// feel plays what fx (of the model m it led to) sounds like.
export function feel(fx, m) {
  const st = m.st, myTurn = M.isPlayer(m) && st.turn === m.seat && st.status === 'playing';
  const tag = `tabuleiro-${m.room}`;
  if (fx.type === 'moved' && st.lastMove) {
    const mine = myTurn && st.lastMove.seat !== m.seat;
    const G = gameOf(st.game), n = m.moves.length;
    const took = G && G.captures && taken(G.captures(m, n)) > taken(G.captures(m, n - 1));
    if (st.status === 'finished') sound.play('end');
    else if (took) sound.play('capture');
    else if (mine) sound.play('turn');
    else sound.play('move');
    if (mine) {
      const opp = M.playerAt(m, st.lastMove.seat);
      notify.yourTurn(t('notify.title'), t('notify.body', { game: gameName(st.game), who: opp ? playerName(st.game, opp) : '', move: moveWords(m, st.lastMove) }), tag);
    }
  } else if (fx.type === 'ended') sound.play('end');
  else if (fx.type === 'started' && myTurn) {
    sound.play('turn');
    notify.yourTurn(t('notify.title'), t('notify.start', { game: gameName(st.game) }), tag);
  }
}
