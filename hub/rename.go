package hub

import (
	"context"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/store"
)

// rename (player.rename, an addition to the contract, docs/protocol.md)
// stores the player's new name and gives it to every connection of
// the player. Rooms show it from the next seat the player takes; chat lines
// carry it at once. An empty name, or one that is empty once cleaned, is
// refused; a store that cannot save it changes nothing.
func (h *Hub) rename(c *conn, m *protocol.ClientMessage) *protocol.Error {
	name := CleanName(m.Name)
	if name == "" {
		return protocol.Errorf(protocol.CodeBadRequest, "a name needs at least one visible character")
	}
	ctx, cancel := context.WithTimeout(context.Background(), StoreTimeout)
	defer cancel()
	p := store.Player{ID: c.playerID, Name: name, TokenHash: c.tokenHash}
	if err := h.cfg.Store.SavePlayer(ctx, p); err != nil {
		h.log.Warn("rename: save player", zap.String("player", c.playerID), zap.Error(err))
		return protocol.Errorf(protocol.CodeInternal, "could not save the name, try again")
	}
	h.mu.Lock()
	for other := range h.byPlayer[c.playerID] {
		other.setName(name)
	}
	h.mu.Unlock()
	c.setName(name) // also when the connection is not in byPlayer (closing)
	c.Send(protocol.MustEncode(protocol.PlayerRenamed{Type: protocol.TypePlayerRenamed, ID: m.ID,
		Player: protocol.PlayerInfo{ID: c.playerID, Name: name}}))
	return nil
}
