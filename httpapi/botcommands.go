package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"

	"github.com/tabuleiro/tabuleiro/hub"
	"github.com/tabuleiro/tabuleiro/internal/jsonbody"
	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/rooms"
)

// unreached answers the error of a room the hub's routing did not reach:
// 404 for a room that does not exist, else 503 to try again.
func (s *Server) unreached(w http.ResponseWriter, perr *protocol.Error) {
	if perr.Code == protocol.CodeUnknownRoom {
		s.httpError(w, http.StatusNotFound, perr)
		return
	}
	w.Header().Set("Retry-After", "1")
	s.httpError(w, http.StatusServiceUnavailable, perr)
}

// botCommand runs a bot's move or resignation in its room, here or on the
// node that serves it, and answers its outcome: 200 {"ok":true} once the
// room has taken it (saved and broadcast), the room's error otherwise. An
// illegal move changes nothing and the bot's clock runs on. check refuses
// a body the command does not take; msg is the command with the body's.
func (s *Server) botCommand(w http.ResponseWriter, r *http.Request, check func(BotCommandBody) *protocol.Error,
	msg func(BotCommandBody) *protocol.ClientMessage) {
	p, ok := s.bearerBot(w, r)
	if !ok {
		return
	}
	body, ok := s.commandBody(w, r)
	if !ok {
		return
	}
	if perr := check(body); perr != nil {
		s.httpError(w, http.StatusBadRequest, perr)
		return
	}
	if !s.bots.allow(p.ID) {
		w.Header().Set("Retry-After", "1")
		s.httpError(w, http.StatusTooManyRequests, protocol.Errorf(protocol.CodeRateLimited, "slow down: at most %g commands a second", s.cfg.BotAPI.Rate))
		return
	}
	m := msg(body)
	m.Room = r.PathValue("room")
	if m.Room == "" || len(m.Room) > maxRoomID {
		s.httpError(w, http.StatusNotFound, protocol.Errorf(protocol.CodeUnknownRoom, "no room %q", m.Room))
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), loadTimeout)
	defer cancel()
	var e *protocol.ErrorMessage
	here := func(room *rooms.Room) bool {
		var posted bool
		e, posted = hub.Run(room, p.ID, p.Name, m)
		return posted
	}
	var elsewhere func(context.Context, string, int) hub.Delivery
	if nodes := s.bots.nodes; nodes != nil {
		elsewhere = func(ctx context.Context, owner string, attempt int) hub.Delivery {
			var d hub.Delivery
			e, d = nodes.RunAt(ctx, owner, p.ID, p.Name, m, attempt)
			return d
		}
	}
	if perr := hub.ReachWith(ctx, s.Rooms, s.log, m.Room, here, elsewhere); perr != nil {
		s.unreached(w, perr)
		return
	}
	if e != nil {
		status := http.StatusBadRequest
		switch e.Code {
		case protocol.CodeNotAPlayer:
			status = http.StatusForbidden
		case protocol.CodeNotYourTurn, protocol.CodeGameOver:
			status = http.StatusConflict
		case protocol.CodeInternal:
			status = http.StatusServiceUnavailable
		}
		s.httpError(w, status, protocol.Errorf(e.Code, "%s", e.Message))
		return
	}
	writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

// BotCommandBody is the optional JSON body of a bot's move and resignation
// (docs/bots-api.md); the query's fields of the same names do as well.
type BotCommandBody struct {
	// Info is the bot's note on its move, or on what failed when it
	// resigns with reason bot_error: kept in the game's record, shown to
	// the bot's owner (at most rooms.MaxInfoBytes, cut).
	Info string `json:"info,omitempty"`
	// Reason of a resignation: "" or "bot_error" (the bot's program
	// failed: it raised, answered an illegal move or took too long).
	Reason string `json:"reason,omitempty"`
}

// commandBody reads a bot command's body and query, or answers the error:
// the body, when there is one, is one JSON object of BotCommandBody's
// fields and nothing after it (jsonbody).
func (s *Server) commandBody(w http.ResponseWriter, r *http.Request) (BotCommandBody, bool) {
	var b BotCommandBody
	data, err := jsonbody.ReadAll(w, r, botBodyLimit)
	if err != nil {
		s.bodyError(w, err, botBodyLimit)
		return b, false
	}
	if len(bytes.TrimSpace(data)) > 0 {
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if dec.Decode(&b) != nil || jsonbody.Decode(data, &b) != nil {
			s.httpError(w, http.StatusBadRequest, protocol.Errorf(protocol.CodeBadRequest, `the body is one object {"info"?, "reason"?}`))
			return b, false
		}
	}
	q := r.URL.Query()
	if v := q.Get("info"); v != "" {
		b.Info = v
	}
	if v := q.Get("reason"); v != "" {
		b.Reason = v
	}
	if len(b.Info) > botBodyLimit {
		s.httpError(w, http.StatusRequestEntityTooLarge, protocol.Errorf(protocol.CodeTooLarge, "info too long"))
		return b, false
	}
	return b, true
}

// botGameMove answers POST /api/bot/game/{room}/move/{move}[?info=]: the
// move, and the bot's info with it.
func (s *Server) botGameMove(w http.ResponseWriter, r *http.Request) {
	move := r.PathValue("move")
	if move == "" || len(move) > 256 {
		s.httpError(w, http.StatusBadRequest, protocol.Errorf(protocol.CodeBadRequest, "bad move %q", move))
		return
	}
	s.botCommand(w, r, func(b BotCommandBody) *protocol.Error {
		if b.Reason != "" {
			return protocol.Errorf(protocol.CodeBadRequest, `"reason" is for a resignation`)
		}
		return nil
	}, func(b BotCommandBody) *protocol.ClientMessage {
		return &protocol.ClientMessage{Type: protocol.TypeRoomMove, Move: move, Info: b.Info}
	})
}

// botGameResign answers POST /api/bot/game/{room}/resign[?reason=bot_error&info=].
func (s *Server) botGameResign(w http.ResponseWriter, r *http.Request) {
	s.botCommand(w, r, func(b BotCommandBody) *protocol.Error {
		if b.Reason != "" && b.Reason != rooms.ReasonBotError {
			return protocol.Errorf(protocol.CodeBadRequest, `"reason" is %q or absent, not %q`, rooms.ReasonBotError, b.Reason)
		}
		return nil
	}, func(b BotCommandBody) *protocol.ClientMessage {
		if b.Reason == rooms.ReasonBotError {
			return &protocol.ClientMessage{Type: hub.TypeResignBotError, Info: b.Info}
		}
		return &protocol.ClientMessage{Type: protocol.TypeRoomResign}
	})
}
