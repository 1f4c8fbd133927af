package rooms

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/players"
	"github.com/tabuleiro/tabuleiro/protocol"
)

// snapshotV1 is the room snapshot kept by the store: the room's metadata,
// its move log and the engine's own snapshot. Manager.Restore rebuilds a
// room from it.
type snapshotV1 struct {
	snapshotMeta
	// Setup, MoveMs (the milliseconds each move of MoveLog took) and Chat
	// are kept for the game's record (record.go).
	Setup   json.RawMessage     `json:"setup,omitempty"`
	MoveLog []string            `json:"moveLog,omitempty"`
	MoveMs  []int64             `json:"moveMs,omitempty"`
	Chat    []protocol.ChatLine `json:"chat,omitempty"`
	// ClockMs (beside MoveLog, in a game with a clock: the time each
	// mover had left after its move) and Offers (the standing draw offer
	// and takeback request) are kept for the rules of play (rules.go).
	ClockMs []int64     `json:"clockMs,omitempty"`
	Offers  *offersSnap `json:"offers,omitempty"`
	// ChatState holds the mutes and the spectators' chat switch (chat.go).
	ChatState *chatSnap `json:"chatState,omitempty"`
	// Options are the game's rule options, absent for the seed's rules;
	// Scoring is go's stone-removal phase, absent outside it (scoring.go).
	Options *optionsSnap `json:"options,omitempty"`
	Scoring *scoringSnap `json:"scoring,omitempty"`
	// MoveInfo (beside MoveLog, as long as its last move with a note)
	// and Faults are the bot accounts' notes (botnotes.go).
	MoveInfo []string        `json:"moveInfo,omitempty"`
	Faults   []faultSnap     `json:"faults,omitempty"`
	Engine   json.RawMessage `json:"engine"`
}

// offersSnap is Room.offers in a snapshot; absent when it holds nothing.
type offersSnap struct {
	Draw       *int                  `json:"draw,omitempty"`
	Takeback   *protocol.TakebackAsk `json:"takeback,omitempty"`
	DrawAt     []int64               `json:"drawAt,omitempty"`
	TakebackAt []int64               `json:"takebackAt,omitempty"`
}

// snap is o for a snapshot: nil when there is nothing to keep.
func (o offers) snap() *offersSnap {
	if o.draw < 0 && o.takeback == nil && len(o.drawAt) == 0 && len(o.takebackAt) == 0 {
		return nil
	}
	s := &offersSnap{Takeback: o.takeback, DrawAt: o.drawAt, TakebackAt: o.takebackAt}
	if o.draw >= 0 {
		d := o.draw
		s.Draw = &d
	}
	return s
}

// restoredOffers reads the offers of a snapshot of a room with seats
// seats.
func restoredOffers(s *offersSnap, seats int) (offers, error) {
	o := offers{draw: -1}
	if s == nil {
		return o, nil
	}
	if s.Draw != nil {
		if *s.Draw < 0 || *s.Draw >= seats {
			return o, fmt.Errorf("draw offer by seat %d of %d", *s.Draw, seats)
		}
		o.draw = *s.Draw
	}
	if t := s.Takeback; t != nil {
		if t.Seat < 0 || t.Seat >= seats || t.Plies < 1 {
			return o, fmt.Errorf("takeback request %+v", *t)
		}
		c := *t
		o.takeback = &c
	}
	if len(s.DrawAt) > seats || len(s.TakebackAt) > seats {
		return o, fmt.Errorf("offer times for %d seats", max(len(s.DrawAt), len(s.TakebackAt)))
	}
	o.drawAt, o.takebackAt = s.DrawAt, s.TakebackAt
	return o, nil
}

// snapshotMeta is the part of a snapshot that does not grow with the game:
// a save encodes it whole; the move log and the engine's snapshot, which
// do grow, are appended to it (see Room.snapshot).
type snapshotMeta struct {
	V         int                `json:"v"`
	ID        string             `json:"id"`
	Game      string             `json:"game"`
	Variant   string             `json:"variant"`
	Seats     seatList           `json:"seats"`
	Status    string             `json:"status"`
	Seq       int64              `json:"seq"`
	Result    *protocol.Result   `json:"result"`
	LastMove  *protocol.LastMove `json:"lastMove"`
	Created   time.Time          `json:"created"`
	Updated   time.Time          `json:"updated"`
	Private   bool               `json:"private"`
	Watch     bool               `json:"watch"`
	Rated     bool               `json:"rated,omitempty"`
	Clock     *clockSnap         `json:"clock"`
	Seed      uint64             `json:"seed"`
	Moves     int64              `json:"moves"`
	SeatMoves []int64            `json:"seatMoves"`
	Rematch   []int              `json:"rematch,omitempty"`
	Next      string             `json:"next,omitempty"`
	Started   time.Time          `json:"started,omitzero"`
	Ended     time.Time          `json:"ended,omitzero"`
}

