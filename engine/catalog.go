package engine

import (
	"encoding/json"
	"fmt"
)

// Catalog is a fixed set of games, looked up by id. It is built once and
// only read afterwards, so it is safe for concurrent use.
type Catalog struct {
	games []Game
	byID  map[string]Game
}

// NewCatalog returns a catalog of the given games, in that order.
func NewCatalog(games ...Game) *Catalog {
	c := &Catalog{games: games, byID: make(map[string]Game, len(games))}
	for _, g := range games {
		c.byID[g.Info().ID] = g
	}
	return c
}

// Game returns the game with the given id.
func (c *Catalog) Game(id string) (Game, bool) {
	g, ok := c.byID[id]
	return g, ok
}

// Analyser returns the analyser of the game with the given id, and false
// when there is no such game or it does not implement Analyser.
func (c *Catalog) Analyser(id string) (Analyser, bool) {
	a, ok := c.byID[id].(Analyser)
	return a, ok
}

// Infos lists the catalog entries in catalog order.
func (c *Catalog) Infos() []Info {
	out := make([]Info, len(c.games))
	for i, g := range c.games {
		out[i] = g.Info()
	}
	return out
}

// New starts a game by id and variant; see Game.New.
func (c *Catalog) New(game, variant string, setup json.RawMessage, seed uint64) (State, error) {
	return c.NewWithOptions(game, variant, setup, seed, Options{})
}

// NewWithOptions starts a game by id and variant under the rule options
// opts; see NewWithOptions.
func (c *Catalog) NewWithOptions(game, variant string, setup json.RawMessage, seed uint64, opts Options) (State, error) {
	g, ok := c.Game(game)
	if !ok {
		return nil, Errorf(CodeUnknownGame, "unknown game %q", game)
	}
	if !g.Info().HasVariant(variant) {
		return nil, Errorf(CodeUnknownGame, "game %s has no variant %q", game, variant)
	}
	s, err := NewWithOptions(g, variant, setup, seed, opts)
	if err != nil {
		return nil, fmt.Errorf("new %s/%s: %w", game, variant, err)
	}
	return s, nil
}
