package httpapi

import (
	"context"
	"errors"
	"net/http"
	"time"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/players"
	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/ratings"
)

// The ratings' reads (docs/protocol.md, "Ratings"): the leaderboards, a
// player's profile and their curve in a pool. Everything comes from the
// ratings store (ratings.Store), which the rater (ratings/rater) writes.

func (s *Server) routeRatings(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/leaderboard/{game}/{variant}", s.leaderboard)
	mux.HandleFunc("GET /api/players/{player}", s.playerProfile)
	mux.HandleFunc("GET /api/profile/{name}", s.profileByName)
	mux.HandleFunc("GET /api/players/{player}/history/{game}/{variant}", s.ratingHistory)
}

// boardLine is one player on a leaderboard.
type boardLine struct {
	Rank   int     `json:"rank"`
	ID     string  `json:"id"`
	Name   string  `json:"name"`
	Rating int     `json:"rating"`
	RD     float64 `json:"rd"`
	Games  int     `json:"games"`
	Bot    bool    `json:"bot"`
}

// scoreLine is one player on 2048's board of best scores.
type scoreLine struct {
	Rank  int    `json:"rank"`
	ID    string `json:"id"`
	Name  string `json:"name"`
	Score int64  `json:"score"`
}

// storeDown answers a store that did not answer.
func (s *Server) storeDown(w http.ResponseWriter, what string, err error) {
	s.log.Warn(what+": store read failed", zap.Error(err))
	w.Header().Set("Retry-After", "2")
	s.httpError(w, http.StatusServiceUnavailable, protocol.Errorf(protocol.CodeInternal, "the store did not answer, try again"))
}

// poolOf is the rating pool of a path's game and variant: 404 for a game
// or variant the catalog does not have, or one without a pool.
func (s *Server) poolOf(w http.ResponseWriter, r *http.Request) (string, bool) {
	game, variant := r.PathValue("game"), r.PathValue("variant")
	g, ok := s.cfg.Catalog.Game(game)
	if !ok {
		s.httpError(w, http.StatusNotFound, protocol.Errorf(protocol.CodeNotFound, "unknown game %q", game))
		return "", false
	}
	v, ok := g.Info().Variant(variant)
	if !ok {
		s.httpError(w, http.StatusNotFound, protocol.Errorf(protocol.CodeNotFound, "game %s has no variant %q", game, variant))
		return "", false
	}
	pool, ok := ratings.Pool(game, variant, v.Seats)
	if !ok {
		s.httpError(w, http.StatusNotFound, protocol.Errorf(protocol.CodeNotFound, "%s %s is played alone: it has no rating pool", game, variant))
		return "", false
	}
	return pool, true
}

// viewer is the id of the request's player when it says who it is (a
// token or a session cookie), "" otherwise: a read that anyone may make
// shows the caller's own line when it can.
func (s *Server) viewer(r *http.Request) string {
	ctx, cancel := context.WithTimeout(r.Context(), loadTimeout)
	defer cancel()
	if token, ok := bearerToken(r); ok {
		if p, err := s.players.ByToken(ctx, token); err == nil {
			return p.ID
		}
		return ""
	}
	if ck, err := r.Cookie(players.SessionCookie); err == nil {
		if p, _, err := s.players.BySession(ctx, ck.Value); err == nil {
			return p.ID
		}
	}
	return ""
}

