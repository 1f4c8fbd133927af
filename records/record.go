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
	"github.com/tabuleiro/tabuleiro/players"
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
	// Rated marks a rated game (package ratings): its players' ratings
	// change by its result.
	Rated bool
	// Players has one entry per seat, in seat order; a free seat is the
	// zero Player. A person's or a bot account's id is kept; a bot
	// account is told by its id (players.Of).
	Players []players.Player
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
	// Faults are the answers the room refused bot accounts (illegal
	// moves, with the error) and their bot_error resignations, oldest
	// first; the room keeps a bounded number of them. Like Move.Info they
	// are shown to the bot's owner only (VisibleTo).
	Faults []Fault
	// Created is when the room was created, Started when the game started
	// (every seat taken) and Ended when it ended; a zero time is not yet.
	Created, Started, Ended time.Time
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
	// Info is the note a bot account sent with the move (its depth, its
	// evaluation, what it printed), "" for none.
	Info string
}

// Fault is an answer of a bot account that did not become a move: an
// illegal move the room refused (Code "illegal_move", Message the room's
// error), or the bot's own resignation because its program failed (Code
// "bot_error", Info what failed).
type Fault struct {
	// Ply is the number of moves played before it: it answered the
	// position after Ply moves.
	Ply  int
	Seat int
	// Move is the refused move, "" for a resignation.
	Move          string
	Code, Message string
	Info          string
	// Ms is how long the seat had been to move, as Move.Ms.
	Ms int64
}

// HasNotes reports whether r holds a bot account's info or fault.
func (r *Record) HasNotes() bool {
	if len(r.Faults) > 0 {
		return true
	}
	for _, m := range r.Moves {
		if m.Info != "" {
			return true
		}
	}
	return false
}

// VisibleTo is the record as shown to a reader who may see the notes of
// the seats for which mine is true (a bot's owner, or the bot itself):
// the other seats' info and faults left out. r is not changed; the copy
// shares what it does not change.
func (r *Record) VisibleTo(mine func(seat int) bool) *Record {
	if !r.HasNotes() {
		return r
	}
	c := *r
	c.Moves = make([]Move, len(r.Moves))
	for i, m := range r.Moves {
		if !mine(m.Seat) {
			m.Info = ""
		}
		c.Moves[i] = m
	}
	c.Faults = nil
	for _, f := range r.Faults {
		if mine(f.Seat) {
			c.Faults = append(c.Faults, f)
		}
	}
	return &c
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

// ReasonAborted is the reason of a game that ended before both sides
// moved: it has no result and counts for nobody.
const ReasonAborted = "aborted"

// RatedScore is the first seat's score in a rated game that changes its
// players' ratings: 1 when it won, 0 when it lost (by the rules, a
// resignation, time, abandonment or a bot's failure), 0.5 for an end with
// no winner (a draw, agreed or on the board). ok is false for a game that
// changes no rating: not rated, not over, aborted, not started with both
// seats taken, or not two players with ids.
func (r *Record) RatedScore() (score float64, ok bool) {
	res := r.Result
	if !r.Rated || res == nil || res.Reason == ReasonAborted || r.Started.IsZero() || len(r.Players) != 2 ||
		r.Players[0].ID == "" || r.Players[1].ID == "" || r.Players[0].ID == r.Players[1].ID {
		return 0, false
	}
	switch res.Winner {
	case 0:
		return 1, true
	case 1:
		return 0, true
	case -1:
		return 0.5, true
	}
	return 0, false
}
