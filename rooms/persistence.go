// Persistence: a room's saves to the store and the rollback of a change
// whose save failed.

package rooms

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"time"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/store"
)

// persistence is a room's side of the store: what the store holds of the
// room, and the way back for a change whose save failed. It belongs to the
// room goroutine. A change to the room takes these steps, one verb each:
//
//   - mark, before the change: the room's bookkeeping (seq, moves, status,
//     result, clock...) as it is, the point a rollback returns to. The
//     change is open from here.
//   - apply, for a change to the engine state (a move): the engine's Apply.
//     A refused move changes nothing and closes the change. Only a room
//     without a store clones the state first; with a store the way back is
//     the last save's engine snapshot, and a move does not clone the state
//     on the chance that its save fails (the clone was a tenth of the bytes
//     a 19x19 go room allocated per move).
//   - replace, for a takeback instead of apply: the position replayed
//     without the plies taken back becomes the engine state, and the state
//     it replaces is the way back.
//   - commit: a log entry and, except for most moves, the room's snapshot,
//     in one store call. Once the store has it, it is the saved point and
//     the change is closed. A failed save with no definite answer burns its
//     seq (see nextSeq). A move that does not end the game is saved as its
//     log entry alone (a log-only save), unless SnapshotEvery-1 moves were
//     saved so since the last snapshot; every other change, the first save
//     after a restore, after a failed save and after a chat line or a mute
//     (which ride on the next save, chat.go) write the snapshot.
//     A restore is the last snapshot and the moves of the log after it,
//     replayed through the engine (Manager.restore, replayTail).
//   - rollback: the commit failed, or the room goroutine panicked while the
//     change was open (Room.safely): the bookkeeping goes back to the mark
//     and, when apply changed the engine state, the state to the clone or
//     to the last snapshot's engine with the moves since replayed. A room whose engine cannot be restored is broken
//     and closes; the store's last save is what a later join restores.
//
// load starts a room restored from its snapshot with that snapshot as its
// saved point. A change a room makes without marking it (a seat taken, the
// first save of a new room) is committed the same way and never rolled
// back.
type persistence struct {
	r *Room
	// savedSeq is the seq of the room's last save known to be in the
	// store: the next log entry names it as its prev (see logEntry).
	savedSeq int64
	// savedEngine is the engine's snapshot as of the last snapshot save,
	// when the history had snapHistory moves, and pending the one the
	// commit under way writes. sinceSnap counts the log-only saves since
	// that save; forceSnap makes the next save write a snapshot.
	savedEngine, pending []byte
	snapHistory          int
	sinceSnap            int
	forceSnap            bool
	// seqFloor is the seq of the last save that failed without a definite
	// answer: it may still land in the store, so a rolled-back room never
	// reuses that seq (see nextSeq).
	seqFloor int64
	// logEnc holds the room's history as the snapshot's JSON, kept between
	// saves (see Room.snapshot).
	logEnc moveLogEncoder
	// players is the seated people's ids of the last save (seatedPlayers).
	players []string

	// open is set from mark until commit or rollback; at holds the
	// bookkeeping as of mark.
	open bool
	at   bookkeeping
	// applying is set while the engine's Apply runs, and applied once it
	// returned without error: the engine state changed since mark. clone
	// is the state before it, in a room without a store.
	applying, applied bool
	clone             engine.State
}

// bookkeeping is what mark keeps and rollback puts back.
type bookkeeping struct {
	seq       int64
	moves     int64
	seatMoves []int64
	lastMove  *protocol.LastMove
	history   int
	status    string
	result    *protocol.Result
	updated   time.Time
	clock     *clock
	ended     time.Time
	offers    offers
	// proposal and proposed are the server's proposal of go's dead
	// stones (scoring.go).
	proposal []string
	proposed bool
	// tail, tailMs, tailClock and tailInfo are the plies a takeback took
	// off the history, with their times and notes: a rollback puts them
	// back.
	tail              []protocol.LastMove
	tailMs, tailClock []int64
	tailInfo          []string
}

