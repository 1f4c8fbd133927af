// The rules of play that lichess players expect: a game whose first move
// never comes is aborted, either player may abort a game before both sides
// have moved, draws may be offered where the rules have draws, and a
// player may ask to take back a move (docs/protocol.md, "Abort, draws and
// takebacks").

package rooms

import (
	"context"
	"fmt"
	"slices"
	"time"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/protocol"
)

// Result reasons of the rules of play.
const (
	// ReasonAborted: the game ended with no result, before both sides had
	// moved (room.abort, or a first move that did not come in time).
	ReasonAborted = "aborted"
	// ReasonAgreement: a draw both players agreed to.
	ReasonAgreement = "agreement"
)

// offers are a room's standing draw offer and takeback request. They
// belong to the room goroutine.
type offers struct {
	// draw is the seat whose draw offer stands, -1 when none.
	draw int
	// takeback is the standing takeback request, nil when none.
	takeback *protocol.TakebackAsk
	// drawAt and takebackAt hold, per seat, Room.seatMoves[seat] when the
	// seat last offered a draw or asked for a takeback (a seat beyond
	// their length never did): a seat may do either again only after a
	// move of its own, so no player can pester the other more than once
	// a move.
	drawAt, takebackAt []int64
}

// clone is a copy that shares nothing with o.
func (o offers) clone() offers {
	c := o
	if o.takeback != nil {
		t := *o.takeback
		c.takeback = &t
	}
	c.drawAt, c.takebackAt = slices.Clone(o.drawAt), slices.Clone(o.takebackAt)
	return c
}

// lastAt is at[seat], or -1 when the seat never did it.
func lastAt(at []int64, seat int) int64 {
	if seat < len(at) {
		return at[seat]
	}
	return -1
}

// setAt records that seat does it now, at its n-th own move.
func setAt(at []int64, seat int, n int64) []int64 {
	for len(at) <= seat {
		at = append(at, -1)
	}
	at[seat] = n
	return at
}

// hasMoved reports whether seat has a move in the game's history. A seat
// that never moved has no move counted (seatMoves counts the moves taken
// back too); otherwise the move is among the first ones in games where the
// seats take turns, so this is cheap.
func (r *Room) hasMoved(seat int) bool {
	if seat < len(r.seatMoves) && r.seatMoves[seat] == 0 {
		return false
	}
	for _, m := range r.history {
		if m.Seat == seat {
			return true
		}
	}
	return false
}

// bothMoved reports whether every seat has made a move.
func (r *Room) bothMoved() bool {
	for i := range r.seats {
		if !r.hasMoved(i) {
			return false
		}
	}
	return true
}

// opponent is the opponent of seat in a two-seat game and whether it
// is a person (false for a bot or a free seat).
func (r *Room) opponent(seat int) (opp int, human bool) {
	opp = 1 - seat
	return opp, r.humanSeat(opp)
}

// abortable reports whether a player may abort the game now: a two-seat
// game with a person in it, waiting for its second player or playing
// before both sides have moved.
func (r *Room) abortable() bool {
	if len(r.seats) != 2 || !r.humanSeat(0) && !r.humanSeat(1) {
		return false
	}
	return r.status == StatusWaiting || r.status == StatusPlaying && !r.bothMoved()
}

// abortDue is when the game is aborted unless the seat to move makes its
// first move, whose time its clock does not count: in a game with a
// clock, AbortAfter from the moment that seat could first move (the start
// of the game, the opponent's first move, the room's restart, or a
// takeback that undid the seat's first move). Zero when no abort is due.
func (r *Room) abortDue() time.Time {
	if r.clock == nil || r.status != StatusPlaying {
		return time.Time{}
	}
	seat, ok := r.state.Turn()
	if !ok || seat >= len(r.rec.turnBegan) || r.rec.turnBegan[seat].IsZero() || r.hasMoved(seat) {
		return time.Time{}
	}
	return r.rec.turnBegan[seat].Add(r.m.cfg.AbortAfter)
}

// armAbort sets the abort timer when a first move is due, and clears it
// otherwise. Like the flag timer it only wakes the room, which reads its
// clock again (checkAbort).
func (r *Room) armAbort() {
	r.disarmAbort()
	due := r.abortDue()
	if due.IsZero() || !r.live {
		return
	}
	r.abortTimer.arm(r, max(due.Sub(r.now()), 0)+time.Millisecond, r.checkAbort)
}

func (r *Room) disarmAbort() { r.abortTimer.disarm() }

