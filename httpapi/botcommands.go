package httpapi

import (
	"encoding/json"
	"net/http"
	"sync"

	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/rooms"
	"github.com/tabuleiro/tabuleiro/store"
)

// replyMember is the member a bot's HTTP command acts as: the room answers
// an error to it, and only an error.
type replyMember struct {
	id uint64
	p  store.Player

	mu  sync.Mutex
	err *protocol.ErrorMessage
}

func (m *replyMember) ConnID() uint64          { return m.id }
func (m *replyMember) PlayerID() string        { return m.p.ID }
func (m *replyMember) PlayerName() string      { return m.p.Name }
func (m *replyMember) Joined(*rooms.Room) bool { return false }
func (m *replyMember) Left(*rooms.Room)        {}
func (m *replyMember) Send(f *protocol.Frame) bool {
	var e protocol.ErrorMessage
	if json.Unmarshal(f.Data, &e) == nil && e.Type == protocol.TypeError {
		m.mu.Lock()
		m.err = &e
		m.mu.Unlock()
	}
	return true
}

// botCommand runs a bot's move or resignation in its room and answers its
// outcome: 200 {"ok":true} once the room has taken it (saved and
// broadcast), the room's error otherwise. An illegal move changes nothing
// and the bot's clock runs on.
func (s *Server) botCommand(w http.ResponseWriter, r *http.Request, do func(*rooms.Room, rooms.Member) bool) {
	p, ok := s.bearerBot(w, r)
	if !ok {
		return
	}
	if !s.bots.allow(p.ID) {
		w.Header().Set("Retry-After", "1")
		s.httpError(w, http.StatusTooManyRequests, protocol.Errorf(protocol.CodeRateLimited, "slow down: at most %g commands a second", s.cfg.BotAPI.Rate))
		return
	}
	room, ok := s.lookupRoom(w, r)
	if !ok {
		return
	}
	m := &replyMember{id: 1<<63 | streamIDs.Add(1), p: p}
	// The command, then a read of the room's facts: the room runs its
	// commands in order, so once Stats answers the command has run. A
	// command the room took (its mailbox is unbuffered) runs whole: if the
	// room closes after it (a resignation that ends the game as the last
	// stream leaves, say), Stats is refused and the room's Done says the
	// command is over.
	if !do(room, m) {
		s.httpError(w, http.StatusServiceUnavailable, protocol.Errorf(protocol.CodeInternal, "room %s closed as you came, try again", room.ID()))
		return
	}
	if _, ok := room.Stats(); !ok {
		<-room.Done()
	}
	m.mu.Lock()
	e := m.err
	m.mu.Unlock()
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

// botGameMove answers POST /api/bot/game/{room}/move/{move}.
func (s *Server) botGameMove(w http.ResponseWriter, r *http.Request) {
	move := r.PathValue("move")
	if move == "" || len(move) > 256 {
		s.httpError(w, http.StatusBadRequest, protocol.Errorf(protocol.CodeBadRequest, "bad move %q", move))
		return
	}
	s.botCommand(w, r, func(room *rooms.Room, m rooms.Member) bool { return room.Move(m, move, nil) })
}

// botGameResign answers POST /api/bot/game/{room}/resign.
func (s *Server) botGameResign(w http.ResponseWriter, r *http.Request) {
	s.botCommand(w, r, func(room *rooms.Room, m rooms.Member) bool { return room.Resign(m, nil) })
}
