package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"mime"
	"net/http"
	"time"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/players"
	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/records"
	"github.com/tabuleiro/tabuleiro/rooms"
	"github.com/tabuleiro/tabuleiro/store"
)

// The game records' HTTP reads (docs/protocol.md, "Game records"). Each
// reads the records store first, then the room's latest snapshot in the
// store, read directly: the room's goroutine is never asked, so a read
// costs a live game nothing, and a finished or adjourned room answers the
// same way. A replay (for
// ?positions=1 and the SGF) runs on the request's goroutine, at most
// Config.Replays at once, within replayTimeout and, for positions,
// Config.MaxPositionsBytes.

// Defaults of the records' limits.
const (
	// DefaultMaxPositionsBytes bounds the positions of one answer: about
	// 16,000 positions of 19x19 go or 100,000 of 2048.
	DefaultMaxPositionsBytes = 8 << 20
	// replayTimeout bounds the wait for a replay slot and the replay.
	replayTimeout = 10 * time.Second
	// loadTimeout bounds the store read.
	loadTimeout = 5 * time.Second
	// maxRoomID is the longest room id looked up.
	maxRoomID = 64
)

func (s *Server) routeRecords(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/records/{room}", s.recordJSON)
	mux.HandleFunc("GET /api/records/{room}/sgf", s.recordSGF)
	mux.HandleFunc("GET /api/records/{room}/txt", s.recordText)
	mux.HandleFunc("GET /api/players/{player}/records", s.playerRecords)
	mux.HandleFunc("GET /api/records/{room}/analysis", s.analysisGet)
	mux.HandleFunc("POST /api/records/{room}/analysis", s.analysisPost)
}

// loadRecord reads the record of the request's room, or answers the error
// and returns nil: from the records store first (a finished game, kept long
// after its room), else from the room's snapshot (a game under way, or a
// finished one whose record's write was lost: it is written now).
func (s *Server) loadRecord(w http.ResponseWriter, r *http.Request) *records.Record {
	id := r.PathValue("room")
	if id == "" || len(id) > maxRoomID {
		s.httpError(w, http.StatusNotFound, protocol.Errorf(protocol.CodeUnknownRoom, "no room %q", id))
		return nil
	}
	ctx, cancel := context.WithTimeout(r.Context(), loadTimeout)
	defer cancel()
	data, err := s.cfg.Store.Records().Record(ctx, id)
	if err == nil {
		rec, err := records.Decode(data)
		if err == nil {
			return rec
		}
		s.log.Error("record: undecodable record, reading the room", zap.String("room", id), zap.Error(err))
	} else if !errors.Is(err, store.ErrNotFound) {
		s.log.Warn("record: records store read failed, reading the room", zap.String("room", id), zap.Error(err))
	}
	saved, err := s.cfg.Store.LoadRoom(ctx, id)
	switch {
	case errors.Is(err, store.ErrNotFound):
		s.httpError(w, http.StatusNotFound, protocol.Errorf(protocol.CodeUnknownRoom, "no room %q", id))
		return nil
	case err != nil:
		s.log.Warn("record: store read failed", zap.String("room", id), zap.Error(err))
		s.httpError(w, http.StatusServiceUnavailable, protocol.Errorf(protocol.CodeInternal, "the store did not answer, try again"))
		return nil
	}
	if snap, err := s.Rooms.SnapshotOf(saved); err == nil { // a game under way: the moves since its snapshot too
		saved.Snapshot = snap
	} else {
		s.log.Warn("record: the moves after the room's snapshot cannot be replayed", zap.String("room", id), zap.Error(err))
	}
	rec, err := rooms.RecordOf(saved.Snapshot)
	if err != nil {
		s.log.Error("record: unreadable snapshot", zap.String("room", id), zap.Error(err))
		s.httpError(w, http.StatusInternalServerError, protocol.Errorf(protocol.CodeInternal, "the record of room %s cannot be read", id))
		return nil
	}
	if rec.Status == records.StatusFinished {
		if err := s.Rooms.WriteRecord(ctx, saved.Snapshot); err != nil {
			s.log.Warn("record: repair failed", zap.String("room", id), zap.Error(err))
		}
	}
	return rec
}

// replaying runs f with a replay slot, within replayTimeout; it answers the
// error and returns false when f fails or no slot came in time.
func (s *Server) replaying(w http.ResponseWriter, r *http.Request, rec *records.Record, f func(ctx context.Context) error) bool {
	ctx, cancel := context.WithTimeout(r.Context(), replayTimeout)
	defer cancel()
	select {
	case s.replays <- struct{}{}:
	case <-ctx.Done():
		s.httpError(w, http.StatusServiceUnavailable, protocol.Errorf(protocol.CodeInternal, "the server is busy, try again"))
		return false
	}
	err := f(ctx)
	<-s.replays
	switch {
	case err == nil:
		return true
	case errors.Is(err, records.ErrTooLong):
		s.httpError(w, http.StatusRequestEntityTooLarge, protocol.Errorf(protocol.CodeTooLarge,
			"the game of room %s is too long to replay in one answer (%d moves)", rec.Room, len(rec.Moves)))
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		s.httpError(w, http.StatusServiceUnavailable, protocol.Errorf(protocol.CodeInternal, "the server is busy, try again"))
	default:
		s.log.Error("record: replay refused", zap.String("room", rec.Room), zap.Error(err))
		s.httpError(w, http.StatusInternalServerError, protocol.Errorf(protocol.CodeInternal, "the record of room %s does not replay", rec.Room))
	}
	return false
}

