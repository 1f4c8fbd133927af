package protocol

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestMessagesTable: every entry of the table is reachable by its type,
// and a message of each type that carries nothing but its type is
// refused naming the first field it needs, or passes when it needs none.
func TestMessagesTable(t *testing.T) {
	for _, spec := range Messages {
		got, ok := Message(spec.Type)
		if !ok || got.Type != spec.Type {
			t.Fatalf("Message(%q) = %v, %v", spec.Type, got, ok)
		}
		if spec.Anonymous != (spec.Type == TypeHello) {
			t.Errorf("%s: anonymous %v: only hello comes before hello", spec.Type, spec.Anonymous)
		}
		want := ""
		switch {
		case spec.Room:
			want = "room"
		case len(spec.Required) > 0:
			want = spec.Required[0].Name
		case spec.Type == TypeRoomCreate:
			want = "opponent"
		}
		perr := spec.Validate(&ClientMessage{Type: spec.Type})
		switch {
		case want == "" && perr != nil:
			t.Errorf("%s alone: %v, want no error", spec.Type, perr)
		case want != "" && (perr == nil || perr.Code != CodeBadRequest || !strings.Contains(perr.Msg, `"`+want+`"`)):
			t.Errorf("%s alone: %v, want bad_request naming %q", spec.Type, perr, want)
		}
	}
	if _, ok := Message("room.fly"); ok {
		t.Error(`Message("room.fly") found a spec`)
	}
}

// TestValidate: the fields of each message type are checked in order, and
// a message with all of them passes.
func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		msg  string
		want string // "": valid; else a part of the error's message
	}{
		{`{"type":"room.move","room":"r","move":"a1"}`, ""},
		{`{"type":"room.move","move":"a1"}`, `"room"`},
		{`{"type":"room.move","room":"r"}`, `"move"`},
		{`{"type":"room.join","room":"r"}`, `"as"`},
		{`{"type":"room.join","room":"r","as":"king"}`, `"as" must be`},
		{`{"type":"room.join","room":"r","as":"watcher"}`, ""},
		{`{"type":"room.chat","room":"r"}`, `"text"`},
		{`{"type":"room.chat","room":"r","text":""}`, ""},
		{`{"type":"room.chat.mute","room":"r"}`, `"player"`},
		{`{"type":"room.chat.spectators","room":"r"}`, `"on"`},
		{`{"type":"room.chat.spectators","room":"r","on":false}`, ""},
		{`{"type":"match.find","variant":"7x7"}`, `"game"`},
		{`{"type":"match.find","game":"go"}`, `"variant"`},
		{`{"type":"room.create","game":"go","variant":"9x9"}`, `"opponent"`},
		{`{"type":"room.create","game":"go","variant":"9x9","opponent":"cat"}`, `"opponent" must be`},
		{`{"type":"room.create","game":"go","variant":"9x9","opponent":"cat","watch":true}`, ""},
		{`{"type":"room.create","game":"go","variant":"9x9","opponent":"bot"}`, ""},
	} {
		var m ClientMessage
		if err := json.Unmarshal([]byte(tc.msg), &m); err != nil {
			t.Fatal(err)
		}
		spec, _ := Message(m.Type)
		perr := spec.Validate(&m)
		switch {
		case tc.want == "" && perr != nil:
			t.Errorf("%s: %v, want no error", tc.msg, perr)
		case tc.want != "" && (perr == nil || !strings.Contains(perr.Msg, tc.want)):
			t.Errorf("%s: %v, want an error with %s", tc.msg, perr, tc.want)
		}
	}
}
