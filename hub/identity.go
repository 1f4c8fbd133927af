package hub

import (
	"context"
	"errors"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/players"
	"github.com/tabuleiro/tabuleiro/protocol"
)

// identify finds who says hello (docs/protocol.md, "hello" and
// "Accounts"): the guest or bot account of the token the hello carries;
// else the player of the session cookie the upgrade carried; else a new
// guest, named as the hello asks (within the rate of NewGuests). token is
// the guest token welcome carries: the one given, or a new guest's; never
// anything for a session. found says the player existed (it is then
// seated again in its rooms).
func (h *Hub) identify(ctx context.Context, c *conn, m *protocol.ClientMessage) (p players.Identity, token string, found bool, perr *protocol.Error) {
	dir := h.cfg.Players
	name := players.CleanName(m.Name)
	switch {
	case m.Token != "":
		p, err := dir.ByToken(ctx, m.Token)
		switch {
		case err == nil:
			return h.renamed(ctx, p, name), m.Token, true, nil
		case errors.Is(err, players.ErrRetired):
			return p, "", false, protocol.Errorf(protocol.CodeUnauthorized, "this guest is now an account: sign in with its name and password")
		case !errors.Is(err, players.ErrNotFound):
			h.log.Error("player lookup failed", zap.Error(err))
			return p, "", false, protocol.Errorf(protocol.CodeInternal, "could not look up the player, try again")
		}
	case c.session != "":
		p, s, err := dir.BySession(ctx, c.session)
		switch {
		case err == nil:
			c.sessionHash = s.Hash
			if !p.Account() {
				p = h.renamed(ctx, p, name)
			}
			return p, "", true, nil
		case errors.Is(err, players.ErrNotFound):
			return p, "", false, protocol.Errorf(protocol.CodeUnauthorized, "your session has ended: sign in again, or play as a guest")
		default:
			h.log.Error("session lookup failed", zap.Error(err))
			return p, "", false, protocol.Errorf(protocol.CodeInternal, "could not look up your session, try again")
		}
	}
	if h.cfg.NewGuests != nil && !h.cfg.NewGuests.Allow(c.addrKey) {
		return p, "", false, protocol.Errorf(protocol.CodeRateLimited, "too many new guests from your address: say hello with the token you were given, or try again in a minute")
	}
	p, token, err := dir.NewGuest(ctx, name)
	if err != nil {
		h.log.Error("save player failed", zap.Error(err))
		return p, "", false, protocol.Errorf(protocol.CodeInternal, "could not save the player, try again")
	}
	return p, token, false, nil
}

// renamed is the guest p with the name its hello gives, if any and
// different (and not an account's): a rename that fails keeps the old
// name.
func (h *Hub) renamed(ctx context.Context, p players.Identity, name string) players.Identity {
	if name == "" || name == p.Name || p.Account() || players.IsBotID(p.ID) {
		return p
	}
	q, err := h.cfg.Players.Rename(ctx, p, name)
	if err != nil {
		h.log.Info("hello: name kept", zap.String("player", p.ID), zap.Error(err))
		return p
	}
	return q
}

// SignOut closes the connections of the player on this node whose
// session's hash ("" for a token's or a new guest's connection) which
// picks, once the sessions were ended (DELETE /api/session and
// /api/sessions, a password change, a closed account). The page comes
// back as whoever its cookie then says.
func (h *Hub) SignOut(playerID string, which func(sessionHash string) bool) {
	h.mu.Lock()
	var cs []*conn
	for c := range h.byPlayer[playerID] {
		if which(c.sessionHash) {
			cs = append(cs, c)
		}
	}
	h.mu.Unlock()
	for _, c := range cs {
		c.kill(protocol.ClosePolicy, "signed out")
	}
}

// BecameAccount tells the player's connections on this node that the
// guest became the account name: they show its name from now on, and
// refuse renames.
func (h *Hub) BecameAccount(playerID, name string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for c := range h.byPlayer[playerID] {
		c.setName(name)
		c.account.Store(true)
	}
}
