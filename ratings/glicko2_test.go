package ratings

import (
	"math"
	"testing"
	"time"
)

// TestPaperExample is the worked example of Glickman's "Example of the
// Glicko-2 system": a player at 1500/200/0.06 with tau 0.5 beats 1400/30
// and loses to 1550/100 and 1700/300 in one period; the paper prints
// r' = 1464.06, RD' = 151.52, sigma' = 0.05999.
func TestPaperExample(t *testing.T) {
	r, rd, vol := Period(1500, 200, 0.06, []Result{
		{Rating: 1400, Deviation: 30, Score: 1},
		{Rating: 1550, Deviation: 100, Score: 0},
		{Rating: 1700, Deviation: 300, Score: 0},
	}, 0.5, 1)
	// The paper rounds as it goes (r' is 1500 + 173.7178 x the printed
	// mu' -0.2069; sigma' 0.059995... is printed 0.05999): each figure
	// is checked to within one unit of its last printed decimal.
	for _, c := range []struct {
		name            string
		got, want, unit float64
	}{
		{"r'", r, 1464.06, 0.01},
		{"RD'", rd, 151.52, 0.01},
		{"sigma'", vol, 0.05999, 0.00001},
		{"mu'", (r - 1500) / scale, -0.2069, 0.0001},
		{"phi'", rd / scale, 0.8722, 0.0001},
	} {
		if math.Abs(c.got-c.want) > c.unit {
			t.Errorf("%s = %v, want %v (within %v)", c.name, c.got, c.want, c.unit)
		}
	}
}

// singleGame is one Glicko-2 period of one game computed by hand, step by
// step as the paper writes it, without Period's code: the reference the
// table below checks Update against. The volatility of two new players
// barely moves in one game, so steps 6-8 use the old one to the 4th
// decimal the rating needs; the test allows 0.05.
func singleGame(r, rd, vol, or, ord, score float64) (float64, float64) {
	mu, phi := (r-1500)/173.7178, rd/173.7178
	muj, phij := (or-1500)/173.7178, ord/173.7178
	g := 1 / math.Sqrt(1+3*phij*phij/(math.Pi*math.Pi))
	e := 1 / (1 + math.Exp(-g*(mu-muj)))
	v := 1 / (g * g * e * (1 - e))
	phiStar := math.Sqrt(phi*phi + vol*vol)
	phi2 := 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	mu2 := mu + phi2*phi2*g*(score-e)
	return 1500 + 173.7178*mu2, 173.7178 * phi2
}

func TestUpdateSingleGames(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	tests := []struct {
		name   string
		a, b   Rating
		scoreA float64
	}{
		{"two new players, a wins", New(), New(), 1},
		{"two new players, a draw", New(), New(), 0.5},
		{"the stronger loses", Rating{Rating: 1800, Deviation: 80, Volatility: 0.06}, Rating{Rating: 1500, Deviation: 150, Volatility: 0.06}, 0},
		{"a new player beats an established one", New(), Rating{Rating: 1700, Deviation: 60, Volatility: 0.06}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a2, b2 := Update(tt.a, tt.b, tt.scoreA, now)
			for _, c := range []struct {
				who         string
				p, opp, got Rating
				score       float64
			}{{"a", tt.a, tt.b, a2, tt.scoreA}, {"b", tt.b, tt.a, b2, 1 - tt.scoreA}} {
				wantR, wantRD := singleGame(c.p.Rating, c.p.Deviation, c.p.Volatility, c.opp.Rating, c.opp.Deviation, c.score)
				wantRD = math.Max(MinDeviation, math.Min(MaxDeviation, wantRD))
				if math.Abs(c.got.Rating-wantR) > 0.05 || math.Abs(c.got.Deviation-wantRD) > 0.05 {
					t.Errorf("%s: got %.2f/%.2f, want %.2f/%.2f", c.who, c.got.Rating, c.got.Deviation, wantR, wantRD)
				}
				if c.got.Games != c.p.Games+1 || c.got.Last != now.UnixMilli() {
					t.Errorf("%s: games %d last %d, want %d %d", c.who, c.got.Games, c.got.Last, c.p.Games+1, now.UnixMilli())
				}
				if c.got.Volatility > MaxVolatility {
					t.Errorf("%s: volatility %v over %v", c.who, c.got.Volatility, MaxVolatility)
				}
			}
			if tt.scoreA == 0.5 && tt.a == tt.b && (a2.Rating != b2.Rating || a2.Rating != tt.a.Rating) {
				t.Errorf("a draw between equals moved the ratings: %v %v", a2.Rating, b2.Rating)
			}
		})
	}
}

// TestNewPlayersFirstGame: two players at 1500/500/0.09, one wins: the
// winner gains what the loser loses, and both stay provisional.
func TestNewPlayersFirstGame(t *testing.T) {
	w, l := Update(New(), New(), 1, time.Unix(0, 0))
	if gain, loss := w.Rating-1500, 1500-l.Rating; math.Abs(gain-loss) > 1e-9 || gain < 100 {
		t.Errorf("winner +%.2f, loser -%.2f: want the same, and large for new players", gain, loss)
	}
	if w.Deviation != l.Deviation || !w.Provisional() {
		t.Errorf("deviations %v %v, want equal and provisional", w.Deviation, l.Deviation)
	}
}

func TestBounds(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	// A player who played many games keeps at least 45 of deviation.
	a, b := Rating{Rating: 1500, Deviation: 46, Volatility: 0.01, Last: now.UnixMilli()}, Rating{Rating: 1500, Deviation: 46, Volatility: 0.01, Last: now.UnixMilli()}
	for range 50 {
		a, b = Update(a, b, 0.5, now)
	}
	if a.Deviation < MinDeviation {
		t.Errorf("deviation %v under %v", a.Deviation, MinDeviation)
	}
	// Time away grows the deviation, up to 500.
	old := Rating{Rating: 1600, Deviation: 60, Volatility: 0.06, Games: 40, Last: now.Add(-100 * 24 * time.Hour).UnixMilli()}
	if got := old.At(now).Deviation; got <= 60 || got > MaxDeviation {
		t.Errorf("after 100 days away the deviation is %v, want over 60 and at most 500", got)
	}
	ancient := Rating{Rating: 1600, Deviation: 400, Volatility: 0.09, Games: 3, Last: 1}
	if got := ancient.At(now).Deviation; got != MaxDeviation {
		t.Errorf("after decades away the deviation is %v, want %v", got, MaxDeviation)
	}
	// Surprising results never push the volatility over 0.1.
	c, d := New(), Rating{Rating: 2500, Deviation: 45, Volatility: 0.1}
	for range 20 {
		c, d = Update(c, d, 1, now)
	}
	if c.Volatility > MaxVolatility || d.Volatility > MaxVolatility {
		t.Errorf("volatilities %v %v over %v", c.Volatility, d.Volatility, MaxVolatility)
	}
}
