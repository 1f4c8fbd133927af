package gogame

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/tabuleiro/tabuleiro/engine"
)

// setupSpec is the setup object of PROTOCOL.md, the seed's go(n, tb, tn):
// the intersections of the black and white stones and the side to move.
type setupSpec struct {
	Black  []string `json:"black"`
	White  []string `json:"white"`
	ToMove string   `json:"toMove"`
}

// parseSetup decodes a setup strictly: one JSON object with no unknown
// fields and nothing after it. A nil, blank or null setup is the empty board
// with black to move; a missing toMove means black.
func parseSetup(raw json.RawMessage) (setupSpec, error) {
	var sp setupSpec
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		return setupSpec{ToMove: "black"}, nil
	}
	if err := engine.DecodeStrict(raw, &sp); err != nil {
		return sp, err
	}
	if sp.ToMove == "" {
		sp.ToMove = "black"
	}
	return sp, nil
}

// position is a setup checked against a board: the stones placed and the
// color to move.
func (sp setupSpec) position(geo *geometry) (*board, color, error) {
	var toMove color
	switch sp.ToMove {
	case "black":
		toMove = black
	case "white":
		toMove = white
	default:
		return nil, 0, fmt.Errorf("toMove %q: want \"black\" or \"white\"", sp.ToMove)
	}
	b := newBoard(geo)
	for _, side := range []struct {
		c      color
		points []string
	}{{black, sp.Black}, {white, sp.White}} {
		for _, name := range side.points {
			p, err := geo.parsePoint(name)
			if err != nil {
				return nil, 0, fmt.Errorf("%s stone: %w", side.c.name(), err)
			}
			if b.cells[p] != empty {
				return nil, 0, fmt.Errorf("%s is listed twice (%s stone on a %s stone)", name, side.c.name(), b.cells[p].name())
			}
			b.set(p, side.c)
		}
	}
	// Stones without liberties cannot stand on a board: the move that put
	// them there would have been suicide or would have been captured.
	for p, c := range b.cells {
		if c != empty && !b.hasLibertyBesides(p, -1) {
			return nil, 0, fmt.Errorf("the %s chain at %s has no liberty", c.name(), geo.names[p])
		}
	}
	b.link()
	return b, toMove, nil
}

// setupOf returns the canonical setup of a board: the stones of each color
// in reading order.
func setupOf(b *board, toMove color) setupSpec {
	sp := setupSpec{Black: []string{}, White: []string{}, ToMove: toMove.name()}
	for p, c := range b.cells {
		switch c {
		case black:
			sp.Black = append(sp.Black, b.geo.names[p])
		case white:
			sp.White = append(sp.White, b.geo.names[p])
		}
	}
	return sp
}