// checkAbort aborts the game when the first move due has not come in time,
// and otherwise sets the timer again (an injected clock may not have
// moved).
func (r *Room) checkAbort() {
	due := r.abortDue()
	if due.IsZero() {
		return
	}
	if r.now().Before(due) {
		r.armAbort()
		return
	}
	seat, _ := r.state.Turn()
	if err := r.abortGame(seat, "timeout"); err != nil {
		r.abortTimer.arm(r, time.Second, r.checkAbort) // the save failed: retry in a second
	}
}

// abortGame ends the game with no result, saved and broadcast like a move.
// seat is the player who aborted (by "human"), or the seat whose first
// move did not come (by "timeout").
func (r *Room) abortGame(seat int, by string) *protocol.Error {
	perr := r.change(logEntry{Kind: "abort", Seat: &seat, By: by}, func() {
		r.finish(engine.Outcome{Over: true, Winner: -1, Reason: ReasonAborted})
	})
	if perr == nil {
		r.log.Info("game aborted", zap.String("room", r.id), zap.String("game", r.info.ID),
			zap.Int("seat", seat), zap.String("by", by))
	}
	return perr
}

// abort is room.abort: a player ends the game with no result, before both
// sides have moved (or while the room waits for its second player).
func (r *Room) abort(mem Member) *protocol.Error {
	seat, perr := r.againstOpponent(mem)
	if perr != nil {
		return perr
	}
	if !r.abortable() {
		return protocol.Errorf(protocol.CodeBadRequest, "both sides have moved: the game can no longer be aborted (resign%s)",
			map[bool]string{true: ", or offer a draw", false: ""}[r.info.Draws])
	}
	return r.abortGame(seat, "human")
}

// againstOpponent checks that mem holds a seat of a two-seat game that is
// not over, and returns the seat: who may abort, claim, offer or answer.
func (r *Room) againstOpponent(mem Member) (int, *protocol.Error) {
	seat := r.seatOf(mem.PlayerID())
	switch {
	case seat < 0:
		return -1, protocol.Errorf(protocol.CodeNotAPlayer, "you do not hold a seat in room %s", r.id)
	case r.status == StatusFinished:
		return -1, protocol.Errorf(protocol.CodeGameOver, "the game is over")
	case len(r.seats) != 2:
		return -1, protocol.Errorf(protocol.CodeBadRequest, "there is no opponent in this game")
	}
	return seat, nil
}

// playingAgainst is againstOpponent for a game being played.
func (r *Room) playingAgainst(mem Member) (int, *protocol.Error) {
	seat, perr := r.againstOpponent(mem)
	if perr == nil && r.status != StatusPlaying {
		perr = protocol.Errorf(protocol.CodeBadRequest, "the game has not started")
	}
	return seat, perr
}

// change makes one change to the room's offers or result, marked before f
// runs: saved with the log entry e and broadcast, or rolled back when the
// save fails.
func (r *Room) change(e logEntry, f func()) *protocol.Error {
	r.persist.mark()
	r.nextSeq()
	f()
	if err := r.persist.commit(context.Background(), e); err != nil {
		r.log.Error("save failed; change rolled back", zap.String("room", r.id), zap.String("kind", e.Kind), zap.Error(err))
		r.persist.rollback()
		return protocol.Errorf(protocol.CodeInternal, "could not save, try again")
	}
	r.broadcast()
	return nil
}

// offerDraw is room.draw.offer. Offering back a draw the opponent offered
// accepts it.
func (r *Room) offerDraw(mem Member) *protocol.Error {
	seat, perr := r.playingAgainst(mem)
	if perr != nil {
		return perr
	}
	opp, human := r.opponent(seat)
	switch {
	case !r.info.Draws:
		return protocol.Errorf(protocol.CodeBadRequest, "%s has no draws", r.info.Name)
	case r.offers.draw == opp:
		return r.agreeDraw(seat, "human")
	case r.offers.draw == seat:
		return protocol.Errorf(protocol.CodeBadRequest, "your draw offer stands")
	case !r.bothMoved():
		return protocol.Errorf(protocol.CodeBadRequest, "no draw offers before both sides have moved: abort the game instead")
	case lastAt(r.offers.drawAt, seat) == r.seatMoves[seat]:
		return protocol.Errorf(protocol.CodeBadRequest, "you have offered a draw since your last move: play a move before offering again")
	}
	perr = r.change(logEntry{Kind: "draw_offer", Seat: &seat}, func() {
		r.offers.draw = seat
		r.offers.drawAt = setAt(r.offers.drawAt, seat, r.seatMoves[seat])
	})
	if perr == nil && !human {
		r.askBotDraw(opp)
	}
	return perr
}

