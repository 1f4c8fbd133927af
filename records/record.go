// Package records is the record of one game: who played, from which
// position, every move with the time it took, how it ended and what was said
// in the room. It encodes a record compactly for a store (Encode, Decode),
// replays it through the engines to every position (Replay), and exports it
// as SGF for go (SGF) and as a plain-text notation for every game (Text).
//
// The package knows no room and no store: the rooms package builds a Record
// from a room's snapshot (rooms.RecordOf) and the HTTP API serves it
// (docs/protocol.md, "Game records"). The formats are described in
// docs/records.md.
package records

import (
	"encoding/json"
	"time"

	"github.com/tabuleiro/tabuleiro/engine"
)

// Room statuses a record can be in (the room's status when it was read).
const (
	StatusWaiting  = "waiting"
	StatusPlaying  = "playing"
	StatusFinished = "finished"
)

// Record is the record of one game.
type Record struct {
	// Room is the id of the room the game was played in.
	Room string
	// Game and Variant are the engine's ids ("go", "19").
	Game, Variant string
	// Setup is the setup object the game started from (docs/protocol.md,
	// "Setups"), compact JSON; nil for the initial position.
	Setup json.RawMessage
	// Seed is the seed the game was created with: it fixes the tiles of
	// 2048, which a replay needs.
	Seed uint64
	// Status is the room's status: StatusWaiting, StatusPlaying or
	// StatusFinished.
	Status string
	// Private and Watch are the room's flags: kept out of the lobby; only
	// bots play.
	Private, Watch bool
	// Players has one entry per seat, in seat order; a free seat is the
	// zero Player.
	Players []Player
	// Clock is the time control, nil when the game had none.
	Clock *Clock
	// Komi, Handicap and Removal are the game's rule options (go, see
	// engine.Options): Komi 0 is the seed's rule (white wins ties, komi
	// one half), Handicap 0 none.
	Komi     float64
	Handicap int
	Removal  bool
	// Dead are the stones marked dead when a game with Removal ended by
	// its stone-removal phase (in the engine's reading order); nil
	// otherwise.
	Dead []string
	// Moves are the moves played, in order, from the start position.
	Moves []Move
	// Result is how the game ended, nil while it goes on.
	Result *Result
	// Chat holds the room's last chat lines, oldest first (the room keeps
	// a bounded number of them).
	Chat []ChatLine
	// Created is when the room was created, Started when the game started
	// (every seat taken) and Ended when it ended; a zero time is not yet.
	Created, Started, Ended time.Time
}

// Player is one seat of a game.
type Player struct {
	// ID is the player id of a person; empty for a bot or a free seat.
	ID string
	// Name is the name shown for the seat.
	Name string
	// Bot is the bot level when a bot held the seat.
	Bot string
}

// Clock is a Fischer time control.
type Clock struct {
	// Base is each side's time at the start, Increment what a move adds.
	Base, Increment time.Duration
}

// Move is one move of the game.
type Move struct {
	// Seat is the seat that played it.
	Seat int
	// Move is the move in the wire notation of the game (docs/protocol.md,
	// "Boards and moves").
	Move string
	// Ms is how long the move took in milliseconds: from the moment its
	// seat could move (the previous move, the start of the game, or the
	// room's restart) until the server accepted it.
	Ms int64
}

// Result is the end of a game.
type Result struct {
	// Winner is the winning seat, -1 for a draw or a game without a
	// winner.
	Winner int
	// Reason says why the game ended: an engine's reason ("line",
	// "two_passes", ...) or the room's ("resign", "timeout", "abandoned",
	// "aborted": no result, "agreement": a draw agreed).
	Reason string
}

// ChatLine is one line of the room's chat.
type ChatLine struct {
	// From is the name of the one who wrote it.
	From string
	// Seat is the writer's seat, -1 for a spectator.
	Seat int
	// Text is the line.
	Text string
	// At is when it was said.
	At time.Time
}

// Role is the chat line's writer's role: "player" or "spectator".
func (c ChatLine) Role() string {
	if c.Seat >= 0 {
		return "player"
	}
	return "spectator"
}

// Options are the game's rule options.
func (r *Record) Options() engine.Options {
	return engine.Options{Komi: r.Komi, Handicap: r.Handicap, Removal: r.Removal}
}

// Finished reports whether the game has ended.
func (r *Record) Finished() bool { return r.Result != nil }

// DisplayName is the name shown for seat: the player's name, "bot <level>"
// for a nameless bot, "seat <n>" for a free seat.
func (r *Record) DisplayName(seat int) string {
	if seat < 0 || seat >= len(r.Players) {
		return ""
	}
	p := r.Players[seat]
	switch {
	case p.Name != "":
		return p.Name
	case p.Bot != "":
		return "bot " + p.Bot
	}
	return "seat " + itoa(seat)
}
