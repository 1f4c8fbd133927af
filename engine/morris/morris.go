// Package morris is the rules engine of the Jogo do Moinho (seed 001), three
// men's morris: a 3x3 board whose points are joined horizontally,
// vertically and by the two diagonals through the centre. X (seat 0) and O
// (seat 1) each place three pieces in turn, then move one piece a turn to an
// adjacent free point; the first to have three in a row or a column (not a
// diagonal) wins. A player whose pieces cannot move passes by naming one of
// them twice ("a1a1"). The seed has no draw; this engine draws the game on
// the third occurrence of the same board with the same side to move.
//
// Points are named "a1" to "c3", column then row, row 1 at the top; a move
// is a point to place ("b2") or two points to move ("b1a1"). See
// docs/engines/morris.md.
package morris

import (
	"encoding/json"

	"github.com/tabuleiro/tabuleiro/engine"
)

// gameID is the catalog id of the game.
const gameID = "morris"

// variant3 is the only variant: the 3x3 board.
const variant3 = "3"

// The reasons of Outcome.Reason.
const (
	// ReasonLine: the winner has its three pieces in a row or a column.
	ReasonLine = "line"
	// ReasonRepetition: the same board with the same side to move occurred
	// for the third time; the game is drawn. The seed has no draw rule.
	ReasonRepetition = "repetition"
)

// The bot levels: the seed's three, then one of ours.
const (
	// LevelFacil moves the first movable piece to its first free neighbour.
	LevelFacil = "facil"
	// LevelNormal is the seed's minimax (Algorithm 1) of depth 1.
	LevelNormal = "normal"
	// LevelDificil is the seed's minimax (Algorithm 1) of depth 5.
	LevelDificil = "dificil"
	// LevelPerfeito (ours) plays perfectly from the solved game.
	LevelPerfeito = "perfeito"
)

// game is the morris engine.Game.
type game struct{}

// Game returns the morris game.
func Game() engine.Game { return game{} }

// Info returns the catalog entry of morris.
func (game) Info() engine.Info {
	return engine.Info{
		ID:   gameID,
		Name: "Jogo do Moinho (three men's morris)",
		Rules: "Two players, X (first) and O, take turns placing their three pieces on the points of a 3x3 board. " +
			"Once all six are placed, each turn moves one of your pieces along a line to an adjacent free point; " +
			"lines run along rows and columns and along the two diagonals through the centre. " +
			"The first to get three pieces in a row or a column (diagonals do not count) wins. " +
			"A player who cannot move passes, and the third repetition of a position is a draw.",
		Draws: true,
		Variants: []engine.Variant{{
			ID:        variant3,
			Name:      "3x3, three pieces each",
			Seats:     2,
			SeatNames: []string{"X", "O"},
		}},
		Levels: []engine.Level{
			{ID: LevelFacil, Description: "Seed level facil: places by the seed's priorities (win, block, centre, corner, side); moves the first piece in reading order that can move to its first free neighbour.", Deterministic: true},
			{ID: LevelNormal, Description: "Seed level normal: places like facil; moves by the seed's minimax of depth 1 (the first winning move, else facil's move).", Deterministic: true},
			{ID: LevelDificil, Description: "Seed level dificil: places like facil; moves by the seed's minimax of depth 5, taking the first move of best value.", Deterministic: true},
			{ID: LevelPerfeito, Description: "Ours: plays perfectly from the solved game (every position worked out backwards from the won ones): wins as fast as it can, loses as slowly as it can, and takes a repetition draw rather than lose; first move in reading order among equals.", Deterministic: true},
		},
	}
}

// New starts a game of variant "3" from setup (see Setup), or from the
// empty board with X to move when setup is empty. seed is not used.
func (game) New(variant string, setup json.RawMessage, _ uint64) (engine.State, error) {
	if variant != variant3 {
		return nil, engine.Errorf(engine.CodeUnknownGame, "morris has no variant %q (only %q)", variant, variant3)
	}
	p, err := parseSetup(setup)
	if err != nil {
		return nil, err
	}
	return newState(p), nil
}

// Restore rebuilds a state from the bytes of its MarshalJSON.
func (game) Restore(snapshot []byte) (engine.State, error) {
	s, err := restore(snapshot)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// Bot returns the bot of the given level.
func (game) Bot(level string) (engine.Bot, bool) {
	b, ok := bots[level]
	return b, ok
}
