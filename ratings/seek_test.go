package ratings

import (
	"slices"
	"testing"
	"time"
)

func TestWindow(t *testing.T) {
	step := 5 * time.Second
	tests := []struct {
		waited time.Duration
		want   float64
	}{
		{0, 100}, {-time.Second, 100}, {4999 * time.Millisecond, 100}, {5 * time.Second, 150},
		{12 * time.Second, 200}, {60 * time.Second, 700},
	}
	for _, tt := range tests {
		if got := Window(tt.waited, step); got != tt.want {
			t.Errorf("Window(%v) = %v, want %v", tt.waited, got, tt.want)
		}
	}
	if got := Window(time.Hour, 0); got != SeekRange {
		t.Errorf("Window with no step = %v, want %v", got, SeekRange)
	}
}

func TestSeekPairing(t *testing.T) {
	t0 := time.Unix(1_700_000_000, 0)
	step := 5 * time.Second
	at := func(p string, r float64, since time.Duration) Seeker {
		return Seeker{Player: p, Rating: r, Since: t0.Add(since), Step: step}
	}
	tests := []struct {
		name    string
		s       Seeker
		waiting []Seeker
		now     time.Duration
		want    int
	}{
		{"none waits", at("a", 1500, 0), nil, 0, -1},
		{"the same player never", at("a", 1500, 0), []Seeker{at("a", 1500, 0)}, 0, -1},
		{"within 100 at once", at("a", 1500, 0), []Seeker{at("b", 1600, 0)}, 0, 0},
		{"101 apart waits", at("a", 1500, 0), []Seeker{at("b", 1601, 0)}, 0, -1},
		{"the nearest, not the oldest", at("a", 1500, 0), []Seeker{at("b", 1580, 0), at("c", 1460, 0), at("d", 1530, 0)}, 0, 2},
		{"the oldest of equals", at("a", 1500, 0), []Seeker{at("b", 1550, 0), at("c", 1450, 0)}, 0, 0},
		{"both ranges must hold: the newcomer's is 100", at("a", 1500, 20*time.Second), []Seeker{at("b", 1750, 0)}, 20 * time.Second, -1},
		{"both waited: 250 within 300 (4 steps)", at("a", 1500, 0), []Seeker{at("b", 1750, 0)}, 20 * time.Second, 0},
		{"both waited 3 steps: 250 within 250", at("a", 1500, 0), []Seeker{at("b", 1750, 0)}, 15 * time.Second, 0},
		{"both waited 2 steps: 250 past 200", at("a", 1500, 0), []Seeker{at("b", 1750, 0)}, 10 * time.Second, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Nearest(tt.s, tt.waiting, t0.Add(tt.now)); got != tt.want {
				t.Fatalf("Nearest = %d, want %d", got, tt.want)
			}
		})
	}
}

func TestSweep(t *testing.T) {
	t0 := time.Unix(1_700_000_000, 0)
	step := 5 * time.Second
	s := func(p string, r float64) Seeker { return Seeker{Player: p, Rating: r, Since: t0, Step: step} }
	waiting := []Seeker{s("a", 1000), s("b", 1300), s("c", 1420), s("d", 1900), s("e", 1160)}
	names := func(pairs [][2]int) []string {
		var out []string
		for _, p := range pairs {
			out = append(out, waiting[p[0]].Player+waiting[p[1]].Player)
		}
		slices.Sort(out)
		return out
	}
	tests := []struct {
		now  time.Duration
		want []string
	}{
		{0, nil},                                  // nobody within 100
		{5 * time.Second, []string{"bc"}},         // 150: b-c (120)
		{10 * time.Second, []string{"ae", "bc"}},  // 200: a-e (160), b-c
		{50 * time.Second, []string{"ae", "bc"}},  // 600: still nearest first; d alone
		{100 * time.Second, []string{"ae", "bc"}}, // d (1900) is left over: five seekers
	}
	for _, tt := range tests {
		if got := names(Sweep(waiting, t0.Add(tt.now))); !slices.Equal(got, tt.want) {
			t.Errorf("Sweep at +%v = %v, want %v", tt.now, got, tt.want)
		}
	}
}