// acceptDraw is room.draw.accept.
func (r *Room) acceptDraw(mem Member) *protocol.Error {
	seat, perr := r.playingAgainst(mem)
	if perr != nil {
		return perr
	}
	if opp, _ := r.opponent(seat); r.offers.draw != opp {
		return protocol.Errorf(protocol.CodeBadRequest, "there is no draw offer to accept")
	}
	return r.agreeDraw(seat, "human")
}

// agreeDraw ends the game in a draw: seat accepted its opponent's offer.
func (r *Room) agreeDraw(seat int, by string) *protocol.Error {
	perr := r.change(logEntry{Kind: "draw_accept", Seat: &seat, By: by}, func() {
		r.finish(engine.Outcome{Over: true, Winner: -1, Reason: ReasonAgreement})
	})
	if perr == nil {
		r.log.Info("game over", zap.String("room", r.id), zap.String("game", r.info.ID), zap.String("reason", ReasonAgreement))
	}
	return perr
}

// declineDraw is room.draw.decline: the opponent's offer is declined, or
// the player's own offer withdrawn.
func (r *Room) declineDraw(mem Member) *protocol.Error {
	seat, perr := r.playingAgainst(mem)
	if perr != nil {
		return perr
	}
	if r.offers.draw < 0 {
		return protocol.Errorf(protocol.CodeBadRequest, "there is no draw offer to decline")
	}
	return r.dropDrawOffer(seat, "human")
}

// dropDrawOffer takes the standing draw offer away: seat declined it (or
// withdrew its own).
func (r *Room) dropDrawOffer(seat int, by string) *protocol.Error {
	return r.change(logEntry{Kind: "draw_decline", Seat: &seat, By: by}, func() { r.offers.draw = -1 })
}

// lapseOffers is what a move by seat does to the offers: the opponent's
// draw offer lapses (the lichess rule: an offer stands until the other
// side moves), and so does any takeback request, which was about the
// position before the move.
func (r *Room) lapseOffers(seat int) {
	if r.offers.draw >= 0 && r.offers.draw != seat {
		r.offers.draw = -1
	}
	r.offers.takeback = nil
}

// askTakeback is room.takeback.ask: the player asks to take back its last
// move, and the opponent's reply when it has replied, so that it is the
// player's turn again. Against a bot it is granted at once in a game
// without a clock and refused with a clock.
func (r *Room) askTakeback(mem Member) *protocol.Error {
	seat, perr := r.playingAgainst(mem)
	if perr != nil {
		return perr
	}
	_, human := r.opponent(seat)
	if _, ok := r.state.Turn(); !ok {
		return protocol.Errorf(protocol.CodeBadRequest, "no takebacks when both seats move at once")
	}
	last := -1
	for i := len(r.history) - 1; i >= 0; i-- {
		if r.history[i].Seat == seat {
			last = i
			break
		}
	}
	switch {
	case last < 0:
		return protocol.Errorf(protocol.CodeBadRequest, "you have no move to take back")
	case r.offers.takeback != nil && r.offers.takeback.Seat == seat:
		return protocol.Errorf(protocol.CodeBadRequest, "your takeback request stands")
	case r.offers.takeback != nil:
		return protocol.Errorf(protocol.CodeBadRequest, "your opponent asked for a takeback: accept or decline it first")
	case !human && r.clock != nil:
		return protocol.Errorf(protocol.CodeBadRequest, "the bot does not grant takebacks in a game with a clock")
	case human && lastAt(r.offers.takebackAt, seat) == r.seatMoves[seat]:
		return protocol.Errorf(protocol.CodeBadRequest, "you have asked for a takeback since your last move: play a move before asking again")
	}
	plies := len(r.history) - last
	if !human {
		return r.takeBack(seat, plies, "bot")
	}
	return r.change(logEntry{Kind: "takeback_ask", Seat: &seat, Plies: plies}, func() {
		r.offers.takeback = &protocol.TakebackAsk{Seat: seat, Plies: plies}
		r.offers.takebackAt = setAt(r.offers.takebackAt, seat, r.seatMoves[seat])
	})
}

// acceptTakeback is room.takeback.accept: the opponent's request is
// granted.
func (r *Room) acceptTakeback(mem Member) *protocol.Error {
	seat, perr := r.playingAgainst(mem)
	if perr != nil {
		return perr
	}
	t := r.offers.takeback
	if t == nil || t.Seat == seat {
		return protocol.Errorf(protocol.CodeBadRequest, "there is no takeback request to accept")
	}
	return r.takeBack(t.Seat, t.Plies, "human")
}

