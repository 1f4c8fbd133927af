package rooms

import (
	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/protocol"
)

// GameVariant looks up a room's game and variant in cat: an unknown_game
// error when either is not there. It is the first step of checkSpec; the
// hub calls it before it builds a Spec, to learn the variant's seats, and
// leaves every other check to Manager.Create.
func GameVariant(cat *engine.Catalog, game, variant string) (engine.Game, engine.Variant, *protocol.Error) {
	g, ok := cat.Game(game)
	if !ok {
		return nil, engine.Variant{}, protocol.Errorf(protocol.CodeUnknownGame, "unknown game %q", game)
	}
	v, ok := g.Info().Variant(variant)
	if !ok {
		return nil, engine.Variant{}, protocol.Errorf(protocol.CodeUnknownGame, "game %s has no variant %q", game, variant)
	}
	return g, v, nil
}

// checkSpec is the one validation of a new room's spec, made by
// Manager.Create whoever asks (a client's room.create or quick match
// through the hub, a rematch): the game and variant, one seat per seat
// of the variant, bot levels the game has, and a clock only where one
// fits, rule options the game takes. The setup is checked by the engine as
// it starts the game.
func checkSpec(cat *engine.Catalog, spec Spec) (engine.Game, *protocol.Error) {
	g, v, perr := GameVariant(cat, spec.Game, spec.Variant)
	if perr != nil {
		return nil, perr
	}
	if len(spec.Seats) != v.Seats {
		return nil, protocol.Errorf(protocol.CodeBadRequest, "%s %s has %d seats", spec.Game, spec.Variant, v.Seats)
	}
	for _, s := range spec.Seats {
		if s.Bot != "" {
			if _, ok := g.Bot(s.Bot); !ok {
				return nil, protocol.Errorf(protocol.CodeUnknownGame, "game %s has no bot level %q", spec.Game, s.Bot)
			}
		}
	}
	if tc := spec.Clock; tc != nil {
		switch {
		case v.Seats != 2:
			return nil, protocol.Errorf(protocol.CodeBadRequest, "%s %s has one seat: clocks are for two-player games", spec.Game, spec.Variant)
		case spec.Watch:
			return nil, protocol.Errorf(protocol.CodeBadRequest, "no clock in rooms where only bots play")
		case tc.Base < 1 || tc.Base > protocol.MaxClockBase || tc.Increment < 0 || tc.Increment > protocol.MaxClockIncrement:
			return nil, protocol.Errorf(protocol.CodeBadRequest, "clock: base 1..%d s, increment 0..%d s",
				protocol.MaxClockBase, protocol.MaxClockIncrement)
		}
	}
	if err := engine.CheckOptions(g, spec.Variant, spec.Options); err != nil {
		return nil, protocol.Errorf(protocol.CodeBadRequest, "%v", err)
	}
	return g, nil
}
