package engine

import (
	"encoding/json"
	"testing"
)

func TestAppendJSONStringIsEncodingJSON(t *testing.T) {
	for _, s := range []string{"", "0:D4", "pass", "black", `a"b`, `back\slash`, "<&>", "\x01", "ção", "\u2028"} {
		want, _ := json.Marshal(s)
		if got := AppendJSONString([]byte("x"), s); string(got) != "x"+string(want) {
			t.Errorf("AppendJSONString(%q) = %s, want x%s", s, got, want)
		}
	}
}

// TestAppendPlainJSONStringEveryByte: AppendPlainJSONString writes a
// string as it is only when encoding/json does, byte by byte, and always
// then but for DEL (0x7f), which it leaves to encoding/json (a golden test
// for the encoder the seats' legal lists go through).
func TestAppendPlainJSONStringEveryByte(t *testing.T) {
	for c := 0; c < 256; c++ {
		s := "A" + string([]byte{byte(c)}) + "1"
		enc, _ := json.Marshal(s)
		wantPlain := string(enc) == `"`+s+`"`
		got, ok := AppendPlainJSONString(nil, s)
		if ok && !wantPlain || !ok && wantPlain && c != 0x7f {
			t.Errorf("byte %#x: AppendPlainJSONString ok %v, encoding/json writes %s", c, ok, enc)
		}
		if ok && string(got) != string(enc) {
			t.Errorf("byte %#x: AppendPlainJSONString = %s, encoding/json %s", c, got, enc)
		}
		if !ok && len(got) != 0 {
			t.Errorf("byte %#x: AppendPlainJSONString refused and wrote %q", c, got)
		}
	}
}
