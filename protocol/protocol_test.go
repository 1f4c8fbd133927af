package protocol

import (
	"encoding/json"
	"errors"
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
	if f.Prepared() == nil {
		t.Fatal("no prepared message")
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

func TestErrorFrameCarriesID(t *testing.T) {
	f := ErrorFrame(json.RawMessage(`"q1"`), "r", Errorf(CodeRoomFull, "full"))
	if string(f.Data) != `{"type":"error","id":"q1","room":"r","code":"room_full","message":"full"}` {
		t.Fatalf("%s", f.Data)
	}
}
