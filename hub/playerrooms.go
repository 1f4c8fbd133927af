package hub

import (
	"context"
	"slices"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/protocol"
)

// DefaultMaxPlayerRooms is how many unfinished rooms one player may hold
// (Config.MaxPlayerRooms).
const DefaultMaxPlayerRooms = 20

// reserveRoom refuses a request that would give c's player one more
// unfinished room (a create, a quick match, a rematch, or a join as a
// player of a room the player does not hold yet) when the player holds
// Config.MaxPlayerRooms already, counting every connection of the player
// together: the store's list of the player's unfinished rooms (all nodes)
// and the rooms this node is creating for the player now, by id, so that a
// room already saved and still being created counts once (its creator's
// other connection may ask again as soon as it has seen the room). room is
// the id of the room joined or created, "" for a check that reserves
// nothing. The caller calls release once the room is made or refused.
func (h *Hub) reserveRoom(ctx context.Context, c *conn, room string) (release func(), perr *protocol.Error) {
	release = func() {}
	if room != "" {
		h.mu.Lock()
		if h.creating[c.playerID] == nil {
			h.creating[c.playerID] = map[string]int{}
		}
		h.creating[c.playerID][room]++
		h.mu.Unlock()
		release = func() {
			h.mu.Lock()
			made := h.creating[c.playerID]
			if made[room]--; made[room] <= 0 {
				delete(made, room)
			}
			if len(made) == 0 {
				delete(h.creating, c.playerID)
			}
			h.mu.Unlock()
		}
	}
	ids, err := h.cfg.Store.PlayerRooms(ctx, c.playerID)
	if err != nil {
		release()
		h.log.Warn("player rooms", zap.String("player", c.playerID), zap.Error(err))
		return nil, protocol.Errorf(protocol.CodeInternal, "could not count your games, try again")
	}
	if room != "" && slices.Contains(ids, room) {
		return release, nil // held already: no room more
	}
	n := len(ids)
	h.mu.Lock()
	for id := range h.creating[c.playerID] {
		if id != room && !slices.Contains(ids, id) {
			n++
		}
	}
	h.mu.Unlock()
	if n >= h.cfg.MaxPlayerRooms {
		release()
		return nil, protocol.Errorf(protocol.CodeBadRequest,
			"you have %d unfinished games, the most a player may have: finish, resign or leave one first", n)
	}
	return release, nil
}

// playerQuota is reserveRoom for a request whose room is made later (a
// quick match pairs, a rematch is agreed) or not at all: it checks, and
// reserves nothing. For a join (room not empty) a store that cannot be
// read lets the join through: the room decides, and most joins take no
// new room; a new room needs the store anyway.
func (h *Hub) playerQuota(c *conn, room string) *protocol.Error {
	ctx, cancel := context.WithTimeout(context.Background(), StoreTimeout)
	defer cancel()
	release, perr := h.reserveRoom(ctx, c, room)
	if perr == nil {
		release()
	}
	if perr != nil && perr.Code == protocol.CodeInternal && room != "" {
		return nil
	}
	return perr
}
