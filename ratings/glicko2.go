package ratings

import (
	"math"
	"time"
)

// The constants of lichess's Glicko-2 (lila's modules/rating): new players
// at 1500 with deviation 500 and volatility 0.09, tau 0.75, the deviation
// kept within [45, 500], the volatility at most 0.1, provisional while the
// deviation is 110 or more, and 0.21436 rating periods for each day away.
const (
	DefaultRating     = 1500.0
	DefaultDeviation  = 500.0
	DefaultVolatility = 0.09
	Tau               = 0.75
	MinDeviation      = 45.0
	MaxDeviation      = 500.0
	MaxVolatility     = 0.1
	// ProvisionalDeviation: a rating whose deviation is this or more is
	// provisional ("?").
	ProvisionalDeviation = 110.0
	// PeriodsPerDay is how many rating periods a day away adds to a
	// player's deviation before their next game (lichess's figure).
	PeriodsPerDay = 0.21436

	// scale converts between the Glicko and the Glicko-2 scales (the
	// paper's 173.7178).
	scale = 173.7178
	// epsilon is the paper's convergence tolerance for the volatility.
	epsilon = 0.000001
)

// Result is one game of a rating period for the player being rated: the
// opponent's rating and deviation, and the player's score (1 a win, 0.5 a
// draw, 0 a loss).
type Result struct {
	Rating, Deviation float64
	Score             float64
}

// Period is Glickman's algorithm (steps 1 to 8 of "Example of the
// Glicko-2 system", glicko.net/glicko/glicko2.pdf) for one player and one
// rating period: the new rating, deviation and volatility of a player
// rated r with deviation rd and volatility vol after results, with the
// system constant tau. elapsed is the number of rating periods the
// deviation grows by before the results count (1 in the paper: the period
// itself). With no results only the deviation grows. Period applies no
// bounds; Update does.
func Period(r, rd, vol float64, results []Result, tau, elapsed float64) (float64, float64, float64) {
	mu, phi := (r-DefaultRating)/scale, rd/scale
	if len(results) == 0 {
		return r, scale * math.Sqrt(phi*phi+elapsed*vol*vol), vol
	}
	// Steps 3 and 4: the estimated variance v and the improvement delta.
	var vInv, sum float64
	for _, res := range results {
		muj, phij := (res.Rating-DefaultRating)/scale, res.Deviation/scale
		g := 1 / math.Sqrt(1+3*phij*phij/(math.Pi*math.Pi))
		e := 1 / (1 + math.Exp(-g*(mu-muj)))
		vInv += g * g * e * (1 - e)
		sum += g * (res.Score - e)
	}
	v := 1 / vInv
	delta := v * sum
	// Step 5: the new volatility, by the Illinois algorithm.
	a := math.Log(vol * vol)
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi*phi + v + ex
		return ex*(delta*delta-phi*phi-v-ex)/(2*d*d) - (x-a)/(tau*tau)
	}
	A := a
	var B float64
	if delta*delta > phi*phi+v {
		B = math.Log(delta*delta - phi*phi - v)
	} else {
		k := 1.0
		for f(a-k*tau) < 0 {
			k++
		}
		B = a - k*tau
	}
	fA, fB := f(A), f(B)
	for i := 0; math.Abs(B-A) > epsilon && i < 1000; i++ {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	vol2 := math.Exp(A / 2)
	// Steps 6 to 8: the deviation grown by the periods, then the new
	// deviation and rating.
	phiStar := math.Sqrt(phi*phi + elapsed*vol2*vol2)
	phi2 := 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	mu2 := mu + phi2*phi2*sum
	return DefaultRating + scale*mu2, scale * phi2, vol2
}

// Rating is a player's rating in one pool, as the store keeps it.
type Rating struct {
	Rating     float64 `json:"rating"`
	Deviation  float64 `json:"rd"`
	Volatility float64 `json:"vol"`
	// Games is the number of rated games played in the pool.
	Games int `json:"games"`
	// Last is when the last rated game ended, in Unix milliseconds; 0
	// before the first.
	Last int64 `json:"last,omitempty"`
}

// New is a new player's rating: 1500, deviation 500, volatility 0.09.
func New() Rating {
	return Rating{Rating: DefaultRating, Deviation: DefaultDeviation, Volatility: DefaultVolatility}
}

// Provisional reports whether the rating is provisional ("?"): its
// deviation is 110 or more.
func (r Rating) Provisional() bool { return r.Deviation >= ProvisionalDeviation }

// away is the number of rating periods since the rating's last game at
// now: PeriodsPerDay for each day (0 before the first game).
func (r Rating) away(now time.Time) float64 {
	if r.Last == 0 {
		return 0
	}
	days := float64(now.UnixMilli()-r.Last) / float64(24*time.Hour/time.Millisecond)
	return math.Max(0, days) * PeriodsPerDay
}

// At is the rating as seen at now: its deviation grown by the time away
// since its last game, as lichess shows it, within [45, 500].
func (r Rating) At(now time.Time) Rating {
	_, rd, _ := Period(r.Rating, r.Deviation, r.Volatility, nil, Tau, r.away(now))
	r.Deviation = clamp(rd, MinDeviation, MaxDeviation)
	return r
}

// Update rates one game between a and b that ended at now, b's score
// being 1 - scoreA: one rating period each, the deviation first grown by
// the time each was away (At), the new deviation kept within [45, 500] and
// the volatility at most 0.1. Games counts the game and Last is now.
func Update(a, b Rating, scoreA float64, now time.Time) (Rating, Rating) {
	return rate(a, b, scoreA, now), rate(b, a, 1-scoreA, now)
}

func rate(p, opp Rating, score float64, now time.Time) Rating {
	opp = opp.At(now)
	r, rd, vol := Period(p.Rating, p.Deviation, p.Volatility,
		[]Result{{Rating: opp.Rating, Deviation: opp.Deviation, Score: score}}, Tau, 1+p.away(now))
	return Rating{
		Rating: r, Deviation: clamp(rd, MinDeviation, MaxDeviation), Volatility: math.Min(vol, MaxVolatility),
		Games: p.Games + 1, Last: now.UnixMilli(),
	}
}

func clamp(x, lo, hi float64) float64 { return math.Max(lo, math.Min(hi, x)) }
