// Play: moves, the end of a game, resignation, chat and rematches.

package rooms

import (
	"context"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/players"
	"github.com/tabuleiro/tabuleiro/protocol"
)

func (r *Room) setStatus(s string) {
	if s == r.status {
		return
	}
	r.m.gauge(r.info.ID, r.status, -1)
	r.m.gauge(r.info.ID, s, 1)
	r.status = s
}

func (r *Room) finish(out engine.Outcome) {
	res := &protocol.Result{Reason: out.Reason}
	if out.Winner >= 0 {
		w := out.Winner
		res.Winner = &w
	}
	r.result = res
	r.setStatus(StatusFinished)
	r.rec.ended = r.now()
	r.stopClock(r.now())
	r.offers.draw, r.offers.takeback = -1, nil
	r.disarmAbort()
}

// play applies a move for seat: validate, apply, persist, broadcast.
func (r *Room) play(seat int, move string, by string) *protocol.Error {
	return r.playNoted(seat, move, by, "")
}

// playNoted is play with the mover's info (botnotes.go), "" for none.
func (r *Room) playNoted(seat int, move, by, info string) *protocol.Error {
	if r.status == StatusFinished {
		return protocol.Errorf(protocol.CodeGameOver, "the game is over")
	}
	if r.status != StatusPlaying {
		return protocol.Errorf(protocol.CodeNotYourTurn, "waiting for an opponent")
	}
	if t, ok := r.state.Turn(); ok && t != seat {
		return protocol.Errorf(protocol.CodeNotYourTurn, "it is seat %d's turn", t)
	}
	now := r.now()
	if c := r.clock; c != nil && c.running == seat && c.leftAt(seat, now) <= 0 {
		r.flag(seat) // the timer has not fired yet
		return protocol.Errorf(protocol.CodeGameOver, "your time ran out")
	}
	if due := r.abortDue(); !due.IsZero() && !now.Before(due) {
		r.checkAbort() // the timer has not fired yet
		return protocol.Errorf(protocol.CodeGameOver, "the game was aborted: the first move did not come within %v", r.m.cfg.AbortAfter)
	}
	r.persist.mark()
	if err := r.persist.apply(seat, move); err != nil {
		return protocol.AsError(err) // nothing changed
	}
	r.nextSeq()
	r.moves++
	r.seatMoves[seat]++
	r.lastMove = &protocol.LastMove{Seat: seat, Move: move}
	r.history = append(r.history, *r.lastMove)
	e := logEntry{Kind: "move", Seat: &seat, Move: move, By: by, Ms: r.moveTook(seat, now), Info: info}
	r.rec.moveMs = append(r.rec.moveMs, e.Ms)
	r.rec.notes.noteMove(len(r.history), info)
	r.clockMoved(seat, now)
	if c := r.clock; c != nil {
		left := c.left[seat].Milliseconds()
		r.rec.clockMs, e.Left = append(r.rec.clockMs, left), &left
	}
	r.lapseOffers(seat)
	if out := r.state.Outcome(); out.Over {
		r.finish(out)
	}
	if err := r.persist.commit(context.Background(), e); err != nil {
		r.log.Error("save failed; move rolled back", zap.String("room", r.id), zap.Error(err))
		r.persist.rollback()
		return protocol.Errorf(protocol.CodeInternal, "could not save the move, try again")
	}
	r.moveKept(seat, now)
	r.armAbort() // the opponent's first move may be due now
	r.scoringChanged(now)
	if r.m.cfg.Metrics != nil {
		r.m.cfg.Metrics.Moves.WithLabelValues(r.info.ID, by).Inc()
	}
	if r.status == StatusFinished {
		r.log.Info("game over", zap.String("room", r.id), zap.String("game", r.info.ID),
			zap.Any("winner", r.result.Winner), zap.String("reason", r.result.Reason))
	}
	r.broadcast()
	r.scheduleBots()
	r.proposeDead()
	return nil
}

func (r *Room) resign(mem Member) *protocol.Error { return r.resignFor(mem, "resign", nil) }

