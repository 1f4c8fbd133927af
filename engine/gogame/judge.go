package gogame

import (
	"math/rand/v2"

	"github.com/tabuleiro/tabuleiro/engine"
)

// judgePlayouts is the default budget of Judge by board size: a few
// thousand playouts of the strong bots' policy, each from the position
// as it stands, some tens of milliseconds on every board
// (docs/engines/go.md, "Stone removal").
var judgePlayouts = map[int]int{9: 2000, 13: 1000, 19: 600}

// Judge is the server's proposal of the dead stones of the position: the
// chains that the opponent owns at the end of most playouts. From the
// position (with no pass pending) it plays budget.Work playouts (default
// judgePlayouts) with the playout policy of the strong bots (captures,
// escapes from atari, shapes; no own eye filled) to two passes, and
// counts, for every stone, the playouts at whose end its intersection is
// the opponent's (a stone of the opponent, or an empty intersection
// bordered by the opponent alone): a chain is dead when that happens in
// more than half of them, over its stones. The answer is in reading order
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
	owner := make([]color, len(root.cells))
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
		sim.owners(owner)
		for q, c := range b.cells {
			if c != empty && owner[root.point(q)] == c.opponent() {
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

// owners writes who each point of the board counts for at the end of a
// playout, indexed like cells: the color of its stone, the color that
// alone borders its empty region, or empty for neither (and the frame).
func (p *Playout) owners(out []color) {
	var stack [512]int16
	region := make([]int16, 0, 64)
	seen := p.seen
	clear(seen)
	for v, c := range p.cells {
		switch c {
		case black, white:
			out[v] = c
			continue
		case colorBorder:
			out[v] = empty
			continue
		}
		if seen[v] {
			continue
		}
		borders := color(0)
		region = region[:0]
		st := append(stack[:0], int16(v))
		seen[v] = true
		for len(st) > 0 {
			u := int(st[len(st)-1])
			st = st[:len(st)-1]
			region = append(region, int16(u))
			for _, w := range [4]int{u - p.stride, u - 1, u + 1, u + p.stride} {
				switch cw := p.cells[w]; cw {
				case empty:
					if !seen[w] {
						seen[w] = true
						st = append(st, int16(w))
					}
				case black, white:
					borders |= cw
				}
			}
		}
		if borders != black && borders != white {
			borders = empty
		}
		for _, u := range region {
			out[u] = borders
		}
	}
}
