package gogame

import (
	"bytes"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// checkIncremental fails unless what the board keeps move by move equals
// what a look at the whole board finds: the playable intersections of
// each color are exactly the empty ones where scan sees no suicide, and
// the regions are those of checkRegions.
func checkIncremental(t testing.TB, where string, b *board) {
	t.Helper()
	checkRegions(t, where, b)
	for p, pc := range b.cells {
		for _, c := range []color{black, white} {
			want := false
			if pc == empty {
				_, suicide := b.scan(p, c, nil)
				want = !suicide
			}
			if got := b.playable[c-1].has(p); got != want {
				t.Fatalf("%s: %s playable for %s is %v, want %v", where, b.geo.names[p], c.name(), got, want)
			}
		}
	}
}

// checkRegions fails unless the board's regions are the empty regions a
// flood fill finds, with the right sizes, adjacencies and territories,
// every id either a live region's or free, and score equal to areaScore.
func checkRegions(t testing.TB, where string, b *board) {
	t.Helper()
	live := map[int16]bool{}
	var territory [2]int
	for _, region := range b.territories() {
		r := b.regionOf[region[0]]
		if live[r] {
			t.Fatalf("%s: two regions have id %d", where, r)
		}
		live[r] = true
		var nb, nw int
		for _, q := range region {
			if b.regionOf[q] != r {
				t.Fatalf("%s: %s is in region %d, the rest of its region in %d", where, b.geo.names[q], b.regionOf[q], r)
			}
			for _, s := range b.geo.adj[q] {
				switch b.cells[s] {
				case black:
					nb++
				case white:
					nw++
				}
			}
		}
		if int(b.regionSize[r]) != len(region) || int(b.regionBlack[r]) != nb || int(b.regionWhite[r]) != nw {
			t.Fatalf("%s: region %d of %s has size %d, %d black and %d white adjacencies; want %d, %d, %d", where, r,
				b.geo.names[region[0]], b.regionSize[r], b.regionBlack[r], b.regionWhite[r], len(region), nb, nw)
		}
		switch {
		case nb > 0 && nw == 0:
			territory[0] += len(region)
		case nw > 0 && nb == 0:
			territory[1] += len(region)
		}
	}
	if b.territory != territory {
		t.Fatalf("%s: territories %v, want %v", where, b.territory, territory)
	}
	if got, want := b.freeRegions+len(live), len(b.cells); got != want {
		t.Fatalf("%s: %d free ids and %d regions, want %d ids", where, b.freeRegions, len(live), want)
	}
	free := map[int16]bool{}
	for _, r := range b.regionIDs[:b.freeRegions] {
		if live[r] || free[r] {
			t.Fatalf("%s: free id %d is used or listed twice", where, r)
		}
		free[r] = true
	}
	sb, sw := b.score()
	if rb, rw := b.areaScore(); sb != rb || sw != rw {
		t.Fatalf("%s: score %d-%d, flood fill %d-%d", where, sb, sw, rb, rw)
	}
}

// TestBoardRowsStayValid keeps a copy of the slice Board returns after
// every move of the fixed 19x19 game (as protocol.Patcher does) and checks
// that later moves never change a row of an earlier copy, across the
// arena's renewals, while Board stays equal to the board's rows.
func TestBoardRowsStayValid(t *testing.T) {
	moves := fixedGame19(t)
	s := mustNew(t, "19", "")
	type kept struct{ rows, text []string }
	var all []kept
	for i, m := range moves {
		seat, _ := s.Turn()
		if err := s.Apply(seat, m); err != nil {
			t.Fatal(err)
		}
		rows := s.Board().([]string)
		if want := s.board.rows(); !slices.Equal(rows, want) {
			t.Fatalf("move %d: Board %q, want %q", i, rows, want)
		}
		k := kept{rows: slices.Clone(rows)}
		for _, r := range rows {
			k.text = append(k.text, strings.Clone(r))
		}
		all = append(all, k)
	}
	for i, k := range all {
		if !slices.Equal(k.rows, k.text) {
			t.Fatalf("the rows kept after move %d changed: %q, were %q", i, k.rows, k.text)
		}
	}
}

// TestIncrementalRandomGames plays many random games to the end on every
// size, half of them with uniformly random legal moves and half biased
// toward captures (pickMove), and compares at every ply what the board
// keeps move by move with the from-scratch reference (oracle_test.go) and
// with flood fills: the legal list of both seats, the score and extra as
// JSON, the board, the outcome, and the playable sets and regions.
func TestIncrementalRandomGames(t *testing.T) {
	t.Parallel()
	runs := []struct {
		variant string
		games   int
	}{{"9", 120}, {"13", 16}, {"19", 6}}
	if testing.Short() {
		for i := range runs {
			runs[i].games /= 4
		}
	}
	var positions, captures, refusedBySuperko, ended int
	for _, rn := range runs {
		for g := range rn.games {
			rng := rand.New(rand.NewPCG(uint64(g), 0x1c))
			s, r := mustNew(t, rn.variant, ""), newRefState(rn.variant, "")
			biased := g%2 == 1
			for ply := 0; ; ply++ {
				where := fmt.Sprintf("go %s game %d ply %d", rn.variant, g, ply)
				for seat := range 2 {
					if got, want := s.Legal(seat), r.Legal(seat); !slices.Equal(got, want) || (got == nil) != (want == nil) {
						t.Fatalf("%s: Legal(%d)\n%v\nwant\n%v", where, seat, got, want)
					}
				}
				if got, want := jsonOf(t, s.Score()), jsonOf(t, r.Score()); got != want {
					t.Fatalf("%s: Score %s, want %s", where, got, want)
				}
				if got, want := jsonOf(t, s.Extra()), jsonOf(t, refExtra(r)); got != want {
					t.Fatalf("%s: Extra %s, want %s", where, got, want)
				}
				if got, want := s.Board().([]string), r.Board().([]string); !slices.Equal(got, want) {
					t.Fatalf("%s: Board %q, want %q", where, got, want)
				}
				if got, want := s.Outcome(), r.Outcome(); got != want {
					t.Fatalf("%s: Outcome %+v, want %+v", where, got, want)
				}
				checkIncremental(t, where, s.board)
				positions++
				if r.over() {
					ended++
					break
				}
				if ply >= 4*len(s.board.cells) {
					break
				}
				var move string
				if biased {
					move = pickMove(rng, r, 50)
				} else {
					legal := r.Legal(r.toMove.seat())
					move = legal[rng.IntN(len(legal))]
					if move == Pass && len(legal) > 1 && rng.IntN(8) > 0 {
						move = legal[rng.IntN(len(legal)-1)]
					}
				}
				if legal := s.Legal(s.toMove.seat()); len(legal) < popcount(&s.board.playable[s.toMove-1])+1 {
					refusedBySuperko++
				}
				nb, nw := r.board.count()
				applyBoth(t, where, s, r, r.toMove.seat(), move)
				if nbAfter, nwAfter := r.board.count(); nbAfter < nb || nwAfter < nw {
					captures++
				}
			}
		}
	}
	t.Logf("%d positions of %d games compared (%d ended by two passes); %d moves captured; %d positions had superko refusals",
		positions, runs[0].games+runs[1].games+runs[2].games, ended, captures, refusedBySuperko)
	if captures == 0 || refusedBySuperko == 0 || ended == 0 {
		t.Errorf("the games did not exercise captures, superko and the end: %d, %d, %d", captures, refusedBySuperko, ended)
	}
}

// popcount is the number of intersections of the set.
func popcount(s *pointSet) int {
	n := 0
	for _, w := range s {
		n += bits.OnesCount64(w)
	}
	return n
}

// FuzzIncremental builds a position from the fuzzer's bytes, then plays
// moves from them on the engine and on the from-scratch reference,
// comparing after every move what a room reads (legal lists, score, extra,
// board, outcome) and the board's playable sets and regions with flood
// fills. Byte 0 picks the size and the side to move; byte 1 is a number of
// setup stones, each two bytes (an intersection; black for an even first
// byte); then as FuzzDifferential: 0xff passes, a byte with the high bit
// picks a legal move, otherwise two bytes name an intersection.
func FuzzIncremental(f *testing.F) {
	f.Add([]byte{0, 0, 0x80, 0x81, 0x82, 0xff, 0xff})
	f.Add([]byte{3, 4, 0, 10, 1, 11, 2, 19, 3, 20, 0x90, 0x9f, 0x80, 0, 9, 0x80})
	f.Add([]byte{2, 6, 0, 0, 1, 1, 0, 19, 1, 20, 2, 38, 3, 39, 0x85, 0x91, 0xc3, 0x85, 0x91, 0xc3})
	f.Add(append([]byte{1, 0}, bytes.Repeat([]byte{0x85, 0x91, 0xc3, 0xa7}, 50)...))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 {
			return
		}
		variant := []string{"9", "13", "19"}[int(data[0])%3]
		geo := geometries[map[string]int{"9": 9, "13": 13, "19": 19}[variant]]
		toMove := []string{"black", "white"}[int(data[0]/3)%2]
		var blackStones, whiteStones []string
		i := 2
		for range int(data[1]) % 64 {
			if i+1 >= len(data) {
				return
			}
			name := geo.names[int(data[i+1])%len(geo.names)]
			if data[i]%2 == 0 {
				blackStones = append(blackStones, name)
			} else {
				whiteStones = append(whiteStones, name)
			}
			i += 2
		}
		setup := setupJSON(t, blackStones, whiteStones, toMove)
		if _, err := Game().New(variant, []byte(setup), 0); err != nil {
			return // not a position: duplicates or a chain without liberty
		}
		s, r := mustNew(t, variant, setup), newRefState(variant, setup)
		for ; ; i++ {
			where := fmt.Sprintf("byte %d", i)
			for seat := range 2 {
				if got, want := s.Legal(seat), r.Legal(seat); !slices.Equal(got, want) {
					t.Fatalf("%s: Legal(%d)\n%v\nwant\n%v", where, seat, got, want)
				}
			}
			for _, v := range [][2]any{{s.Score(), r.Score()}, {s.Extra(), refExtra(r)}, {s.Board(), r.Board()}, {s.Outcome(), r.Outcome()}} {
				if got, want := jsonOf(t, v[0]), jsonOf(t, v[1]); got != want {
					t.Fatalf("%s: %s, want %s", where, got, want)
				}
			}
			checkIncremental(t, where, s.board)
			if i >= len(data) || r.over() {
				return
			}
			move, next, ok := fuzzMove(r, data, i)
			if !ok {
				return
			}
			i = next
			applyBoth(t, where, s, r, r.toMove.seat(), move)
		}
	})
}
