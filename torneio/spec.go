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
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/internal/jsonbody"
	"github.com/tabuleiro/tabuleiro/players"
	"github.com/tabuleiro/tabuleiro/protocol"
)

// Limits of a tournament's spec.
const (
	// MaxEntrants bounds the entrants: a class of 60 projects and a few
	// server levels (docs/bots-api.md, "Your project as a bot"); the names
	// of all of them are one players.Directory PlayerNames lookup. With people the
	// games' bound keeps a tournament to 16 entrants.
	MaxEntrants = players.MaxNameLookups
	// MaxGames bounds the games of a tournament with a person among its
	// entrants: a round robin of 16 entrants, each first once against
	// every other (240 games), or 8 entrants four times (224). Parallel
	// games at a time, a few minutes each with people: an afternoon, not a
	// week.
	MaxGames = 240
	// MaxBotGames bounds the games of a tournament of programs only (bot
	// accounts and levels), whose games take seconds: a class of 64
	// projects playing each other once with each first makes 4,032.
	MaxBotGames = 4096
	// MaxPartidas bounds the (variant, repetitions) items.
	MaxPartidas = 8
	// MaxRepetitions bounds one item's repetitions.
	MaxRepetitions = 50
	// DefaultWait, MinWait and MaxWait bound how long, in seconds, the
	// invitations of a tournament wait for their answers (Spec.Wait).
	DefaultWait = 300
	MinWait     = 30
	MaxWait     = 3600
)

// Invitation states of a person entrant (Entrant.Invite).
const (
	InvitePending  = "pending"
	InviteAccepted = "accepted"
	InviteDeclined = "declined"
	// InviteExpired: no answer came before the start.
	InviteExpired = "expired"
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
	// Invite is a person's answer to the invitation (InvitePending,
	// InviteAccepted...), filled by the Manager: the owner entering
	// itself has accepted. Empty for levels and bots.
	Invite string `json:"invite,omitempty"`
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
	v, err := parsePartida(b)
	if err != nil {
		return err
	}
	*p = v
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
	// Wait is how many seconds the invitations wait for their answers
	// before the tournament starts without the people who did not
	// accept (0 is DefaultWait); it matters only when people are invited.
	Wait int `json:"wait,omitempty"`
	// Rated makes the games rated (default false: the standings are the
	// seed's shares of wins): each game between two accounts or bot
	// accounts changes their ratings; a game with the server's bot, or
	// with a guest, stays casual.
	Rated bool `json:"rated,omitempty"`
}

// DefaultClock is the time control of a tournament's games when its spec
// names none: a minute and two seconds a move, enough for the seed's "a few
// seconds a move".
var DefaultClock = protocol.TimeControl{Base: 60, Increment: 2}

// specFields are the fields of a spec, in the order the errors name them.
var specFields = []string{"game", "entrants", "partidas", "clock", "wait", "rated"}

// Examples the errors show.
const (
	entrantsExample = `[{"level":"gulosa"}, {"bot":"bot.…"}, {"player":"p…"}]`
	partidasExample = `[["tradicional", 1]]`
)

