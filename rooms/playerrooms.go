// The cap on each player's unfinished rooms: Manager.Create applies it to
// every room made for players, whoever asks (a WebSocket's room.create, a
// quick match, a challenge of a bot account, a rematch, a tournament).

package rooms

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/players"
	"github.com/tabuleiro/tabuleiro/protocol"
)

// DefaultMaxPlayerRooms is how many unfinished rooms one player may hold
// (Config.MaxPlayerRooms).
const DefaultMaxPlayerRooms = 20

// ErrTooManyRooms is wrapped by the error of a room refused because one of
// its players holds Config.MaxPlayerRooms unfinished rooms already (with
// the protocol error to answer, bad_request).
var ErrTooManyRooms = errors.New("rooms: a player holds the most unfinished rooms")

// seated is the ids of the players seated in seats, people and bot
// accounts alike (a level's seat has none), each once.
func seated(seats []players.Player) []string {
	var ids []string
	for _, s := range seats {
		if s.ID != "" && s.Bot == "" && !slices.Contains(ids, s.ID) {
			ids = append(ids, s.ID)
		}
	}
	return ids
}

// reserve refuses a room that would give one of players one more
// unfinished room when that player holds Config.MaxPlayerRooms already:
// the store's list of the player's unfinished rooms (every node's) and the
// rooms this node is making for the player now, by id, so that a room
// already saved and still being made counts once. room is the id of the
// room made or joined ("" for a check that reserves nothing); a room the
// player holds already is never refused. asker is the player who asks,
// for the wording. The caller calls release once the room is made (saved)
// or refused; the error is nil or wraps ErrTooManyRooms and a
// *protocol.Error.
func (m *Manager) reserve(ctx context.Context, room, asker string, players []string, names map[string]string) (release func(), err error) {
	var held []string // the players whose reservation is held
	release = func() {
		if room == "" {
			return
		}
		m.mu.Lock()
		for _, p := range held {
			made := m.making[p]
			if made[room]--; made[room] <= 0 {
				delete(made, room)
			}
			if len(made) == 0 {
				delete(m.making, p)
			}
		}
		m.mu.Unlock()
	}
	if m.cfg.Store == nil {
		return release, nil
	}
	if room != "" {
		m.mu.Lock()
		for _, p := range players {
			if m.making[p] == nil {
				m.making[p] = map[string]int{}
			}
			m.making[p][room]++
		}
		held = players
		m.mu.Unlock()
	}
	for _, p := range players {
		ids, err := m.cfg.Store.PlayerRooms(ctx, p)
		if err != nil {
			release()
			m.log.Warn("player rooms", zap.String("player", p), zap.Error(err))
			return nil, protocol.Errorf(protocol.CodeInternal, "could not count the games of the players, try again")
		}
		if room != "" && slices.Contains(ids, room) {
			continue // held already: no room more
		}
		n := len(ids)
		m.mu.Lock()
		for id := range m.making[p] {
			if id != room && !slices.Contains(ids, id) {
				n++
			}
		}
		m.mu.Unlock()
		if n < m.cfg.MaxPlayerRooms {
			continue
		}
		release()
		perr := protocol.Errorf(protocol.CodeBadRequest,
			"you have %d unfinished games, the most a player may have: finish, resign or leave one first", n)
		if p != asker {
			who := names[p]
			if who == "" {
				who = p
			}
			perr = protocol.Errorf(protocol.CodeBadRequest,
				"%s has %d unfinished games, the most a player may have: try again once one is over", who, n)
		}
		return nil, fmt.Errorf("%w (%w)", perr, ErrTooManyRooms)
	}
	return release, nil
}

// CheckPlayerRooms is the cap's check for player alone, for a request
// whose room is made later (a quick match waits for an opponent, a rematch
// for the other player) or that joins room as a player ("" for none). It
// reserves nothing. For a join, a store that cannot be read lets it
// through: the room decides, and most joins take no new room; a new room
// needs the store anyway.
func (m *Manager) CheckPlayerRooms(ctx context.Context, player, room string) *protocol.Error {
	release, err := m.reserve(ctx, room, player, []string{player}, nil)
	if err == nil {
		release()
		return nil
	}
	perr := protocol.AsError(err)
	if perr.Code == protocol.CodeInternal && room != "" {
		return nil
	}
	return perr
}
