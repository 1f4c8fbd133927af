package rooms

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"time"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/protocol"
)

// ReasonTimeout is the result reason when a seat's clock runs out.
const ReasonTimeout = "timeout"

// clock is a room's Fischer time control. It belongs to the room goroutine.
//
// left holds each seat's remaining time as of the start of the current
// turn; the seat to move (running >= 0) is charged the time since
// turnStart when it moves, and gains inc. As on lichess, a seat's clock
// starts with its first move: that move costs no time and earns no
// increment, and a game whose first move does not come within
// Config.AbortAfter is aborted instead (rules.go).
type clock struct {
	base, inc time.Duration
	left      []time.Duration
	running   int // the seat whose time runs, -1 when none
	turnStart time.Time
}

func newClock(tc *protocol.TimeControl, seats int) *clock {
	c := &clock{base: time.Duration(tc.Base) * time.Second, inc: time.Duration(tc.Increment) * time.Second,
		left: make([]time.Duration, seats), running: -1}
	for i := range c.left {
		c.left[i] = c.base
	}
	return c
}

func (c *clock) clone() *clock {
	if c == nil {
		return nil
	}
	d := *c
	d.left = slices.Clone(c.left)
	return &d
}

// leftAt is seat's remaining time at now (never below zero).
func (c *clock) leftAt(seat int, now time.Time) time.Duration {
	l := c.left[seat]
	if seat == c.running {
		l -= now.Sub(c.turnStart)
	}
	return max(l, 0)
}

// timeControl is the clock's setting, for a rematch.
func (c *clock) timeControl() *protocol.TimeControl {
	if c == nil {
		return nil
	}
	return &protocol.TimeControl{Base: int(c.base / time.Second), Increment: int(c.inc / time.Second)}
}

func (r *Room) now() time.Time { return r.m.cfg.Now() }

// startClock starts the clock of the seat to move, if the room has a clock,
// plays and is not already timing someone, and that seat has made its
// first move. No clock runs in go's stone-removal phase (scoring.go).
func (r *Room) startClock(now time.Time) {
	c := r.clock
	if c == nil || c.running >= 0 || r.status != StatusPlaying || r.inScoring() {
		return
	}
	seat, ok := r.state.Turn()
	if !ok || !r.hasMoved(seat) {
		return
	}
	c.running, c.turnStart = seat, now
	r.armFlag()
}

// stopClock charges the seat to move the time of its turn so far and stops
// its clock.
func (r *Room) stopClock(now time.Time) {
	c := r.clock
	if c == nil || c.running < 0 {
		return
	}
	c.left[c.running] = c.leftAt(c.running, now)
	c.running, c.turnStart = -1, time.Time{}
	r.disarmFlag()
}

// clockMoved charges seat's move (its time since the turn started, then
// the increment; nothing for its first move, which its clock did not
// time) and starts the clock of the next seat to move. It returns false,
// changing nothing, when seat's time had already run out.
func (r *Room) clockMoved(seat int, now time.Time) bool {
	c := r.clock
	if c == nil {
		return true
	}
	if c.running == seat {
		left := c.leftAt(seat, now)
		if left <= 0 {
			return false
		}
		c.left[seat] = left + c.inc
		c.running, c.turnStart = -1, time.Time{}
		r.disarmFlag()
	}
	r.startClock(now)
	return true
}

// armFlag sets the flag timer for the seat to move. The timer only wakes
// the room, which reads its clock again (checkFlag).
func (r *Room) armFlag() {
	r.disarmFlag()
	c := r.clock
	if c == nil || c.running < 0 || !r.live {
		return
	}
	r.flagTimer.arm(r, c.leftAt(c.running, r.now())+time.Millisecond, r.checkFlag)
}

func (r *Room) disarmFlag() { r.flagTimer.disarm() }

// checkFlag ends the game when the seat to move has no time left, and
// otherwise sets the timer again (an injected clock may not have moved).
func (r *Room) checkFlag() {
	c := r.clock
	if c == nil || c.running < 0 || r.status != StatusPlaying {
		return
	}
	if c.leftAt(c.running, r.now()) > 0 {
		r.armFlag()
		return
	}
	r.flag(c.running)
}

