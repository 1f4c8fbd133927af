package httpapi

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/protocol"
)

// BotEvent is one line of GET /api/bot/stream/event.
type BotEvent struct {
	// Type is "gameStart" (the bot is seated in a game that is being
	// played) or "gameFinish" (that game ended).
	Type    string `json:"type"`
	Room    string `json:"room"`
	Game    string `json:"game,omitempty"`
	Variant string `json:"variant,omitempty"`
}

// botEventStream answers GET /api/bot/stream/event: first a gameStart for
// each of the bot's unfinished games, then one line per event, an empty
// line when idle for Heartbeat.
func (s *Server) botEventStream(w http.ResponseWriter, r *http.Request) {
	p, ok := s.bearerBot(w, r)
	if !ok {
		return
	}
	e := s.bots.openEvents(p, s.botOpen(r.Context(), p.ID))
	if e == nil {
		w.Header().Set("Retry-After", "5")
		s.httpError(w, http.StatusServiceUnavailable, protocol.Errorf(protocol.CodeBusy, "the server holds all the bot streams it can, try again later"))
		return
	}
	defer s.bots.closeEvents(p.ID, e)
	if s.cfg.Ladder != nil {
		s.cfg.Ladder.StreamOpened(p.ID) // a bot paused on the ladder plays again
	}
	// Subscribed first, then the games so far: a game that starts in
	// between is told twice, never missed (a bot takes gameStart as
	// idempotent).
	ctx, cancel := context.WithTimeout(r.Context(), loadTimeout)
	ids, err := s.cfg.Store.PlayerRooms(ctx, p.ID)
	cancel()
	if err != nil {
		s.log.Warn("bot's rooms", zap.String("bot", p.ID), zap.Error(err))
		w.Header().Set("Retry-After", "2")
		s.httpError(w, http.StatusServiceUnavailable, protocol.Errorf(protocol.CodeInternal, "could not load your games, try again"))
		return
	}
	rc := ndjson(w)
	for _, id := range ids {
		line, _ := json.Marshal(BotEvent{Type: "gameStart", Room: id})
		if writeLine(w, rc, line) != nil {
			return
		}
	}
	t := time.NewTicker(s.cfg.BotAPI.Heartbeat)
	defer t.Stop()
	for {
		var line []byte
		select {
		case <-r.Context().Done():
			return
		case <-s.bots.quit:
			return
		case <-e.kicked:
			return
		case line = <-e.lines:
			t.Reset(s.cfg.BotAPI.Heartbeat)
		case <-t.C:
		}
		if writeLine(w, rc, line) != nil {
			return
		}
	}
}
