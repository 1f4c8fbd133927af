package protocol

import (
	"encoding/json"
	"reflect"
	"testing"
)

// referenceDecode is encoding/json's reading of a client message: one value,
// nothing but white space after it.
func referenceDecode(data []byte) (ClientMessage, bool) {
	var m ClientMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return ClientMessage{}, false
	}
	return m, true
}

// checkDecode fails t unless DecodeClientMessage agrees with encoding/json.
func checkDecode(t *testing.T, data []byte) {
	t.Helper()
	got, err := DecodeClientMessage(data)
	want, ok := referenceDecode(data)
	if (err == nil) != ok {
		t.Fatalf("%q: error %v, encoding/json accepts: %v", data, err, ok)
	}
	if ok && !reflect.DeepEqual(got, want) {
		t.Fatalf("%q:\n got %+v\nwant %+v", data, got, want)
	}
}

var decodeCases = []struct {
	name string
	msg  string
	fast bool // read without encoding/json
}{
	{"move", `{"type":"room.move","room":"r1","move":"D4","id":7}`, true},
	{"a bot's move with its info", `{"type":"room.move","room":"r1","move":"D4","info":"12 ms"}`, true},
	{"info with an escape", `{"type":"room.move","room":"r1","move":"D4","info":"a\u00e9"}`, false},
	{"move with white space and a string id", " {\n\t\"id\" : \"a-1\" , \"type\":\"room.move\",\"room\":\"r1\",\"move\":\"pass\" }\r\n", true},
	{"join", `{"type":"room.join","room":"abc","as":"spectator"}`, true},
	{"hello with a name", `{"type":"hello","name":"Ana","token":"t0k"}`, true},
	{"empty object", `{}`, true},
	{"duplicate key: the last wins", `{"type":"a","type":"b"}`, true},
	{"id: a negative fraction with an exponent", `{"id":-0.5e+3,"type":"x"}`, true},
	{"empty string", `{"type":""}`, true},
	{"hello with features", `{"type":"hello","features":["patch"]}`, false},
	{"key in another case", `{"Type":"room.move"}`, false},
	{"unknown key", `{"type":"room.move","seq":3}`, false},
	{"escape in a value", `{"type":"room.chat","room":"r","move":"a\"b"}`, false},
	{"non-ASCII value", `{"type":"hello","name":"João"}`, false},
	{"null value", `{"type":null}`, false},
	{"bool field", `{"type":"room.create","private":true}`, false},
	{"id object", `{"id":{"a":1},"type":"x"}`, false},
	{"trailing value", `{"type":"a"} {"type":"b"}`, false},
	{"trailing brace", `{"type":"a"}}`, false},
	{"leading zero id", `{"id":01}`, false},
	{"bad number", `{"id":-}`, false},
	{"trailing comma", `{"type":"a",}`, false},
	{"not an object", `["type"]`, false},
	{"empty", ``, false},
	{"wrong type", `{"move":5}`, false},
	{"cut short", `{"type":"room.mo`, false},
	{"score toggle", `{"type":"room.score.toggle","room":"r1","point":"B5","id":3}`, true},
	{"score accept", `{"type":"room.score.accept","room":"r1"}`, true},
	{"score toggle, point not a string", `{"type":"room.score.toggle","room":"r1","point":5}`, false},
	{"create with go options", `{"type":"room.create","game":"go","variant":"9","opponent":"human","komi":6.5,"handicap":4,"removal":true}`, false},
	{"create with a komi string", `{"type":"room.create","komi":"6.5"}`, false},
	{"create with removal not a bool", `{"type":"room.create","removal":1}`, false},
}

func TestDecodeClientMessage(t *testing.T) {
	for _, tc := range decodeCases {
		t.Run(tc.name, func(t *testing.T) {
			checkDecode(t, []byte(tc.msg))
			if _, fast := decodeFlat([]byte(tc.msg)); fast != tc.fast {
				t.Errorf("read directly: %v, want %v", fast, tc.fast)
			}
		})
	}
}

// TestDecodeClientMessageRefusesTrailingData: nothing but white space may
// follow the object, on the direct path and through encoding/json alike
// (encoding/json's Decoder.More says false before a '}' or ']', so a
// decoder checking More ran `{"type":"lobby.watch"}}`).
func TestDecodeClientMessageRefusesTrailingData(t *testing.T) {
	for _, msg := range []string{
		`{"type":"lobby.watch"}}`,
		`{"type":"lobby.watch"}]`,
		`{"type":"lobby.watch"} }`,
		`{"type":"lobby.watch"}{}`,
		`{"type":"lobby.watch"}x`,
		`{"type":"room.create","private":true}}`,
		`{"type":"room.create","private":true}]`,
		`{"type":"hello","features":["patch"]} ]`,
	} {
		if m, err := DecodeClientMessage([]byte(msg)); err == nil {
			t.Errorf("%s: decoded as %+v, want an error", msg, m)
		}
	}
	if _, err := DecodeClientMessage([]byte("{\"type\":\"room.create\",\"private\":true} \r\n\t")); err != nil {
		t.Errorf("white space after the object: %v", err)
	}
}

func FuzzDecodeClientMessage(f *testing.F) {
	for _, tc := range decodeCases {
		f.Add([]byte(tc.msg))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkDecode(t, data) })
}

func BenchmarkDecodeClientMessage(b *testing.B) {
	msg := []byte(`{"type":"room.move","room":"k3j5x9","move":"D4","id":123}`)
	b.Run("direct", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := DecodeClientMessage(msg); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding/json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, ok := referenceDecode(msg); !ok {
				b.Fatal("refused")
			}
		}
	})
}