// ParseSpec decodes and checks a spec: for anything wrong, an error that
// names the field in the API's own words (never a Go decoder's).
func ParseSpec(cat *engine.Catalog, body []byte) (Spec, error) {
	fields, err := object(body)
	if err != nil {
		return Spec{}, fmt.Errorf(`a torneio is one JSON object {"game", "entrants", "partidas", "clock"?, "wait"?, "rated"?}: %v`, err)
	}
	for k := range fields {
		if !slices.Contains(specFields, k) {
			return Spec{}, fmt.Errorf("unknown field %q (the fields are %s)", k, strings.Join(specFields, ", "))
		}
	}
	var s Spec
	raw, ok := present(fields, "game")
	if !ok {
		return Spec{}, errors.New(`missing field "game": a game id of GET /api/games, such as "queens"`)
	}
	if err := json.Unmarshal(raw, &s.Game); err != nil {
		return Spec{}, fmt.Errorf(`"game" is a game id such as "queens", not %s`, kind(raw))
	}
	raw, ok = present(fields, "entrants")
	if !ok {
		return Spec{}, fmt.Errorf(`missing field "entrants": a list of 2 to %d entrants, such as %s`, MaxEntrants, entrantsExample)
	}
	if s.Entrants, err = parseEntrants(raw); err != nil {
		return Spec{}, err
	}
	raw, ok = present(fields, "partidas")
	if !ok {
		return Spec{}, fmt.Errorf(`missing field "partidas": a list of ["variant", repetitions] pairs, such as %s`, partidasExample)
	}
	if s.Partidas, err = parsePartidas(raw); err != nil {
		return Spec{}, err
	}
	if raw, ok = present(fields, "clock"); ok {
		tc, perr := protocol.ParseClock(raw)
		if perr != nil {
			return Spec{}, errors.New(perr.Msg)
		}
		s.Clock = tc
	}
	if raw, ok = present(fields, "wait"); ok {
		n, ok := whole(raw)
		if !ok || n < MinWait || n > MaxWait {
			return Spec{}, fmt.Errorf(`"wait" is how many seconds the invitations wait for an answer, a whole number from %d to %d, not %s`, MinWait, MaxWait, shown(raw))
		}
		s.Wait = n
	}
	if raw, ok = present(fields, "rated"); ok {
		if err := json.Unmarshal(raw, &s.Rated); err != nil {
			return Spec{}, fmt.Errorf(`"rated" is true (rated games between accounts) or false, not %s`, shown(raw))
		}
	}
	return s, s.Check(cat)
}

// object splits a JSON object into its fields; nothing may follow it.
func object(body []byte) (map[string]json.RawMessage, error) {
	var fields map[string]json.RawMessage
	if err := jsonbody.Decode(body, &fields); err != nil { // the API's one reading of a body
		var syn *json.SyntaxError
		switch {
		case errors.Is(err, jsonbody.ErrEmpty):
			return nil, errors.New("the body is empty")
		case errors.Is(err, jsonbody.ErrTrailing):
			return nil, errors.New("something follows the object")
		case errors.As(err, &syn):
			return nil, fmt.Errorf("the JSON is malformed at byte %d", syn.Offset)
		case errors.Is(err, io.ErrUnexpectedEOF):
			return nil, errors.New("the JSON ends early")
		default:
			return nil, fmt.Errorf("the body is %s", kind(bytes.TrimSpace(body)))
		}
	}
	if fields == nil {
		return nil, errors.New("the body is null")
	}
	return fields, nil
}

// present returns field k unless it is absent or null.
func present(fields map[string]json.RawMessage, k string) (json.RawMessage, bool) {
	raw, ok := fields[k]
	if !ok || string(raw) == "null" {
		return nil, false
	}
	return raw, true
}

func parseEntrants(raw json.RawMessage) ([]Entrant, error) {
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, fmt.Errorf(`"entrants" is a list such as %s, not %s`, entrantsExample, kind(raw))
	}
	if len(items) > MaxEntrants {
		return nil, fmt.Errorf("a torneio has 2 to %d entrants, not %d", MaxEntrants, len(items))
	}
	out := make([]Entrant, len(items))
	for i, item := range items {
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(item, &fields); err != nil || fields == nil {
			return nil, fmt.Errorf(`entrant %d is an object such as {"level":"gulosa"}, {"bot":"bot.…"} or {"player":"p…"}, not %s`, i, kind(item))
		}
		for k, v := range fields {
			var dst *string
			switch k {
			case "level":
				dst = &out[i].Level
			case "bot":
				dst = &out[i].Bot
			case "player":
				dst = &out[i].Player
			case "name": // shown by the server's own lookup, not taken
				continue
			default:
				return nil, fmt.Errorf(`entrant %d: unknown field %q (give one of "level", "bot", "player")`, i, k)
			}
			if err := json.Unmarshal(v, dst); err != nil {
				return nil, fmt.Errorf(`entrant %d: %q is a string, not %s`, i, k, kind(v))
			}
		}
	}
	return out, nil
}

