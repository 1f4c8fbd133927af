// Quick match: casual and rated queues apart (a casual seeker never meets a
// rated one), and in a rated queue players of near rating. A rated seeker
// accepts an opponent within ratings.SeekRange of its rating, and the range
// widens by ratings.SeekWiden every Config.MatchStep it waits (±100 at once, ±150 after
// 5 s, ±200 after 10 s, ...): two seekers pair when each one's range holds
// the other, the nearest first. A new request pairs at once if it can; the
// rest pair as their ranges widen, at a sweep every MatchStep (a timer
// that runs only while rated seekers wait). With several nodes the shared
// queue (store.Matcher) applies the same rule (store.MatchEntry.Pairs) in
// its atomic step,
// and each node offers its waiting rated seekers to it again at every step.

package hub

import (
	"context"
	"math/rand/v2"
	"slices"
	"time"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/players"
	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/ratings"
	"github.com/tabuleiro/tabuleiro/rooms"
)

// seeking reads c's rating in the pool of key for a rated request, and
// notes c's request (its rating and since when it waits) on c. An error
// is the player's answer.
func (h *Hub) seeking(c *conn, key QueueKey) *protocol.Error {
	seek := ratings.Seeker{Player: c.playerID, Since: h.now(), Step: h.cfg.MatchStep}
	if key.Rated {
		pool, _ := ratings.Pool(key.Game, key.Variant, 2)
		ctx, cancel := context.WithTimeout(context.Background(), StoreTimeout)
		r, err := h.cfg.Store.Rating(ctx, pool, c.playerID)
		cancel()
		if err != nil {
			h.log.Warn("quick match: rating", zap.String("player", c.playerID), zap.Error(err))
			return protocol.Errorf(protocol.CodeInternal, "could not read your rating, try again")
		}
		seek.Rating = r.At(seek.Since).Rating
	}
	h.mu.Lock()
	c.seek = seek
	h.mu.Unlock()
	return nil
}

// MatchSeek is c's request as the shared queue's entry carries it (a
// rated one): its rating, when it began to wait and its range's step.
func (c *conn) MatchSeek() ratings.Seeker {
	c.h.mu.Lock()
	defer c.h.mu.Unlock()
	return c.seek
}

// DefaultMatchStep is Config.MatchStep's default: a rated seeker's range
// widens by ratings.SeekWiden every step it waits.
const DefaultMatchStep = 5 * time.Second

// now is the quick match's clock.
func (h *Hub) now() time.Time { return h.cfg.Now() }

// pairLocked takes out of key's queue the seeker c pairs with, or queues
// c. Under h.mu.
func (h *Hub) pairLocked(c *conn, key QueueKey) (other *conn) {
	q := h.queues[key]
	i := -1
	if key.Rated {
		seekers := make([]ratings.Seeker, len(q))
		for k, o := range q {
			seekers[k] = o.seek
		}
		i = ratings.Nearest(c.seek, seekers, h.now())
	} else {
		i = slices.IndexFunc(q, func(o *conn) bool { return o.playerID != c.playerID })
	}
	if i >= 0 {
		other = q[i]
		q = append(q[:i:i], q[i+1:]...)
	} else {
		q = append(q, c)
		if key.Rated {
			h.armSweepLocked()
		}
	}
	if len(q) == 0 {
		delete(h.queues, key)
	} else {
		h.queues[key] = q
	}
	return other
}

// armSweepLocked starts the sweep timer unless it is armed, a sweep runs
// (it arms the next one when it ends) or the hub closes. Under h.mu.
func (h *Hub) armSweepLocked() {
	if h.sweep == nil && !h.sweeping && !h.closing {
		h.sweep = time.AfterFunc(h.cfg.MatchStep, h.sweepRated)
	}
}

