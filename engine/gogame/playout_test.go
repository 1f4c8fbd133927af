package gogame

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// TestPlayoutMatchesRules plays random games on the rules board and mirrors
// every move on a Playout: both boards stay equal, the Playout accepts
// exactly the moves that are neither occupied nor suicide (superko and ko
// aside), and both score the same.
func TestPlayoutMatchesRules(t *testing.T) {
	games := 60
	if testing.Short() {
		games = 15
	}
	for i := range games {
		rng := rand.New(rand.NewPCG(uint64(i), 42))
		s := mustNew(t, "9", "")
		p := NewPlayout(9)
		for ply := 0; ply < 200 && !s.over(); ply++ {
			me := s.toMove
			for q, c := range s.board.cells {
				if c != empty {
					continue
				}
				o := s.board.try(q, me)
				v := p.point(q)
				if got, want := p.legal(v, me) || v == p.ko, !o.suicide; got != want {
					t.Fatalf("game %d ply %d: playout legal(%s) = %v, rules say %v\n%s", i, ply, s.board.geo.names[q], got, want, s)
				}
			}
			legal := s.Legal(me.seat())
			move := legal[rng.IntN(len(legal))]
			if err := s.Apply(me.seat(), move); err != nil {
				t.Fatal(err)
			}
			if move == Pass {
				p.passes++
				p.toMove = p.toMove.opponent()
				p.ko = 0
			} else {
				p.play(p.point(point(t, s.board.geo, move)), me)
			}
			if got, want := p.Rows(), s.board.rows(); !slices.Equal(got, want) {
				t.Fatalf("game %d ply %d after %s: playout board %q, rules board %q", i, ply, move, got, want)
			}
			if got, want := p.Score(), scoreOf(t, s); got != want {
				t.Fatalf("game %d ply %d: playout score %+v, rules score %+v", i, ply, got, want)
			}
		}
	}
}

// TestPlayoutRun checks that playouts from the empty board and from the
// seed's position end, fill the board with stones and eyes only (every
// empty point is a one-point region, so the scores add up to the board) and
// leave the loaded position untouched in the source board.
func TestPlayoutRun(t *testing.T) {
	for _, setup := range []string{"", setupJSON(t, seedBlackCorner, seedWhite, "white")} {
		s := mustNew(t, "9", setup)
		src := NewPlayout(9)
		if err := src.Load(s); err != nil {
			t.Fatal(err)
		}
		rows := src.Rows()
		p := NewPlayout(9)
		rng := rand.New(rand.NewPCG(1, 2))
		wins := 0
		for range 500 {
			p.CopyFrom(src)
			sc := p.Run(rng)
			if p.passes < 2 {
				t.Fatalf("playout stopped after %d moves without two passes:\n%q", p.moves, p.Rows())
			}
			if sc.Black+sc.White != 81 {
				t.Fatalf("final score %+v does not cover the 81 points:\n%q", sc, p.Rows())
			}
			if sc.Black > sc.White {
				wins++
			}
		}
		if got := src.Rows(); !slices.Equal(got, rows) {
			t.Errorf("source board changed by playouts on a copy: %q, want %q", got, rows)
		}
		if wins == 0 || wins == 500 {
			t.Errorf("black won %d of 500 random playouts: playouts are not random", wins)
		}
	}
	if err := NewPlayout(13).Load(mustNew(t, "9", "")); err == nil {
		t.Error("a 13x13 playout board loaded a 9x9 game")
	}
}

// BenchmarkPlayout9x9 runs random playouts from the empty 9x9 board and
// reports playouts per second.
func BenchmarkPlayout9x9(b *testing.B) {
	src := NewPlayout(9)
	p := NewPlayout(9)
	rng := rand.New(rand.NewPCG(1, 2))
	start := time.Now()
	for b.Loop() {
		p.CopyFrom(src)
		p.Run(rng)
	}
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "playouts/s")
}