// mark opens a change: what the room is now is where rollback returns to.
func (p *persistence) mark() {
	r := p.r
	p.open, p.applied, p.clone = true, false, nil
	// The copy of seatMoves reuses the last mark's array: a rollback
	// copies it back rather than taking it (see rollback).
	p.at = bookkeeping{seq: r.seq, moves: r.moves, seatMoves: append(p.at.seatMoves[:0], r.seatMoves...), lastMove: r.lastMove,
		history: len(r.history), status: r.status, result: r.result, updated: r.updated, clock: r.clock.clone(),
		ended: r.rec.ended, offers: r.offers.clone(), proposal: r.score.proposal, proposed: r.score.proposed}
}

// replace makes st the room's engine state within the open change (a
// takeback's replayed position); a rollback puts the state before it back.
func (p *persistence) replace(st engine.State) {
	r := p.r
	p.clone, p.applied = r.state, true
	r.state = st
}

// change runs f, a change of the engine state that is not a move (the
// marking of go's stone-removal phase), within the open change. Whatever
// f returns, the state may have changed: on an error the caller rolls the
// change back, which puts the state back too.
func (p *persistence) change(f func() error) error {
	r := p.r
	if p.savedEngine == nil {
		p.clone = r.state.Clone()
	}
	p.applying = true
	err := f()
	p.applying, p.applied = false, true
	return err
}

// apply plays move for seat on the engine state, within the open change.
// A refused move leaves the state as it was (the engine contract, checked
// by enginetest for every game) and closes the change.
func (p *persistence) apply(seat int, move string) error {
	r := p.r
	if p.savedEngine == nil {
		p.clone = r.state.Clone()
	}
	p.applying = true
	err := r.state.Apply(seat, move)
	p.applying = false
	if err != nil {
		p.open, p.clone = false, nil
		return err
	}
	p.applied = true
	return nil
}

// SnapshotEvery is k: a room writes its snapshot at least every k saves;
// the k-1 moves between are log-only saves. A restore so replays at most
// k-1 moves through the engine (a few µs each); a larger k saves little
// more (the snapshot's encoding is already a thirty-second of a move's
// work) and lengthens the restore and a rollback.
const SnapshotEvery = 32

// commit writes the log entry e and, unless the change is a move the log
// alone can carry, the room's snapshot, in one store call and, once the
// store has them, makes them the saved point and closes the change. On an
// error the change stays open: the caller rolls it back.
func (p *persistence) commit(ctx context.Context, e logEntry) error {
	r := p.r
	if r.m.cfg.Store == nil {
		p.open, p.clone = false, nil
		return nil
	}
	now := time.Now().UTC()
	e.Seq, e.Prev = r.seq, p.savedSeq
	if e.At.IsZero() {
		e.At = now
	}
	entry, err := e.marshal()
	if err != nil {
		return err
	}
	logOnly := e.Kind == "move" && r.status != StatusFinished && !p.forceSnap &&
		p.savedEngine != nil && p.sinceSnap < SnapshotEvery-1
	err = p.save(ctx, entry, now, logOnly)
	if logOnly && errors.Is(err, store.ErrStaleSeq) {
		// The store is not at the seq the room last saved (its keys
		// expired, or a save the room gave up on landed late): the
		// snapshot, which is the room's truth, goes instead, under the
		// usual seq check.
		err = p.save(ctx, entry, now, false)
	}
	if err != nil {
		p.forceSnap = true
	}
	return err
}