// leaderboard answers GET /api/leaderboard/{game}/{variant}[?bots=1]: the
// pool's best BoardSize people (or bot accounts), and the caller's own
// line; 2048 alone has its best scores instead.
func (s *Server) leaderboard(w http.ResponseWriter, r *http.Request) {
	var bots bool
	switch b := r.URL.Query().Get("bots"); b {
	case "", "0", "false":
	case "1", "true":
		bots = true
	default:
		s.httpError(w, http.StatusBadRequest, protocol.Errorf(protocol.CodeBadRequest, "bots=%q: want 1 or 0", b))
		return
	}
	if r.PathValue("game") == "2048" && r.PathValue("variant") == "solo" {
		s.bestScores(w, r)
		return
	}
	pool, ok := s.poolOf(w, r)
	if !ok {
		return
	}
	me := s.viewer(r)
	ctx, cancel := context.WithTimeout(r.Context(), loadTimeout)
	defer cancel()
	now := time.Now()
	entries, err := s.cfg.Store.Leaderboard(ctx, pool, bots, ratings.BoardSize, now)
	if err != nil {
		s.storeDown(w, "leaderboard", err)
		return
	}
	out := struct {
		Pool    string      `json:"pool"`
		Bots    bool        `json:"bots"`
		Players []boardLine `json:"players"`
		Me      *boardLine  `json:"me"`
	}{Pool: pool, Bots: bots, Players: make([]boardLine, 0, len(entries))}
	for i, e := range entries {
		l := lineOf(i+1, e, now)
		out.Players = append(out.Players, l)
		if e.ID == me {
			out.Me = &out.Players[len(out.Players)-1]
		}
	}
	if me != "" && out.Me == nil && players.IsBotID(me) == bots {
		rank, err := s.cfg.Store.Rank(ctx, pool, bots, me, now)
		if err != nil {
			s.storeDown(w, "leaderboard", err)
			return
		}
		if rank > 0 {
			rt, err := s.cfg.Store.Rating(ctx, pool, me)
			if err != nil {
				s.storeDown(w, "leaderboard", err)
				return
			}
			name := s.PlayerNames(ctx, []string{me})[me]
			l := lineOf(rank, ratings.Entry{ID: me, Name: name, Bot: bots, Rating: rt}, now)
			out.Me = &l
		}
	}
	if out.Me != nil {
		c := *out.Me // not an alias of the list's line
		out.Me = &c
	}
	writeJSON(w, http.StatusOK, out)
}

func lineOf(rank int, e ratings.Entry, now time.Time) boardLine {
	rt := e.Rating.At(now)
	return boardLine{Rank: rank, ID: e.ID, Name: e.Name, Rating: rt.Shown(), RD: round1(rt.Deviation),
		Games: rt.Games, Bot: e.Bot}
}

// round1 rounds to one decimal.
func round1(x float64) float64 { return float64(int64(x*10+0.5)) / 10 }

// bestScores answers GET /api/leaderboard/2048/solo.
func (s *Server) bestScores(w http.ResponseWriter, r *http.Request) {
	me := s.viewer(r)
	ctx, cancel := context.WithTimeout(r.Context(), loadTimeout)
	defer cancel()
	scores, err := s.cfg.Store.BestScores(ctx, ratings.BoardSize)
	if err != nil {
		s.storeDown(w, "best scores", err)
		return
	}
	out := struct {
		Pool   string      `json:"pool"`
		Scores []scoreLine `json:"scores"`
		Me     *scoreLine  `json:"me"`
	}{Pool: "2048/solo", Scores: make([]scoreLine, 0, len(scores))}
	for i, sc := range scores {
		out.Scores = append(out.Scores, scoreLine{Rank: i + 1, ID: sc.ID, Name: sc.Name, Score: sc.Score})
		if sc.ID == me {
			l := out.Scores[i]
			out.Me = &l
		}
	}
	writeJSON(w, http.StatusOK, out)
}

// profile is GET /api/players/{id}.
type profile struct {
	ID      string                   `json:"id"`
	Name    string                   `json:"name"`
	Bot     bool                     `json:"bot"`
	Account bool                     `json:"account"`
	Owner   *profileOwner            `json:"owner,omitempty"`
	Bots    []players.Bot            `json:"bots,omitempty"`
	Ratings map[string]profileRating `json:"ratings"`
	Results ratings.Results          `json:"results"`
	Best    int64                    `json:"best2048"`
}

// profileOwner is a bot account's owner on its profile.
type profileOwner struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

type profileRating struct {
	Rating      int     `json:"rating"`
	RD          float64 `json:"rd"`
	Games       int     `json:"games"`
	Provisional bool    `json:"provisional"`
}

// playerProfile answers GET /api/players/{player}.
func (s *Server) playerProfile(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("player")
	if id == "" || len(id) > maxPlayerID {
		s.httpError(w, http.StatusBadRequest, protocol.Errorf(protocol.CodeBadRequest, "player id %q: want 1 to %d characters", id, maxPlayerID))
		return
	}
	s.writeProfile(w, r, id)
}

