package memstore

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/tabuleiro/tabuleiro/ratings"
)

var _ ratings.Store = (*Store)(nil)

// ratingsState is the ratings part of the store, guarded by Store.mu like
// the rest: Apply reads both ratings, rates and writes in one critical
// section, so no update is lost, and the save that finishes a rated game
// marks it owed in the section that writes its record. What it keeps grows
// with the games played: a player's entry with their first rated game,
// tally or best score, a room's marks (applied, tallied) with its game, and
// those marks expire with the records' retention.
type ratingsState struct {
	players map[string]*ratedPlayer
	applied map[string]appliedGame         // room -> its changes
	tallied map[string]time.Time           // room -> when its mark expires
	owed    map[string]time.Time           // room -> when it was marked
	boards  map[boardKey][]boardRow        // best first; ties by id, descending (as Redis)
	best    []ratings.Score                // best first; ties by id, descending (as Redis)
	ladders map[string]map[string]struct{} // pool -> bot ids
}

type ratedPlayer struct {
	name    string
	bot     bool
	ratings map[string]ratings.Rating  // pool -> rating
	history map[string][]ratings.Point // pool -> curve, oldest first
	results ratings.Results
	ladders map[string]struct{} // pools whose ladder the bot is in
}

type appliedGame struct {
	changes [2]ratings.Change
	expires time.Time
}

type boardKey struct {
	pool string
	bots bool
}

type boardRow struct {
	id     string
	rating float64
}

func (s *Store) ratingsLocked() *ratingsState {
	if s.rated == nil {
		s.rated = &ratingsState{players: map[string]*ratedPlayer{}, applied: map[string]appliedGame{},
			tallied: map[string]time.Time{}, owed: map[string]time.Time{}, boards: map[boardKey][]boardRow{},
			ladders: map[string]map[string]struct{}{}}
	}
	return s.rated
}

// playerLocked returns id's entry, made when missing.
func (r *ratingsState) playerLocked(id string) *ratedPlayer {
	p := r.players[id]
	if p == nil {
		p = &ratedPlayer{ratings: map[string]ratings.Rating{}, history: map[string][]ratings.Point{}}
		r.players[id] = p
	}
	return p
}

// sweepRatingsLocked drops the marks of applied, tallied and owed rooms
// past the records' retention (sweepLocked calls it).
func (s *Store) sweepRatingsLocked(now time.Time) {
	if s.rated == nil {
		return
	}
	for room, a := range s.rated.applied {
		if !now.Before(a.expires) {
			delete(s.rated.applied, room)
		}
	}
	for room, exp := range s.rated.tallied {
		if !now.Before(exp) {
			delete(s.rated.tallied, room)
		}
	}
	// A game nobody applied in the records' retention has no record left
	// to apply it from.
	for room, at := range s.rated.owed {
		if !now.Before(at.Add(s.records.retention)) {
			delete(s.rated.owed, room)
		}
	}
}

