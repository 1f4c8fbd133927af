package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/players"
	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/rooms"
)

// streamMember is a game stream in its room: rooms.Member with a bounded
// queue of frames for the request's goroutine to write.
type streamMember struct {
	id   uint64
	p    players.Identity
	max  int
	wake chan struct{} // capacity 1

	mu     sync.Mutex
	queue  []*protocol.Frame
	held   int
	closed bool // too slow, or left the room
}

// streamIDs numbers the stream members above any WebSocket's id (the hub
// counts up from 1), so that a room never takes one for the other.
var streamIDs atomic.Uint64

func newStreamMember(p players.Identity, maxBytes int) *streamMember {
	return &streamMember{id: 1<<63 | streamIDs.Add(1), p: p, max: maxBytes, wake: make(chan struct{}, 1)}
}

func (m *streamMember) ConnID() uint64     { return m.id }
func (m *streamMember) PlayerID() string   { return m.p.ID }
func (m *streamMember) PlayerName() string { return m.p.Name }

// Send queues f; past the byte bound the stream is closed (never waits).
func (m *streamMember) Send(f *protocol.Frame) bool {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return false
	}
	if m.held > 0 && m.held+len(f.Data) > m.max {
		m.closed = true
		m.mu.Unlock()
		m.signal()
		return false
	}
	m.queue = append(m.queue, f)
	m.held += len(f.Data)
	m.mu.Unlock()
	m.signal()
	return true
}

func (m *streamMember) signal() {
	select {
	case m.wake <- struct{}{}:
	default:
	}
}

func (m *streamMember) Joined(*rooms.Room) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return !m.closed
}

func (m *streamMember) Left(*rooms.Room) {
	m.mu.Lock()
	m.closed = true
	m.mu.Unlock()
	m.signal()
}

// take returns the frames queued and whether the stream is closed.
func (m *streamMember) take() ([]*protocol.Frame, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	q := m.queue
	m.queue, m.held = nil, 0
	return q, m.closed
}

// frameHead is what a game stream reads of each frame.
type frameHead struct {
	Type   string `json:"type"`
	Status string `json:"status"`
}

// lookupRoom finds the request's room, or answers the error: the room when
// it runs here, else (several nodes) the node that serves it.
func (s *Server) lookupRoom(w http.ResponseWriter, r *http.Request) (room *rooms.Room, owner string, ok bool) {
	id := r.PathValue("room")
	if id == "" || len(id) > maxRoomID {
		s.httpError(w, http.StatusNotFound, protocol.Errorf(protocol.CodeUnknownRoom, "no room %q", id))
		return nil, "", false
	}
	if room, ok := s.Rooms.Running(id); ok {
		return room, "", true
	}
	ctx, cancel := context.WithTimeout(r.Context(), loadTimeout)
	defer cancel()
	room, err := s.Rooms.Lookup(ctx, id)
	var elsewhere *rooms.OwnedElsewhere
	switch {
	case errors.Is(err, rooms.ErrUnknownRoom):
		s.httpError(w, http.StatusNotFound, protocol.Errorf(protocol.CodeUnknownRoom, "no room %q", id))
		return nil, "", false
	case errors.As(err, &elsewhere) && s.bots.nodes != nil:
		// Several nodes behind a balancer: the room's node runs it.
		return nil, elsewhere.Node, true
	case err != nil:
		s.log.Warn("room lookup", zap.String("room", id), zap.Error(err))
		w.Header().Set("Retry-After", "2")
		s.httpError(w, http.StatusServiceUnavailable, protocol.Errorf(protocol.CodeInternal, "could not load room %s, try again", id))
		return nil, "", false
	}
	return room, "", true
}

// botGameStream answers GET /api/bot/game/{room}/stream: the room's
// room.state objects, the first one full (with the move history), one a
// line, until the game is over (its last state is the last line) or the
// bot goes. The stream joins the room, in the bot's seat if it has one
// (as a spectator otherwise), so while it is open the bot is connected.
func (s *Server) botGameStream(w http.ResponseWriter, r *http.Request) {
	p, ok := s.bearerBot(w, r)
	if !ok {
		return
	}
	room, owner, ok := s.lookupRoom(w, r)
	if !ok {
		return
	}
	if status, perr := s.bots.openGame(p); perr != nil {
		w.Header().Set("Retry-After", "5")
		s.httpError(w, status, perr)
		return
	}
	defer s.bots.closeGame(p.ID)
	m := newStreamMember(p, s.cfg.BotAPI.QueueBytes)
	// A seated player joins its own seat whatever it asks for; anyone
	// else watches.
	var stopped <-chan struct{} // the room's Done when it runs here
	if owner == "" {
		if !room.Join(m, rooms.RoleSpectator, nil) {
			w.Header().Set("Retry-After", "1")
			s.httpError(w, http.StatusServiceUnavailable, protocol.Errorf(protocol.CodeInternal, "room %s closed as you came, try again", room.ID()))
			return
		}
		defer room.Gone(m)
		stopped = room.Done()
	} else {
		// Served by another node: the stream joins through the hub's
		// router as a WebSocket would, and is joined again wherever the
		// room moves until it ends (Detach).
		a := s.Hub.Attach(m)
		defer a.Detach()
		ctx, cancel := context.WithTimeout(r.Context(), loadTimeout)
		perr := a.Route(ctx, &protocol.ClientMessage{Type: protocol.TypeRoomJoin, Room: r.PathValue("room"), As: rooms.RoleSpectator})
		cancel()
		if perr != nil {
			s.unreached(w, perr)
			return
		}
	}
	rc := ndjson(w)
	t := time.NewTicker(s.cfg.BotAPI.Heartbeat)
	defer t.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-s.bots.quit:
			return
		case <-stopped:
			// Adjourned or stopped: what was queued still goes.
			frames, _ := m.take()
			s.writeStates(w, rc, frames)
			return
		case <-t.C:
			if writeLine(w, rc, nil) != nil {
				return
			}
			continue
		case <-m.wake:
		}
		frames, closed := m.take()
		over, err := s.writeStates(w, rc, frames)
		if over || err != nil || closed {
			return
		}
		t.Reset(s.cfg.BotAPI.Heartbeat)
	}
}

// writeStates writes the room.state frames among frames; over when one is
// of a finished game.
func (s *Server) writeStates(w http.ResponseWriter, rc *http.ResponseController, frames []*protocol.Frame) (over bool, err error) {
	for _, f := range frames {
		var h frameHead
		if json.Unmarshal(f.Data, &h) != nil || h.Type != protocol.TypeRoomState {
			continue // room.joined, chat lines, errors: not the stream's
		}
		if err := writeLine(w, rc, f.Data); err != nil {
			return false, err
		}
		if h.Status == rooms.StatusFinished {
			return true, nil
		}
	}
	return false, nil
}
