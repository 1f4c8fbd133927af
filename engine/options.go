package engine

import (
	"encoding/json"
	"fmt"
)

// Options are the rule options a room may be created with beside its
// variant (room.create's komi, handicap and removal). The zero value is
// the seed's rules, which every game plays; only a game that implements
// Configurable takes anything else.
type Options struct {
	// Komi (go) is what white's area score gets added: a half-integer, so
	// that no game is drawn. Zero stands for the seed's rule, "white wins
	// ties", which is a komi of one half.
	Komi float64
	// Handicap (go) is 0, or 2 to 9 black stones placed on the board's
	// standard points before the game, white moving first.
	Handicap int
	// Removal (go) ends a game at two passes with a stone-removal phase
	// (the state then implements Scoring): the players mark the dead
	// stones and accept the count, instead of the board being counted as
	// it stands.
	Removal bool
}

// IsZero reports whether o is the seed's rules.
func (o Options) IsZero() bool { return o == Options{} }

// Configurable is implemented by a Game whose rules take Options (go).
type Configurable interface {
	// CheckOptions refuses, with a message for the player, options the
	// game does not take for the variant. The zero Options always pass.
	CheckOptions(variant string, opts Options) error
	// NewWithOptions is Game.New under opts: New(variant, setup, seed) is
	// NewWithOptions with the zero Options. Options that CheckOptions
	// refuses are refused here too; options that do not fit the setup
	// (a handicap beside a setup) are refused with CodeBadSetup.
	NewWithOptions(variant string, setup json.RawMessage, seed uint64, opts Options) (State, error)
}

// CheckOptions refuses options that g does not take for variant: any but
// the zero Options for a game that is not Configurable.
func CheckOptions(g Game, variant string, opts Options) error {
	if opts.IsZero() {
		return nil
	}
	c, ok := g.(Configurable)
	if !ok {
		return fmt.Errorf("%s has no komi, handicap or stone removal", g.Info().Name)
	}
	return c.CheckOptions(variant, opts)
}

// NewWithOptions starts a game of g under opts: g.New for the zero
// Options, Configurable.NewWithOptions otherwise (see CheckOptions for
// what is refused).
func NewWithOptions(g Game, variant string, setup json.RawMessage, seed uint64, opts Options) (State, error) {
	if opts.IsZero() {
		return g.New(variant, setup, seed)
	}
	if err := CheckOptions(g, variant, opts); err != nil {
		return nil, Errorf(CodeBadSetup, "%v", err)
	}
	return g.(Configurable).NewWithOptions(variant, setup, seed, opts)
}

// ReasonScored is the Outcome reason of a game that ended in a scoring
// phase (Scoring): counted without the stones marked dead, once every
// seat accepted the marking (or the room settled it).
const ReasonScored = "scored"

// Scoring is implemented by the states of games that can end in a scoring
// phase agreed by the players: go with stone removal (Options.Removal).
// The phase begins where the seed's rules would end the game (two passes
// in a row); the game is then neither over nor quite playing. The
// players mark the groups they hold dead and accept the marking; once
// every seat has accepted the same marking the game is over (Outcome
// reason ReasonScored), counted without the stones marked dead. A move
// by the seat to move (Turn; Legal lists the moves that may resume the
// game) resumes play: the marking and acceptances are dropped.
//
// Like the rest of State, Scoring's methods are for the state's owner
// alone; a refused call returns an *Error and changes nothing.
type Scoring interface {
	// Scoring reports whether the game is in its scoring phase.
	Scoring() bool
	// Dead lists the stones marked dead, in the game's reading order
	// (read-only, valid until the next change of the state).
	Dead() []string
	// Accepted reports whether seat has accepted the marking as it is.
	Accepted(seat int) bool
	// Toggle marks the group of stones at point dead, or alive again when
	// it was marked dead, for seat; it clears every acceptance.
	Toggle(seat int, point string) error
	// Mark replaces the marking by exactly the stones at points (the
	// server's proposal, a record's final marking); it clears every
	// acceptance.
	Mark(points []string) error
	// Accept records that seat accepts the marking as it is; when every
	// seat has, the game is over.
	Accept(seat int) error
	// Judge is the game's own proposal of the dead stones, within budget
	// (0: the game's default): a search, a pure function of the position,
	// the budget and budget.Seed, that does not change the state. Run it
	// on a Clone, off the room's goroutine (the bot pool).
	Judge(budget Budget) []string
}
