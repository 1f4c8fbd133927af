// Short English summaries of the seeds' rules, shown in the lobby and the
// room page. They follow the seed documents (shared/seeds), not other
// editions of these games.
export const RULES = {
  orbito: {
    name: 'Orbito',
    summary: [
      'A 2n x 2n board made of n square orbits (2 to 5). Black (X) moves first.',
      'On your turn put one stone of your colour on any empty point; then every stone on the board moves one step counter-clockwise along its orbit.',
      'After a turn, whoever has k = 2n stones in a row (across, down or diagonally) wins; if both or neither have one when the board is full, it is a draw.',
    ],
  },
  morris: {
    name: "Three men's morris",
    summary: [
      'A 3x3 board whose points are joined by the rows, the columns and the two diagonals through the centre. Each player has three pieces; X moves first.',
      'Placement: take turns putting a piece on an empty point. Movement: once all six are down, move one of your pieces along a line to an adjacent empty point.',
      'Three of your pieces in a row or column (not a diagonal) wins. A player who cannot move passes by "moving" a piece onto itself.',
    ],
  },
  go: {
    name: 'Go',
    summary: [
      'Black (X) and white (O) take turns to place a stone on an empty intersection, or to pass. Stones never move.',
      'A chain of stones with no liberty (empty neighbour) is captured. Suicide is illegal, and so is any move that repeats an earlier board (ko).',
      'Two passes in a row end the game. Area scoring: your stones plus the empty regions bordered only by your stones. Higher score wins; white wins ties.',
    ],
  },
  2048: {
    name: '2048',
    summary: [
      'Slide every tile of the 4x4 grid north, south, east or west. Two equal tiles that collide merge into their sum, which is added to the score; a merged tile does not merge again in the same move.',
      'After every move a new tile appears on a random empty square: 2 with probability 0.8, 4 with 0.2. The game ends when the grid is full and no move changes it.',
      'Race: two players get the same tile sequence and play at the same time; the higher score wins.',
    ],
  },
  queens: {
    name: 'Queens',
    summary: [
      'Players take turns placing one of their chess pieces on an empty square so that it neither attacks nor is attacked by any piece already on the board (either player\'s).',
      'Pieces use the seed\'s letters: R king, D queen, T rook, B bishop, C knight. Variants: tradicional (4 queens each, 8x8), grande (10 queens each, 20x20), impar (7 and 6 queens, 13x13), x-random (5 random pieces each, 8x8).',
      'A player who cannot place a piece loses; if both place all their pieces, the one who moved last wins.',
    ],
  },
};

export const REASONS = {
  line: 'a line was completed',
  both_lines: 'both players completed a line',
  no_valid_placement: 'the player to move had no safe square left',
  invalid_placement: 'an invalid placement',
  higher_score: 'higher score',
  equal_score: 'equal scores',
  repetition: 'the same position occurred three times',
  board_full: 'the board is full',
  two_passes: 'both players passed',
  no_moves: 'no legal move was left',
  no_move: 'no legal move was left',
  blocked: 'no legal move was left',
  resign: 'resignation',
  resigned: 'resignation',
  resignation: 'resignation',
  timeout: 'time ran out',
  time: 'time ran out',
  flag: 'time ran out',
  abandoned: 'the opponent left and the win was claimed',
  claim: 'the opponent left and the win was claimed',
  claimed: 'the opponent left and the win was claimed',
  all_placed: 'every piece was placed; the last to move wins',
  stuck: 'no move changes the board',
  score: 'higher score',
};

export function reasonText(r) {
  if (!r) return '';
  return REASONS[r] || String(r).replace(/_/g, ' ');
}
