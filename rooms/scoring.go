// Scoring: the stone-removal phase of a go game created with removal
// (engine.Scoring; docs/protocol.md, "Komi, handicap and stone removal").
// After two passes the room's state says "scoring": the server proposes
// the dead stones (the engine's Judge, run in the bot pool), either
// player toggles groups, both accept; a move by the seat to move resumes
// the game. No clock runs in the phase; under a clock the phase lasts at
// most the grace period, and a claim against a player gone that long
// ends it too: both count the game with the server's proposal.

package rooms

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/botpool"
	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/protocol"
)

// StatusScoring is room.state's status while a go game is in its
// stone-removal phase. The room itself stays StatusPlaying (its summary,
// snapshot and record say "playing"): abandonment, adjournment and the
// rest of play go on as in any game under way.
const StatusScoring = "scoring"

// scoring is a room's side of the stone-removal phase. It belongs to the
// room goroutine.
type scoring struct {
	// proposal is the server's proposal of the dead stones, valid when
	// proposed (an empty proposal is one: nothing dead). It is kept with
	// the room (snapshot "scoring"): the bots accept by it, and a phase
	// that runs out or is claimed is counted with it.
	proposal []string
	proposed bool
	// judging is set while the judge's job is in the bot pool; its answer
	// comes back through answers, computed at the position of version
	// (Room.moves).
	judging bool
	answers chan judgeAnswer
	// since is when the phase's time began here: when the proposal came
	// (the players judge the count from it), or the room's restore
	// (downtime never counts); zero before and outside the phase. timer
	// wakes the room at the phase's end under a clock (scoreBy).
	since time.Time
	timer wakeup
}

// JudgeTimeout is the least time the judge's job is given in the bot pool:
// its work is bounded (engine.Scoring.Judge's budget, under half a second
// on 19x19), so the deadline only guards against a machine so loaded that
// it had better propose nothing than wait longer.
const JudgeTimeout = 10 * time.Second

// judgeAnswer is the judge's proposal for the position at version.
type judgeAnswer struct {
	version int64
	dead    []string
	ok      bool
}

// scorer is the engine state's stone-removal phase, and whether the game
// is in it.
func (r *Room) scorer() (engine.Scoring, bool) {
	sc, ok := r.state.(engine.Scoring)
	return sc, ok && r.status == StatusPlaying && sc.Scoring()
}

// inScoring reports whether the game is in its stone-removal phase.
func (r *Room) inScoring() bool {
	_, ok := r.scorer()
	return ok
}

// scoreBy is when the phase ends by itself: under a clock, the grace
// period after the proposal came. Zero when it does not.
func (r *Room) scoreBy() time.Time {
	if r.clock == nil || r.score.since.IsZero() || !r.inScoring() {
		return time.Time{}
	}
	return r.score.since.Add(r.grace())
}

// scoringChanged follows a change that may have begun or ended the phase
// (a move, a takeback, the room's start): in the phase with a proposal
// (a restored room), the phase's time begins now; out of the phase, the
// phase is forgotten. The proposal of a new phase is asked for once the
// change is broadcast (proposeDead).
func (r *Room) scoringChanged(now time.Time) {
	if !r.inScoring() {
		if !r.score.since.IsZero() || r.score.proposed {
			r.score.since, r.score.proposal, r.score.proposed = time.Time{}, nil, false
			r.score.timer.disarm()
		}
		return
	}
	if r.score.proposed && r.score.since.IsZero() {
		r.score.since = now
		r.armScoreTimer()
	}
}

// armScoreTimer sets the timer of the phase's end, if it has one.
func (r *Room) armScoreTimer() {
	r.score.timer.disarm()
	due := r.scoreBy()
	if due.IsZero() || !r.live {
		return
	}
	r.score.timer.arm(r, max(due.Sub(r.now()), 0)+time.Millisecond, r.checkScoreTimer)
}

// checkScoreTimer counts the game with the server's proposal when the
// phase ran out, and otherwise sets the timer again.
func (r *Room) checkScoreTimer() {
	due := r.scoreBy()
	if due.IsZero() {
		return
	}
	if r.now().Before(due) {
		r.armScoreTimer()
		return
	}
	if perr := r.settleScoring(-1, "score_timeout"); perr != nil {
		r.score.timer.arm(r, time.Second, r.checkScoreTimer) // the save failed: retry in a second
	}
}