// Rating implements ratings.Store.
func (s *Store) Rating(ctx context.Context, pool, id string) (ratings.Rating, error) {
	if err := ctx.Err(); err != nil {
		return ratings.Rating{}, fmt.Errorf("rating of %s in %s: %w", id, pool, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if p := s.ratingsLocked().players[id]; p != nil {
		if r, ok := p.ratings[pool]; ok {
			return r, nil
		}
	}
	return ratings.New(), nil
}

// Ratings implements ratings.Store.
func (s *Store) Ratings(ctx context.Context, id string) (map[string]ratings.Rating, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("ratings of %s: %w", id, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]ratings.Rating{}
	if p := s.ratingsLocked().players[id]; p != nil {
		maps.Copy(out, p.ratings)
	}
	return out, nil
}

// Apply implements ratings.Store: one critical section reads, rates and
// writes, so it never needs to retry.
func (s *Store) Apply(ctx context.Context, g ratings.Game, rate func(a, b ratings.Rating) (ratings.Rating, ratings.Rating)) ([2]ratings.Change, bool, error) {
	if err := ctx.Err(); err != nil {
		return [2]ratings.Change{}, false, fmt.Errorf("apply game of room %s: %w", g.Room, err)
	}
	if err := ratings.CheckGame(g); err != nil {
		return [2]ratings.Change{}, false, err
	}
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	rs := s.ratingsLocked()
	delete(rs.owed, g.Room)
	if a, ok := rs.applied[g.Room]; ok && now.Before(a.expires) {
		return a.changes, false, nil
	}
	var ch [2]ratings.Change
	var ps [2]*ratedPlayer
	for i, side := range g.Sides {
		ps[i] = rs.playerLocked(side.ID)
		ps[i].name, ps[i].bot = side.Name, side.Bot
		ch[i] = ratings.Change{ID: side.ID, Before: ratings.New()}
		if r, ok := ps[i].ratings[g.Pool]; ok {
			ch[i].Before = r
		}
	}
	ch[0].After, ch[1].After = rate(ch[0].Before, ch[1].Before)
	at := g.Ended.UnixMilli()
	for i, side := range g.Sides {
		p, r := ps[i], ch[i].After
		p.ratings[g.Pool] = r
		h := append(p.history[g.Pool], ratings.Point{Room: g.Room, At: at, Rating: r.Rating, Deviation: r.Deviation})
		if len(h) > ratings.HistoryLimit {
			h = slices.Delete(h, 0, len(h)-ratings.HistoryLimit)
		}
		p.history[g.Pool] = h
		k := boardKey{g.Pool, side.Bot}
		rows := slices.DeleteFunc(rs.boards[k], func(b boardRow) bool { return b.id == side.ID })
		if r.OnBoard(g.Ended) {
			row := boardRow{side.ID, r.Rating}
			j, _ := slices.BinarySearchFunc(rows, row, compareRows)
			rows = slices.Insert(rows, j, row)
		}
		if len(rows) == 0 {
			delete(rs.boards, k)
		} else {
			rs.boards[k] = rows
		}
	}
	rs.applied[g.Room] = appliedGame{changes: ch, expires: now.Add(s.records.retention)}
	return ch, true, nil
}

// compareRows orders a board best first, and ties by id descending (as
// Redis's ZREVRANGE).
func compareRows(a, b boardRow) int {
	if c := cmp.Compare(b.rating, a.rating); c != 0 {
		return c
	}
	return cmp.Compare(b.id, a.id)
}

// Changes implements ratings.Store.
func (s *Store) Changes(ctx context.Context, room string) ([2]ratings.Change, error) {
	if err := ctx.Err(); err != nil {
		return [2]ratings.Change{}, fmt.Errorf("changes of room %s: %w", room, err)
	}
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	a, ok := s.ratingsLocked().applied[room]
	if !ok || !now.Before(a.expires) {
		return [2]ratings.Change{}, fmt.Errorf("changes of room %s: %w", room, ratings.ErrNotFound)
	}
	return a.changes, nil
}

// History implements ratings.Store.
func (s *Store) History(ctx context.Context, pool, id string, n int) ([]ratings.Point, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("history of %s in %s: %w", id, pool, err)
	}
	if n <= 0 {
		return nil, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.ratingsLocked().players[id]
	if p == nil {
		return nil, nil
	}
	h := p.history[pool]
	return slices.Clone(h[len(h)-min(n, len(h)):]), nil
}

// Leaderboard implements ratings.Store: the board's rows are kept sorted as
// games are applied; a read walks them from the best, leaving out the
// players idle at now.
func (s *Store) Leaderboard(ctx context.Context, pool string, bots bool, n int, now time.Time) ([]ratings.Entry, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("leaderboard of %s: %w", pool, err)
	}
	var out []ratings.Entry
	if n <= 0 {
		return out, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	rs := s.ratingsLocked()
	for _, row := range rs.boards[boardKey{pool, bots}] {
		p := rs.players[row.id]
		if r := p.ratings[pool]; r.OnBoard(now) {
			out = append(out, ratings.Entry{ID: row.id, Name: p.name, Bot: p.bot, Rating: r})
			if len(out) == n {
				break
			}
		}
	}
	return out, nil
}

// Rank implements ratings.Store.
func (s *Store) Rank(ctx context.Context, pool string, bots bool, id string, now time.Time) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, fmt.Errorf("rank of %s in %s: %w", id, pool, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	rs := s.ratingsLocked()
	rank := 0
	for _, row := range rs.boards[boardKey{pool, bots}] {
		if !rs.players[row.id].ratings[pool].OnBoard(now) {
			continue
		}
		rank++
		if row.id == id {
			return rank, nil
		}
	}
	return 0, nil
}

// Owe implements ratings.Store.
func (s *Store) Owe(ctx context.Context, room string) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("owe room %s: %w", room, err)
	}
	if room == "" {
		return fmt.Errorf("owe: empty room")
	}
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.oweLocked(room, now)
	return nil
}

// oweLocked marks room owed, keeping the time of its first mark.
func (s *Store) oweLocked(room string, now time.Time) {
	rs := s.ratingsLocked()
	if _, ok := rs.owed[room]; !ok {
		rs.owed[room] = now
	}
}

