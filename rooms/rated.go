// Rated games: who may sit in one, the seats' ratings, and the changes the
// rater (package ratings/rater) posts once it applied a finished game.
// The store's reads of ratings run off the room goroutine: in Create, on
// its caller's goroutine, before the room starts; for a seat taken by a
// join, on a goroutine of their own that posts the rating back.

package rooms

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"slices"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/players"
	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/ratings"
)

// NotRatedMsg is the refusal of a rated game to a seat that cannot be
// rated: a guest, or the server's bot.
const NotRatedMsg = "rated games are between accounts (sign in); guests and the server's bots play casual games"

// AccountMember is a Member that knows whether its player is an account
// (the hub's connections, and the several-nodes layer's proxies of
// them). A member without it is an account only when it is a bot account.
type AccountMember interface {
	Account() bool
}

// memberAccount reports whether mem's player may sit in a rated game: an
// account or a bot account.
func memberAccount(mem Member) bool {
	if players.IsBotID(mem.PlayerID()) {
		return true
	}
	a, ok := mem.(AccountMember)
	return ok && a.Account()
}

// RatedSetup reports whether a game from setup may be rated: only from
// the initial position (a set-up position is casual, as on lichess).
func RatedSetup(setup json.RawMessage) bool {
	t := bytes.TrimSpace(setup)
	return len(t) == 0 || string(t) == "null"
}

// errNotRated is the refusal of a rated game.
func errNotRated() *protocol.Error {
	return protocol.Errorf(protocol.CodeBadRequest, NotRatedMsg)
}

// rateSeats checks a rated spec and fills the seats' ratings in the
// variant's pool (Manager.Create, before the room starts): every seat
// taken must be an account or a bot account, and the variant must have a
// pool. A seat whose rating is already set (a rematch's) is not read
// again. It returns the spec's seats with their ratings (a copy).
func (m *Manager) rateSeats(ctx context.Context, spec Spec) ([]players.Player, error) {
	pool, ok := ratings.Pool(spec.Game, spec.Variant, len(spec.Seats))
	switch {
	case spec.Rated && (!ok || spec.Watch):
		return nil, protocol.Errorf(protocol.CodeBadRequest, "%s %s has no rating pool: rated games are between two players", spec.Game, spec.Variant)
	case spec.Rated && !RatedSetup(spec.Setup):
		return nil, protocol.Errorf(protocol.CodeBadRequest, "a game from a set-up position is casual: leave out \"rated\" or the setup")
	}
	if !ok || spec.Watch || m.cfg.Store == nil {
		return spec.Seats, nil
	}
	seats := slices.Clone(spec.Seats)
	now := m.cfg.Now()
	for i, s := range seats {
		switch {
		case s.Free():
			continue // a joiner is checked as it takes the seat
		case s.Bot != "":
			if spec.Rated {
				return nil, errNotRated()
			}
			continue
		case s.Rating != 0:
			continue
		}
		account, known := spec.Accounts[s.ID]
		account = account || players.IsBotID(s.ID)
		if !account && !known {
			id, err := m.cfg.Store.PlayerByID(ctx, s.ID)
			switch {
			case err == nil:
				account = id.Account()
			case !errors.Is(err, players.ErrNotFound):
				m.log.Warn("rated seats: player", zap.String("player", s.ID), zap.Error(err))
				return nil, protocol.Errorf(protocol.CodeInternal, "could not read the players, try again")
			}
		}
		if !account {
			if spec.Rated {
				return nil, errNotRated()
			}
			continue
		}
		rt, err := m.cfg.Store.Rating(ctx, pool, s.ID)
		if err != nil {
			m.log.Warn("rated seats: rating", zap.String("player", s.ID), zap.Error(err))
			return nil, protocol.Errorf(protocol.CodeInternal, "could not read the ratings, try again")
		}
		seats[i].Rating, seats[i].Provisional = shown(rt.At(now))
	}
	return seats, nil
}

// shown is a rating as a seat shows it.
func shown(r ratings.Rating) (int, bool) { return r.Shown(), r.Provisional() }

// pool is the room's rating pool, false for none (one seat, or only bots).
func (r *Room) pool() (string, bool) {
	if r.watch {
		return "", false
	}
	return ratings.Pool(r.info.ID, r.variant, len(r.seats))
}

// canSit reports why mem may not take a free seat of the room: a rated
// game takes accounts and bot accounts only.
func (r *Room) canSit(mem Member) *protocol.Error {
	if r.rated && !memberAccount(mem) {
		return errNotRated()
	}
	return nil
}

// fetchRating reads the rating of the account that took seat, on a
// goroutine of its own, and posts it to the room, which shows it. A guest
// has none.
func (r *Room) fetchRating(seat int, mem Member) {
	pool, ok := r.pool()
	if !ok || r.m.cfg.Store == nil || !memberAccount(mem) {
		return
	}
	id, timeout, now := mem.PlayerID(), r.m.cfg.SaveTimeout, r.now()
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		rt, err := r.m.cfg.Store.Rating(ctx, pool, id)
		cancel()
		if err != nil {
			r.log.Warn("seat's rating", zap.String("room", r.id), zap.String("player", id), zap.Error(err))
			return
		}
		rating, provisional := shown(rt.At(now))
		r.post(func() {
			if seat >= len(r.seats) || r.seats[seat].ID != id || r.seats[seat].Rating != 0 {
				return
			}
			r.seats[seat].Rating, r.seats[seat].Provisional = rating, provisional
			r.nextSeq()
			r.broadcast()
		})
	}()
}

// PostRatings gives the running room id the changes of its rated game
// (the rater, once it applied them): the seats show the new ratings and
// room.state ratingChanges the changes. false when the room does not run
// here (or closed).
func (m *Manager) PostRatings(id string, changes [2]ratings.Change) bool {
	m.mu.Lock()
	r, ok := m.rooms[id]
	m.mu.Unlock()
	if !ok {
		return false
	}
	return r.post(func() { r.setRatings(changes) })
}

// setRatings shows the changes of the room's rated game.
func (r *Room) setRatings(changes [2]ratings.Change) {
	if !r.rated || len(r.seats) != 2 {
		return
	}
	view := make([]protocol.RatingChange, 0, 2)
	for i, c := range changes {
		if r.seats[i].ID != c.ID {
			return // not this room's players: nothing to show
		}
		after, provisional := shown(c.After)
		view = append(view, protocol.RatingChange{Seat: i, ID: c.ID, Before: c.Before.Shown(), After: after,
			Diff: c.Diff(), Provisional: provisional})
	}
	if slices.Equal(view, r.ratingChanges) {
		return
	}
	for _, c := range view {
		r.seats[c.Seat].Rating, r.seats[c.Seat].Provisional = c.After, c.Provisional
	}
	r.ratingChanges = view
	r.nextSeq()
	r.broadcast()
}