// save is one SaveRoom of the open change: entry and, unless logOnly, the
// room's snapshot.
func (p *persistence) save(ctx context.Context, entry []byte, now time.Time, logOnly bool) error {
	r := p.r
	var snap []byte
	var record *store.RecordEntry
	if !logOnly {
		var err error
		if snap, err = r.snapshot(now); err != nil {
			return err
		}
		if r.status == StatusFinished {
			// The game's record goes with the save that finishes it
			// (and with every later save of the finished room).
			if record, err = recordEntry(snap); err != nil {
				r.log.Error("record: the finished room's snapshot makes no record", zap.String("room", r.id), zap.Error(err))
			}
		}
	}
	players := p.seatedPlayers()
	saveCtx, cancel := context.WithTimeout(ctx, r.m.cfg.SaveTimeout)
	defer cancel()
	err := r.m.cfg.Store.SaveRoom(saveCtx, store.Room{
		ID: r.id, Seq: r.seq, Snapshot: snap, LogOnly: logOnly, Prev: p.savedSeq, Append: [][]byte{entry},
		Players: players, Live: !r.private && r.status != StatusFinished, Finished: r.status == StatusFinished,
		UpdatedAt: now, Epoch: r.epoch, Record: record,
	})
	if err == nil {
		p.committed(logOnly)
		return nil
	}
	if errors.Is(err, store.ErrFenced) {
		r.lostLease("save")
		return fmt.Errorf("save room %s at seq %d: %w", r.id, r.seq, err)
	}
	if errors.Is(err, store.ErrStaleSeq) {
		return fmt.Errorf("save room %s at seq %d: %w", r.id, r.seq, err)
	}
	// A save that timed out may still have been applied by the store. Ask
	// the store: if our save is there, the change is saved after all.
	loadCtx, cancelLoad := context.WithTimeout(ctx, r.m.cfg.SaveCheckTimeout)
	defer cancelLoad()
	got, lerr := r.m.cfg.Store.LoadRoom(loadCtx, r.id)
	landed := lerr == nil && got.Seq == r.seq && len(got.Tail) > 0 && bytes.Equal(got.Tail[len(got.Tail)-1], entry)
	if !logOnly {
		landed = lerr == nil && got.Seq == r.seq && bytes.Equal(got.Snapshot, snap)
	}
	switch {
	case landed:
		r.log.Warn("save reported an error but landed", zap.String("room", r.id), zap.Int64("seq", r.seq), zap.Error(err))
		p.committed(logOnly)
		return nil
	case lerr != nil && !errors.Is(lerr, store.ErrNotFound):
		// No definite answer: the write may still land. The caller rolls
		// back, which changes nothing visible, and the seq is burnt so a
		// late write is ordered before the next save (see nextSeq).
		p.seqFloor = r.seq
	}
	return fmt.Errorf("save room %s at seq %d: %w", r.id, r.seq, err)
}

// seatedPlayers is the ids of the people seated in the room, for a save.
// The slice is kept from save to save while the seats do not change, and
// never written again once given to the store (which may still read it
// after a save timed out): a change of seats makes a new one.
func (p *persistence) seatedPlayers() []string {
	n := 0
	same := true
	for _, s := range p.r.seats {
		if s.ID != "" && s.Bot == "" {
			same = same && n < len(p.players) && p.players[n] == s.ID
			n++
		}
	}
	if same && n == len(p.players) {
		return p.players
	}
	p.players = nil
	for _, s := range p.r.seats {
		if s.ID != "" && s.Bot == "" {
			p.players = append(p.players, s.ID)
		}
	}
	return p.players
}

// committed records that the save under way is in the store.
func (p *persistence) committed(logOnly bool) {
	p.savedSeq = p.r.seq
	if logOnly {
		p.sinceSnap++
	} else {
		p.savedEngine, p.snapHistory, p.sinceSnap, p.forceSnap = p.pending, len(p.r.history), 0, false
	}
	p.open, p.clone = false, nil
}

