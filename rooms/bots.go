// Bots: a bot seat's turn goes to the bot pool and its answer comes back
// to the room goroutine through the room's mailbox, botAnswers.

package rooms

import (
	"math/rand/v2"
	"time"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/botpool"
	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/protocol"
)

// botVersion is what a bot's answer must still match to be played: the
// number of moves in alternating games, the seat's own moves when both
// seats move freely (2048 race).
func (r *Room) botVersion(seat int) int64 {
	if _, ok := r.state.Turn(); ok {
		return r.moves
	}
	return r.seatMoves[seat]
}

// scheduleBots asks the pool for every bot seat that may move now. A bot
// never resumes a game from its stone-removal phase: it accepts instead
// (scoring.go).
func (r *Room) scheduleBots() {
	if r.status != StatusPlaying || r.m.cfg.Pool == nil || r.inScoring() {
		return
	}
	if r.botPending == nil {
		r.botPending = make([]bool, len(r.seats))
		r.botAnswers = make(chan botAnswer, len(r.seats))
	}
	for seat, s := range r.seats {
		if s.Bot == "" || r.botPending[seat] || len(r.state.Legal(seat)) == 0 {
			continue
		}
		r.botPending[seat] = true
		if r.watch && r.m.cfg.WatchDelay > 0 {
			r.later(r.m.cfg.WatchDelay, func() { r.submitBot(seat) })
		} else {
			r.submitBot(seat)
		}
	}
}

func (r *Room) submitBot(seat int) {
	if r.status != StatusPlaying || r.inScoring() || len(r.state.Legal(seat)) == 0 {
		r.botPending[seat] = false
		return
	}
	level := r.seats[seat].Bot
	bot, ok := r.game.Bot(level)
	if !ok {
		r.log.Error("bot level vanished", zap.String("room", r.id), zap.String("level", level))
		r.botPending[seat] = false
		return
	}
	version := r.botVersion(seat)
	answers, log, id := r.botAnswers, r.log, r.id
	job := botpool.Job{Game: r.info.ID, Level: level, Bot: bot, State: r.state.Clone(), Seat: seat,
		Seed: r.seed ^ uint64(r.moves)*0x9e3779b97f4a7c15 ^ uint64(seat), Timeout: r.botTimeout(seat),
		Done: func(res botpool.Result) {
			// The mailbox has a slot for every seat and a seat has at
			// most one job in the pool, so the send always finds room.
			deliver(answers, botAnswer{seat: seat, version: version, res: res}, log, id, "bot answer")
		}}
	r.submit(job, func() { r.submitBot(seat) }, func() { r.botPending[seat] = false })
}

// submit hands job to the bot pool; when the pool's queue is full, again
// runs on the room's goroutine a moment later; when the pool is closed,
// gaveUp runs at once.
func (r *Room) submit(job botpool.Job, again, gaveUp func()) {
	switch err := r.m.cfg.Pool.TrySubmit(job); err {
	case nil:
	case botpool.ErrBusy:
		r.later(20*time.Millisecond, again)
	default:
		gaveUp()
	}
}

// deliver puts a pool job's answer v (what) into a room's mailbox box from
// the pool's worker, which must not wait (botpool.Job.Done): each mailbox
// has room for every job of its kind that can be under way, so the send
// always finds room; a full one is logged, never waited on.
func deliver[T any](box chan<- T, v T, log *zap.Logger, room, what string) {
	select {
	case box <- v:
	default:
		log.Error(what+" dropped: the room's mailbox is full", zap.String("room", room))
	}
}

// botAnswer is the pool's answer for a bot seat, computed at version (see
// botVersion).
type botAnswer struct {
	seat    int
	version int64
	res     botpool.Result
}

