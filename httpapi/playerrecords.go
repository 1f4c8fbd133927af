package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"time"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/players"
	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/records"
	"github.com/tabuleiro/tabuleiro/store"
)

// Limits of GET /api/players/{player}/records.
const (
	// DefaultPlayerRecords is how many games one page lists when limit is
	// not given, MaxPlayerRecordsPage the most it may ask for.
	DefaultPlayerRecords = 20
	MaxPlayerRecordsPage = 100
	// maxPlayerID is the longest player id looked up.
	maxPlayerID = 64
)

// gameSummary is one game of a player's list.
type gameSummary struct {
	Room    string `json:"room"`
	Game    string `json:"game"`
	Variant string `json:"variant"`
	Private bool   `json:"private,omitempty"`
	// Rated marks a rated game; Ratings are its changes once applied.
	Rated   bool             `json:"rated,omitempty"`
	Ratings []recordRating   `json:"ratings,omitempty"`
	Players []players.Seated `json:"players"`
	Moves   int              `json:"moves"`
	Result  *protocol.Result `json:"result"`
	Ended   int64            `json:"ended"`
}

// playerRecords answers GET /api/players/{player}/records?before=&limit=:
// the player's finished games, newest first, limit of them that ended
// before before (Unix ms), and "next", the before of the next page (absent
// on the last page).
func (s *Server) playerRecords(w http.ResponseWriter, r *http.Request) {
	player := r.PathValue("player")
	if player == "" || len(player) > maxPlayerID {
		s.httpError(w, http.StatusBadRequest, protocol.Errorf(protocol.CodeBadRequest, "player id %q: want 1 to %d characters", player, maxPlayerID))
		return
	}
	q := r.URL.Query()
	var before time.Time
	if b := q.Get("before"); b != "" {
		ms, err := strconv.ParseInt(b, 10, 64)
		if err != nil || ms <= 0 {
			s.httpError(w, http.StatusBadRequest, protocol.Errorf(protocol.CodeBadRequest, "before=%q: want a time in Unix milliseconds", b))
			return
		}
		before = time.UnixMilli(ms)
	}
	limit := DefaultPlayerRecords
	if l := q.Get("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 1 || n > MaxPlayerRecordsPage {
			s.httpError(w, http.StatusBadRequest, protocol.Errorf(protocol.CodeBadRequest, "limit=%q: want 1 to %d", l, MaxPlayerRecordsPage))
			return
		}
		limit = n
	}
	// Player ids are public (room states name them): a private game (an
	// invitation) is listed only to the player, by their own token or
	// session cookie (a session that ended lists the public games).
	own := false
	if r.Header.Get("Authorization") != "" {
		p, ok := s.bearer(w, r)
		if !ok {
			return
		}
		own = p.ID == player
	} else if ck, err := r.Cookie(players.SessionCookie); err == nil {
		ctx, cancel := context.WithTimeout(r.Context(), loadTimeout)
		p, _, err := s.players.BySession(ctx, ck.Value)
		cancel()
		own = err == nil && p.ID == player
	}
	ctx, cancel := context.WithTimeout(r.Context(), loadTimeout)
	defer cancel()
	// Anyone else reads the public index: a page and its cursor are made
	// of games they may see, so that nothing of a private game, not even
	// when it ended, shows in them.
	list := s.cfg.Store.Records().PublicRecords
	if own {
		list = s.cfg.Store.Records().PlayerRecords
	}
	refs, err := list(ctx, player, before, limit)
	if err != nil {
		s.log.Warn("player records: store read failed", zap.String("player", player), zap.Error(err))
		s.httpError(w, http.StatusServiceUnavailable, protocol.Errorf(protocol.CodeInternal, "the store did not answer, try again"))
		return
	}
	out := struct {
		Records []gameSummary `json:"records"`
		Next    *int64        `json:"next,omitempty"`
	}{Records: make([]gameSummary, 0, len(refs))}
	for _, ref := range refs {
		data, err := s.cfg.Store.Records().Record(ctx, ref.Room)
		if errors.Is(err, store.ErrNotFound) {
			continue // expired between the index and the read
		}
		if err != nil {
			s.log.Warn("player records: store read failed", zap.String("room", ref.Room), zap.Error(err))
			s.httpError(w, http.StatusServiceUnavailable, protocol.Errorf(protocol.CodeInternal, "the store did not answer, try again"))
			return
		}
		rec, err := records.Decode(data)
		if err != nil {
			s.log.Error("player records: undecodable record", zap.String("room", ref.Room), zap.Error(err))
			continue
		}
		if rec.Private && !own {
			continue // not in a public index: a safeguard
		}
		g := summarize(rec, ref.Ended)
		if g.Rated {
			g.Ratings = s.recordRatings(ctx, rec.Room)
		}
		out.Records = append(out.Records, g)
	}
	if len(refs) == limit {
		next := refs[len(refs)-1].Ended.UnixMilli()
		out.Next = &next
	}
	body, err := json.Marshal(out)
	if err != nil {
		s.httpError(w, http.StatusInternalServerError, protocol.Errorf(protocol.CodeInternal, "internal error"))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(append(body, '\n'))
}

// summarize is the list entry of a record.
func summarize(rec *records.Record, ended time.Time) gameSummary {
	g := gameSummary{Room: rec.Room, Game: rec.Game, Variant: rec.Variant, Private: rec.Private, Rated: rec.Rated,
		Players: make([]players.Seated, len(rec.Players)), Moves: len(rec.Moves), Ended: ended.UnixMilli()}
	for i, p := range rec.Players {
		if p.Name == "" && p.Bot != "" {
			p.Name = "bot " + p.Bot
		}
		g.Players[i] = players.Seated{Seat: i, Player: p}
	}
	if res := rec.Result; res != nil {
		g.Result = &protocol.Result{Reason: res.Reason}
		if res.Winner >= 0 {
			w := res.Winner
			g.Result.Winner = &w
		}
	}
	return g
}