// profileByName answers GET /api/profile/{name}: the account named name
// (without case), else the player whose id it is.
func (s *Server) profileByName(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	if name == "" || len(name) > maxPlayerID {
		s.httpError(w, http.StatusBadRequest, protocol.Errorf(protocol.CodeBadRequest, "name %q: want 1 to %d characters", name, maxPlayerID))
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), loadTimeout)
	acc, err := s.cfg.Store.AccountByKey(ctx, players.NameKey(name))
	cancel()
	switch {
	case err == nil:
		s.writeProfile(w, r, acc.ID)
	case errors.Is(err, players.ErrNotFound):
		s.writeProfile(w, r, name)
	default:
		s.storeDown(w, "profile", err)
	}
}

// writeProfile answers a player's profile: 404 for an id the store does
// not know (a guest long gone, or none).
func (s *Server) writeProfile(w http.ResponseWriter, r *http.Request, id string) {
	ctx, cancel := context.WithTimeout(r.Context(), loadTimeout)
	defer cancel()
	ident, err := s.cfg.Store.PlayerByID(ctx, id)
	switch {
	case errors.Is(err, players.ErrNotFound):
		s.httpError(w, http.StatusNotFound, protocol.Errorf(protocol.CodeNotFound, "no player %q", id))
		return
	case err != nil:
		s.storeDown(w, "profile", err)
		return
	}
	out := profile{ID: ident.ID, Name: ident.Name, Bot: players.IsBotID(ident.ID), Account: ident.Account(),
		Ratings: map[string]profileRating{}}
	rts, err := s.cfg.Store.Ratings(ctx, id)
	if err != nil {
		s.storeDown(w, "profile", err)
		return
	}
	now := time.Now()
	for pool, rt := range rts {
		rt = rt.At(now)
		out.Ratings[pool] = profileRating{Rating: rt.Shown(), RD: round1(rt.Deviation), Games: rt.Games, Provisional: rt.Provisional()}
	}
	if out.Results, err = s.cfg.Store.Results(ctx, id); err != nil {
		s.storeDown(w, "profile", err)
		return
	}
	if out.Best, err = s.cfg.Store.BestScore(ctx, id); err != nil {
		s.storeDown(w, "profile", err)
		return
	}
	if out.Bot && ident.Owner != "" {
		names, err := s.cfg.Store.PlayerNames(ctx, []string{ident.Owner})
		if err != nil {
			s.storeDown(w, "profile", err)
			return
		}
		out.Owner = &profileOwner{ID: ident.Owner, Name: names[ident.Owner]}
	}
	if !out.Bot { // a person's bot accounts (a guest may have some too)
		if out.Bots, err = s.cfg.Store.OwnerBots(ctx, id); err != nil {
			s.storeDown(w, "profile", err)
			return
		}
		for i := range out.Bots {
			out.Bots[i].Turma = false // the owner's business
		}
	}
	writeJSON(w, http.StatusOK, out)
}

// ratingHistory answers GET /api/players/{player}/history/{game}/{variant}:
// the player's curve in the pool, oldest first.
func (s *Server) ratingHistory(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("player")
	if id == "" || len(id) > maxPlayerID {
		s.httpError(w, http.StatusBadRequest, protocol.Errorf(protocol.CodeBadRequest, "player id %q: want 1 to %d characters", id, maxPlayerID))
		return
	}
	pool, ok := s.poolOf(w, r)
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), loadTimeout)
	defer cancel()
	points, err := s.cfg.Store.History(ctx, pool, id, ratings.HistoryLimit)
	if err != nil {
		s.storeDown(w, "rating history", err)
		return
	}
	if points == nil {
		points = []ratings.Point{}
	}
	writeJSON(w, http.StatusOK, struct {
		Pool   string          `json:"pool"`
		Points []ratings.Point `json:"points"`
	}{pool, points})
}

// recordRatings are a rated game's changes for its record's JSON, nil
// while the game is not rated (or not applied yet).
func (s *Server) recordRatings(ctx context.Context, room string) []recordRating {
	ch, err := s.cfg.Store.Changes(ctx, room)
	if err != nil {
		if !errors.Is(err, ratings.ErrNotFound) {
			s.log.Warn("record: rating changes", zap.String("room", room), zap.Error(err))
		}
		return nil
	}
	out := make([]recordRating, len(ch))
	for i, c := range ch {
		out[i] = recordRating{Seat: i, Before: c.Before.Shown(), After: c.After.Shown(), Diff: c.Diff()}
	}
	return out
}

// recordRating is one seat's change in a record's "ratings".
type recordRating struct {
	Seat   int `json:"seat"`
	Before int `json:"before"`
	After  int `json:"after"`
	Diff   int `json:"diff"`
}
