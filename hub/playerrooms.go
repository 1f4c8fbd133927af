package hub

import (
	"context"

	"github.com/tabuleiro/tabuleiro/protocol"
)

// playerQuota is the cap on a player's unfinished rooms
// (rooms.Config.MaxPlayerRooms) for a request whose room is made later (a
// quick match pairs, a rematch is agreed) or not at all, or that joins
// room as a player: it checks, and reserves nothing. The rooms' Create
// applies the cap itself to every room it makes.
func (h *Hub) playerQuota(c *conn, room string) *protocol.Error {
	ctx, cancel := context.WithTimeout(context.Background(), StoreTimeout)
	defer cancel()
	return h.cfg.Rooms.CheckPlayerRooms(ctx, c.playerID, room)
}
