package rooms

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/tabuleiro/tabuleiro/protocol"
)

// snapshotV1 is the room snapshot kept by the store: the room's metadata and
// the engine's own snapshot. Manager.Restore rebuilds a room from it.
type snapshotV1 struct {
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
	MoveLog   []string           `json:"moveLog,omitempty"`
	Rematch   []int              `json:"rematch,omitempty"`
	Next      string             `json:"next,omitempty"`
	Engine    json.RawMessage    `json:"engine"`
}

type seatSnap struct {
	PlayerID string `json:"playerId,omitempty"`
	Name     string `json:"name,omitempty"`
	Bot      string `json:"bot,omitempty"`
}

func (r *Room) snapshot(now time.Time) ([]byte, error) {
	eng, err := r.state.MarshalJSON()
	if err != nil {
		return nil, err
	}
	s := snapshotV1{V: 1, ID: r.id, Game: r.info.ID, Variant: r.variant, Status: r.status, Seq: r.seq,
		Result: r.result, LastMove: r.lastMove, Created: r.created, Updated: now, Private: r.private,
		Watch: r.watch, Clock: r.clock.snap(), Seed: r.seed, Moves: r.moves,
		SeatMoves: r.seatMoves, Rematch: r.rematch, Next: r.next, Engine: eng}
	for _, st := range r.seats {
		s.Seats = append(s.Seats, seatSnap(st))
	}
	s.MoveLog = make([]string, len(r.history))
	for i, mv := range r.history {
		s.MoveLog[i] = strconv.Itoa(mv.Seat) + ":" + mv.Move
	}
	return json.Marshal(s)
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
