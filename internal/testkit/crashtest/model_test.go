package crashtest

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"testing"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/protocol"
)

// volatile are the room.state fields that are not the game's: who is
// connected, how many watch, the seq itself, and fields of other issues.
var volatile = []string{"type", "id", "room", "seq", "players", "spectators", "clocks", "private", "watch", "rematch", "next",
	"abortAt", "abortable", "drawOffer", "takeback", "spectatorChat"}

// move is one move of a game, as the model knows it.
type move struct {
	Seat int
	Move string
	// Seq is the lowest seq of the room.states of its run that showed it
	// (for a move seen live, the seq it was saved with).
	Seq int64
	// Run is the server run whose states showed it first.
	Run int
	// Seen is false for a move the clients never saw acknowledged before
	// a kill and that the restarted server shows (a move whose save landed
	// just before the kill, or a bot's move after the restore).
	Seen bool
}

// model is the local copy of one game: the engine state replayed from the
// moves the clients saw, and the room's end.
type model struct {
	game   string
	st     engine.State
	seats  int
	status string // playing or finished; waiting comes from the server's seats
	result *protocol.Result
	last   *protocol.LastMove
	moves  []move
}

func newModel(g engine.Game, variant string, setup json.RawMessage) (*model, error) {
	st, err := g.New(variant, setup, 1)
	if err != nil {
		return nil, err
	}
	return &model{game: g.Info().ID, st: st, seats: st.Seats(), status: "playing"}, nil
}

// roomState builds the room.state the server must send for this model,
// following the rules of docs/protocol.md (turn and legal only while
// playing).
func (m *model) roomState(status string) protocol.RoomState {
	rs := protocol.RoomState{Game: m.game, Variant: m.st.Variant(), Status: status, Board: m.st.Board(), LastMove: m.last, Score: m.st.Score(),
		Result: m.result, Extra: m.st.Extra(), Legal: []string{}}
	if status == "playing" {
		if t, ok := m.st.Turn(); ok {
			rs.Turn = &t
			if l := m.st.Legal(t); l != nil {
				rs.Legal = l
			}
		} else if !m.st.Outcome().Over {
			rs.LegalBy = map[string][]string{}
			for i := range m.seats {
				rs.LegalBy[strconv.Itoa(i)] = m.st.Legal(i)
			}
		}
	}
	return rs
}

// view is the game part of a room.state as canonical JSON, and its keys.
type view struct {
	text string
	keys []string
}

func gameView(v any) (map[string]any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	for _, k := range volatile {
		delete(m, k)
	}
	return m, nil
}

// expected is the view the model expects; status is the room's status as
// far as seats go ("waiting" or "playing") unless the model is finished.
func (m *model) expected(seatStatus string) (view, error) {
	status := m.status
	if status != "finished" {
		status = seatStatus
	}
	gv, err := gameView(m.roomState(status))
	if err != nil {
		return view{}, err
	}
	keys := make([]string, 0, len(gv))
	for k := range gv {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b, err := json.Marshal(gv)
	return view{string(b), keys}, err
}

// serverView is the server's room.state restricted to keys (fields other
// branches add are not the model's business).
func serverView(raw []byte, keys []string) (string, error) {
	var all map[string]any
	if err := json.Unmarshal(raw, &all); err != nil {
		return "", err
	}
	out := make(map[string]any, len(keys))
	for _, k := range keys {
		out[k] = all[k]
	}
	b, err := json.Marshal(out)
	return string(b), err
}

// step is one candidate change between two room.states: a move, or a
// resignation.
type step struct {
	seat   int
	move   string
	resign bool
}

func (s step) String() string {
	if s.resign {
		return fmt.Sprintf("seat %d resigns", s.seat)
	}
	return fmt.Sprintf("seat %d plays %s", s.seat, s.move)
}

// after returns a copy of the model with steps applied, or an error when a
// step is refused by the engine.
func (m *model) after(steps []step) (*model, error) {
	n := &model{game: m.game, st: m.st.Clone(), seats: m.seats, status: m.status, result: m.result, last: m.last,
		moves: slices.Clone(m.moves)}
	for _, s := range steps {
		if n.status == "finished" {
			return nil, fmt.Errorf("%s after the end", s)
		}
		if s.resign {
			res := &protocol.Result{Reason: "resign"}
			if n.seats == 2 {
				w := 1 - s.seat
				res.Winner = &w
			}
			n.status, n.result = "finished", res
			continue
		}
		if err := n.st.Apply(s.seat, s.move); err != nil {
			return nil, fmt.Errorf("%s: %w", s, err)
		}
		n.last = &protocol.LastMove{Seat: s.seat, Move: s.move}
		n.moves = append(n.moves, move{Seat: s.seat, Move: s.move})
		if out := n.st.Outcome(); out.Over {
			res := &protocol.Result{Reason: out.Reason}
			if out.Winner >= 0 {
				w := out.Winner
				res.Winner = &w
			}
			n.status, n.result = "finished", res
		}
	}
	return n, nil
}

// TestCheckHistory: the move history of a room.state, when the server
// sends one, must be the moves the model replayed.
func TestCheckHistory(t *testing.T) {
	d := &driver{model: &model{moves: []move{{Seat: 0, Move: "b2"}, {Seat: 1, Move: "a1"}}}}
	for _, tc := range []struct {
		raw  string
		fail bool
	}{
		{`{"type":"room.state"}`, false},
		{`{"moves":[{"seat":0,"move":"b2"},{"seat":1,"move":"a1"}]}`, false},
		{`{"moves":[{"seat":0,"move":"b2"}]}`, true},
		{`{"moves":[{"seat":0,"move":"b2"},{"seat":1,"move":"a1"},{"seat":1,"move":"a1"}]}`, true},
		{`{"moves":[{"seat":0,"move":"b2"},{"seat":0,"move":"a1"}]}`, true},
		{`{"moves":[]}`, true},
	} {
		if err := d.checkHistory([]byte(tc.raw)); (err != nil) != tc.fail {
			t.Errorf("%s: error %v, want failure %v", tc.raw, err, tc.fail)
		}
	}
}
