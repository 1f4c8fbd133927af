package protocol

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/tabuleiro/tabuleiro/engine"
)

func TestRoomStateMergesExtraFields(t *testing.T) {
	st := RoomState{Type: TypeRoomState, Room: "r", Seq: 3, Status: "playing", Legal: []string{},
		Extra: map[string]any{"owners": []string{"0."}, "seq": 99}}
	f, err := Encode(st)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(f.Data, &m); err != nil {
		t.Fatal(err)
	}
	if m["seq"] != 3.0 || m["owners"] == nil || m["turn"] != nil || m["result"] != nil {
		t.Fatalf("encoded %s", f.Data)
	}
	for _, k := range []string{"turn", "lastMove", "score", "clocks", "result", "spectators"} {
		if _, ok := m[k]; !ok {
			t.Errorf("room.state lacks %q", k)
		}
	}
}

// TestFramePreparedOnce: every writer of a frame shares what the first
// one prepared, made once from the frame's bytes.
func TestFramePreparedOnce(t *testing.T) {
	f := NewFrame([]byte(`{"type":"x"}`))
	calls := 0
	prepare := func(data []byte) any {
		calls++
		return "prepared " + string(data)
	}
	for range 3 {
		if got := f.Prepared(prepare); got != `prepared {"type":"x"}` {
			t.Fatalf("Prepared = %v", got)
		}
	}
	if calls != 1 {
		t.Fatalf("prepare called %d times, want once", calls)
	}
}

func TestAsError(t *testing.T) {
	if e := AsError(engine.Errorf(engine.CodeIllegalMove, "no")); e.Code != CodeIllegalMove || e.Msg != "no" {
		t.Errorf("engine error: %+v", e)
	}
	if e := AsError(errors.New("secret detail")); e.Code != CodeInternal || strings.Contains(e.Msg, "secret") {
		t.Errorf("plain error: %+v", e)
	}
	if AsError(nil) != nil {
		t.Error("nil error")
	}
}

// TestCodes pins the wire strings of the error codes, which clients and
// outside tests match on, and checks that the engine's codes are among
// them.
func TestCodes(t *testing.T) {
	var got []string
	for _, c := range Codes {
		got = append(got, string(c))
	}
	want := []string{"bad_request", "bad_setup", "unknown_game", "unknown_room", "not_a_player", "not_your_turn",
		"illegal_move", "room_full", "game_over", "rate_limited", "too_large", "internal", "busy",
		"unauthorized", "forbidden", "name_taken", "not_found", "conflict"}
	if !slices.Equal(got, want) {
		t.Fatalf("Codes = %q, want %q", got, want)
	}
	for _, c := range []engine.Code{engine.CodeBadSetup, engine.CodeIllegalMove, engine.CodeNotYourTurn,
		engine.CodeGameOver, engine.CodeUnknownGame} {
		if !slices.Contains(Codes, c) {
			t.Errorf("engine code %q is not a wire code", c)
		}
	}
}

func TestErrorFrameCarriesID(t *testing.T) {
	f := ErrorFrame(json.RawMessage(`"q1"`), "r", Errorf(CodeRoomFull, "full"))
	if string(f.Data) != `{"type":"error","id":"q1","room":"r","code":"room_full","message":"full"}` {
		t.Fatalf("%s", f.Data)
	}
}
