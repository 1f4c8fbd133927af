package rooms

import (
	"context"
	"encoding/json"
	"slices"
	"time"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/protocol"
)

// ReasonAbandoned is the result reason of a claimed win: the opponent had
// been disconnected for longer than the grace period.
const ReasonAbandoned = "abandoned"

// Claim ends the game in favour of mem's seat when the opponent, a human,
// has been disconnected for longer than the grace period.
func (r *Room) Claim(mem Member, id json.RawMessage) bool {
	return r.post(func() {
		if perr := r.claim(mem); perr != nil {
			r.replyErr(mem, id, perr)
		}
	})
}

// grace is how long a human seat must have been gone before its opponent
// may claim the win: the configured grace, or a tenth of the clock's base
// time when that is longer.
func (r *Room) grace() time.Duration {
	g := r.m.cfg.Grace
	if r.clock != nil {
		g = max(g, r.clock.base/10)
	}
	return g
}

func (r *Room) humanSeat(seat int) bool {
	s := r.seats[seat]
	return s.Bot == "" && s.ID != ""
}

// notePresence records since when each human seat has had no connection,
// and arms or disarms the adjournment of a room nobody is in. It runs after
// every change of the members.
func (r *Room) notePresence() {
	now := r.now()
	if len(r.goneSince) != len(r.seats) {
		r.goneSince = make([]time.Time, len(r.seats))
	}
	for i := range r.seats {
		switch {
		case !r.humanSeat(i) || r.connected(i):
			r.goneSince[i] = time.Time{}
		case r.goneSince[i].IsZero():
			r.goneSince[i] = now
		}
	}
	if r.mayAdjourn() {
		r.armIdle()
	} else {
		r.disarmIdle()
	}
	r.armAway()
}

// gameStarted restarts the grace of the seats that are away as the game
// begins: nobody abandons a game before it starts.
func (r *Room) gameStarted(now time.Time) {
	for i, g := range r.goneSince {
		if !g.IsZero() {
			r.goneSince[i] = now
		}
	}
	r.armAway()
}

// adjournedAt is when the lobby shows the game adjourned: AdjournAfter
// after the last of its players left, while the game is playing and none
// of them is connected; zero when it is not (a player is here, the game is
// not playing, or only bots play it).
func (r *Room) adjournedAt() time.Time {
	if r.status != StatusPlaying || len(r.goneSince) != len(r.seats) {
		return time.Time{}
	}
	var last time.Time
	for i := range r.seats {
		if !r.humanSeat(i) {
			continue
		}
		g := r.goneSince[i]
		if g.IsZero() {
			return time.Time{}
		}
		if g.After(last) {
			last = g
		}
	}
	if last.IsZero() {
		return last
	}
	return last.Add(r.m.cfg.AdjournAfter)
}

// adjournedNow reports whether the game is adjourned for the lobby: none of
// its players has been connected for AdjournAfter.
func (r *Room) adjournedNow() bool {
	at := r.adjournedAt()
	return !at.IsZero() && !r.now().Before(at)
}

// armAway sets the timer that puts the room's summary again when the game
// becomes adjourned (its players all gone for AdjournAfter), so that the
// lobby drops it from its live games; a player coming back disarms it, and
// the summary put on that change says it is live again.
func (r *Room) armAway() {
	at := r.adjournedAt()
	if at.IsZero() || !r.live {
		r.awayTimer.disarm()
		return
	}
	wait := at.Sub(r.now())
	if wait <= 0 {
		r.awayTimer.disarm()
		return
	}
	if r.awayTimer.armed() && r.awayAt.Equal(at) {
		return
	}
	r.awayAt = at
	r.awayTimer.arm(r, wait, func() {
		if r.adjournedNow() {
			r.m.setSummary(r)
			return
		}
		r.armAway() // the room's clock (Config.Now) says not yet
	})
}

// claimableAt is when seat's opponent may claim the win, or zero when it
// may not (seat connected, a bot, not playing, not a two-seat game).
func (r *Room) claimableAt(seat int) time.Time {
	if r.status != StatusPlaying || len(r.seats) != 2 || seat >= len(r.goneSince) || r.goneSince[seat].IsZero() {
		return time.Time{}
	}
	return r.goneSince[seat].Add(r.grace())
}

func (r *Room) claim(mem Member) *protocol.Error {
	seat, perr := r.playingAgainst(mem)
	if perr != nil {
		return perr
	}
	opp := 1 - seat
	if r.seats[opp].Bot != "" {
		return protocol.Errorf(protocol.CodeBadRequest, "your opponent is a bot: it never leaves")
	}
	if r.connected(opp) {
		return protocol.Errorf(protocol.CodeBadRequest, "your opponent is connected")
	}
	now := r.now()
	if at := r.claimableAt(opp); now.Before(at) {
		wait := at.Sub(now)
		secs := int64((wait + time.Second - 1) / time.Second)
		return protocol.Errorf(protocol.CodeBadRequest,
			"your opponent has been gone %d s; you may claim the win in %d s", int64(now.Sub(r.goneSince[opp])/time.Second), secs)
	}
	if r.inScoring() {
		// The game is decided on the board: it is counted with the
		// server's proposal rather than forfeited (scoring.go).
		return r.settleScoring(seat, "claim")
	}
	r.persist.mark()
	r.nextSeq()
	r.finish(engine.Outcome{Over: true, Winner: seat, Reason: ReasonAbandoned})
	if err := r.persist.commit(context.Background(), logEntry{Kind: "claim", Seat: &seat}); err != nil {
		r.log.Error("save failed; claim rolled back", zap.String("room", r.id), zap.Error(err))
		r.persist.rollback()
		return protocol.Errorf(protocol.CodeInternal, "could not save, try again")
	}
	r.log.Info("game over", zap.String("room", r.id), zap.String("game", r.info.ID),
		zap.Int("winner", seat), zap.String("reason", ReasonAbandoned))
	r.broadcast()
	return nil
}

// mayAdjourn: a playing room without a clock, with a human seat, that
// nobody (player or spectator) is in. With a clock the room stays: the
// seat to move loses on time anyway. Rooms where only bots play finish by
// themselves.
func (r *Room) mayAdjourn() bool {
	if len(r.members) != 0 || r.status != StatusPlaying || r.clock != nil {
		return false
	}
	for i := range r.seats {
		if r.humanSeat(i) {
			return true
		}
	}
	return false
}

// armIdle sets the adjournment timer, Grace times AdjournFactor from the
// moment the room became empty, unless it is already set.
func (r *Room) armIdle() {
	if r.idleTimer.armed() || !r.live {
		return
	}
	r.idleTimer.arm(r, r.m.cfg.Grace*time.Duration(r.m.cfg.AdjournFactor), r.idleFired)
}

func (r *Room) disarmIdle() { r.idleTimer.disarm() }

// idleFired adjourns the room: its goroutine stops and frees the memory;
// its last snapshot (status playing) stays in the store, and Manager.Get
// brings it back when anyone asks for it.
func (r *Room) idleFired() {
	if !r.mayAdjourn() {
		return
	}
	if slices.Contains(r.botPending, true) {
		r.armIdle() // a bot is thinking: let it move first
		return
	}
	r.adjourned = true
	r.log.Info("room adjourned", zap.String("room", r.id), zap.Int64("seq", r.seq))
}
