package hub

import (
	"context"
	"errors"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/players"
	"github.com/tabuleiro/tabuleiro/protocol"
)

// rename (player.rename, an addition to the contract, docs/protocol.md)
// stores the guest's new name and gives it to every connection of
// the player. Rooms show it from the next seat the player takes; chat lines
// carry it at once. An empty name, or one that is empty once cleaned, an
// account's name (another's, or any rename of an account: its name is
// the one it signs in with) is refused; a store that cannot save it
// changes nothing.
func (h *Hub) rename(c *conn, m *protocol.ClientMessage) *protocol.Error {
	ctx, cancel := context.WithTimeout(context.Background(), StoreTimeout)
	defer cancel()
	p := c.ident
	var err error
	if c.account.Load() {
		err = players.ErrAccountName
	} else {
		p, err = h.cfg.Players.Rename(ctx, p, m.Name)
	}
	switch {
	case errors.Is(err, players.ErrAccountName), errors.Is(err, players.ErrBadName):
		return protocol.Errorf(protocol.CodeBadRequest, "%s", players.Why(err))
	case errors.Is(err, players.ErrNameTaken):
		return protocol.Errorf(protocol.CodeNameTaken, "an account has that name, or one that looks like it: choose another")
	case err != nil:
		h.log.Warn("rename: save player", zap.String("player", c.playerID), zap.Error(err))
		return protocol.Errorf(protocol.CodeInternal, "could not save the name, try again")
	}
	h.mu.Lock()
	for other := range h.byPlayer[c.playerID] {
		other.setName(p.Name)
	}
	h.mu.Unlock()
	c.setName(p.Name) // also when the connection is not in byPlayer (closing)
	c.Send(protocol.MustEncode(protocol.PlayerRenamed{Type: protocol.TypePlayerRenamed, ID: m.ID, Player: p.Public()}))
	return nil
}
