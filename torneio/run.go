package torneio

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"time"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/players"
	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/rooms"
	"github.com/tabuleiro/tabuleiro/store"
)

// run is the one goroutine that owns a tournament's state, cur: while it
// waits for its invitations it reads their answers (await); then it starts
// games (at most Parallel at once), reads each running game's room from the
// store every Poll until it is over, saves cur after every change and
// publishes a copy of it. It returns when the tournament is finished (or
// cancelled) and saved, or when the Manager stops.
func (m *Manager) run(l *live, start *View) {
	defer m.wg.Done()
	defer m.unregister(start.ID)
	cur := clone(start)
	log := m.log.With(zap.String("torneio", cur.ID))
	tick := time.NewTicker(m.cfg.Poll)
	defer tick.Stop()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		select {
		case <-m.stop:
			cancel()
		case <-ctx.Done():
		}
	}()
	if cur.Status == StatusWaiting && !m.await(ctx, l, cur, tick.C) {
		return
	}
	dirty := false
	// made holds the rooms this goroutine has made or found, so that
	// each is looked for in the store once (bounded by the games).
	made := map[string]bool{}
	for {
		playing := 0
		for i := range cur.Games {
			g := &cur.Games[i]
			if g.Status != GamePlaying {
				continue
			}
			if m.follow(ctx, log, cur, g) {
				dirty = true
			}
			if g.Status == GamePlaying {
				playing++
			}
		}
		var starting []int // the entrants of the games starting now
		for i := range cur.Games {
			g := &cur.Games[i]
			if playing >= m.cfg.Parallel {
				break
			}
			if g.Status != GamePending {
				continue
			}
			// The room's id is saved before the room is made, so that
			// a restart in between makes the same room (follow), never
			// a second one.
			g.Room, g.Status = rooms.NewID(), GamePlaying
			playing++
			dirty = true
			for _, e := range g.Entrants {
				if !slices.Contains(starting, e) {
					starting = append(starting, e)
				}
			}
		}
		// Their names as they are now (a rename since the start), for
		// the view and the rooms about to be made.
		if len(starting) > 0 {
			m.name(ctx, cur.Entrants, starting)
		}
		if cur.Status == StatusRunning && !slices.ContainsFunc(cur.Games, func(g Game) bool { return g.Status != GameFinished }) {
			cur.Status = StatusFinished
			now := m.now()
			cur.Finished = &now
			dirty = true
		}
		if dirty {
			cur.Standings = Standings(cur.Entrants, cur.Games)
			if err := m.save(ctx, cur); err != nil {
				if ctx.Err() != nil {
					return
				}
				log.Warn("torneio save failed; retrying", zap.Error(err))
			} else {
				dirty = false
				// Make the rooms of the games just saved as starting,
				// before the view names them.
				for i := range cur.Games {
					if g := &cur.Games[i]; g.Status == GamePlaying && !made[g.Room] {
						m.ensureRoom(ctx, log, cur, g)
						made[g.Room] = true
					}
				}
				l.mu.Lock()
				l.view = clone(cur)
				l.mu.Unlock()
				if cur.Status == StatusFinished {
					log.Info("torneio finished")
					return
				}
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// await is run's phase while cur waits for its invitations: every tick,
// and at once when Answer wakes it, it reads the answers from the store;
// the tournament begins when every person answered, when the owner says
// start, or at the deadline. It saves and publishes every change, and
// reports whether cur now runs (false: cancelled, or the Manager stops).
func (m *Manager) await(ctx context.Context, l *live, cur *View, tick <-chan time.Time) bool {
	log := m.log.With(zap.String("torneio", cur.ID))
	dirty := false
	for {
		if cur.Status == StatusWaiting {
			actx, cancel := context.WithTimeout(ctx, 5*time.Second)
			answers, err := m.ts.TorneioAnswers(actx, cur.ID)
			cancel()
			startNow := false
			if err == nil {
				var changed bool
				changed, startNow = applyAnswers(cur, answers)
				dirty = dirty || changed
			} else if ctx.Err() == nil {
				log.Warn("torneio answers", zap.Error(err))
			}
			pending := slices.ContainsFunc(cur.Entrants, func(e Entrant) bool { return e.Invite == InvitePending })
			if now := m.now(); startNow || !pending || !now.Before(*cur.Deadline) {
				begin(cur, now)
				dirty = true
			} else if dirty {
				cur.Standings = Standings(cur.Entrants, cur.Games)
			}
		}
		if dirty {
			if err := m.save(ctx, cur); err != nil {
				if ctx.Err() != nil {
					return false
				}
				log.Warn("torneio save failed; retrying", zap.Error(err))
			} else {
				dirty = false
				l.mu.Lock()
				l.view = clone(cur)
				l.mu.Unlock()
				switch cur.Status {
				case StatusRunning:
					log.Info("torneio begins", zap.Int("entrants", len(cur.Entrants)), zap.Int("games", len(cur.Games)))
					return true
				case StatusCancelled:
					log.Info("torneio cancelled: fewer than two entrants accepted")
					return false
				}
			}
		}
		select {
		case <-ctx.Done():
			return false
		case <-tick:
		case <-l.wake:
		}
	}
}

// applyAnswers sets the invited people's Invite from the stored answers and
// reports whether one changed, and whether the owner said start.
func applyAnswers(v *View, answers map[string]string) (changed, start bool) {
	for i := range v.Entrants {
		e := &v.Entrants[i]
		if e.Invite == "" {
			continue
		}
		want := e.Invite
		switch answers[e.Player] {
		case AnswerAccept:
			want = InviteAccepted
		case AnswerDecline:
			want = InviteDeclined
		}
		if e.Invite != want {
			e.Invite, changed = want, true
		}
	}
	return changed, answers[startKey] == AnswerStart
}

// ensureRoom creates g's room when it is not in the store yet.
func (m *Manager) ensureRoom(ctx context.Context, log *zap.Logger, v *View, g *Game) {
	if _, err := m.cfg.Store.LoadRoom(ctx, g.Room); !errors.Is(err, store.ErrNotFound) {
		return
	}
	m.create(ctx, log, v, g)
}

func (m *Manager) create(ctx context.Context, log *zap.Logger, v *View, g *Game) {
	spec := rooms.Spec{ID: g.Room, Game: v.Game, Variant: g.Variant, Clock: v.Clock}
	watch := true
	for _, ei := range g.Entrants {
		e := v.Entrants[ei]
		if e.Level != "" {
			spec.Seats = append(spec.Seats, players.ServerBot(e.Level, e.Level))
			continue
		}
		watch = false
		name := e.Name
		if name == "" {
			name = e.PlayerID()
		}
		spec.Seats = append(spec.Seats, players.Of(e.PlayerID(), name))
	}
	if watch {
		spec.Watch, spec.Clock = true, nil // the room refuses clocks where only bots play
	}
	// A rated tournament's game is rated between accounts and bot
	// accounts; with the server's bot it is casual.
	spec.Rated = v.Rated && !slices.ContainsFunc(spec.Seats, func(p players.Player) bool { return p.Bot != "" })
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	// Create applies the cap on each entrant's unfinished rooms, as to any
	// room made for players: past it the game waits, and follow asks
	// again at the next poll.
	_, err := m.cfg.Rooms.Create(cctx, spec)
	if pe := (*protocol.Error)(nil); spec.Rated && errors.As(err, &pe) && pe.Msg == rooms.NotRatedMsg {
		spec.Rated = false // an entrant is a guest: the game is casual
		_, err = m.cfg.Rooms.Create(cctx, spec)
	}
	switch {
	case errors.Is(err, rooms.ErrTooManyRooms):
		log.Debug("torneio game room waits for an entrant's place", zap.String("room", g.Room), zap.Error(err))
	case err != nil:
		log.Warn("torneio game room", zap.String("room", g.Room), zap.Error(err))
	}
}

// follow reads g's room; when its game is over it records the result and
// returns true. A game aborted because a seat never made its first move,
// or aborted by a seat, is lost by that seat: in a tournament every game
// counts.
func (m *Manager) follow(ctx context.Context, log *zap.Logger, v *View, g *Game) bool {
	cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	saved, err := m.cfg.Store.LoadRoom(cctx, g.Room)
	if errors.Is(err, store.ErrNotFound) {
		m.create(ctx, log, v, g)
		return false
	}
	if err != nil {
		return false
	}
	rec, err := rooms.RecordOf(saved.Snapshot)
	if err != nil {
		log.Warn("torneio game record", zap.String("room", g.Room), zap.Error(err))
		return false
	}
	if rec.Status != rooms.StatusFinished || rec.Result == nil {
		// After a restart nobody may have asked for the room yet: bring
		// it back, so that its bots move and its clocks run.
		_, _ = m.cfg.Rooms.Get(cctx, g.Room)
		return false
	}
	g.Status, g.Reason = GameFinished, rec.Result.Reason
	if w := rec.Result.Winner; w >= 0 {
		g.Winner = &w
	} else if rec.Result.Reason == rooms.ReasonAborted {
		if seat, ok := m.abortedBy(cctx, g.Room); ok {
			w := 1 - seat
			g.Winner = &w
		}
	}
	return true
}

// abortedBy reads the seat of the room's abort from its log.
func (m *Manager) abortedBy(ctx context.Context, room string) (int, bool) {
	entries, err := m.cfg.Store.RoomLog(ctx, room)
	if err != nil {
		return 0, false
	}
	for i := len(entries) - 1; i >= 0; i-- {
		var e struct {
			Kind string `json:"kind"`
			Seat *int   `json:"seat"`
		}
		if json.Unmarshal(entries[i], &e) == nil && e.Kind == "abort" && e.Seat != nil && (*e.Seat == 0 || *e.Seat == 1) {
			return *e.Seat, true
		}
	}
	return 0, false
}

func clone(v *View) *View {
	c := *v
	c.Entrants = slices.Clone(v.Entrants)
	c.Withdrawn = slices.Clone(v.Withdrawn)
	c.Partidas = slices.Clone(v.Partidas)
	c.Standings = slices.Clone(v.Standings)
	c.Games = slices.Clone(v.Games)
	for i, g := range c.Games {
		if g.Winner != nil {
			w := *g.Winner
			c.Games[i].Winner = &w
		}
	}
	return &c
}