// seatList is a room's seats in its snapshot, each the one public player
// type as encoding/json writes it. Snapshots written before it name a
// seat's player "playerId": UnmarshalJSON reads both.
type seatList []players.Player

// UnmarshalJSON reads the seats of a snapshot, either form.
func (l *seatList) UnmarshalJSON(b []byte) error {
	var raw []struct {
		players.Player
		Before string `json:"playerId"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	if raw == nil {
		*l = nil
		return nil
	}
	*l = make(seatList, len(raw))
	for i, s := range raw {
		id := s.ID
		if id == "" {
			id = s.Before
		}
		p := players.Of(id, s.Name)
		p.Bot = s.Bot
		p.Rating, p.Provisional = s.Rating, s.Provisional
		(*l)[i] = p
	}
	return nil
}

// snapshot encodes the room for the store. The metadata is written field
// by field (snapshotjson.go), the move log comes from r.persist.logEnc, which
// appends the moves made since the last save, and the engine's snapshot is
// written as the engine encoded it (valid JSON by the engine contract, checked by
// enginetest), so a save does not encode the whole game again nor scan the
// engine's bytes a second time (encoding/json compacts every RawMessage).
func (r *Room) snapshot(now time.Time) ([]byte, error) {
	eng, err := r.state.MarshalJSON()
	if err != nil {
		return nil, err
	}
	r.persist.pending = eng
	s := snapshotMeta{V: 1, ID: r.id, Game: r.info.ID, Variant: r.variant, Status: r.status, Seq: r.seq,
		Result: r.result, LastMove: r.lastMove, Created: r.created, Updated: now, Private: r.private,
		Watch: r.watch, Rated: r.rated, Clock: r.clock.snap(), Seed: r.seed, Moves: r.moves,
		SeatMoves: r.seatMoves, Rematch: r.rematch, Next: r.next, Started: r.rec.started, Ended: r.rec.ended}
	s.Seats = seatList(r.seats)
	log, ms := r.persist.logEnc.encode(r.history), r.rec.encodedMoveMs()
	out, err := s.appendJSON(make([]byte, 0, 512+len(log)+r.rec.recordFieldsLen(ms)+len(eng)))
	if err != nil {
		return nil, err
	}
	out = out[:len(out)-1] // the metadata without its closing brace
	if len(r.history) > 0 {
		out = append(out, `,"moveLog":`...)
		out = append(out, log...)
	}
	out = r.appendRecordFields(out, ms)
	out, err = r.appendRulesFields(out)
	if err != nil {
		return nil, err
	}
	if out, err = r.appendChatFields(out); err != nil {
		return nil, err
	}
	if out, err = r.appendScoringFields(out); err != nil {
		return nil, err
	}
	if out, err = r.appendNotesFields(out); err != nil {
		return nil, err
	}
	out = append(out, `,"engine":`...)
	out = append(out, eng...)
	return append(out, '}'), nil
}

// arrayEncoder keeps a list that grows at its end encoded as a JSON array
// between saves. The list grows between saves, or loses its last entries
// when a refused save rolls a change back: encode keeps the longest prefix
// it holds that the list still starts with and appends the rest.
type arrayEncoder[T comparable] struct {
	buf  []byte // "[" and the entries, without the closing "]"
	ends []int  // ends[i] is len(buf) after entry i, before the "]"
	held []T    // the entries encoded in buf
}

// encode returns the JSON array of items, each written by appendItem. The
// result is valid until the next call.
func (e *arrayEncoder[T]) encode(items []T, appendItem func([]byte, T) []byte) []byte {
	n := 0 // entries of buf still valid
	for n < len(e.held) && n < len(items) && e.held[n] == items[n] {
		n++
	}
	e.held, e.ends = append(e.held[:n], items[n:]...), e.ends[:n]
	if n == 0 {
		e.buf = append(e.buf[:0], '[')
	} else {
		e.buf = e.buf[:e.ends[n-1]]
	}
	for i, it := range items[n:] {
		if n+i > 0 {
			e.buf = append(e.buf, ',')
		}
		e.buf = appendItem(e.buf, it)
		e.ends = append(e.ends, len(e.buf))
	}
	return append(e.buf, ']')
}

// moveLogEncoder keeps a room's move log encoded as its snapshot's JSON
// array of "seat:move" strings.
type moveLogEncoder struct {
	arrayEncoder[protocol.LastMove]
}

// encode returns the JSON array of history's entries ("seat:move"). The
// result is valid until the next call.
func (e *moveLogEncoder) encode(history []protocol.LastMove) []byte {
	return e.arrayEncoder.encode(history, func(b []byte, mv protocol.LastMove) []byte {
		return engine.AppendJSONString(b, strconv.Itoa(mv.Seat)+":"+mv.Move)
	})
}

func (r *Room) fromSnapshot(s snapshotV1) error {
	r.id, r.variant, r.status, r.seq = s.ID, s.Variant, s.Status, s.Seq
	r.result, r.lastMove, r.created, r.updated = s.Result, s.LastMove, s.Created, s.Updated
	r.private, r.watch, r.seed, r.moves = s.Private, s.Watch, s.Seed, s.Moves
	r.rated = s.Rated
	r.rematch, r.next = s.Rematch, s.Next
	r.seats = s.Seats
	var err error
	if r.history, err = parseMoveLog(s.ID, s.MoveLog, len(r.seats)); err != nil {
		return err
	}
	r.seatMoves = s.SeatMoves
	if len(r.seatMoves) != len(r.seats) {
		r.seatMoves = make([]int64, len(r.seats))
		for _, m := range r.history {
			r.seatMoves[m.Seat]++ // at least the moves that stand
		}
	}
	if r.clock, err = restoredClock(s.Clock, len(r.seats)); err != nil {
		return fmt.Errorf("snapshot of room %s: %w", s.ID, err)
	}
	r.recordFromSnapshot(s)
	if r.offers, err = restoredOffers(s.Offers, len(r.seats)); err != nil {
		return fmt.Errorf("snapshot of room %s: %w", s.ID, err)
	}
	if err := r.restoreChat(s.ChatState); err != nil {
		return fmt.Errorf("snapshot of room %s: %w", s.ID, err)
	}
	if s.Options != nil {
		r.opts = s.Options.options()
	}
	r.restoreScoring(s.Scoring)
	return r.notesFromSnapshot(s)
}

// appendScoringFields appends the snapshot's rule options and go's
// stone-removal phase (options, scoring), each only when it has
// something: rare, so encoding/json writes them.
func (r *Room) appendScoringFields(b []byte) ([]byte, error) {
	var keys []string
	var values []any
	if o := snapOptions(r.opts); o != nil {
		keys, values = append(keys, "options"), append(values, o)
	}
	if sc := r.scoringSnapshot(); sc != nil {
		keys, values = append(keys, "scoring"), append(values, sc)
	}
	for i, key := range keys {
		j, err := json.Marshal(values[i])
		if err != nil {
			return nil, err
		}
		b = append(b, `,"`+key+`":`...)
		b = append(b, j...)
	}
	return b, nil
}

// appendRulesFields appends the snapshot's fields of the rules of play
// (clockMs, offers), each only when it has something.
func (r *Room) appendRulesFields(b []byte) ([]byte, error) {
	if len(r.rec.clockMs) > 0 {
		b = append(b, `,"clockMs":`...)
		b = append(b, r.rec.clockEnc.encode(r.rec.clockMs, func(b []byte, ms int64) []byte { return strconv.AppendInt(b, ms, 10) })...)
	}
	if o := r.offers.snap(); o != nil {
		j, err := json.Marshal(o) // rare: only while an offer stands or after one
		if err != nil {
			return nil, err
		}
		b = append(b, `,"offers":`...)
		b = append(b, j...)
	}
	return b, nil
}

// parseMoveLog reads a snapshot's move log ("seat:move" entries) of a room
// with seats seats.
func parseMoveLog(room string, log []string, seats int) ([]protocol.LastMove, error) {
	history := make([]protocol.LastMove, 0, len(log))
	for _, e := range log {
		seat, move, ok := strings.Cut(e, ":")
		n, err := strconv.Atoi(seat)
		if !ok || err != nil || n < 0 || n >= seats {
			return nil, fmt.Errorf("snapshot of room %s: bad move log entry %q", room, e)
		}
		history = append(history, protocol.LastMove{Seat: n, Move: move})
	}
	return history, nil
}
