// Package gogame is the rules engine of Go (seed 002), game id "go" on the
// wire: 9x9, 13x13 and 19x19 boards, captures of chains without liberties,
// suicide forbidden, no move may recreate any earlier position of the game
// (positional superko, with Zobrist hashes), two passes in a row end the
// game, area scoring (stones plus territories bordered by one color only) and
// white wins ties.
//
// Moves are intersections in the seed's notation, an upper-case column letter
// A..S (I included, unlike GTP) and a row number with row 1 at the bottom
// ("C4", "S19"), or "pass". Seat 0 is black ('X') and moves first, seat 1 is
// white ('O').
//
// Besides the rules board, the package has Playout, a fast board for random
// playouts (no superko, no eye filling) that Monte Carlo bots build on.
package gogame

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/tabuleiro/tabuleiro/engine"
)

// game is the Go entry of the catalog. It has no state of its own.
type game struct{}

// Game returns the Go game.
func Game() engine.Game { return game{} }

// Info is the catalog entry: variants "9", "13", "19" and the bot levels.
func (game) Info() engine.Info {
	info := engine.Info{
		ID:   "go",
		Name: "Go",
		Rules: "Black (X) and white (O) take turns placing a stone on an empty intersection or passing; black starts. " +
			"A chain of stones left without liberties (adjacent empty intersections) by a move is captured; " +
			"a move that leaves its own stones without liberties (suicide) or recreates any earlier position of the game is illegal. " +
			"The game ends after two passes in a row; each player scores stones on the board plus the empty regions bordered by that player's stones only, " +
			"and white wins ties.",
	}
	for _, n := range sizes {
		info.Variants = append(info.Variants, engine.Variant{
			ID:        strconv.Itoa(n),
			Name:      fmt.Sprintf("%dx%d", n, n),
			Seats:     2,
			SeatNames: []string{"black X", "white O"},
		})
	}
	for _, l := range levels {
		info.Levels = append(info.Levels, engine.Level{ID: l.id, Description: l.description, Deterministic: l.deterministic})
	}
	return info
}

// geometryOf returns the tables of a variant id ("9", "13" or "19").
func geometryOf(variant string) (*geometry, error) {
	for _, n := range sizes {
		if variant == strconv.Itoa(n) {
			return geometries[n], nil
		}
	}
	return nil, engine.Errorf(engine.CodeUnknownGame, "go has no variant %q (want 9, 13 or 19)", variant)
}

// New starts a game of the variant from the initial position (setup nil,
// empty or JSON null) or from a setup {"black":[...],"white":[...],
// "toMove":"black"|"white"}.
func (game) New(variant string, setup json.RawMessage, _ uint64) (engine.State, error) {
	geo, err := geometryOf(variant)
	if err != nil {
		return nil, err
	}
	sp, err := parseSetup(setup)
	if err != nil {
		return nil, engine.Errorf(engine.CodeBadSetup, "go setup: %v", err)
	}
	s, err := newState(geo, sp)
	if err != nil {
		return nil, engine.Errorf(engine.CodeBadSetup, "go setup: %v", err)
	}
	return s, nil
}

// Restore rebuilds a state from the bytes of State.MarshalJSON by replaying
// its moves from its starting position, so every rule (superko included) is
// checked again and a corrupt snapshot is refused.
func (game) Restore(snapshot []byte) (engine.State, error) {
	s, err := restore(snapshot)
	if err != nil {
		return nil, fmt.Errorf("go: restore: %w", err)
	}
	return s, nil
}

// level is one bot level of the game.
type level struct {
	id            string
	description   string
	deterministic bool
	bot           engine.Bot
}

// levels lists the bot levels, weakest first. The seed defines no bot.
var levels = []level{
	{
		id: "basico",
		description: "Plays the capture that takes the most stones, else saves a chain in atari, " +
			"else a random legal move that neither fills its own eye nor puts its own stones in atari; " +
			"passes when no such move remains or when the opponent passed and it leads on area score.",
		deterministic: false,
		bot:           basicBot,
	},
	{
		id: "facil",
		description: "Monte Carlo tree search (UCT with RAVE and prior knowledge, playouts that capture, escape atari " +
			"and keep their eyes) with 1,000 playouts a move: a beginner's opponent that answers at once.",
		bot: mctsBot(levelFacil),
	},
	{
		id: "normal",
		description: "The same Monte Carlo tree search with 10,000 playouts a move (at most half a second): " +
			"a club beginner's opponent.",
		bot: mctsBot(levelNormal),
	},
	{
		id: "forte",
		description: "The same Monte Carlo tree search for one second a move on every core the server gives it " +
			"(one tree per core, merged at the root): the strongest level; on 9x9 it is measured against GNU Go in docs/bots/go.md.",
		bot: mctsBot(levelForte),
	},
}

// The MCTS levels' budgets (docs/bots/go.md).
var (
	levelFacil  = mctsLevel{playouts: 1000, maxTime: 500 * time.Millisecond, threads: 1}
	levelNormal = mctsLevel{playouts: 10000, maxTime: 500 * time.Millisecond, threads: 1}
	levelForte  = mctsLevel{playouts: 1 << 22, maxTime: time.Second}
)

// Bot returns the bot of the given level.
func (game) Bot(id string) (engine.Bot, bool) {
	for _, l := range levels {
		if l.id == id {
			return l.bot, true
		}
	}
	return nil, false
}
