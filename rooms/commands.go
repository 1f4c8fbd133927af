// The room's commands: the exported methods post a function to the room
// goroutine, and run is that goroutine's loop.

package rooms

import (
	"encoding/json"
	"runtime/debug"
	"time"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/protocol"
)

// Done is closed when the room's goroutine has exited.
func (r *Room) Done() <-chan struct{} { return r.done }

// post runs f on the room goroutine, waiting until the room takes it; false
// when the room has closed.
func (r *Room) post(f func()) bool {
	select {
	case r.cmds <- f:
		return true
	case <-r.done:
		return false
	}
}

// Join adds mem to the room as a player (taking a free seat, or its own) or
// a spectator, and answers room.joined and room.state.
func (r *Room) Join(mem Member, as string, id json.RawMessage) bool {
	return r.post(func() { r.join(mem, as, id) })
}

// Leave removes mem from the room; a seated player keeps the seat.
func (r *Room) Leave(mem Member, id json.RawMessage) bool {
	return r.post(func() {
		r.leave(mem)
		mem.Send(protocol.MustEncode(protocol.RoomLeft{Type: protocol.TypeRoomLeft, ID: id, Room: r.id}))
	})
}

// Gone tells the room that mem's connection closed.
func (r *Room) Gone(mem Member) bool { return r.post(func() { r.leave(mem) }) }

// Move plays move in the seat mem's player holds.
// (MoveInfo is the same with a bot account's note.)
func (r *Room) Move(mem Member, move string, id json.RawMessage) bool {
	return r.MoveInfo(mem, move, "", id)
}

// Resign ends the game, the other seat winning.
func (r *Room) Resign(mem Member, id json.RawMessage) bool {
	return r.post(func() {
		if perr := r.resign(mem); perr != nil {
			r.replyErr(mem, id, perr)
		}
	})
}

// Chat sends a chat line to every member.
func (r *Room) Chat(mem Member, text string, id json.RawMessage) bool {
	return r.post(func() {
		if perr := r.chat(mem, text); perr != nil {
			r.replyErr(mem, id, perr)
		}
	})
}

// MuteChat mutes (on) or unmutes player in mem's player's own view of the
// room and answers room.chat.muted.
func (r *Room) MuteChat(mem Member, player string, on bool, id json.RawMessage) bool {
	return r.post(func() {
		if perr := r.muteChat(mem, player, on, id); perr != nil {
			r.replyErr(mem, id, perr)
		}
	})
}

// SpectatorChat records a seated player's wish that spectators may (on) or
// may not chat in the room.
func (r *Room) SpectatorChat(mem Member, on bool, id json.RawMessage) bool {
	return r.do(mem, id, func(m Member) *protocol.Error { return r.switchSpectatorChat(m, on) })
}

// Rematch asks for a rematch; when every human seat has asked, a new room
// starts with the seats swapped.
func (r *Room) Rematch(mem Member, id json.RawMessage) bool {
	return r.post(func() {
		if perr := r.askRematch(mem); perr != nil {
			r.replyErr(mem, id, perr)
		}
	})
}

// Abort ends the game with no result, before both sides have moved.
func (r *Room) Abort(mem Member, id json.RawMessage) bool { return r.do(mem, id, r.abort) }

// OfferDraw offers a draw, or accepts the opponent's offer.
func (r *Room) OfferDraw(mem Member, id json.RawMessage) bool { return r.do(mem, id, r.offerDraw) }

// AcceptDraw accepts the opponent's draw offer.
func (r *Room) AcceptDraw(mem Member, id json.RawMessage) bool { return r.do(mem, id, r.acceptDraw) }

// DeclineDraw declines the opponent's draw offer, or withdraws one's own.
func (r *Room) DeclineDraw(mem Member, id json.RawMessage) bool { return r.do(mem, id, r.declineDraw) }

// AskTakeback asks to take back one's last move.
func (r *Room) AskTakeback(mem Member, id json.RawMessage) bool { return r.do(mem, id, r.askTakeback) }

// AcceptTakeback grants the opponent's takeback request.
func (r *Room) AcceptTakeback(mem Member, id json.RawMessage) bool {
	return r.do(mem, id, r.acceptTakeback)
}

// DeclineTakeback declines the opponent's takeback request, or withdraws
// one's own.
func (r *Room) DeclineTakeback(mem Member, id json.RawMessage) bool {
	return r.do(mem, id, r.declineTakeback)
}

