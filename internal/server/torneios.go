package server

import (
	"context"
	"errors"
	"io"
	"net/http"
	"time"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/players"
	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/store"
	"github.com/tabuleiro/tabuleiro/torneio"
)

// MaxTorneioBody bounds the body of POST /api/torneios.
const MaxTorneioBody = 16 << 10

// startTorneios makes the tournament manager when the store keeps
// tournaments (both stores do), takes up the unfinished ones and routes the
// API: POST /api/torneios, GET /api/torneios, GET /api/torneios/{id}.
func (s *Server) startTorneios(mux *http.ServeMux) {
	tm, err := torneio.New(torneio.Config{Rooms: s.Rooms, Store: s.cfg.Store, Catalog: s.cfg.Catalog,
		Log: s.log.Named("torneio"), Parallel: s.cfg.TorneioParallel, MaxLive: s.cfg.MaxTorneios, Names: s.playerNames})
	if err != nil {
		s.log.Warn("no tournaments", zap.Error(err))
		return
	}
	s.Torneios = tm
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	n, err := tm.Resume(ctx)
	cancel()
	if err != nil {
		s.log.Error("resume tournaments", zap.Error(err))
	} else if n > 0 {
		s.log.Info("tournaments resumed", zap.Int("n", n))
	}
	mux.HandleFunc("POST /api/torneios", s.createTorneio)
	mux.HandleFunc("GET /api/torneios", s.listTorneios)
	mux.HandleFunc("GET /api/torneios/{id}", s.getTorneio)
}

// playerNames returns the display names of ids: a bot account's from the
// bots online (its registered name), the others' (people, and bots
// offline) from the store (players.Identities.PlayerNames, one round trip for them
// all). Ids it cannot name are left out.
func (s *Server) playerNames(ctx context.Context, ids []string) map[string]string {
	out := make(map[string]string, len(ids))
	var people []string
	for _, id := range ids {
		if players.IsBotID(id) {
			if n, ok := s.bots.name(id); ok {
				out[id] = n
				continue
			}
		}
		people = append(people, id)
	}
	if len(people) == 0 {
		return out
	}
	if len(people) > players.MaxNameLookups {
		people = people[:players.MaxNameLookups]
	}
	names, err := s.cfg.Store.PlayerNames(ctx, people)
	if err != nil {
		s.log.Warn("player names", zap.Error(err))
	}
	for id, n := range names {
		out[id] = n
	}
	return out
}

func (s *Server) createTorneio(w http.ResponseWriter, r *http.Request) {
	p, ok := s.caller(w, r)
	if !ok {
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, MaxTorneioBody+1))
	if err != nil {
		s.httpError(w, http.StatusBadRequest, protocol.Errorf(protocol.CodeBadRequest, "could not read the body"))
		return
	}
	if len(body) > MaxTorneioBody {
		s.httpError(w, http.StatusRequestEntityTooLarge, protocol.Errorf(protocol.CodeTooLarge, "the body is over %d bytes", MaxTorneioBody))
		return
	}
	spec, err := torneio.ParseSpec(s.cfg.Catalog, body)
	if err != nil {
		s.httpError(w, http.StatusBadRequest, protocol.Errorf(protocol.CodeBadRequest, "%v", err))
		return
	}
	id, err := s.Torneios.Start(r.Context(), p.ID, spec)
	switch {
	case errors.Is(err, torneio.ErrBusy):
		w.Header().Set("Retry-After", "60")
		s.httpError(w, http.StatusServiceUnavailable, protocol.Errorf(protocol.CodeBusy, "%v", err))
		return
	case err != nil:
		s.log.Error("start torneio", zap.Error(err))
		s.httpError(w, http.StatusServiceUnavailable, protocol.Errorf(protocol.CodeInternal, "could not start the torneio, try again"))
		return
	}
	writeJSON(w, http.StatusCreated, map[string]string{"id": id})
}

func (s *Server) getTorneio(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if len(id) > 64 {
		s.httpError(w, http.StatusNotFound, protocol.Errorf(protocol.CodeBadRequest, "no torneio %q", id[:64]))
		return
	}
	v, err := s.Torneios.Get(r.Context(), id)
	switch {
	case errors.Is(err, store.ErrNotFound):
		s.httpError(w, http.StatusNotFound, protocol.Errorf(protocol.CodeBadRequest, "no torneio %q", id))
		return
	case err != nil:
		s.log.Error("get torneio", zap.Error(err))
		s.httpError(w, http.StatusServiceUnavailable, protocol.Errorf(protocol.CodeInternal, "could not read the torneio, try again"))
		return
	}
	writeJSON(w, http.StatusOK, v)
}

func (s *Server) listTorneios(w http.ResponseWriter, r *http.Request) {
	list, err := s.Torneios.List(r.Context())
	if err != nil {
		s.log.Warn("list torneios", zap.Error(err))
	}
	if list == nil {
		list = []torneio.Summary{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"torneios": list})
}