// botMoved plays a bot's answer unless the position changed meanwhile.
func (r *Room) botMoved(a botAnswer) {
	seat, version, res := a.seat, a.version, a.res
	r.botPending[seat] = false
	if r.status != StatusPlaying || version != r.botVersion(seat) {
		r.scheduleBots() // stale: the position changed meanwhile
		return
	}
	if res.Err != nil {
		r.log.Warn("bot has no move", zap.String("room", r.id), zap.Int("seat", seat), zap.Error(res.Err))
		return
	}
	if perr := r.play(seat, res.Move, "bot"); perr != nil {
		r.log.Error("bot move refused", zap.String("room", r.id), zap.Int("seat", seat),
			zap.String("move", res.Move), zap.String("code", string(perr.Code)), zap.String("error", perr.Msg))
		if perr.Code == protocol.CodeInternal {
			r.later(100*time.Millisecond, r.scheduleBots)
			return
		}
		if legal := r.state.Legal(seat); len(legal) > 0 {
			r.play(seat, legal[int(r.seed%uint64(len(legal)))], "bot")
		}
	}
}

// drawAnswer is a bot's answer to the draw offer that stood at version
// (Room.moves) by its opponent.
type drawAnswer struct {
	seat    int
	version int64
	accept  bool
}

// askBotDraw asks the bot in seat for its answer to its opponent's draw
// offer. The answer is worked out in the bot pool, like a move, and comes
// back through the room's drawAnswers mailbox; one at a time.
func (r *Room) askBotDraw(seat int) {
	if r.judging {
		return // the answer under way is stale; botDrawAnswered asks again
	}
	version, g := r.moves, r.game
	if r.m.cfg.Pool == nil {
		r.botDrawAnswered(drawAnswer{seat: seat, version: version, accept: botAcceptsDraw(g, r.state.Clone(), seat)})
		return
	}
	if r.drawAnswers == nil {
		r.drawAnswers = make(chan drawAnswer, 1)
	}
	r.judging = true
	answers, log, id := r.drawAnswers, r.log, r.id
	job := botpool.Job{Game: r.info.ID, Level: r.seats[seat].Bot, State: r.state.Clone(), Seat: seat,
		Seed: r.seed ^ uint64(r.moves), Timeout: r.botTimeout(seat),
		Bot: func(s engine.State, seat int, _ *rand.Rand, _ time.Time) (string, error) {
			if botAcceptsDraw(g, s, seat) {
				return "accept", nil
			}
			return "decline", nil
		},
		Done: func(res botpool.Result) {
			// A bot that had no answer in time (a fallback) declines.
			a := drawAnswer{seat: seat, version: version, accept: !res.Fallback && res.Err == nil && res.Move == "accept"}
			deliver(answers, a, log, id, "draw answer") // one answer at a time
		}}
	r.submit(job, func() { r.judging = false; r.askBotDraw(seat) }, func() {
		r.judging = false
		r.botDrawAnswered(drawAnswer{seat: seat, version: version}) // no pool: decline
	})
}

// resumeBotDraw asks the bot again for its answer to a draw offer that
// stood when the room was saved: a restored room.
func (r *Room) resumeBotDraw() {
	if r.status == StatusPlaying && r.offers.draw >= 0 && len(r.seats) == 2 && r.seats[1-r.offers.draw].Bot != "" {
		r.askBotDraw(1 - r.offers.draw)
	}
}

// botDrawAnswered plays the bot's answer to a draw offer, unless the offer
// or the position changed meanwhile; then the bot looks again at the offer
// that stands, if any.
func (r *Room) botDrawAnswered(a drawAnswer) {
	r.judging = false
	if r.status != StatusPlaying || r.seats[a.seat].Bot == "" {
		return
	}
	opp := 1 - a.seat
	if r.offers.draw != opp {
		return // withdrawn, lapsed or taken back
	}
	if a.version != r.moves {
		r.askBotDraw(a.seat)
		return
	}
	var perr *protocol.Error
	if a.accept {
		perr = r.agreeDraw(a.seat, "bot")
	} else {
		perr = r.dropDrawOffer(a.seat, "bot")
	}
	if perr != nil && perr.Code == protocol.CodeInternal {
		r.later(100*time.Millisecond, func() { r.askBotDraw(a.seat) })
	}
}
