package rooms

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/tabuleiro/tabuleiro/protocol"
)

// snapshotV1 is the room snapshot kept by the store: the room's metadata,
// its move log and the engine's own snapshot. Manager.Restore rebuilds a
// room from it.
type snapshotV1 struct {
	snapshotMeta
	MoveLog []string        `json:"moveLog,omitempty"`
	Engine  json.RawMessage `json:"engine"`
}

// snapshotMeta is the part of a snapshot that does not grow with the game:
// a save encodes it whole; the move log and the engine's snapshot, which
// do grow, are appended to it (see Room.snapshot).
type snapshotMeta struct {
	V         int                `json:"v"`
	ID        string             `json:"id"`
	Game      string             `json:"game"`
	Variant   string             `json:"variant"`
	Seats     []seatSnap         `json:"seats"`
	Status    string             `json:"status"`
	Seq       int64              `json:"seq"`
	Result    *protocol.Result   `json:"result"`
	LastMove  *protocol.LastMove `json:"lastMove"`
	Created   time.Time          `json:"created"`
	Updated   time.Time          `json:"updated"`
	Private   bool               `json:"private"`
	Watch     bool               `json:"watch"`
	Clock     *clockSnap         `json:"clock"`
	Seed      uint64             `json:"seed"`
	Moves     int64              `json:"moves"`
	SeatMoves []int64            `json:"seatMoves"`
	Rematch   []int              `json:"rematch,omitempty"`
	Next      string             `json:"next,omitempty"`
}

type seatSnap struct {
	PlayerID string `json:"playerId,omitempty"`
	Name     string `json:"name,omitempty"`
	Bot      string `json:"bot,omitempty"`
}

// snapshot encodes the room for the store. The metadata is written field
// by field (snapshotjson.go), the move log comes from r.logEnc, which
// appends the moves made since the last save, and the engine's snapshot is
// written as the engine encoded it (valid JSON by the engine contract, checked by
// enginetest), so a save does not encode the whole game again nor scan the
// engine's bytes a second time (encoding/json compacts every RawMessage).
func (r *Room) snapshot(now time.Time) ([]byte, error) {
	eng, err := r.state.MarshalJSON()
	if err != nil {
		return nil, err
	}
	r.engineSnap = eng
	s := snapshotMeta{V: 1, ID: r.id, Game: r.info.ID, Variant: r.variant, Status: r.status, Seq: r.seq,
		Result: r.result, LastMove: r.lastMove, Created: r.created, Updated: now, Private: r.private,
		Watch: r.watch, Clock: r.clock.snap(), Seed: r.seed, Moves: r.moves,
		SeatMoves: r.seatMoves, Rematch: r.rematch, Next: r.next}
	for _, st := range r.seats {
		s.Seats = append(s.Seats, seatSnap(st))
	}
	log := r.logEnc.encode(r.history)
	out, err := s.appendJSON(make([]byte, 0, 512+len(log)+len(eng)))
	if err != nil {
		return nil, err
	}
	out = out[:len(out)-1] // the metadata without its closing brace
	if len(r.history) > 0 {
		out = append(out, `,"moveLog":`...)
		out = append(out, log...)
	}
	out = append(out, `,"engine":`...)
	out = append(out, eng...)
	return append(out, '}'), nil
}

// moveLogEncoder keeps a room's move log encoded as its snapshot's JSON
// array. The history grows between saves, or loses its last entries when a
// refused save rolls a change back: encode keeps the longest prefix it
// holds that the history still starts with and appends the rest.
type moveLogEncoder struct {
	buf  []byte              // "[" and the entries, without the closing "]"
	ends []int               // ends[i] is len(buf) after entry i, before the "]"
	held []protocol.LastMove // the entries encoded in buf
}

// encode returns the JSON array of history's entries ("seat:move"). The
// result is valid until the next call.
func (e *moveLogEncoder) encode(history []protocol.LastMove) []byte {
	n := 0 // entries of buf still valid
	for n < len(e.held) && n < len(history) && e.held[n] == history[n] {
		n++
	}
	e.held, e.ends = append(e.held[:n], history[n:]...), e.ends[:n]
	if n == 0 {
		e.buf = append(e.buf[:0], '[')
	} else {
		e.buf = e.buf[:e.ends[n-1]]
	}
	for i, mv := range history[n:] {
		if n+i > 0 {
			e.buf = append(e.buf, ',')
		}
		e.buf = protocol.AppendString(e.buf, strconv.Itoa(mv.Seat)+":"+mv.Move)
		e.ends = append(e.ends, len(e.buf))
	}
	return append(e.buf, ']')
}

func (r *Room) fromSnapshot(s snapshotV1) error {
	r.id, r.variant, r.status, r.seq, r.savedSeq = s.ID, s.Variant, s.Status, s.Seq, s.Seq
	r.result, r.lastMove, r.created, r.updated = s.Result, s.LastMove, s.Created, s.Updated
	r.private, r.watch, r.seed, r.moves = s.Private, s.Watch, s.Seed, s.Moves
	r.rematch, r.next = s.Rematch, s.Next
	for _, st := range s.Seats {
		r.seats = append(r.seats, Seat(st))
	}
	r.seatMoves = s.SeatMoves
	if len(r.seatMoves) != len(r.seats) {
		r.seatMoves = make([]int64, len(r.seats))
	}
	r.history = make([]protocol.LastMove, 0, len(s.MoveLog))
	for _, e := range s.MoveLog {
		seat, move, ok := strings.Cut(e, ":")
		n, err := strconv.Atoi(seat)
		if !ok || err != nil || n < 0 || n >= len(r.seats) {
			return fmt.Errorf("snapshot of room %s: bad move log entry %q", s.ID, e)
		}
		r.history = append(r.history, protocol.LastMove{Seat: n, Move: move})
	}
	var err error
	if r.clock, err = restoredClock(s.Clock, len(r.seats)); err != nil {
		return fmt.Errorf("snapshot of room %s: %w", s.ID, err)
	}
	return nil
}
