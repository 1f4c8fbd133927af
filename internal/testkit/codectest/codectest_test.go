package codectest

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"
	"time"
)

type inner struct {
	A string `json:"a"`
	b int
}

type sample struct {
	inner
	S   string
	I   int64
	U   uint8
	F   float64
	B   bool
	P   *int
	L   []inner
	M   map[string]int
	T   time.Time
	R   json.RawMessage
	Any any
}

func TestFillLeavesNoExportedFieldZero(t *testing.T) {
	var s sample
	Fill(&s)
	v := reflect.ValueOf(s)
	for _, f := range reflect.VisibleFields(v.Type()) {
		if f.IsExported() && !f.Anonymous && v.FieldByIndex(f.Index).IsZero() {
			t.Errorf("field %s left zero", f.Name)
		}
	}
	if s.b != 0 {
		t.Error("an unexported field was set")
	}
	if _, err := json.Marshal(s); err != nil {
		t.Errorf("a filled value does not encode: %v", err)
	}
	if got, want := Fields(&s), []string{"A", "S", "I", "U", "F", "B", "P", "L", "M", "T", "R", "Any"}; !slices.Equal(got, want) {
		t.Errorf("Fields = %v, want %v", got, want)
	}
}