// askJudge asks the bot pool for the server's proposal of the dead stones
// (the engine's Judge on a clone), one job at a time; without a pool the
// room works it out itself.
func (r *Room) askJudge() {
	if r.score.judging {
		return
	}
	version, st := r.moves, r.state.Clone()
	judge := func(s engine.State, seed uint64) []string {
		sc, ok := s.(engine.Scoring)
		if !ok {
			return nil
		}
		return sc.Judge(engine.Budget{Seed: seed})
	}
	if r.m.cfg.Pool == nil {
		r.judged(judgeAnswer{version: version, dead: judge(st, r.seed), ok: true})
		return
	}
	if r.score.answers == nil {
		r.score.answers = make(chan judgeAnswer, 1)
	}
	r.score.judging = true
	answers, log, id, seed := r.score.answers, r.log, r.id, r.seed^uint64(r.moves)
	job := botpool.Job{Game: r.info.ID, Level: "judge", State: st, Seat: 0, Seed: seed, Timeout: max(r.m.cfg.BotTimeout, JudgeTimeout),
		Bot: func(s engine.State, _ int, _ *rand.Rand, _ time.Time) (string, error) {
			return "dead:" + strings.Join(judge(s, seed), " "), nil
		},
		Done: func(res botpool.Result) {
			a := judgeAnswer{version: version}
			if dead, ok := strings.CutPrefix(res.Move, "dead:"); ok && res.Err == nil && !res.Fallback {
				a.dead, a.ok = strings.Fields(dead), true
			}
			deliver(answers, a, log, id, "judge answer") // one job at a time
		}}
	r.submit(job, func() { r.score.judging = false; r.proposeDead() }, func() {
		r.score.judging = false
		r.judged(judgeAnswer{version: version, ok: true}) // no pool: nothing proposed dead
	})
}

// judged takes the judge's answer: unless the position changed meanwhile
// (then it asks again), it is the server's proposal, and the marking too
// when nobody has marked or accepted anything yet; the bots then accept.
// A judge that failed proposes nothing dead.
func (r *Room) judged(a judgeAnswer) {
	r.score.judging = false
	sc, ok := r.scorer()
	if !ok || r.score.proposed {
		return
	}
	if a.version != r.moves {
		r.askJudge()
		return
	}
	dead := a.dead
	if !a.ok {
		r.log.Warn("no proposal of the dead stones: the judge failed", zap.String("room", r.id))
		dead = nil
	}
	untouched := len(sc.Dead()) == 0 && !sc.Accepted(0) && !sc.Accepted(1)
	r.score.since = r.now() // the phase's time runs from the proposal
	perr := r.scoreChange(logEntry{Kind: "score_propose", Move: strings.Join(dead, " ")}, func() error {
		r.score.proposal, r.score.proposed = slices.Clone(dead), true
		if untouched {
			if err := sc.Mark(dead); err != nil {
				return err
			}
		}
		return r.botsAccept(sc)
	})
	if perr == nil {
		r.armScoreTimer()
		return
	}
	r.score.since = time.Time{}
	r.log.Error("the proposal was not kept", zap.String("room", r.id), zap.String("error", perr.Msg))
	if perr.Code == protocol.CodeInternal {
		r.later(100*time.Millisecond, func() { r.judged(a) })
	}
}

// scoreChange makes one change to the phase: f changes the engine state
// (the marking, the acceptances) and the room's proposal, marked before
// it runs; saved with the log entry e and broadcast, or rolled back when
// f fails or the save does. A change that ends the game finishes it.
func (r *Room) scoreChange(e logEntry, f func() error) *protocol.Error {
	r.persist.mark()
	if err := r.persist.change(f); err != nil {
		r.persist.rollback()
		return protocol.AsError(err)
	}
	r.nextSeq()
	if out := r.state.Outcome(); out.Over {
		r.finish(out)
	}
	if err := r.persist.commit(context.Background(), e); err != nil {
		r.log.Error("save failed; change rolled back", zap.String("room", r.id), zap.String("kind", e.Kind), zap.Error(err))
		r.persist.rollback()
		return protocol.Errorf(protocol.CodeInternal, "could not save, try again")
	}
	if r.status == StatusFinished {
		r.score.timer.disarm()
		r.log.Info("game over", zap.String("room", r.id), zap.String("game", r.info.ID),
			zap.Any("winner", r.result.Winner), zap.String("reason", r.result.Reason), zap.String("by", e.Kind))
	}
	r.broadcast()
	return nil
}

// scoringSeat checks that mem holds a seat of a game in its stone-removal
// phase, and returns the seat and the phase.
func (r *Room) scoringSeat(mem Member) (int, engine.Scoring, *protocol.Error) {
	seat := r.seatOf(mem.PlayerID())
	if seat < 0 {
		return -1, nil, protocol.Errorf(protocol.CodeNotAPlayer, "you do not hold a seat in room %s", r.id)
	}
	if r.status == StatusFinished {
		return -1, nil, protocol.Errorf(protocol.CodeGameOver, "the game is over")
	}
	sc, ok := r.scorer()
	if !ok {
		return -1, nil, protocol.Errorf(protocol.CodeBadRequest, "the game is not in its stone-removal phase: dead stones are marked after two passes in a row, in games created with removal")
	}
	return seat, sc, nil
}

// toggleScore is room.score.toggle: the group of the stone at point is
// marked dead, or alive again, and both acceptances are cleared; a bot in
// the other seat accepts again when the marking suits it.
func (r *Room) toggleScore(mem Member, point string) *protocol.Error {
	seat, sc, perr := r.scoringSeat(mem)
	if perr != nil {
		return perr
	}
	return r.scoreChange(logEntry{Kind: "score_toggle", Seat: &seat, Move: point}, func() error {
		if err := sc.Toggle(seat, point); err != nil {
			return err
		}
		return r.botsAccept(sc)
	})
}

