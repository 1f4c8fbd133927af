package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/records"
	"github.com/tabuleiro/tabuleiro/store"
)

// Analyses of finished games (docs/protocol.md, "Analysis"): POST queues
// one per game (a repeat answers the same), GET answers it. Each position
// is one job of the bot pool's Analysis class (Pool.Analyse), which starts
// only when no live turn waits and runs at most the class's bound at once;
// at most MaxAnalysesPending games are being analysed at once (past it:
// 503 busy). The result is stored with the record.
const (
	// MaxAnalysesPending bounds the games being analysed at once.
	MaxAnalysesPending = 32
	// analysisPlyTimeout bounds the analysis of one position once started.
	analysisPlyTimeout = 30 * time.Second
	// analysisTimeout bounds one game's analysis, queueing included.
	analysisTimeout = 30 * time.Minute
)

// analyses is the set of games being analysed. Its mutex guards pending
// only and is never held across a call.
type analyses struct {
	mu      sync.Mutex
	pending map[string]bool
}

// plyJSON is the analysis of one position: the side to move's outlook and
// the analyser's preferred move, and the move played from it.
type plyJSON struct {
	Ply     int            `json:"ply"`
	Seat    int            `json:"seat"`
	Method  string         `json:"method"`
	Outlook engine.Outlook `json:"outlook,omitempty"`
	WinRate *float64       `json:"winRate,omitempty"`
	Eval    *float64       `json:"eval,omitempty"`
	Best    string         `json:"best,omitempty"`
	Played  string         `json:"played,omitempty"`
	// Mistake: with a solved table, the move played changed the outlook
	// for the worse (it is not among the moves that keep it).
	Mistake bool `json:"mistake,omitempty"`
	// Mark is the review's mark of the move played (review): "??", "?",
	// "?!" or empty.
	Mark string `json:"mark,omitempty"`
	// Drop is how much win rate the move played lost its player, when
	// win rates are known (negative: it gained).
	Drop *float64 `json:"drop,omitempty"`
}

type analysisJSON struct {
	Status string    `json:"status"`
	Plies  []plyJSON `json:"plies"`
	// Worst is the index in Plies of the move that lost its player the
	// most win rate, absent when no move lost any or win rates are not
	// known.
	Worst *int `json:"worst,omitempty"`
}

func (s *Server) analysesStore(w http.ResponseWriter) store.RecordAnalyses {
	a, ok := s.cfg.Store.Records().(store.RecordAnalyses)
	if !ok {
		s.httpError(w, http.StatusNotFound, protocol.Errorf(protocol.CodeBadRequest, "this server keeps no analyses"))
	}
	return a
}

// analysisGet answers GET /api/records/{room}/analysis.
func (s *Server) analysisGet(w http.ResponseWriter, r *http.Request) {
	s.answerAnalysis(w, r, false)
}

// analysisPost answers POST /api/records/{room}/analysis.
func (s *Server) analysisPost(w http.ResponseWriter, r *http.Request) {
	s.answerAnalysis(w, r, true)
}

func (s *Server) answerAnalysis(w http.ResponseWriter, r *http.Request, start bool) {
	as := s.analysesStore(w)
	if as == nil {
		return
	}
	id := r.PathValue("room")
	ctx, cancel := context.WithTimeout(r.Context(), loadTimeout)
	defer cancel()
	data, err := as.Analysis(ctx, id)
	switch {
	case err == nil:
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		_, _ = w.Write(append(data, '\n'))
		return
	case !errors.Is(err, store.ErrNotFound):
		s.log.Warn("analysis: store read failed", zap.String("room", id), zap.Error(err))
		s.httpError(w, http.StatusServiceUnavailable, protocol.Errorf(protocol.CodeInternal, "the store did not answer, try again"))
		return
	}
	s.analyses.mu.Lock()
	running := s.analyses.pending[id]
	s.analyses.mu.Unlock()
	if !running && start {
		rec := s.loadRecord(w, r)
		if rec == nil {
			return
		}
		if !rec.Finished() {
			s.httpError(w, http.StatusConflict, protocol.Errorf(protocol.CodeBadRequest, "the game of room %s is not over: only finished games are analysed", id))
			return
		}
		if _, ok := s.cfg.Catalog.Analyser(rec.Game); !ok {
			s.httpError(w, http.StatusNotFound, protocol.Errorf(protocol.CodeBadRequest, "no analyser for %s", rec.Game))
			return
		}
		s.analyses.mu.Lock()
		switch {
		case s.analyses.pending[id]:
		case len(s.analyses.pending) >= MaxAnalysesPending:
			s.analyses.mu.Unlock()
			w.Header().Set("Retry-After", "30")
			s.httpError(w, http.StatusServiceUnavailable, protocol.Errorf(protocol.CodeBusy, "%d games are being analysed: try again later", MaxAnalysesPending))
			return
		default:
			if s.analyses.pending == nil {
				s.analyses.pending = map[string]bool{}
			}
			s.analyses.pending[id] = true
			go s.analyse(rec, as)
		}
		s.analyses.mu.Unlock()
		running = true
	}
	if !running {
		s.httpError(w, http.StatusNotFound, protocol.Errorf(protocol.CodeUnknownRoom, "no analysis of room %q: POST to start one", id))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusAccepted)
	_, _ = w.Write([]byte(`{"status":"pending","plies":[]}` + "\n"))
}