// ToggleScore marks the group of the stone at point dead, or alive again,
// in go's stone-removal phase.
func (r *Room) ToggleScore(mem Member, point string, id json.RawMessage) bool {
	return r.do(mem, id, func(m Member) *protocol.Error { return r.toggleScore(m, point) })
}

// AcceptScore accepts the marking of go's stone-removal phase.
func (r *Room) AcceptScore(mem Member, id json.RawMessage) bool { return r.do(mem, id, r.acceptScore) }

// do runs f for mem on the room goroutine and answers its error, if any,
// to mem.
func (r *Room) do(mem Member, id json.RawMessage, f func(Member) *protocol.Error) bool {
	return r.post(func() {
		if perr := f(mem); perr != nil {
			r.replyErr(mem, id, perr)
		}
	})
}

// Stats is a copy of a few room facts, for tests and tools.
type Stats struct {
	Status  string
	Seq     int64
	Members int
}

// Stats returns the room's current facts.
func (r *Room) Stats() (Stats, bool) {
	ch := make(chan Stats, 1)
	if !r.post(func() { ch <- Stats{Status: r.status, Seq: r.seq, Members: len(r.members)} }) {
		return Stats{}, false
	}
	return <-ch, true
}

func (r *Room) run(join []JoinAs, reqID json.RawMessage) {
	defer r.m.wg.Done()
	defer r.exit()
	for i, j := range join {
		id := json.RawMessage(nil)
		if i == 0 {
			id = reqID
		}
		r.safely(func() { r.join(j.M, j.As, id) })
	}
	r.live = true
	r.safely(func() {
		r.turnsBegin(r.now())
		r.startClock(r.now()) // a restored room
		r.armFlag()           // a new one, whose clock started in Create
		r.armAbort()
		r.notePresence()
		r.scoringChanged(r.now())
	})
	r.safely(r.scheduleBots)
	r.safely(r.resumeBotDraw)
	r.safely(r.proposeDead)
	r.armLease()
	if len(join) > 0 && r.shouldClose() {
		return
	}
	for {
		select {
		case f := <-r.cmds:
			r.safely(f)
			if r.shouldClose() {
				return
			}
		case a := <-r.botAnswers:
			r.safely(func() { r.botMoved(a) })
			if r.shouldClose() {
				return
			}
		case a := <-r.drawAnswers:
			r.safely(func() { r.botDrawAnswered(a) })
			if r.shouldClose() {
				return
			}
		case a := <-r.score.answers:
			r.safely(func() { r.judged(a) })
			if r.shouldClose() {
				return
			}
		case <-r.m.stop:
			return
		}
	}
}

// safely runs f, recovering a panic: it is logged with the room id and the
// room keeps its last good state.
func (r *Room) safely(f func()) {
	defer func() {
		if p := recover(); p != nil {
			r.log.Error("room panic recovered", zap.String("room", r.id), zap.Any("panic", p),
				zap.ByteString("stack", debug.Stack()))
			r.persist.rollback()
			if r.m.cfg.Metrics != nil {
				r.m.cfg.Metrics.Errors.WithLabelValues(string(protocol.CodeInternal)).Inc()
			}
		}
	}()
	f()
}

func (r *Room) shouldClose() bool {
	return r.fenced || r.broken || r.adjourned || len(r.members) == 0 && r.status != StatusPlaying
}

func (r *Room) exit() {
	for t := range r.timers {
		t.Stop()
	}
	r.disarmFlag()
	r.disarmAbort()
	r.disarmIdle()
	r.awayTimer.disarm()
	r.score.timer.disarm()
	r.m.remove(r)
	close(r.done)
	for _, mb := range r.members {
		mb.m.Left(r)
	}
	if c := r.m.cfg.Cluster; c != nil && r.epoch != 0 {
		if r.fenced {
			join := make([]JoinAs, 0, len(r.members))
			for _, mb := range r.members {
				join = append(join, JoinAs{M: mb.m, As: mb.role})
			}
			c.OnFenced(r.id, join)
		} else {
			r.m.release(r.id, r.epoch)
		}
	}
	r.log.Info("room closed", zap.String("room", r.id), zap.String("status", r.status), zap.Int64("seq", r.seq))
}

func (r *Room) later(d time.Duration, f func()) {
	var t *time.Timer
	t = time.AfterFunc(d, func() {
		r.post(func() {
			delete(r.timers, t)
			f()
		})
	})
	r.timers[t] = struct{}{}
}
