package gogame

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"github.com/tabuleiro/tabuleiro/engine"
)

// The rule options of go (engine.Options): komi, handicap and the
// stone-removal phase. The seed's rules are the zero Options: no handicap,
// white wins ties (komi one half) and the board is counted as it stands
// after two passes.

// MaxKomi is the largest komi, either way.
const MaxKomi = 99.5

// MaxHandicap is the largest handicap, on every board.
const MaxHandicap = 9

// seedKomi2 is twice the seed's komi: white wins ties, a komi of one half.
const seedKomi2 = 1

// CheckOptions refuses a komi that is not a half-integer of at most
// MaxKomi either way, a handicap other than 0 or 2..MaxHandicap, and an
// unknown variant.
func (game) CheckOptions(variant string, opts engine.Options) error {
	if _, err := geometryOf(variant); err != nil {
		return err
	}
	_, err := checkOptions(opts)
	return err
}

// checkOptions checks opts and returns twice its komi (the seed's when
// opts.Komi is zero).
func checkOptions(opts engine.Options) (komi2 int, err error) {
	komi2 = seedKomi2
	if k := opts.Komi; k != 0 {
		twice := 2 * k
		if math.IsNaN(k) || math.Abs(k) > MaxKomi || twice != math.Trunc(twice) || int(twice)%2 == 0 {
			return 0, fmt.Errorf("komi %v: want a half-integer from %v to %v (0.5, 6.5, 7.5, ...)", k, -MaxKomi, MaxKomi)
		}
		komi2 = int(twice)
	}
	if h := opts.Handicap; h != 0 && (h < 2 || h > MaxHandicap) {
		return 0, fmt.Errorf("handicap %d: want 0 (none) or 2 to %d stones", h, MaxHandicap)
	}
	return komi2, nil
}

// NewWithOptions starts a game of the variant under opts: the handicap
// stones on the standard points (handicapPoints) with white to move, the
// komi, and the stone-removal phase when opts.Removal. A handicap beside
// a setup is refused: a setup places its own stones.
func (g game) NewWithOptions(variant string, setup json.RawMessage, seed uint64, opts engine.Options) (engine.State, error) {
	geo, err := geometryOf(variant)
	if err != nil {
		return nil, err
	}
	komi2, err := checkOptions(opts)
	if err != nil {
		return nil, engine.Errorf(engine.CodeBadSetup, "go: %v", err)
	}
	if opts.Handicap == 0 {
		st, err := g.New(variant, setup, seed)
		if err != nil {
			return nil, err
		}
		s := st.(*state)
		s.setOptions(komi2, 0, opts.Removal)
		return s, nil
	}
	if t := bytes.TrimSpace(setup); len(t) > 0 && string(t) != "null" {
		return nil, engine.Errorf(engine.CodeBadSetup, "go: a handicap places its own stones: give a setup or a handicap, not both")
	}
	sp := setupSpec{Black: handicapPoints(geo, opts.Handicap), White: []string{}, ToMove: "white"}
	s, err := newState(geo, sp)
	if err != nil {
		return nil, engine.Errorf(engine.CodeBadSetup, "go handicap: %v", err)
	}
	s.setOptions(komi2, opts.Handicap, opts.Removal)
	return s, nil
}

// setOptions sets the state's rule options; handicap is only the number,
// its stones being part of the start position already.
func (s *state) setOptions(komi2, handicap int, removal bool) {
	s.komi2, s.handicap, s.removal = komi2, handicap, removal
}

// options are the state's rule options.
func (s *state) options() engine.Options {
	o := engine.Options{Handicap: s.handicap, Removal: s.removal}
	if s.komi2 != seedKomi2 {
		o.Komi = float64(s.komi2) / 2
	}
	return o
}

// blackWins reports whether black wins with area scores sb and sw under
// the komi: with a half-integer komi there is no tie (the seed's rule,
// white wins ties, is a komi of one half).
func (s *state) blackWins(sb, sw int) bool { return 2*(sb-sw) > s.komi2 }

// handicapPoints are the points of h handicap stones on the board, as GNU
// Go's fixed_handicap places them (TestHandicapPointsAreGnuGos): the
// star points of the corners (the third line on 9x9, the fourth on
// larger boards), lower left and upper right first, then upper left and
// lower right; five and seven add the centre (tengen), six to nine the
// middles of the left and right sides, eight and nine those of the top
// and bottom. They are listed in reading order.
func handicapPoints(geo *geometry, h int) []string {
	n := geo.n
	lo := 3
	if n < 13 {
		lo = 2
	}
	hi, mid := n-1-lo, n/2
	type pt struct{ col, row int }
	pts := []pt{{lo, lo}, {hi, hi}}
	if h >= 3 {
		pts = append(pts, pt{lo, hi})
	}
	if h >= 4 {
		pts = append(pts, pt{hi, lo})
	}
	if h >= 6 {
		pts = append(pts, pt{lo, mid}, pt{hi, mid})
	}
	if h >= 8 {
		pts = append(pts, pt{mid, lo}, pt{mid, hi})
	}
	if h%2 == 1 && h >= 5 {
		pts = append(pts, pt{mid, mid})
	}
	var set pointSet
	for _, p := range pts {
		set.add(p.row*n + p.col)
	}
	out := make([]string, 0, h)
	for p := range n * n {
		if set.has(p) {
			out = append(out, geo.names[p])
		}
	}
	return out
}

// appendOptionsJSON appends the snapshot's "options" object of non-default
// options: {"komi":6.5,"handicap":4,"removal":true}, each only when set.
func (s *state) appendOptionsJSON(b []byte) []byte {
	b = append(b, '{')
	first := true
	sep := func() {
		if !first {
			b = append(b, ',')
		}
		first = false
	}
	if s.komi2 != seedKomi2 {
		sep()
		b = append(b, `"komi":`...)
		b = strconv.AppendFloat(b, float64(s.komi2)/2, 'f', -1, 64)
	}
	if s.handicap != 0 {
		sep()
		b = append(b, `"handicap":`...)
		b = strconv.AppendInt(b, int64(s.handicap), 10)
	}
	if s.removal {
		sep()
		b = append(b, `"removal":true`...)
	}
	return append(b, '}')
}

// optionsSnap is the snapshot's "options".
type optionsSnap struct {
	Komi     float64 `json:"komi,omitempty"`
	Handicap int     `json:"handicap,omitempty"`
	Removal  bool    `json:"removal,omitempty"`
}
