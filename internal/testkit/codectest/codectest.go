// Package codectest helps the tests of hand-written codecs (the room
// snapshot's and log entry's encoders, room.patch diffs) notice a field
// added to a struct without its line in the codec: Fill gives every field
// a value that is not its zero value, so a codec that leaves a field out
// no longer matches encoding/json, or no longer round-trips.
package codectest

import (
	"encoding/json"
	"fmt"
	"reflect"
	"time"
)

// Fill sets every exported field of the struct that v points to, and of
// the structs inside it, to a value that is not the zero value and that
// encoding/json encodes: strings "<field name>", whole numbers counting up
// from 1, true, a pointer to a filled value, a slice or map of one filled
// element, a fixed UTC time, the JSON "1" for a json.RawMessage and a
// string for an interface. It panics for a kind it does not know (a
// channel, a function), which a codec test should hear about.
func Fill(v any) {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		panic(fmt.Sprintf("codectest.Fill(%T): want a non-nil pointer", v))
	}
	n := 0
	fill(rv.Elem(), "v", &n)
}

var (
	timeType = reflect.TypeFor[time.Time]()
	rawType  = reflect.TypeFor[json.RawMessage]()
)

func fill(v reflect.Value, name string, n *int) {
	*n++
	switch {
	case v.Type() == timeType:
		v.Set(reflect.ValueOf(time.Date(2026, 1, 2, 3, 4, 5, 6000000+*n, time.UTC)))
		return
	case v.Type() == rawType:
		v.Set(reflect.ValueOf(json.RawMessage("1")))
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(name)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(*n))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(*n))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(float64(*n) + 0.5)
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		fill(p.Elem(), name, n)
		v.Set(p)
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 1, 1)
		fill(s.Index(0), name, n)
		v.Set(s)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		k := reflect.New(v.Type().Key()).Elem()
		fill(k, name+"Key", n)
		e := reflect.New(v.Type().Elem()).Elem()
		fill(e, name, n)
		m.SetMapIndex(k, e)
		v.Set(m)
	case reflect.Interface:
		v.Set(reflect.ValueOf(name))
	case reflect.Struct:
		t := v.Type()
		for i := range t.NumField() {
			// An embedded struct's exported fields are promoted even when
			// its type is not exported (encoding/json sets them too).
			if f := t.Field(i); f.IsExported() || f.Anonymous && f.Type.Kind() == reflect.Struct {
				fill(v.Field(i), f.Name, n)
			}
		}
	default:
		panic(fmt.Sprintf("codectest.Fill: field %s of kind %s", name, v.Kind()))
	}
}

// Fields lists the exported fields of the struct type of v (v itself or a
// pointer to it), embedded structs' fields included, by name.
func Fields(v any) []string {
	t := reflect.TypeOf(v)
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	var out []string
	for _, f := range reflect.VisibleFields(t) {
		if f.IsExported() && !f.Anonymous {
			out = append(out, f.Name)
		}
	}
	return out
}