// recordJSON answers GET /api/records/{room}[?positions=1].
func (s *Server) recordJSON(w http.ResponseWriter, r *http.Request) {
	var withPositions bool
	switch p := r.URL.Query().Get("positions"); p {
	case "", "0", "false":
	case "1", "true":
		withPositions = true
	default:
		s.httpError(w, http.StatusBadRequest, protocol.Errorf(protocol.CodeBadRequest, "positions=%q: want 1 or 0", p))
		return
	}
	rec := s.loadRecord(w, r)
	if rec == nil {
		return
	}
	rec, ok := s.recordFor(w, r, rec)
	if !ok {
		return
	}
	var positions []records.Position
	if withPositions && !s.replaying(w, r, rec, func(ctx context.Context) error {
		var err error
		positions, err = records.ReplayContext(ctx, s.cfg.Catalog, rec, s.cfg.MaxPositionsBytes)
		return err
	}) {
		return
	}
	body, err := records.JSON(rec, positions)
	if err == nil && rec.Rated {
		// A rated game's changes, once applied, beside the record.
		ctx, cancel := context.WithTimeout(r.Context(), loadTimeout)
		if rs := s.recordRatings(ctx, rec.Room); rs != nil {
			var j []byte
			if j, err = json.Marshal(rs); err == nil {
				body = append(append(append(body[:len(body)-1], `,"ratings":`...), j...), '}')
			}
		}
		cancel()
	}
	if err != nil {
		s.log.Error("record: encode", zap.String("room", rec.Room), zap.Error(err))
		s.httpError(w, http.StatusInternalServerError, protocol.Errorf(protocol.CodeInternal, "internal error"))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(append(body, '\n'))
}

// recordSGF answers GET /api/records/{room}/sgf: go games only.
func (s *Server) recordSGF(w http.ResponseWriter, r *http.Request) {
	rec := s.loadRecord(w, r)
	if rec == nil {
		return
	}
	if rec.Game != "go" {
		s.httpError(w, http.StatusNotFound, protocol.Errorf(protocol.CodeBadRequest,
			"room %s is a game of %s: SGF is for go only; /api/records/%s/txt has every game", rec.Room, rec.Game, rec.Room))
		return
	}
	var sgf []byte
	if !s.replaying(w, r, rec, func(ctx context.Context) error {
		var err error
		sgf, err = records.SGF(ctx, s.cfg.Catalog, rec)
		return err
	}) {
		return
	}
	download(w, "application/x-go-sgf; charset=utf-8", "tabuleiro-"+rec.Room+".sgf", sgf)
}

// recordText answers GET /api/records/{room}/txt: every game.
func (s *Server) recordText(w http.ResponseWriter, r *http.Request) {
	rec := s.loadRecord(w, r)
	if rec == nil {
		return
	}
	download(w, "text/plain; charset=utf-8", "tabuleiro-"+rec.Room+".txt", records.Text(rec))
}

// download answers body as a file to save.
func download(w http.ResponseWriter, contentType, filename string, body []byte) {
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": filename}))
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(body)
}

// recordFor is rec as the request's reader may see it: the bot accounts'
// notes (each move's info, the faults) of the seats whose bot is the
// reader's own (registered with the reader's token) or the reader itself,
// the other seats' left out (records.Record.VisibleTo). The reader is the
// Bearer token's player (a bad token is answered 401), else the page's
// session cookie's; without either, or with a session that names no one any
// more, the request reads as anyone.
func (s *Server) recordFor(w http.ResponseWriter, r *http.Request, rec *records.Record) (*records.Record, bool) {
	if !rec.HasNotes() {
		return rec, true
	}
	mine := map[string]bool{}
	reader := ""
	if r.Header.Get("Authorization") != "" {
		p, ok := s.bearer(w, r)
		if !ok {
			return nil, false
		}
		reader = p.ID
	} else if ck, err := r.Cookie(players.SessionCookie); err == nil {
		// The page's session: a reader it no longer names (ended,
		// unknown, the store unreachable) reads what anyone reads.
		ctx, cancel := context.WithTimeout(r.Context(), loadTimeout)
		p, _, err := s.players.BySession(ctx, ck.Value)
		cancel()
		if err == nil {
			reader = p.ID
		}
	}
	if reader != "" {
		mine[reader] = true
		if !players.IsBotID(reader) {
			ctx, cancel := context.WithTimeout(r.Context(), loadTimeout)
			own, err := s.cfg.Store.OwnerBots(ctx, reader)
			cancel()
			if err != nil {
				s.log.Warn("record: the reader's bots", zap.String("player", reader), zap.Error(err))
			}
			for _, b := range own {
				mine[b.ID] = true
			}
		}
	}
	return rec.VisibleTo(func(seat int) bool {
		id := rec.Players[seat].ID
		return players.IsBotID(id) && mine[id]
	}), true
}