// flag ends the game: seat's time ran out, the other seat wins. Saved and
// broadcast like a move; when the save fails the room retries shortly.
func (r *Room) flag(seat int) {
	r.persist.mark()
	r.nextSeq()
	r.finish(engine.Outcome{Over: true, Winner: 1 - seat, Reason: ReasonTimeout})
	if err := r.persist.commit(context.Background(), logEntry{Kind: ReasonTimeout, Seat: &seat}); err != nil {
		r.log.Error("save failed; flag fall retried", zap.String("room", r.id), zap.Error(err))
		r.persist.rollback()
		r.flagTimer.arm(r, time.Second, r.checkFlag) // rollback armed it for now: retry in a second instead
		return
	}
	r.log.Info("game over", zap.String("room", r.id), zap.String("game", r.info.ID),
		zap.Int("flagged", seat), zap.String("reason", ReasonTimeout))
	r.broadcast()
}

// clocksView is room.state's "clocks": each seat's remaining milliseconds
// as of now, or nil without a clock.
func (r *Room) clocksView(now time.Time) map[string]int64 {
	c := r.clock
	if c == nil {
		return nil
	}
	out := make(map[string]int64, len(c.left))
	for i := range c.left {
		out[strconv.Itoa(i)] = c.leftAt(i, now).Milliseconds()
	}
	return out
}

// botTimeout is the deadline of a bot's turn: the configured one, shortened
// to a twentieth of the bot's remaining time (at least 50 ms) under a clock,
// so that a bot spends its time like a player and rarely loses on time.
func (r *Room) botTimeout(seat int) time.Duration {
	d := r.m.cfg.BotTimeout
	if c := r.clock; c != nil {
		d = min(d, max(c.leftAt(seat, r.now())/20, 50*time.Millisecond))
	}
	return d
}

// clockSnap is the clock in a room snapshot.
type clockSnap struct {
	BaseMs int64   `json:"baseMs"`
	IncMs  int64   `json:"incMs"`
	LeftMs []int64 `json:"leftMs"`
	// Running and TurnStartMs (Unix ms) say whose turn was being timed
	// when the snapshot was written. A restored room does not charge that
	// turn's time (see docs/persistence.md).
	Running     int   `json:"running"`
	TurnStartMs int64 `json:"turnStartMs,omitempty"`
}

func (c *clock) snap() *clockSnap {
	if c == nil {
		return nil
	}
	s := &clockSnap{BaseMs: c.base.Milliseconds(), IncMs: c.inc.Milliseconds(), Running: c.running}
	for _, l := range c.left {
		s.LeftMs = append(s.LeftMs, l.Milliseconds())
	}
	if c.running >= 0 {
		s.TurnStartMs = c.turnStart.UnixMilli()
	}
	return s
}

// restoredClock rebuilds a clock from its snapshot. Nothing runs: the room
// starts the clock of the seat to move when its goroutine starts, with the
// time that seat had when its turn began.
func restoredClock(s *clockSnap, seats int) (*clock, error) {
	if s == nil {
		return nil, nil
	}
	const most = int64(protocol.MaxClockBase+protocol.MaxClockIncrement) * 1000 * 100000
	switch {
	case seats != 2:
		return nil, fmt.Errorf("a clock in a room of %d seats", seats)
	case s.BaseMs <= 0 || s.BaseMs > most || s.IncMs < 0 || s.IncMs > most:
		return nil, fmt.Errorf("clock base %d ms, increment %d ms", s.BaseMs, s.IncMs)
	case len(s.LeftMs) != seats:
		return nil, fmt.Errorf("clock has %d times for %d seats", len(s.LeftMs), seats)
	}
	c := &clock{base: time.Duration(s.BaseMs) * time.Millisecond, inc: time.Duration(s.IncMs) * time.Millisecond,
		left: make([]time.Duration, seats), running: -1}
	for i, l := range s.LeftMs {
		if l < 0 || l > most {
			return nil, fmt.Errorf("clock of seat %d: %d ms left", i, l)
		}
		c.left[i] = time.Duration(l) * time.Millisecond
	}
	return c, nil
}