// declineTakeback is room.takeback.decline: the opponent's request is
// declined, or the player's own withdrawn.
func (r *Room) declineTakeback(mem Member) *protocol.Error {
	seat, perr := r.playingAgainst(mem)
	if perr != nil {
		return perr
	}
	if r.offers.takeback == nil {
		return protocol.Errorf(protocol.CodeBadRequest, "there is no takeback request to decline")
	}
	return r.change(logEntry{Kind: "takeback_decline", Seat: &seat}, func() { r.offers.takeback = nil })
}

// takeBack undoes the last plies of the game for seat, which asked: the
// engine has no undo, so the position is the setup with the history
// replayed but for those plies, and the clocks are what they were then.
// granted is who granted it ("human", or "bot" for a bot opponent). Saved
// like a move; every member then gets the full room.state with the
// shortened history.
func (r *Room) takeBack(seat, plies int, granted string) *protocol.Error {
	keep := len(r.history) - plies
	st, err := r.replay(keep)
	if err != nil {
		r.log.Error("takeback: the history does not replay", zap.String("room", r.id), zap.Error(err))
		return protocol.Errorf(protocol.CodeInternal, "could not take the move back")
	}
	now := r.now()
	r.persist.mark()
	r.persist.replace(st)
	r.persist.at.tail = slices.Clone(r.history[keep:])
	r.persist.at.tailMs = slices.Clone(r.rec.moveMs[keep:])
	r.persist.at.tailClock = slices.Clone(r.rec.clockMs[min(keep, len(r.rec.clockMs)):])
	r.persist.at.tailInfo = r.rec.notes.after(keep)
	r.nextSeq()
	r.moves++ // the position changed: a bot's answer to the old one is stale
	r.history = r.history[:keep]
	r.rec.moveMs = r.rec.moveMs[:keep]
	r.rec.clockMs = r.rec.clockMs[:min(keep, len(r.rec.clockMs))]
	r.rec.notes.cut(keep)
	r.lastMove = nil
	if keep > 0 {
		lm := r.history[keep-1]
		r.lastMove = &lm
	}
	r.offers.draw, r.offers.takeback = -1, nil
	r.rewindClock(keep)
	e := logEntry{Kind: "takeback", Seat: &seat, Plies: plies, By: granted}
	if err := r.persist.commit(context.Background(), e); err != nil {
		r.log.Error("save failed; takeback rolled back", zap.String("room", r.id), zap.Error(err))
		r.persist.rollback()
		return protocol.Errorf(protocol.CodeInternal, "could not save, try again")
	}
	r.turnsBegin(now)
	r.startClock(now)
	r.armAbort()
	r.scoringChanged(now)
	r.log.Info("takeback", zap.String("room", r.id), zap.Int("seat", seat), zap.Int("plies", plies))
	r.broadcastHistory()
	r.scheduleBots()
	r.proposeDead()
	return nil
}

// replay builds the position after the first keep moves of the history,
// from the room's setup.
func (r *Room) replay(keep int) (engine.State, error) {
	st, err := engine.NewWithOptions(r.game, r.variant, r.rec.setup, r.seed, r.opts)
	if err != nil {
		return nil, fmt.Errorf("setup: %w", err)
	}
	for i, m := range r.history[:keep] {
		if err := st.Apply(m.Seat, m.Move); err != nil {
			return nil, fmt.Errorf("move %d (%d:%s): %w", i+1, m.Seat, m.Move, err)
		}
	}
	return st, nil
}

// rewindClock sets the clock to what it was when the position after keep
// moves was reached: each seat's time as its last move before then left
// it (Room.rec.clockMs), the base time before its first move. Nobody's
// time runs until the takeback is saved (startClock). A seat whose time
// after such a move is not known (a room saved before the move times were
// kept) keeps the time it has.
func (r *Room) rewindClock(keep int) {
	c := r.clock
	if c == nil {
		return
	}
	left := make([]time.Duration, len(c.left))
	for i := range left {
		left[i] = c.base
	}
	known := make([]bool, len(left))
	for i := range known {
		known[i] = true
	}
	for i, m := range r.history[:keep] {
		if m.Seat >= len(left) {
			continue
		}
		if i < len(r.rec.clockMs) && r.rec.clockMs[i] >= 0 {
			left[m.Seat], known[m.Seat] = time.Duration(r.rec.clockMs[i])*time.Millisecond, true
		} else {
			known[m.Seat] = false
		}
	}
	for i := range left {
		if !known[i] {
			left[i] = c.leftAt(i, r.now())
		}
	}
	c.left, c.running, c.turnStart = left, -1, time.Time{}
	r.disarmFlag()
}
