// Package torneio runs the queens seed's round-robin tournament (torneio)
// live, for any two-seat game: every pair of entrants plays each listed
// variant a number of times as the first player and as many as the second,
// in ordinary rooms that anyone can watch; each entrant's result is its
// share of wins (the seed's "porcentagens de vitórias"), with draws and
// losses beside it.
//
// One goroutine owns each tournament's state (Manager.run); readers get an
// immutable View it publishes after every change. The state is saved to a
// store.Torneios after every change, so a tournament survives a restart:
// Manager.Resume takes the unfinished ones up again.
package torneio

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/store"
)

// Limits of a tournament's spec.
const (
	// MaxEntrants bounds the entrants: a class of 60 projects and a few
	// server levels (docs/bots-api.md, "Your project as a bot"); the names
	// of all of them are one store.PlayerNames lookup.
	MaxEntrants = store.MaxNameLookups
	// MaxGames bounds the games of one tournament: 64 entrants playing
	// each other once with each first make 4,032.
	MaxGames = 4096
	// MaxPartidas bounds the (variant, repetitions) items.
	MaxPartidas = 8
	// MaxRepetitions bounds one item's repetitions.
	MaxRepetitions = 50
)

// Entrant is one player of a tournament: exactly one of Level (the server's
// bot level), Bot (a bot account's player id) and Player (a person's player
// id).
type Entrant struct {
	Level  string `json:"level,omitempty"`
	Bot    string `json:"bot,omitempty"`
	Player string `json:"player,omitempty"`
	// Name is how the entrant is shown, filled by the Manager (a name in a
	// spec is ignored): a person's display name or a bot account's name
	// (Config.Names), else its id; "bot <level>" for a level.
	Name string `json:"name,omitempty"`
}

// PlayerID is the player id of a bot or person, "" for a level.
func (e Entrant) PlayerID() string {
	if e.Bot != "" {
		return e.Bot
	}
	return e.Player
}

// Label is how the entrant is shown: its level or player id.
func (e Entrant) Label() string {
	if e.Level != "" {
		return e.Level
	}
	return e.PlayerID()
}

// Partida is one item of partidas: a variant ("modalidade") and how many
// times each pair plays it with each entrant first. In JSON it is the pair
// ["tradicional", 2].
type Partida struct {
	Variant     string
	Repetitions int
}

// MarshalJSON writes the pair form.
func (p Partida) MarshalJSON() ([]byte, error) {
	return json.Marshal([]any{p.Variant, p.Repetitions})
}

// UnmarshalJSON reads the pair form ["variant", n].
func (p *Partida) UnmarshalJSON(b []byte) error {
	var raw []json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil || len(raw) != 2 {
		return fmt.Errorf(`a partida is a pair ["variant", repetitions]`)
	}
	if err := json.Unmarshal(raw[0], &p.Variant); err != nil {
		return fmt.Errorf("a partida's variant is a string")
	}
	if err := json.Unmarshal(raw[1], &p.Repetitions); err != nil {
		return fmt.Errorf("a partida's repetitions is a whole number")
	}
	return nil
}

// Spec is what POST /api/torneios asks for.
type Spec struct {
	Game     string    `json:"game"`
	Entrants []Entrant `json:"entrants"`
	Partidas []Partida `json:"partidas"`
	// Clock is every game's time control; nil is DefaultClock. A clock
	// is what makes an absent entrant lose (on time, or by the abort of a
	// game whose first move never came).
	Clock *protocol.TimeControl `json:"clock,omitempty"`
}

// DefaultClock is the time control of a tournament's games when its spec
// names none: a minute and two seconds a move, enough for the seed's "a few
// seconds a move".
var DefaultClock = protocol.TimeControl{Base: 60, Increment: 2}

