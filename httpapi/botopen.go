package httpapi

import (
	"cmp"
	"context"
	"errors"
	"net/http"
	"slices"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/players"
	"github.com/tabuleiro/tabuleiro/protocol"
)

// A bot account's owner lists its bots (GET /api/bots/mine) and opens one
// to tournaments or closes it (PATCH /api/bots/{id}, {"open": bool}): an
// open bot may be entered in anyone's tournament, a closed one only in its
// owner's (torneios.go, consent). The setting is kept with the bot's
// identity (players.Bots.SetBotOpen); the bots online carry it in GET
// /api/bots, as this node saw it when the bot's event stream opened or its
// owner last changed it here.

// MyBot is one of the caller's bot accounts in GET /api/bots/mine.
type MyBot struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Open: anyone may enter it in a tournament.
	Open bool `json:"open"`
	// Online: its event stream is open (on any node).
	Online bool `json:"online"`
}

// BotSettings is the body of PATCH /api/bots/{id}.
type BotSettings struct {
	Open *bool `json:"open"`
}

// ownerBots returns the bots of the person the request is (its token, or
// the page's session cookie), or answers the error and returns false.
func (s *Server) ownerBots(w http.ResponseWriter, r *http.Request) (players.Identity, []players.Bot, players.Bots, bool) {
	c, ok := s.caller(w, r)
	p := c.Identity
	if !ok {
		return p, nil, nil, false
	}
	if players.IsBotID(p.ID) {
		s.httpError(w, http.StatusForbidden, protocol.Errorf(protocol.CodeForbidden, "a bot has no bots: use your own player token"))
		return p, nil, nil, false
	}
	bs := s.cfg.Store
	ctx, cancel := context.WithTimeout(r.Context(), loadTimeout)
	defer cancel()
	mine, err := bs.OwnerBots(ctx, p.ID)
	if err != nil {
		s.log.Warn("owner's bots", zap.String("owner", p.ID), zap.Error(err))
		w.Header().Set("Retry-After", "2")
		s.httpError(w, http.StatusServiceUnavailable, protocol.Errorf(protocol.CodeInternal, "could not load your bots, try again"))
		return p, nil, nil, false
	}
	return p, mine, bs, true
}

// myBots answers GET /api/bots/mine: the caller's bot accounts, by name,
// each with its setting and whether it is online.
func (s *Server) myBots(w http.ResponseWriter, r *http.Request) {
	p, mine, bs, ok := s.ownerBots(w, r)
	if !ok {
		return
	}
	ids := make([]string, len(mine))
	for i, b := range mine {
		ids[i] = b.ID
	}
	ctx, cancel := context.WithTimeout(r.Context(), loadTimeout)
	defer cancel()
	open, err := bs.BotsOpen(ctx, ids)
	if err != nil {
		s.log.Warn("bots open", zap.String("owner", p.ID), zap.Error(err))
		w.Header().Set("Retry-After", "2")
		s.httpError(w, http.StatusServiceUnavailable, protocol.Errorf(protocol.CodeInternal, "could not load your bots, try again"))
		return
	}
	out := make([]MyBot, len(mine))
	for i, b := range mine {
		_, online := s.bots.name(b.ID)
		out[i] = MyBot{ID: b.ID, Name: b.Name, Open: open[b.ID], Online: online}
	}
	slices.SortFunc(out, func(a, b MyBot) int { return cmp.Or(cmp.Compare(a.Name, b.Name), cmp.Compare(a.ID, b.ID)) })
	writeJSON(w, http.StatusOK, map[string]any{"bots": out})
}

// setBot answers PATCH /api/bots/{id}: its owner opens the bot to
// tournaments or closes it.
func (s *Server) setBot(w http.ResponseWriter, r *http.Request) {
	p, mine, bs, ok := s.ownerBots(w, r)
	if !ok {
		return
	}
	id := r.PathValue("id")
	i := slices.IndexFunc(mine, func(b players.Bot) bool { return b.ID == id })
	if i < 0 {
		s.httpError(w, http.StatusNotFound, protocol.Errorf(protocol.CodeBadRequest, "you have no bot %q", id))
		return
	}
	var req BotSettings
	if !s.decodeBody(w, r, botBodyLimit, &req) {
		return
	}
	if req.Open == nil {
		s.httpError(w, http.StatusBadRequest, protocol.Errorf(protocol.CodeBadRequest, `missing field "open": true lets anyone enter the bot in a tournament, false only you`))
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), loadTimeout)
	defer cancel()
	err := bs.SetBotOpen(ctx, id, *req.Open)
	switch {
	case errors.Is(err, players.ErrNotFound):
		s.httpError(w, http.StatusNotFound, protocol.Errorf(protocol.CodeBadRequest, "bot %q has expired", id))
		return
	case err != nil:
		s.log.Warn("set bot open", zap.String("owner", p.ID), zap.String("bot", id), zap.Error(err))
		w.Header().Set("Retry-After", "2")
		s.httpError(w, http.StatusServiceUnavailable, protocol.Errorf(protocol.CodeInternal, "could not save the setting, try again"))
		return
	}
	s.bots.setOpen(id, *req.Open)
	_, online := s.bots.name(id)
	writeJSON(w, http.StatusOK, MyBot{ID: id, Name: mine[i].Name, Open: *req.Open, Online: online})
}

// botOpen reads whether bot id is open to tournaments, for its entry in
// the bots online; false when the store cannot say.
func (s *Server) botOpen(ctx context.Context, id string) bool {
	ctx, cancel := context.WithTimeout(ctx, loadTimeout)
	defer cancel()
	open, err := s.cfg.Store.BotsOpen(ctx, []string{id})
	if err != nil {
		s.log.Warn("bot open", zap.String("bot", id), zap.Error(err))
	}
	return open[id]
}