// rollback takes back the open change (nothing when none is open): the
// bookkeeping as it was at mark and, when apply changed it, the engine
// state.
func (p *persistence) rollback() {
	if !p.open {
		return
	}
	r, k := p.r, p.at
	p.open = false
	r.seq, r.moves, r.lastMove, r.result, r.updated = k.seq, k.moves, k.lastMove, k.result, k.updated
	r.seatMoves = append(r.seatMoves[:0], k.seatMoves...)
	if k.tail != nil {
		r.history, r.rec.moveMs = append(r.history, k.tail...), append(r.rec.moveMs, k.tailMs...)
		r.rec.clockMs = append(r.rec.clockMs, k.tailClock...)
		if k.tailInfo != nil {
			r.rec.notes.info = append(r.rec.notes.info, k.tailInfo...)
		}
	}
	r.history, r.rec.moveMs, r.rec.ended = r.history[:k.history], r.rec.moveMs[:k.history], k.ended
	r.rec.clockMs = r.rec.clockMs[:min(k.history, len(r.rec.clockMs))]
	r.rec.notes.cut(k.history)
	r.offers = k.offers
	r.score.proposal, r.score.proposed = k.proposal, k.proposed
	r.setStatus(k.status)
	r.clock = k.clock
	r.armFlag()
	r.armAbort()
	if !p.applied && !p.applying {
		return
	}
	p.applied, p.applying = false, false
	if p.clone != nil {
		r.state, p.clone = p.clone, nil
		return
	}
	st, err := p.savedState()
	if err != nil {
		// The engine restored what it wrote at every save until now
		// (enginetest checks the round trip) and replays moves it took
		// once; if it cannot, the room is not trusted to go on.
		r.log.Error("cannot revert to the last save; closing the room", zap.String("room", r.id), zap.Error(err))
		r.broken = true
		return
	}
	r.state = st
}

// savedState is the engine state of the saved point: the last snapshot's
// engine and the moves of the history since it, replayed.
func (p *persistence) savedState() (engine.State, error) {
	r := p.r
	st, err := r.game.Restore(p.savedEngine)
	if err != nil {
		return nil, err
	}
	if p.snapHistory > len(r.history) {
		return nil, fmt.Errorf("history of %d moves, %d at the last snapshot", len(r.history), p.snapHistory)
	}
	for _, mv := range r.history[p.snapHistory:] {
		if err := st.Apply(mv.Seat, mv.Move); err != nil {
			return nil, fmt.Errorf("replay of %d:%s: %w", mv.Seat, mv.Move, err)
		}
	}
	return st, nil
}

// load makes a room rebuilt from the snapshot the store holds, with the
// engine snapshot eng and a history of snapHistory moves, and the moves of
// the log replayed after it up to seq, start from it as its saved point.
// Its first save writes a snapshot again.
func (p *persistence) load(seq int64, eng []byte, snapHistory int) {
	p.savedSeq, p.savedEngine, p.snapHistory, p.forceSnap = seq, eng, snapHistory, true
}

// nextSeq moves the room to its next seq. It skips a seq whose save failed
// without a definite answer, so a write that lands late never collides with a
// later one; clients see the gap and resync.
func (r *Room) nextSeq() {
	r.seq = max(r.seq, r.persist.seqFloor) + 1
}

// logEntry is one entry of the room's log in the store. Prev is the seq of
// the entry before it in the room's history: a save that failed without a
// definite answer may still land, after the room rolled the change back,
// and leave an entry that no later entry names. Readers of the log walk
// back from the snapshot's seq through prev (docs/persistence.md).
type logEntry struct {
	Seq    int64  `json:"seq"`
	Prev   int64  `json:"prev"`
	Kind   string `json:"kind"`
	Seat   *int   `json:"seat,omitempty"`
	Move   string `json:"move,omitempty"`
	By     string `json:"by,omitempty"`
	Player string `json:"player,omitempty"`
	// Plies is the number of plies a takeback took back (kind
	// "takeback") or asks to (kind "takeback_ask").
	Plies int `json:"plies,omitempty"`
	// Ms (kind "move") is how long the move took, and Left, in a game
	// with a clock, the mover's time after it, in milliseconds: what a
	// restore that replays the move sets (replayMove).
	Ms   int64  `json:"ms,omitempty"`
	Left *int64 `json:"left,omitempty"`
	// Info (kind "move") is a bot account's note on its move
	// (botnotes.go).
	Info string    `json:"info,omitempty"`
	At   time.Time `json:"at"`
}