// analyseOne analyses st for seat as one job of the bot pool's Analysis
// class.
func (s *Server) analyseOne(ctx context.Context, an engine.Analyser, st engine.State, seat int, seed uint64) (engine.Analysis, error) {
	var a engine.Analysis
	err := s.Pool.Analyse(ctx, analysisPlyTimeout, func(context.Context, time.Time) error {
		var err error
		a, err = an.Analyse(st, seat, engine.Budget{Seed: seed})
		return err
	})
	return a, err
}

// analyse analyses every position of rec that has a move from it, one
// bot-pool job each, and stores the result.
func (s *Server) analyse(rec *records.Record, as store.RecordAnalyses) {
	defer func() {
		s.analyses.mu.Lock()
		delete(s.analyses.pending, rec.Room)
		s.analyses.mu.Unlock()
	}()
	an, _ := s.cfg.Catalog.Analyser(rec.Game)
	ctx, cancel := context.WithTimeout(context.Background(), analysisTimeout)
	defer cancel()
	out := analysisJSON{Status: "done", Plies: make([]plyJSON, 0, len(rec.Moves))}
	all := make([]engine.Analysis, 0, len(rec.Moves))
	var end *after // the value of the last position for the last mover
	_, err := records.Visit(ctx, s.cfg.Catalog, rec, func(i int, st engine.State) error {
		if i >= len(rec.Moves) {
			if i == 0 {
				return nil
			}
			last := rec.Moves[i-1].Seat
			if out := st.Outcome(); out.Over {
				v := afterEnd(last, out)
				end = &v
				return nil
			}
			if m := all[len(all)-1].Method; m == engine.MethodTable || m == engine.MethodExpectimax {
				return nil // the review reads the moves' own values
			}
			seat, ok := st.Turn()
			if !ok {
				return nil
			}
			a, err := s.analyseOne(ctx, an, st, seat, rec.Seed+uint64(i))
			if err != nil {
				// The last move then goes unjudged; the rest stands.
				s.log.Warn("analysis: final position", zap.String("room", rec.Room), zap.Error(err))
				return ctx.Err()
			}
			v := afterOf(last, a)
			end = &v
			return nil
		}
		seat, played := rec.Moves[i].Seat, rec.Moves[i].Move
		a, err := s.analyseOne(ctx, an, st, seat, rec.Seed+uint64(i))
		if err != nil {
			return err
		}
		p := plyJSON{Ply: i, Seat: seat, Method: a.Method, Outlook: a.Outlook, WinRate: a.WinRate, Eval: a.Eval, Played: played}
		if len(a.Best) > 0 {
			p.Best = a.Best[0]
		}
		p.Mistake = a.Method == engine.MethodTable && !slices.Contains(a.Best, played)
		out.Plies = append(out.Plies, p)
		all = append(all, a)
		return nil
	})
	if err != nil {
		s.log.Warn("analysis failed", zap.String("room", rec.Room), zap.Error(err))
		return
	}
	for i := range out.Plies {
		next := end
		if i+1 < len(all) {
			v := afterOf(out.Plies[i].Seat, all[i+1])
			next = &v
		} else if end == nil {
			next = nil
		}
		out.Plies[i].Mark, out.Plies[i].Drop = review(all[i], out.Plies[i].Played, next)
	}
	out.Worst = worstDrop(out.Plies)
	data, err := json.Marshal(out)
	if err != nil {
		return
	}
	pctx, pcancel := context.WithTimeout(context.Background(), loadTimeout)
	defer pcancel()
	if err := as.PutAnalysis(pctx, rec.Room, data); err != nil {
		s.log.Warn("analysis: store write failed", zap.String("room", rec.Room), zap.Error(err))
	}
}