// ParseSpec decodes and checks a spec: a clear error for anything wrong.
func ParseSpec(cat *engine.Catalog, body []byte) (Spec, error) {
	var s Spec
	dec := json.NewDecoder(strings.NewReader(string(body)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return Spec{}, fmt.Errorf("bad torneio: %v", err)
	}
	if dec.More() {
		return Spec{}, fmt.Errorf("bad torneio: data after the object")
	}
	return s, s.Check(cat)
}

// Check validates the spec against the catalog.
func (s *Spec) Check(cat *engine.Catalog) error {
	g, ok := cat.Game(s.Game)
	if !ok {
		return fmt.Errorf("unknown game %q", s.Game)
	}
	info := g.Info()
	if len(s.Entrants) < 2 || len(s.Entrants) > MaxEntrants {
		return fmt.Errorf("a torneio has 2 to %d entrants, not %d", MaxEntrants, len(s.Entrants))
	}
	seen := map[string]bool{}
	for i, e := range s.Entrants {
		n := 0
		for _, f := range []string{e.Level, e.Bot, e.Player} {
			if f != "" {
				n++
			}
		}
		if n != 1 {
			return fmt.Errorf(`entrant %d: give exactly one of "level", "bot", "player"`, i)
		}
		if e.Level != "" && !info.HasLevel(e.Level) {
			var ids []string
			for _, l := range info.Levels {
				ids = append(ids, l.ID)
			}
			return fmt.Errorf("entrant %d: game %s has no level %q (levels: %s)", i, s.Game, e.Level, strings.Join(ids, ", "))
		}
		if id := e.PlayerID(); id != "" {
			if len(id) > 64 {
				return fmt.Errorf("entrant %d: player id too long", i)
			}
			if seen[id] {
				return fmt.Errorf("entrant %d: player %s entered twice", i, id)
			}
			seen[id] = true
		}
	}
	if len(s.Partidas) < 1 || len(s.Partidas) > MaxPartidas {
		return fmt.Errorf("a torneio has 1 to %d partidas, not %d", MaxPartidas, len(s.Partidas))
	}
	for _, p := range s.Partidas {
		v, ok := info.Variant(p.Variant)
		if !ok {
			var ids []string
			for _, v := range info.Variants {
				ids = append(ids, v.ID)
			}
			return fmt.Errorf("game %s has no variant %q (variants: %s)", s.Game, p.Variant, strings.Join(ids, ", "))
		}
		if v.Seats != 2 {
			return fmt.Errorf("%s %s is not a two-player game", s.Game, p.Variant)
		}
		if p.Repetitions < 1 || p.Repetitions > MaxRepetitions {
			return fmt.Errorf("partida %s: repetitions 1..%d, not %d", p.Variant, MaxRepetitions, p.Repetitions)
		}
	}
	if n := s.games(); n > MaxGames {
		return fmt.Errorf("this torneio would have %d games; at most %d", n, MaxGames)
	}
	if c := s.Clock; c != nil && (c.Base < 1 || c.Base > protocol.MaxClockBase || c.Increment < 0 || c.Increment > protocol.MaxClockIncrement) {
		return fmt.Errorf("clock: base 1..%d s, increment 0..%d s", protocol.MaxClockBase, protocol.MaxClockIncrement)
	}
	return nil
}

func (s *Spec) games() int {
	n := len(s.Entrants)
	reps := 0
	for _, p := range s.Partidas {
		reps += p.Repetitions
	}
	return n * (n - 1) * reps
}

// Schedule lists the games: for each partida, for each repetition, for each
// pair (i < j), the game with i first and the game with j first.
func (s *Spec) Schedule() []Game {
	var out []Game
	n := len(s.Entrants)
	for _, p := range s.Partidas {
		for range p.Repetitions {
			for i := range n {
				for j := i + 1; j < n; j++ {
					out = append(out, Game{Variant: p.Variant, Entrants: [2]int{i, j}},
						Game{Variant: p.Variant, Entrants: [2]int{j, i}})
				}
			}
		}
	}
	for i := range out {
		out[i].Index = i
	}
	return out
}