func parsePartidas(raw json.RawMessage) ([]Partida, error) {
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, fmt.Errorf(`"partidas" is a list of ["variant", repetitions] pairs, such as %s, not %s`, partidasExample, kind(raw))
	}
	if len(items) > MaxPartidas {
		return nil, fmt.Errorf("a torneio has 1 to %d partidas, not %d", MaxPartidas, len(items))
	}
	out := make([]Partida, len(items))
	for i, item := range items {
		p, err := parsePartida(item)
		if err != nil {
			return nil, fmt.Errorf("partida %d: %v", i, err)
		}
		out[i] = p
	}
	return out, nil
}

// parsePartida reads the pair ["variant", repetitions].
func parsePartida(b []byte) (Partida, error) {
	var raw []json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil || len(raw) != 2 {
		return Partida{}, fmt.Errorf(`a partida is a pair ["variant", repetitions] such as ["tradicional", 1], not %s`, shown(b))
	}
	var p Partida
	if err := json.Unmarshal(raw[0], &p.Variant); err != nil {
		return Partida{}, fmt.Errorf("the variant is a string such as \"tradicional\", not %s", kind(raw[0]))
	}
	n, ok := whole(raw[1])
	if !ok {
		return Partida{}, fmt.Errorf("the repetitions are a whole number from 1 to %d, not %s", MaxRepetitions, shown(raw[1]))
	}
	p.Repetitions = n
	return p, nil
}

// whole reads a JSON number that is a whole number of a sane size.
func whole(raw json.RawMessage) (int, bool) {
	var f float64
	if err := json.Unmarshal(raw, &f); err != nil || f != math.Trunc(f) || math.Abs(f) > 1e9 {
		return 0, false
	}
	return int(f), true
}

// kind names the JSON type of raw, for an error: "a number", "an object".
func kind(raw []byte) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '{':
		return "an object"
	case '[':
		return "a list"
	case '"':
		return "a string"
	case 't', 'f':
		return "true or false"
	case 'n':
		return "null"
	default:
		return "a number"
	}
}

// shown is raw as the error quotes it: short values as they are, longer
// ones by their kind.
func shown(raw []byte) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && len(raw) <= 24 && utf8.Valid(raw) {
		return string(raw)
	}
	return kind(raw)
}

// Check validates the spec against the catalog: the game, the entrants'
// shape (their consent is the server's to check), the partidas, the
// number of games, the clock and the wait.
func (s *Spec) Check(cat *engine.Catalog) error {
	g, ok := cat.Game(s.Game)
	if !ok {
		var ids []string
		for _, g := range cat.Infos() {
			if slices.ContainsFunc(g.Variants, func(v engine.Variant) bool { return v.Seats == 2 }) {
				ids = append(ids, g.ID)
			}
		}
		return fmt.Errorf("unknown game %q (games: %s)", s.Game, strings.Join(ids, ", "))
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
			switch {
			case len(id) > 64:
				return fmt.Errorf("entrant %d: player id too long", i)
			case e.Bot != "" && !players.IsBotID(id):
				return fmt.Errorf(`entrant %d: %q is not a bot account's id (those begin with %q); a person is {"player": id}`, i, id, players.BotIDPrefix)
			case e.Player != "" && players.IsBotID(id):
				return fmt.Errorf(`entrant %d: %q is a bot account: enter it as {"bot": %q}`, i, id, id)
			case seen[id]:
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
	if n, most := s.games(), s.maxGames(); n > most {
		return fmt.Errorf("this torneio would have %d games; at most %d (each pair plays every partida's repetitions twice, once each first)", n, most)
	}
	if c := s.Clock; c != nil && (c.Base < 1 || c.Base > protocol.MaxClockBase || c.Increment < 0 || c.Increment > protocol.MaxClockIncrement) {
		return fmt.Errorf("clock: base 1..%d s, increment 0..%d s", protocol.MaxClockBase, protocol.MaxClockIncrement)
	}
	if s.Wait != 0 && (s.Wait < MinWait || s.Wait > MaxWait) {
		return fmt.Errorf("wait: %d to %d seconds, not %d", MinWait, MaxWait, s.Wait)
	}
	return nil
}

// maxGames is the spec's bound on its games: MaxGames with a person among
// the entrants, MaxBotGames for programs only.
func (s *Spec) maxGames() int {
	for _, e := range s.Entrants {
		if e.Player != "" {
			return MaxGames
		}
	}
	return MaxBotGames
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