// acceptScore is room.score.accept: the player accepts the marking as it
// is; once both seats have, the game is over, counted without the dead
// stones. Accepting again changes nothing.
func (r *Room) acceptScore(mem Member) *protocol.Error {
	seat, sc, perr := r.scoringSeat(mem)
	if perr != nil {
		return perr
	}
	if sc.Accepted(seat) {
		r.sendState(mem)
		return nil
	}
	return r.scoreChange(logEntry{Kind: "score_accept", Seat: &seat}, func() error { return sc.Accept(seat) })
}

// settleScoring ends the phase with the server's proposal as the marking
// (the current marking when no proposal came): the phase ran out under a
// clock (kind "score_timeout", seat -1), or seat claimed it against a
// player gone past the grace period (kind "claim"). Both accept for the
// players: neither a stubborn player nor a last-moment toggle decides the
// count, the server's judgement does.
func (r *Room) settleScoring(seat int, kind string) *protocol.Error {
	sc, ok := r.scorer()
	if !ok {
		return nil
	}
	e := logEntry{Kind: kind}
	if seat >= 0 {
		e.Seat = &seat
	}
	return r.scoreChange(e, func() error {
		if r.score.proposed {
			if err := sc.Mark(r.score.proposal); err != nil {
				return err
			}
		}
		for s := range r.seats {
			if err := sc.Accept(s); err != nil {
				return err
			}
		}
		return nil
	})
}

// botSeat reports whether seat is played by a program: one of the
// server's bots, or a bot account (which has no way to mark stones over
// its HTTP API).
func (r *Room) botSeat(seat int) bool {
	return r.seats[seat].IsBot()
}

// botsAccept has every bot seat accept the marking when it is worth at
// least the server's proposal to it (the proposal itself, or one that
// marks more of the opponent's stones or fewer of its own): a bot never
// accepts a marking that costs it points against the server's judgement,
// and accepts nothing before the proposal came. Within an open change.
func (r *Room) botsAccept(sc engine.Scoring) error {
	if !r.score.proposed {
		return nil
	}
	var proposal map[string]int
	for seat := range r.seats {
		if !r.botSeat(seat) || sc.Accepted(seat) {
			continue
		}
		if !slices.Equal(sc.Dead(), r.score.proposal) {
			if proposal == nil {
				clone := r.state.Clone()
				if err := clone.(engine.Scoring).Mark(r.score.proposal); err != nil {
					return err
				}
				proposal = scoreOf(clone)
			}
			if margin(scoreOf(r.state), seat) < margin(proposal, seat) {
				continue
			}
		}
		if err := sc.Accept(seat); err != nil {
			return err
		}
	}
	return nil
}

// scoreOf reads a go state's score, {"black":n,"white":n}.
func scoreOf(st engine.State) map[string]int {
	m, _ := st.Score().(map[string]int)
	return m
}

// margin is seat's lead in a go score (seat 0 black, 1 white).
func margin(score map[string]int, seat int) int {
	if seat == 0 {
		return score["black"] - score["white"]
	}
	return score["white"] - score["black"]
}

// scoringSnap is the phase in a room snapshot: the server's proposal once
// it came, and the marking of the engine (for the game's record, which is
// read without the engine: RecordOf). Absent when there is neither.
type scoringSnap struct {
	Proposed bool     `json:"proposed,omitempty"`
	Proposal []string `json:"proposal,omitempty"`
	Dead     []string `json:"dead,omitempty"`
}

// optionsSnap is the room's rule options in its snapshot; absent for the
// seed's rules.
type optionsSnap struct {
	Komi     float64 `json:"komi,omitempty"`
	Handicap int     `json:"handicap,omitempty"`
	Removal  bool    `json:"removal,omitempty"`
}

func (o optionsSnap) options() engine.Options {
	return engine.Options{Komi: o.Komi, Handicap: o.Handicap, Removal: o.Removal}
}

func snapOptions(o engine.Options) *optionsSnap {
	if o.IsZero() {
		return nil
	}
	return &optionsSnap{Komi: o.Komi, Handicap: o.Handicap, Removal: o.Removal}
}

// scoringSnapshot is the snapshot's "scoring", nil when there is nothing.
func (r *Room) scoringSnapshot() *scoringSnap {
	var dead []string
	if sc, ok := r.state.(engine.Scoring); ok {
		dead = sc.Dead()
	}
	if !r.score.proposed && len(dead) == 0 {
		return nil
	}
	return &scoringSnap{Proposed: r.score.proposed, Proposal: r.score.proposal, Dead: dead}
}

// restoreScoring takes a snapshot's "scoring" back (its Dead is the
// engine's, restored with it).
func (r *Room) restoreScoring(s *scoringSnap) {
	if s != nil && s.Proposed {
		r.score.proposal, r.score.proposed = s.Proposal, true
	}
}

// proposeDead asks the judge for the server's proposal when the game is in
// its stone-removal phase and has none: after the broadcast of the move
// that began it, so that its own change follows.
func (r *Room) proposeDead() {
	if r.inScoring() && !r.score.proposed {
		r.askJudge()
	}
}
