// Package engine defines the contract between the rooms and the games.
//
// Every game (orbito, morris, go, 2048, queens) lives in its own package
// under engine/ and implements Game and State. An engine is pure: it does no
// I/O, starts no goroutines, reads no clock and keeps no global state. A room
// owns one State value and is the only one to call it; bots receive a copy of
// the state (State.Clone), their own random source and a deadline.
package engine

import (
	"encoding/json"
	"math/rand/v2"
	"time"
)

// Game is one game of the catalog: it describes itself and builds states.
type Game interface {
	// Info is the catalog entry of the game.
	Info() Info
	// New starts a game of the given variant. A nil or empty setup starts
	// from the initial position; otherwise setup is the game's setup object
	// (docs/protocol.md) and a setup that is not a legal position is refused
	// with an *Error of code CodeBadSetup. seed feeds games with chance
	// (2048) when the setup does not fix the seed; other games ignore it.
	New(variant string, setup json.RawMessage, seed uint64) (State, error)
	// Restore rebuilds a state from the bytes of State.MarshalJSON. The
	// restored state continues identically to the one that was saved.
	Restore(snapshot []byte) (State, error)
	// Bot returns the bot of the given level, and false when the game has no
	// such level.
	Bot(level string) (Bot, bool)
}

// Info is a game's catalog entry, as served by GET /api/games.
type Info struct {
	// ID is the game id used on the wire: "orbito", "morris", "go", "2048", "queens".
	ID string `json:"id"`
	// Name is the human name of the game.
	Name string `json:"name"`
	// Rules is a short summary of the rules in English.
	Rules string `json:"rules"`
	// Variants lists the variants, the first being the default.
	Variants []Variant `json:"variants"`
	// Levels lists the bot levels, weakest (or the seed's first) first.
	Levels []Level `json:"levels"`
	// Draws reports whether the rules can end the game in a draw: the
	// players of such a game may offer each other a draw (orbito and
	// morris; go's komi and the other games' rules leave no tie).
	Draws bool `json:"draws,omitempty"`
}

// Variant is one variant of a game.
type Variant struct {
	// ID is the variant id used on the wire, e.g. "9" or "tradicional".
	ID string `json:"id"`
	// Name is a short human description, e.g. "9x9".
	Name string `json:"name"`
	// Seats is the number of players: 1 or 2.
	Seats int `json:"seats"`
	// SeatNames names each seat, e.g. ["black X", "white O"].
	SeatNames []string `json:"seatNames"`
}

// Level is one bot level of a game.
type Level struct {
	// ID is the level id used on the wire, e.g. "facil".
	ID string `json:"id"`
	// Description says how the bot plays.
	Description string `json:"description"`
	// Deterministic reports whether the same position always gives the same move.
	Deterministic bool `json:"deterministic"`
}

// HasVariant reports whether the game has the variant id.
func (i Info) HasVariant(id string) bool {
	_, ok := i.Variant(id)
	return ok
}

// Variant returns the variant with the given id.
func (i Info) Variant(id string) (Variant, bool) {
	for _, v := range i.Variants {
		if v.ID == id {
			return v, true
		}
	}
	return Variant{}, false
}

// HasLevel reports whether the game has a bot level with the given id.
func (i Info) HasLevel(id string) bool {
	for _, l := range i.Levels {
		if l.ID == id {
			return true
		}
	}
	return false
}

// State is one game in progress. It is not safe for concurrent use: the room
// goroutine owns it, and bots work on a Clone.
//
// What Legal, Score, Board and Extra return may belong to the state, so
// that an engine can keep it up to date instead of building it at every
// move (go does): the caller reads it and does not modify it, and it is
// valid until the state's next Apply. A caller that keeps it longer keeps
// a copy (protocol.Patcher copies the board rows).
type State interface {
	// Variant is the variant id the state was built with.
	Variant() string
	// Seats is the number of seats of the game (1 or 2).
	Seats() int
	// Apply plays move for seat. A refused move returns an *Error (code
	// CodeIllegalMove, CodeNotYourTurn or CodeGameOver) and leaves the state
	// exactly as it was.
	Apply(seat int, move string) error
	// Legal lists the moves seat may play now, in the game's reading order;
	// nil when seat may not move (not its turn, game over). The list is
	// read-only and valid until the next Apply (see State).
	Legal(seat int) []string
	// Turn is the seat to move in alternating games. ok is false when the
	// game is over or when no single seat is to move (2048 race, where both
	// players move freely).
	Turn() (seat int, ok bool)
	// Outcome reports whether the game is over, and how.
	Outcome() Outcome
	// Score is the game's score for room.state ("score"), or nil when the
	// game keeps none. Go: {"black":n,"white":n}; 2048: {"0":n,"1":n}.
	Score() any
	// Board is the game-specific board view for room.state ("board").
	Board() any
	// Extra holds further game-specific fields of room.state, such as
	// queens' "owners" and "hands"; nil when there are none.
	Extra() map[string]any
	// Clone returns an independent deep copy.
	Clone() State
	// MarshalJSON encodes the complete state as valid JSON (a room writes
	// it into its own snapshot unchecked); Game.Restore reverses it.
	MarshalJSON() ([]byte, error)
}

// Outcome is the result of a game.
type Outcome struct {
	// Over is true once the game has ended.
	Over bool
	// Winner is the winning seat, or -1 for a draw or while the game goes on.
	Winner int
	// Reason says why the game ended, e.g. "line", "board_full",
	// "two_passes", "no_moves", "repetition". Empty while the game goes on.
	Reason string
}

// Ongoing is the Outcome of a game that has not ended.
var Ongoing = Outcome{Winner: -1}

// Line is a winning line on the board of a finished game, as the "lines"
// field of orbito's and morris's Extra carries it: the seat whose line it
// is and its cells in the wire notation, in the game's order along the line.
type Line struct {
	Seat  int      `json:"seat"`
	Cells []string `json:"cells"`
}

// Bot chooses a move for the seat to move in s. s is the bot's own copy; the
// bot may change it. rng is the bot's random source (seed bots that the seeds
// define as deterministic do not use it). A bot should answer before
// deadline; it returns an error only when it has no move to give.
type Bot func(s State, seat int, rng *rand.Rand, deadline time.Time) (string, error)
