package httpapi

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/tabuleiro/tabuleiro/hub"
	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/store"
)

// The service's own paths: the catalog, the live rooms, the health
// checks.

func (s *Server) games(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"games": s.cfg.Catalog.Infos()})
}

// rooms answers GET /api/rooms?cursor=&limit=&game=&status=: a page of the
// public unfinished rooms, newest first, and the cursor of the next.
func (s *Server) rooms(w http.ResponseWriter, r *http.Request) {
	q, perr := roomsQuery(r.URL.Query())
	if _, known := s.cfg.Catalog.Game(q.Game); perr == nil && q.Game != "" && !known {
		perr = protocol.Errorf(protocol.CodeUnknownGame, "unknown game %q", q.Game)
	}
	if perr != nil {
		s.httpError(w, http.StatusBadRequest, perr)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), loadTimeout)
	defer cancel()
	writeJSON(w, http.StatusOK, s.Hub.Rooms(ctx, q))
}

// roomsQuery reads the query of GET /api/rooms.
func roomsQuery(v url.Values) (hub.Query, *protocol.Error) {
	q := hub.Query{Limit: hub.DefaultRoomsLimit, Cursor: v.Get("cursor"), Game: v.Get("game"), Status: v.Get("status")}
	if l := v.Get("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 1 || n > hub.MaxRoomsLimit {
			return q, protocol.Errorf(protocol.CodeBadRequest, `"limit" must be 1 to %d`, hub.MaxRoomsLimit)
		}
		q.Limit = n
	}
	if err := q.Check(); err != nil {
		return q, protocol.Errorf(protocol.CodeBadRequest, "%v", err)
	}
	return q, nil
}

func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	_, _ = w.Write([]byte("ok\n"))
}

func (s *Server) ready(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	if err := s.cfg.Store.Ping(ctx); err != nil {
		// The store answers but refuses writes for lack of memory: say
		// so, it is the operator's to fix (maxmemory), not the network.
		msg := "store unreachable"
		if errors.Is(err, store.ErrOutOfMemory) {
			msg = "store out of memory: " + err.Error()
		}
		http.Error(w, msg, http.StatusServiceUnavailable)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	_, _ = w.Write([]byte("ready\n"))
}
