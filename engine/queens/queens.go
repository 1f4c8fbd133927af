// Package queens implements the Jogo das Rainhas (seed 004): two players
// take turns placing chess pieces on an n x n board so that the new piece is
// neither attacked by nor attacks any piece already there. A player who
// cannot place loses; when both hands are empty the last to place wins.
//
// Squares are named "row,col" with row 0 at the bottom and column 0 on the
// left (the seed's tuples), and a move is the piece letter, '@' and the
// square: "D@3,1". See docs/engines/queens.md.
package queens

import (
	"encoding/json"
	"math/rand/v2"
	"slices"

	"github.com/tabuleiro/tabuleiro/engine"
)

// Seat names, as the seed names its players.
const (
	First  = 0 // "primeiro", who moves first
	Second = 1 // "segundo"
)

// seatNames are the seed's names of the two players, by seat.
var seatNames = [2]string{"primeiro", "segundo"}

// Outcome reasons.
const (
	// ReasonNoValidPlacement: the player to move has no valid (piece,
	// square) left, an empty hand included, and loses.
	ReasonNoValidPlacement = "no_valid_placement"
	// ReasonAllPlaced: both hands are empty; the last to place wins.
	ReasonAllPlaced = "all_placed"
	// ReasonInvalidPlacement: the position (only ever a setup or a seed
	// example, since Apply refuses such a move) holds a piece that attacks
	// or is attacked by another, so the last to place made an invalid move
	// and loses (the seed's jogo_acabou).
	ReasonInvalidPlacement = "invalid_placement"
)

// variant is one of the seed's modalities.
type variant struct {
	id, name string
	size     int
	// hands are the initial hands; nil for x-random, whose hand is drawn.
	hands [2]string
}

// xRandomHand is the number of pieces each player gets in x-random.
const xRandomHand = 5

// variants are the seed's modalities, the default first.
var variants = []variant{
	{id: "tradicional", name: "8x8, 4 queens each", size: 8, hands: [2]string{"DDDD", "DDDD"}},
	{id: "grande", name: "20x20, 10 queens each", size: 20, hands: [2]string{"DDDDDDDDDD", "DDDDDDDDDD"}},
	{id: "impar", name: "13x13, 7 queens for primeiro, 6 for segundo", size: 13, hands: [2]string{"DDDDDDD", "DDDDDD"}},
	{id: "x-random", name: "8x8, the same 5 random pieces each", size: 8},
}

func findVariant(id string) (variant, bool) {
	for _, v := range variants {
		if v.id == id {
			return v, true
		}
	}
	return variant{}, false
}

// Bot levels.
const (
	LevelApressado = "apressado"
	LevelRoleta    = "roleta"
	LevelGulosa    = "gulosa"
	LevelForte     = "forte"
)

type game struct{}

// Game returns the queens game.
func Game() engine.Game { return game{} }

// Info is the catalog entry of the game.
func (game) Info() engine.Info {
	info := engine.Info{
		ID:   "queens",
		Name: "Jogo das Rainhas",
		Rules: "Two players take turns placing one of their chess pieces (R king, D queen, T rook, " +
			"B bishop, C knight) on an empty square that no placed piece attacks and from which the " +
			"new piece attacks no placed piece; attacks are never blocked by pieces in between. " +
			"A player who cannot place any piece loses. When both players have placed all their " +
			"pieces, the one who placed last wins.",
		Levels: []engine.Level{
			{ID: LevelApressado, Description: "Places the first valid move: pieces in hand order, squares from row 0 upwards, each row from column 0.", Deterministic: true},
			{ID: LevelRoleta, Description: "Places a valid move chosen uniformly at random.", Deterministic: false},
			{ID: LevelGulosa, Description: "Greedy: attacks the most squares not yet attacked; the first such move on ties.", Deterministic: true},
			{ID: LevelForte, Description: "Ours: takes an immediate win, else Monte Carlo tree search (UCT) with random playouts to the end and proved results (MCTS-Solver), up to 30000 playouts or the deadline; plays a proved win, else the most visited move not proved lost.", Deterministic: false},
		},
	}
	for _, v := range variants {
		info.Variants = append(info.Variants, engine.Variant{
			ID: v.id, Name: v.name, Seats: 2, SeatNames: seatNames[:],
		})
	}
	return info
}

// New starts a game of the variant, from the setup when it is neither empty
// nor null. Without a setup, x-random draws its hand from seed; otherwise
// seed is ignored (a setup gives the hands).
func (game) New(variantID string, setup json.RawMessage, seed uint64) (engine.State, error) {
	v, ok := findVariant(variantID)
	if !ok {
		return nil, engine.Errorf(engine.CodeUnknownGame, "queens has no variant %q", variantID)
	}
	if len(setup) > 0 && string(setup) != "null" {
		var p position
		if err := decodeStrict(setup, &p); err != nil {
			return nil, engine.Errorf(engine.CodeBadSetup, "queens setup: %v", err)
		}
		s, err := p.state(v)
		if err != nil {
			return nil, engine.Errorf(engine.CodeBadSetup, "queens setup: %v", err)
		}
		return s, nil
	}
	s := newState(v)
	if v.hands[0] == "" {
		hand := drawHand(seed)
		s.hands = [2][]byte{hand, slices.Clone(hand)}
	} else {
		s.hands = [2][]byte{[]byte(v.hands[0]), []byte(v.hands[1])}
	}
	s.settle()
	return s, nil
}

// drawHand draws the x-random hand: five pieces, each uniform among the five
// kinds and independent, sorted alphabetically as the seed prints
// ['B', 'C', 'C', 'C', 'T'].
func drawHand(seed uint64) []byte {
	rng := rand.New(rand.NewPCG(seed, 0x71756565_6e73)) // "queens"
	hand := make([]byte, xRandomHand)
	for i := range hand {
		hand[i] = pieceLetters[rng.IntN(len(pieceLetters))]
	}
	slices.Sort(hand)
	return hand
}

// Restore rebuilds a state from the bytes of its MarshalJSON.
func (game) Restore(data []byte) (engine.State, error) {
	var snap snapshot
	if err := decodeStrict(data, &snap); err != nil {
		return nil, engine.Errorf(engine.CodeBadSetup, "queens snapshot: %v", err)
	}
	if snap.Version != snapshotVersion {
		return nil, engine.Errorf(engine.CodeBadSetup, "queens snapshot: version %d, want %d", snap.Version, snapshotVersion)
	}
	v, ok := findVariant(snap.Variant)
	if !ok {
		return nil, engine.Errorf(engine.CodeBadSetup, "queens snapshot: unknown variant %q", snap.Variant)
	}
	s, err := snap.position.state(v)
	if err != nil {
		return nil, engine.Errorf(engine.CodeBadSetup, "queens snapshot: %v", err)
	}
	return s, nil
}

// Bot returns the bot of the given level.
func (game) Bot(level string) (engine.Bot, bool) {
	switch level {
	case LevelApressado:
		return apressado, true
	case LevelRoleta:
		return roleta, true
	case LevelGulosa:
		return gulosa, true
	case LevelForte:
		return forte, true
	}
	return nil, false
}
