// Package ratings is the players' ratings: Glicko-2 as lichess runs it
// (glicko2.go), one pool per game and variant (Pool), and the ratings part
// of the store (Store): each player's rating in each pool, the changes of
// every rated game applied exactly once by its room's id, each player's
// history in a pool (the curve of a profile), the leaderboards, each
// player's wins, draws and losses, 2048's best scores, and the bot ladder's
// entrants. memstore and redisstore implement Store and pass one
// conformance suite (ratingstest).
//
// The package knows no room: the rater (package ratings/rater) applies a
// finished rated game's result here, and the HTTP API reads it.
package ratings

import (
	"context"
	"errors"
	"math"
	"time"
)

// Pool is the rating pool of a game's variant ("go/9", "orbito/2",
// "queens/tradicional", "2048/race"), or false for a variant without one:
// a one-seat variant (2048 alone, which has best scores instead).
func Pool(game, variant string, seats int) (string, bool) {
	if seats != 2 || game == "" || variant == "" {
		return "", false
	}
	return game + "/" + variant, true
}

// The leaderboards' rules (lichess's): a player is on a pool's board while
// their deviation is at most BoardDeviation and their last rated game in
// the pool is at most BoardIdle old; a board shows BoardSize players.
const (
	BoardDeviation = 75.0
	BoardIdle      = 30 * 24 * time.Hour
	BoardSize      = 100
)

// OnBoard reports whether r qualifies for its pool's leaderboard at now.
func (r Rating) OnBoard(now time.Time) bool {
	return r.Games > 0 && r.Deviation <= BoardDeviation && now.UnixMilli()-r.Last <= BoardIdle.Milliseconds()
}

// Shown is the rating as a page shows it: rounded.
func (r Rating) Shown() int { return int(math.Round(r.Rating)) }

// Side is one player of a rated game.
type Side struct {
	ID   string
	Name string
	// Bot marks a bot account: bots have their own leaderboards.
	Bot bool
}

// Game is a finished rated game to apply.
type Game struct {
	// Room is the id of the room: a game is applied once by it.
	Room string
	Pool string
	// Sides are the two players in seat order.
	Sides [2]Side
	// Score is the first side's: 1 a win, 0.5 a draw, 0 a loss.
	Score float64
	Ended time.Time
}

// Change is one player's rating in a pool before and after a rated game.
type Change struct {
	ID     string `json:"id"`
	Before Rating `json:"before"`
	After  Rating `json:"after"`
}

// Diff is the change as a page shows it: the rounded ratings' difference.
func (c Change) Diff() int { return c.After.Shown() - c.Before.Shown() }

// Point is one rated game on a player's curve in a pool.
type Point struct {
	Room      string  `json:"room"`
	At        int64   `json:"at"` // Unix milliseconds
	Rating    float64 `json:"rating"`
	Deviation float64 `json:"rd"`
}

// Entry is a player on a leaderboard, or a ladder's entrant.
type Entry struct {
	ID     string
	Name   string
	Bot    bool
	Rating Rating
}

// Results are a player's finished games, rated or casual.
type Results struct {
	Won   int `json:"won"`
	Drawn int `json:"drawn"`
	Lost  int `json:"lost"`
}

// Outcome is how a finished game ended for one player.
type Outcome int8

// The outcomes of a game for a player.
const (
	Lost Outcome = iota
	Drawn
	Won
)

// HistoryLimit is how many points of a player's curve in a pool a store
// keeps: the last ones.
const HistoryLimit = 1000

// ErrNotFound: no such rated game.
var ErrNotFound = errors.New("not found")

// Store is the ratings part of the store. Every method is safe for
// concurrent use; what a method changes it changes atomically (on Redis,
// in one script or transaction), so a node that dies in the middle of
// Apply leaves either everything of the game or nothing of it.
type Store interface {
	// Rating is id's rating in pool; New() when they have none.
	Rating(ctx context.Context, pool, id string) (Rating, error)
	// Ratings are id's ratings in every pool they played a rated game in.
	Ratings(ctx context.Context, id string) (map[string]Rating, error)
	// Apply applies a finished rated game once: it reads both sides'
	// ratings in g.Pool, has rate compute the new ones (ratings.Update,
	// in the rater) and stores, all at once, the new ratings, the
	// game's changes (Changes), a point on each side's curve (History),
	// the leaderboards' entries, and clears the room from Owed. A game
	// applied before (by room) changes nothing: Apply returns its stored
	// changes and false. If the ratings changed between the read and the
	// write (another game of the same player ended on another node) it
	// reads them again and retries.
	Apply(ctx context.Context, g Game, rate func(a, b Rating) (Rating, Rating)) ([2]Change, bool, error)
	// Changes are a rated room's changes, in seat order; ErrNotFound
	// while it is not applied (or was never rated).
	Changes(ctx context.Context, room string) ([2]Change, error)
	// History is id's curve in pool, oldest first: at most the last n
	// points (and at most HistoryLimit).
	History(ctx context.Context, pool, id string, n int) ([]Point, error)
	// Leaderboard is pool's board of people (or of bot accounts, with
	// bots), best first, at most n: the players that qualify at now
	// (OnBoard). Kept as it changes (on Redis, sorted sets), never by
	// scanning every player.
	Leaderboard(ctx context.Context, pool string, bots bool, n int, now time.Time) ([]Entry, error)
	// Rank is id's place on pool's board (1 the best), 0 when not on it.
	Rank(ctx context.Context, pool string, bots bool, id string, now time.Time) (int, error)

	// Owe marks a finished rated game whose changes are not applied yet;
	// the save that finishes a rated game marks it with its record
	// (store.RecordEntry.Rated), so that a node that dies before Apply
	// leaves it owed. Owed lists at most n owed rooms; Apply clears one.
	Owe(ctx context.Context, room string) error
	Owed(ctx context.Context, n int) ([]string, error)

	// Tally counts a finished game, rated or casual, once by room: for
	// each player id, its outcome. Results are a player's tallies.
	Tally(ctx context.Context, room string, outcomes map[string]Outcome) error
	Results(ctx context.Context, id string) (Results, error)

	// Best records a finished 2048 game alone: the player's best score
	// rises to score if it is higher. BestScores is the board of best
	// scores, best first, at most n; BestScore one player's (0 none).
	Best(ctx context.Context, id, name string, score int64) error
	BestScores(ctx context.Context, n int) ([]Score, error)
	BestScore(ctx context.Context, id string) (int64, error)

	// JoinLadder enters bot account id in pool's ladder and LeaveLadder
	// takes it out (both idempotent); Ladder lists a pool's entrants and
	// Ladders a bot's pools.
	JoinLadder(ctx context.Context, pool, id string) error
	LeaveLadder(ctx context.Context, pool, id string) error
	Ladder(ctx context.Context, pool string) ([]string, error)
	Ladders(ctx context.Context, id string) ([]string, error)
}

// Score is a player's best 2048 score.
type Score struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Score int64  `json:"score"`
}
