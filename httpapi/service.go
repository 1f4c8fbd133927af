package httpapi

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/tabuleiro/tabuleiro/store"
)

// The service's own paths: the catalog, the live rooms, the health
// checks.

func (s *Server) games(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"games": s.cfg.Catalog.Infos()})
}

func (s *Server) rooms(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"rooms": s.Hub.RoomSummaries()})
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
