package httpapi

import (
	"context"
	"errors"
	"net/http"
	"slices"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/internal/jsonbody"
	"github.com/tabuleiro/tabuleiro/players"
	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/store"
	"github.com/tabuleiro/tabuleiro/torneio"
)

// MaxTorneioBody bounds the body of POST /api/torneios.
const MaxTorneioBody = 16 << 10

// routeTorneios routes the tournaments' API: POST /api/torneios, GET
// /api/torneios, GET /api/torneios/{id}, and the answers to a
// tournament's invitations, POST /api/torneios/{id}/accept, /decline and
// (its owner's) /start.
func (s *Server) routeTorneios(mux *http.ServeMux) {
	mux.HandleFunc("POST /api/torneios", s.createTorneio)
	mux.HandleFunc("GET /api/torneios", s.listTorneios)
	mux.HandleFunc("GET /api/torneios/{id}", s.getTorneio)
	mux.HandleFunc("POST /api/torneios/{id}/accept", s.answerTorneio(torneio.AnswerAccept))
	mux.HandleFunc("POST /api/torneios/{id}/decline", s.answerTorneio(torneio.AnswerDecline))
	mux.HandleFunc("POST /api/torneios/{id}/start", s.answerTorneio(torneio.AnswerStart))
}

// PlayerNames returns the display names of ids (the tournaments'
// torneio.Config.Names): a bot account's from the bots online (its
// registered name), the others' (people, and bots offline) from the store
// (players.Identities.PlayerNames, one round trip for them all). Ids it
// cannot name are left out.
func (s *Server) PlayerNames(ctx context.Context, ids []string) map[string]string {
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
	if players.IsBotID(p.ID) {
		s.httpError(w, http.StatusForbidden, protocol.Errorf(protocol.CodeForbidden, "a bot cannot create tournaments: use your own player token"))
		return
	}
	body, err := jsonbody.ReadAll(w, r, MaxTorneioBody)
	if err != nil {
		s.bodyError(w, err, MaxTorneioBody)
		return
	}
	spec, err := torneio.ParseSpec(s.cfg.Catalog, body)
	if err != nil {
		s.httpError(w, http.StatusBadRequest, protocol.Errorf(protocol.CodeBadRequest, "%v", err))
		return
	}
	if status, perr := s.consent(r.Context(), p.ID, spec.Entrants); perr != nil {
		s.httpError(w, status, perr)
		return
	}
	id, err := s.Torneios.Start(r.Context(), p.ID, spec)
	switch {
	case errors.Is(err, torneio.ErrOwnerBusy):
		s.httpError(w, http.StatusConflict, protocol.Errorf(protocol.CodeBadRequest, "%v", err))
		return
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

// consent checks that every entrant agreed to play for owner: a level; a
// bot account of owner's, or one its owner opened to tournaments; a person
// (invited: the tournament waits for the answer). An id the server does
// not know is 400; a bot nobody let owner enter, 403. One lookup of each
// kind, for every entrant at once.
func (s *Server) consent(ctx context.Context, owner string, entrants []torneio.Entrant) (int, *protocol.Error) {
	var ids, bots []string
	for _, e := range entrants {
		if id := e.PlayerID(); id != "" {
			ids = append(ids, id)
		}
		if e.Bot != "" {
			bots = append(bots, e.Bot)
		}
	}
	if len(ids) == 0 {
		return 0, nil
	}
	ctx, cancel := context.WithTimeout(ctx, loadTimeout)
	defer cancel()
	unavailable := func(what string, err error) (int, *protocol.Error) {
		s.log.Warn("torneio consent", zap.String("lookup", what), zap.Error(err))
		return http.StatusServiceUnavailable, protocol.Errorf(protocol.CodeInternal, "could not look up the entrants, try again")
	}
	botStore := s.cfg.Store
	known, err := s.cfg.Store.PlayerNames(ctx, ids)
	if err != nil {
		return unavailable("names", err)
	}
	for i, e := range entrants {
		if id := e.PlayerID(); id != "" && !hasKey(known, id) {
			if e.Bot != "" {
				return http.StatusBadRequest, protocol.Errorf(protocol.CodeBadRequest, "entrant %d: there is no bot account %q", i, id)
			}
			return http.StatusBadRequest, protocol.Errorf(protocol.CodeBadRequest, "entrant %d: there is no player %q", i, id)
		}
	}
	if len(bots) == 0 {
		return 0, nil
	}
	mine, err := botStore.OwnerBots(ctx, owner)
	if err != nil {
		return unavailable("owner's bots", err)
	}
	open, err := botStore.BotsOpen(ctx, bots)
	if err != nil {
		return unavailable("bots open", err)
	}
	for i, e := range entrants {
		if e.Bot == "" || open[e.Bot] || slices.ContainsFunc(mine, func(b players.Bot) bool { return b.ID == e.Bot }) {
			continue
		}
		return http.StatusForbidden, protocol.Errorf(protocol.CodeForbidden,
			"entrant %d: bot %s (%s) is not yours, and its owner has not opened it to tournaments", i, e.Bot, known[e.Bot])
	}
	return 0, nil
}

func hasKey[V any](m map[string]V, k string) bool {
	_, ok := m[k]
	return ok
}

// answerTorneio answers POST /api/torneios/{id}/accept, /decline and
// /start: the caller's answer to the tournament's invitation, or its
// owner's start before the deadline.
func (s *Server) answerTorneio(answer string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		p, ok := s.caller(w, r)
		if !ok {
			return
		}
		id := r.PathValue("id")
		if len(id) > 64 {
			id = id[:64]
		}
		err := s.Torneios.Answer(r.Context(), id, p.ID, answer)
		switch {
		case err == nil:
			writeJSON(w, http.StatusOK, map[string]string{"id": id, "answer": answer})
		case errors.Is(err, store.ErrNotFound):
			s.httpError(w, http.StatusNotFound, protocol.Errorf(protocol.CodeBadRequest, "no torneio %q", id))
		case errors.Is(err, torneio.ErrNotWaiting):
			s.httpError(w, http.StatusConflict, protocol.Errorf(protocol.CodeBadRequest, "%v", err))
		case errors.Is(err, torneio.ErrNotInvited):
			s.httpError(w, http.StatusForbidden, protocol.Errorf(protocol.CodeNotAPlayer, "%v", err))
		case errors.Is(err, torneio.ErrNotOwner):
			s.httpError(w, http.StatusForbidden, protocol.Errorf(protocol.CodeForbidden, "%v", err))
		default:
			s.log.Error("answer torneio", zap.String("torneio", id), zap.Error(err))
			w.Header().Set("Retry-After", "2")
			s.httpError(w, http.StatusServiceUnavailable, protocol.Errorf(protocol.CodeInternal, "could not record the answer, try again"))
		}
	}
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