// resignFor ends the game for mem's seat with reason (also the log entry's
// kind), the other seat winning; note, when set, is called with the seat
// before the save (botnotes.go keeps the bot's fault) and again with -1
// when the save failed and the resignation was rolled back.
func (r *Room) resignFor(mem Member, reason string, note func(seat int)) *protocol.Error {
	seat := r.seatOf(mem.PlayerID())
	if seat < 0 {
		return protocol.Errorf(protocol.CodeNotAPlayer, "you do not hold a seat in room %s", r.id)
	}
	if r.status == StatusFinished {
		return protocol.Errorf(protocol.CodeGameOver, "the game is over")
	}
	r.persist.mark()
	r.nextSeq()
	out := r.resignation(seat)
	out.Reason = reason
	if note != nil {
		note(seat)
	}
	r.finish(out)
	if err := r.persist.commit(context.Background(), logEntry{Kind: reason, Seat: &seat}); err != nil {
		r.log.Error("save failed; resign rolled back", zap.String("room", r.id), zap.Error(err))
		r.persist.rollback()
		if note != nil {
			note(-1)
		}
		return protocol.Errorf(protocol.CodeInternal, "could not save, try again")
	}
	r.log.Info("resigned", zap.String("room", r.id), zap.Int("seat", seat), zap.String("reason", reason))
	r.broadcast()
	return nil
}

// resignation is the outcome of seat's resignation (reason "resign"; a
// bot's failure changes it): the other seat wins a two-seat game under
// way; a game not started ends with no winner.
func (r *Room) resignation(seat int) engine.Outcome {
	out := engine.Outcome{Over: true, Winner: -1, Reason: "resign"}
	if len(r.seats) == 2 && r.status == StatusPlaying {
		out.Winner = 1 - seat
	}
	return out
}

// CleanText is players.CleanText: a chat line is cleaned as a name is.
func CleanText(s string) string { return players.CleanText(s) }

func (r *Room) askRematch(mem Member) *protocol.Error {
	seat := r.seatOf(mem.PlayerID())
	if seat < 0 {
		return protocol.Errorf(protocol.CodeNotAPlayer, "only players can ask for a rematch")
	}
	if r.status != StatusFinished {
		return protocol.Errorf(protocol.CodeBadRequest, "the game is not over")
	}
	if r.next != "" {
		r.sendState(mem)
		return nil
	}
	for _, s := range r.rematch {
		if s == seat {
			return nil
		}
	}
	r.rematch = append(r.rematch, seat)
	for i, s := range r.seats {
		if s.Free() {
			return protocol.Errorf(protocol.CodeBadRequest, "seat %d is empty", i)
		}
	}
	all := true
	for i, s := range r.seats {
		if s.Bot != "" {
			continue
		}
		asked := false
		for _, a := range r.rematch {
			asked = asked || a == i
		}
		all = all && asked
	}
	r.nextSeq()
	if all {
		seats := make([]players.Player, len(r.seats))
		for i := range r.seats {
			seats[(i+1)%len(seats)] = r.seats[i]
		}
		var join []JoinAs
		for _, mb := range r.members {
			if mb.role == RolePlayer {
				join = append(join, JoinAs{M: mb.m, As: RolePlayer})
			}
		}
		ctx, cancel := context.WithTimeout(context.Background(), r.m.cfg.RematchTimeout)
		nr, err := r.m.Create(ctx, Spec{Game: r.info.ID, Variant: r.variant, Seats: seats, Options: r.opts, For: mem.PlayerID(),
			Private: r.private, Watch: r.watch, Rated: r.rated, Clock: r.clock.timeControl(), Chat: r.rec.chat.rotated(len(seats)), Join: join})
		cancel()
		if err != nil {
			r.seq--
			r.rematch = r.rematch[:len(r.rematch)-1]
			return protocol.AsError(err)
		}
		r.next = nr.id
		for _, j := range join {
			s := (r.seatOf(j.M.PlayerID()) + 1) % len(seats)
			r.send(j.M, protocol.MustEncode(protocol.MatchFound{Type: protocol.TypeMatchFound, Room: nr.id, Seat: s}))
		}
	}
	r.broadcast()
	return nil
}
