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
//   - commit: the room's snapshot and a log entry, in one store call. Once
//     the store has it, it is the saved point and the change is closed. A
//     failed save with no definite answer burns its seq (see nextSeq).
//   - rollback: the commit failed, or the room goroutine panicked while the
//     change was open (Room.safely): the bookkeeping goes back to the mark
//     and, when apply changed the engine state, the state to the clone or
//     to the saved point. A room whose engine cannot be restored is broken
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
	// savedEngine is the engine's snapshot as of that save, and pending
	// the one the commit under way writes.
	savedEngine, pending []byte
	// seqFloor is the seq of the last save that failed without a definite
	// answer: it may still land in the store, so a rolled-back room never
	// reuses that seq (see nextSeq).
	seqFloor int64
	// logEnc holds the room's history as the snapshot's JSON, kept between
	// saves (see Room.snapshot).
	logEnc moveLogEncoder

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
	// tail, tailMs and tailClock are the plies a takeback took off the
	// history, with their times: a rollback puts them back.
	tail              []protocol.LastMove
	tailMs, tailClock []int64
}

// mark opens a change: what the room is now is where rollback returns to.
func (p *persistence) mark() {
	r := p.r
	p.open, p.applied, p.clone = true, false, nil
	p.at = bookkeeping{seq: r.seq, moves: r.moves, seatMoves: append([]int64(nil), r.seatMoves...), lastMove: r.lastMove,
		history: len(r.history), status: r.status, result: r.result, updated: r.updated, clock: r.clock.clone(),
		ended: r.rec.ended, offers: r.offers.clone()}
}

// replace makes st the room's engine state within the open change (a
// takeback's replayed position); a rollback puts the state before it back.
func (p *persistence) replace(st engine.State) {
	r := p.r
	p.clone, p.applied = r.state, true
	r.state = st
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

// commit writes the room's snapshot and the log entry e in one store call
// and, once the store has them, makes them the saved point and closes the
// change. On an error the change stays open: the caller rolls it back.
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
	snap, err := r.snapshot(now)
	if err != nil {
		return err
	}
	entry, err := e.marshal()
	if err != nil {
		return err
	}
	var players []string
	for _, s := range r.seats {
		if s.PlayerID != "" && s.Bot == "" {
			players = append(players, s.PlayerID)
		}
	}
	saveCtx, cancel := context.WithTimeout(ctx, r.m.cfg.SaveTimeout)
	defer cancel()
	err = r.m.cfg.Store.SaveRoom(saveCtx, store.Room{
		ID: r.id, Seq: r.seq, Snapshot: snap, Append: [][]byte{entry}, Players: players,
		Live: !r.private && r.status != StatusFinished, Finished: r.status == StatusFinished, UpdatedAt: now,
		Epoch: r.epoch,
	})
	if err == nil {
		p.committed()
		r.archiveSaved(snap)
		return nil
	}
	if errors.Is(err, store.ErrFenced) {
		r.lostLease("save")
		return fmt.Errorf("save room %s at seq %d: %w", r.id, r.seq, err)
	}
	// A save that timed out may still have been applied by the store. Ask
	// the store: if our snapshot is there, the change is saved after all.
	loadCtx, cancelLoad := context.WithTimeout(ctx, r.m.cfg.SaveCheckTimeout)
	defer cancelLoad()
	got, lerr := r.m.cfg.Store.LoadRoom(loadCtx, r.id)
	switch {
	case lerr == nil && got.Seq == r.seq && bytes.Equal(got.Snapshot, snap):
		r.log.Warn("save reported an error but landed", zap.String("room", r.id), zap.Int64("seq", r.seq), zap.Error(err))
		p.committed()
		r.archiveSaved(snap)
		return nil
	case lerr != nil && !errors.Is(lerr, store.ErrNotFound):
		// No definite answer: the write may still land. The caller rolls
		// back, which changes nothing visible, and the seq is burnt so a
		// late write is ordered before the next save (see nextSeq).
		p.seqFloor = r.seq
	}
	return fmt.Errorf("save room %s at seq %d: %w", r.id, r.seq, err)
}

// committed records that the save under way is in the store.
func (p *persistence) committed() {
	p.savedSeq, p.savedEngine = p.r.seq, p.pending
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
	r.seq, r.moves, r.seatMoves, r.lastMove, r.result, r.updated = k.seq, k.moves, k.seatMoves, k.lastMove, k.result, k.updated
	if k.tail != nil {
		r.history, r.rec.moveMs = append(r.history, k.tail...), append(r.rec.moveMs, k.tailMs...)
		r.rec.clockMs = append(r.rec.clockMs, k.tailClock...)
	}
	r.history, r.rec.moveMs, r.rec.ended = r.history[:k.history], r.rec.moveMs[:k.history], k.ended
	r.rec.clockMs = r.rec.clockMs[:min(k.history, len(r.rec.clockMs))]
	r.offers = k.offers
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
	st, err := r.game.Restore(p.savedEngine)
	if err != nil {
		// The engine restored what it wrote at every save until now
		// (enginetest checks the round trip); if it cannot, the room is
		// not trusted to go on.
		r.log.Error("cannot revert to the last save; closing the room", zap.String("room", r.id), zap.Error(err))
		r.broken = true
		return
	}
	r.state = st
}

// load makes a room rebuilt from the snapshot the store holds at seq, with
// the engine snapshot eng, start from it as its saved point.
func (p *persistence) load(seq int64, eng []byte) {
	p.savedSeq, p.savedEngine = seq, eng
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
	Plies int       `json:"plies,omitempty"`
	At    time.Time `json:"at"`
}
