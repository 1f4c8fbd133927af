package gogame

import (
	"math/rand/v2"

	"github.com/tabuleiro/tabuleiro/engine"
)

// judgePlayouts is the default budget of Judge by board size: a few
// thousand playouts of the strong bots' policy, each from the position as
// it stands; a tenth to a third of a second a proposal on the loaded
// development machine (BenchmarkJudge; docs/engines/go.md, "Komi,
// handicap and stone removal").
var judgePlayouts = map[int]int{9: 2000, 13: 1000, 19: 600}

// Judge is the server's proposal of the dead stones of the position: the
// chains that the opponent owns at the end of most playouts. From the
// position (with no pass pending) it plays budget.Work playouts (default
// judgePlayouts) with the playout policy of the strong bots (captures,
// escapes from atari, shapes; no own eye filled) to two passes, and
// counts, for every stone, the playouts at whose end its intersection is
// the opponent's (a stone of the opponent, or an empty intersection whose
// neighbouring stones are all the opponent's): a chain is dead when that
// happens in more than half of them, over its stones. The answer is in
// reading order
// and depends only on the position, the budget and budget.Seed. It does
// not change s; it runs a search (one engine search slot, yielding like
// the bots'), so it belongs on a clone off the room's goroutine.
func (s *state) Judge(budget engine.Budget) []string {
	b := s.board
	n := b.geo.n
	playouts := budget.Work
	if playouts <= 0 {
		playouts = judgePlayouts[n]
	}
	root := NewPlayout(n)
	if err := root.Load(s); err != nil {
		return nil
	}
	root.passes = 0
	sim := NewPlayout(n)
	lost := make([]int32, len(b.cells)) // playouts that ended with q the opponent's
	buf := make([]int, 0, 64)
	rng := rand.New(rand.NewPCG(budget.Seed, 0x5c0e))
	slot := engine.AcquireSearch()
	defer slot.Release()
	for i := range playouts {
		if i%yieldEvery == yieldEvery-1 {
			slot.Yield()
		}
		sim.CopyFrom(root)
		last, limit := passPoint, sim.moves+3*n*n
		for sim.passes < 2 && sim.moves < limit {
			last = sim.policyMove(rng, last, buf)
		}
		for q, c := range b.cells {
			if c != empty && sim.ownerAt(root.point(q)) == c.opponent() {
				lost[q]++
			}
		}
	}
	var dead []string
	var seen pointSet
	for q, c := range b.cells {
		if c == empty || seen.has(q) {
			continue
		}
		stones, sum := 0, int64(0)
		for r := q; ; {
			seen.add(r)
			stones++
			sum += int64(lost[r])
			if r = int(b.next[r]); r == q {
				break
			}
		}
		if 2*sum > int64(stones)*int64(playouts) {
			for r := q; ; {
				dead = append(dead, b.geo.names[r])
				if r = int(b.next[r]); r == q {
					break
				}
			}
		}
	}
	return sortedByPoint(b.geo, dead)
}

// sortedByPoint sorts intersection names into reading order.
func sortedByPoint(geo *geometry, names []string) []string {
	var set pointSet
	for _, name := range names {
		if p, err := geo.parsePoint(name); err == nil {
			set.add(p)
		}
	}
	out := names[:0]
	for p := range geo.n * geo.n {
		if set.has(p) {
			out = append(out, geo.names[p])
		}
	}
	return out
}

// ownerAt is who the point v counts for at the end of a playout: the
// colour of its stone; for an empty point (an eye, most often, once a
// playout passed twice) the colour of the stones around it when they are
// all of one colour; else empty.
func (p *Playout) ownerAt(v int) color {
	if c := p.cells[v]; c != empty {
		return c
	}
	around := color(0)
	for _, w := range [4]int{v - p.stride, v - 1, v + 1, v + p.stride} {
		if c := p.cells[w]; c == black || c == white {
			around |= c
		}
	}
	if around == black || around == white {
		return around
	}
	return empty
}
