package ratings

import (
	"math"
	"slices"
	"time"
)

// The rated quick match's range (docs/protocol.md, "Quick match"): the
// hub's queue and the shared one (store.Matcher) pair by it.
const (
	// SeekRange is how far from its rating a rated seeker looks at once.
	SeekRange = 100.0
	// SeekWiden is what the range widens by every step waited.
	SeekWiden = 50.0
)

// Window is a rated seeker's range after waiting waited: SeekRange, plus
// SeekWiden for every whole step.
func Window(waited, step time.Duration) float64 {
	if waited < 0 || step <= 0 {
		return SeekRange
	}
	return SeekRange + SeekWiden*float64(waited/step)
}

// Seeker is a rated quick-match request as the pairing sees it.
type Seeker struct {
	Player string
	Rating float64
	// Since is when it began to wait; its range widens every Step.
	Since time.Time
	Step  time.Duration
}

// Accepts reports whether a and b, two players' rated requests, pair at
// now: each one's range (Window of its wait and step) holds the other's rating.
func Accepts(a, b Seeker, now time.Time) bool {
	if a.Player == b.Player {
		return false
	}
	d := math.Abs(a.Rating - b.Rating)
	return d <= Window(now.Sub(a.Since), a.Step) && d <= Window(now.Sub(b.Since), b.Step)
}

// Nearest is the index in waiting of the seeker s pairs with at now: the
// nearest in rating among those it accepts (the one waiting longest of
// equals, waiting being oldest first), or -1.
func Nearest(s Seeker, waiting []Seeker, now time.Time) int {
	best, bestD := -1, math.Inf(1)
	for i, o := range waiting {
		if d := math.Abs(s.Rating - o.Rating); Accepts(s, o, now) && d < bestD {
			best, bestD = i, d
		}
	}
	return best
}

// Sweep pairs the waiting seekers (oldest first) at now: the nearest
// pairs first, each seeker once. It returns the pairs' indexes.
func Sweep(waiting []Seeker, now time.Time) [][2]int {
	type edge struct {
		i, j int
		d    float64
	}
	var edges []edge
	for i := range waiting {
		for j := i + 1; j < len(waiting); j++ {
			if Accepts(waiting[i], waiting[j], now) {
				edges = append(edges, edge{i, j, math.Abs(waiting[i].Rating - waiting[j].Rating)})
			}
		}
	}
	slices.SortStableFunc(edges, func(x, y edge) int {
		switch {
		case x.d < y.d:
			return -1
		case x.d > y.d:
			return 1
		}
		return 0
	})
	taken := make([]bool, len(waiting))
	var out [][2]int
	for _, e := range edges {
		if !taken[e.i] && !taken[e.j] {
			taken[e.i], taken[e.j] = true, true
			out = append(out, [2]int{e.i, e.j})
		}
	}
	return out
}
