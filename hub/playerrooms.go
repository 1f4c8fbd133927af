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
// plus the rooms this node is creating for the player now. room is the
// room joined, "" for a new one. The caller calls release once the room is
// created or refused.
func (h *Hub) reserveRoom(ctx context.Context, c *conn, room string) (release func(), perr *protocol.Error) {
	limit := h.cfg.MaxPlayerRooms
	h.mu.Lock()
	pending := h.creating[c.playerID]
	h.creating[c.playerID] = pending + 1
	h.mu.Unlock()
	release = func() {
		h.mu.Lock()
		if h.creating[c.playerID]--; h.creating[c.playerID] <= 0 {
			delete(h.creating, c.playerID)
		}
		h.mu.Unlock()
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
	if n := len(ids) + pending; n >= limit {
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