// Owed implements ratings.Store: the oldest first.
func (s *Store) Owed(ctx context.Context, n int) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("owed rooms: %w", err)
	}
	if n <= 0 {
		return nil, nil
	}
	s.mu.Lock()
	owed := maps.Clone(s.ratingsLocked().owed)
	s.mu.Unlock()
	rooms := slices.SortedFunc(maps.Keys(owed), func(a, b string) int {
		if c := owed[a].Compare(owed[b]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	return rooms[:min(n, len(rooms))], nil
}

// Tally implements ratings.Store.
func (s *Store) Tally(ctx context.Context, room string, outcomes map[string]ratings.Outcome) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("tally of room %s: %w", room, err)
	}
	if err := ratings.CheckTally(room, outcomes); err != nil {
		return err
	}
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	rs := s.ratingsLocked()
	if exp, ok := rs.tallied[room]; ok && now.Before(exp) {
		return nil
	}
	rs.tallied[room] = now.Add(s.records.retention)
	for id, o := range outcomes {
		p := rs.playerLocked(id)
		switch o {
		case ratings.Won:
			p.results.Won++
		case ratings.Drawn:
			p.results.Drawn++
		default:
			p.results.Lost++
		}
	}
	return nil
}

// Results implements ratings.Store.
func (s *Store) Results(ctx context.Context, id string) (ratings.Results, error) {
	if err := ctx.Err(); err != nil {
		return ratings.Results{}, fmt.Errorf("results of %s: %w", id, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if p := s.ratingsLocked().players[id]; p != nil {
		return p.results, nil
	}
	return ratings.Results{}, nil
}

// Best implements ratings.Store.
func (s *Store) Best(ctx context.Context, id, name string, score int64) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("best score of %s: %w", id, err)
	}
	if id == "" || score < 0 {
		return fmt.Errorf("best score %d of %q: an id and a score of 0 or more are required", score, id)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	rs := s.ratingsLocked()
	i := slices.IndexFunc(rs.best, func(b ratings.Score) bool { return b.ID == id })
	if i >= 0 {
		if rs.best[i].Score >= score {
			return nil
		}
		rs.best = slices.Delete(rs.best, i, i+1)
	}
	sc := ratings.Score{ID: id, Name: name, Score: score}
	j, _ := slices.BinarySearchFunc(rs.best, sc, func(a, b ratings.Score) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(b.ID, a.ID)
	})
	rs.best = slices.Insert(rs.best, j, sc)
	return nil
}

// BestScores implements ratings.Store.
func (s *Store) BestScores(ctx context.Context, n int) ([]ratings.Score, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("best scores: %w", err)
	}
	if n <= 0 {
		return nil, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	best := s.ratingsLocked().best
	return slices.Clone(best[:min(n, len(best))]), nil
}

// BestScore implements ratings.Store.
func (s *Store) BestScore(ctx context.Context, id string) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, fmt.Errorf("best score of %s: %w", id, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, b := range s.ratingsLocked().best {
		if b.ID == id {
			return b.Score, nil
		}
	}
	return 0, nil
}

// JoinLadder implements ratings.Store.
func (s *Store) JoinLadder(ctx context.Context, pool, id string) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("join ladder %s: %w", pool, err)
	}
	if pool == "" || id == "" {
		return fmt.Errorf("join ladder %q: bot %q: empty pool or id", pool, id)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	rs := s.ratingsLocked()
	p := rs.playerLocked(id)
	if _, in := p.ladders[pool]; in {
		return nil
	}
	if len(p.ladders) >= ratings.MaxLadders {
		return fmt.Errorf("join ladder %s: bot %s is in %d ladders already", pool, id, len(p.ladders))
	}
	if p.ladders == nil {
		p.ladders = map[string]struct{}{}
	}
	p.ladders[pool] = struct{}{}
	if rs.ladders[pool] == nil {
		rs.ladders[pool] = map[string]struct{}{}
	}
	rs.ladders[pool][id] = struct{}{}
	return nil
}

// LeaveLadder implements ratings.Store.
func (s *Store) LeaveLadder(ctx context.Context, pool, id string) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("leave ladder %s: %w", pool, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	rs := s.ratingsLocked()
	if p := rs.players[id]; p != nil {
		delete(p.ladders, pool)
	}
	if l := rs.ladders[pool]; l != nil {
		delete(l, id)
		if len(l) == 0 {
			delete(rs.ladders, pool)
		}
	}
	return nil
}

// Ladder implements ratings.Store: the entrants sorted by id.
func (s *Store) Ladder(ctx context.Context, pool string) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("ladder %s: %w", pool, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Sorted(maps.Keys(s.ratingsLocked().ladders[pool])), nil
}

// Ladders implements ratings.Store: the pools sorted.
func (s *Store) Ladders(ctx context.Context, id string) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("ladders of %s: %w", id, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if p := s.ratingsLocked().players[id]; p != nil {
		return slices.Sorted(maps.Keys(p.ladders)), nil
	}
	return nil, nil
}
