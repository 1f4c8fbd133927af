// Replay: a room restored from its last snapshot is brought up to its last
// save by the moves saved after it (log-only saves, persistence.go).

package rooms

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/tabuleiro/tabuleiro/protocol"
)

// replayTail brings a room restored from its snapshot (at r.seq) to seq
// with tail, the log entries the store appended after that snapshot: the
// entries from seq back to the snapshot through their prev links, applied
// oldest first. Entries off that chain (saves the room rolled back that
// landed late) are left out.
func (r *Room) replayTail(seq int64, tail [][]byte) error {
	bySeq := make(map[int64]logEntry, len(tail))
	for _, b := range tail {
		var e logEntry
		if err := json.Unmarshal(b, &e); err != nil {
			return fmt.Errorf("log of room %s: %w", r.id, err)
		}
		bySeq[e.Seq] = e
	}
	var chain []logEntry
	for at := seq; at != r.seq; {
		e, ok := bySeq[at]
		if !ok || at < r.seq || e.Prev >= at || len(chain) >= len(tail) {
			return fmt.Errorf("log of room %s: no chain of entries from seq %d back to the snapshot's %d (stuck at %d)", r.id, seq, r.seq, at)
		}
		chain = append(chain, e)
		at = e.Prev
	}
	slices.Reverse(chain)
	for _, e := range chain {
		if err := r.replayMove(e); err != nil {
			return fmt.Errorf("log of room %s, seq %d: %w", r.id, e.Seq, err)
		}
	}
	return nil
}

// replayMove does again what Room.play did for the move of e, as its entry
// recorded it: the engine's Apply and the room's bookkeeping, the clock
// and the move time as they were then. Only moves that left the game going
// are saved without a snapshot.
func (r *Room) replayMove(e logEntry) error {
	if e.Kind != "move" || e.Seat == nil || *e.Seat < 0 || *e.Seat >= len(r.seats) {
		return fmt.Errorf("entry %q of seat %v cannot follow a snapshot", e.Kind, e.Seat)
	}
	seat := *e.Seat
	if r.status != StatusPlaying {
		return fmt.Errorf("a move in a room %s", r.status)
	}
	if err := r.state.Apply(seat, e.Move); err != nil {
		return fmt.Errorf("replay of %d:%s: %w", seat, e.Move, err)
	}
	if r.state.Outcome().Over {
		return fmt.Errorf("move %d:%s ends the game but was saved without a snapshot", seat, e.Move)
	}
	r.seq, r.updated = e.Seq, e.At.UTC()
	r.moves++
	r.seatMoves[seat]++
	r.lastMove = &protocol.LastMove{Seat: seat, Move: e.Move}
	r.history = append(r.history, *r.lastMove)
	r.rec.moveMs = append(r.rec.moveMs, e.Ms)
	r.rec.notes.noteMove(len(r.history), e.Info)
	if c := r.clock; c != nil {
		if e.Left == nil || *e.Left < 0 {
			return fmt.Errorf("move %d:%s in a game with a clock has no time left", seat, e.Move)
		}
		c.left[seat] = time.Duration(*e.Left) * time.Millisecond
		r.rec.clockMs = append(r.rec.clockMs, *e.Left)
	}
	r.lapseOffers(seat)
	return nil
}