// sweepRated pairs the rated seekers whose ranges widened enough (the
// sweep timer's function), then arms the timer again while any waits.
// With several nodes it offers this node's rated seekers to the shared
// queue again instead. The next sweep is armed only once this one's
// rooms and offers (store calls) are done, so a slow store never has
// sweeps pile up, one more goroutine every step.
func (h *Hub) sweepRated() {
	shared := h.hooks().Match
	type match struct {
		key  QueueKey
		a, b *conn
	}
	var (
		found   []match
		offered []*conn
		keys    []QueueKey
	)
	h.mu.Lock()
	h.sweep = nil
	h.sweeping = true
	now := h.now()
	for key, q := range h.queues {
		if !key.Rated {
			continue
		}
		if shared != nil {
			for _, c := range q {
				offered = append(offered, c)
				keys = append(keys, key)
			}
			continue
		}
		seekers := make([]ratings.Seeker, len(q))
		for i, c := range q {
			seekers[i] = c.seek
		}
		pairs := ratings.Sweep(seekers, now)
		if len(pairs) == 0 {
			continue
		}
		gone := map[*conn]bool{}
		for _, p := range pairs {
			found = append(found, match{key, q[p[0]], q[p[1]]})
			gone[q[p[0]]], gone[q[p[1]]] = true, true
		}
		q = slices.DeleteFunc(slices.Clone(q), func(c *conn) bool { return gone[c] })
		if len(q) == 0 {
			delete(h.queues, key)
		} else {
			h.queues[key] = q
		}
	}
	h.mu.Unlock()
	defer h.rearmSweep()
	if len(found) > 0 {
		h.LobbyChanged()
	}
	for _, m := range found {
		h.startMatch(m.key, m.a, m.b, nil)
	}
	for i, c := range offered {
		if c.isClosed() {
			continue
		}
		if perr := shared.Offer(c, keys[i]); perr != nil {
			c.errorTo(nil, "", perr)
		}
	}
}

// rearmSweep ends a sweep: it arms the next one while rated seekers wait.
func (h *Hub) rearmSweep() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.sweeping = false
	for key := range h.queues {
		if key.Rated {
			h.armSweepLocked()
			return
		}
	}
}

// startMatch makes the room of a quick match between a and b, in a random
// seat order, and joins them to it. asker, when not nil, is the one whose
// request paired them: the refusal is its answer (returned), and the
// other's error.
func (h *Hub) startMatch(key QueueKey, a, b *conn, asker *conn) *protocol.Error {
	pair := []*conn{a, b}
	if rand.IntN(2) == 1 {
		pair[0], pair[1] = b, a
	}
	id := rooms.NewID()
	for seat, p := range pair {
		p.Send(protocol.MustEncode(protocol.MatchFound{Type: protocol.TypeMatchFound, Room: id, Seat: seat}))
	}
	spec := rooms.Spec{ID: id, Game: key.Game, Variant: key.Variant, Rated: key.Rated,
		Accounts: map[string]bool{pair[0].playerID: pair[0].Account(), pair[1].playerID: pair[1].Account()},
		Seats:    []players.Player{players.Of(pair[0].playerID, pair[0].PlayerName()), players.Of(pair[1].playerID, pair[1].PlayerName())},
		Join:     []rooms.JoinAs{{M: pair[0], As: rooms.RolePlayer}, {M: pair[1], As: rooms.RolePlayer}}}
	if asker != nil {
		spec.For = asker.playerID
	}
	ctx, cancel := context.WithTimeout(context.Background(), StoreTimeout)
	defer cancel()
	if _, err := h.cfg.Rooms.Create(ctx, spec); err != nil {
		perr := protocol.AsError(err)
		for _, p := range pair {
			if p != asker {
				p.errorTo(nil, "", perr)
			}
		}
		return perr
	}
	h.log.Info("match found", zap.String("room", id), zap.String("game", key.Game), zap.String("variant", key.Variant),
		zap.Bool("rated", key.Rated))
	return nil
}
