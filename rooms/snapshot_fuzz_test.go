package rooms

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/records"
)

// FuzzRoomSnapshot feeds arbitrary bytes to the snapshot decoder a restore
// uses and to RecordOf: they never panic, and what a restore accepts has a
// sane history, clock and record fields and encodes back to the same.
func FuzzRoomSnapshot(f *testing.F) {
	// The shape of a clocked room with two moves, an empty room, junk.
	good := []byte(`{"v":1,"id":"r","game":"race5","variant":"5","seats":[{"playerId":"a"},{"playerId":"b"}],"status":"playing","seq":4,` +
		`"started":"2030-01-02T03:04:05Z","setup":{"x":[1]},` +
		`"moveLog":["0:1","1:2"],"moveMs":[812,1500],"chat":[{"from":"a","seat":0,"text":"oi","at":1},{"from":"c","text":"olá","at":2}],` +
		`"clock":{"baseMs":60000,"incMs":2000,"leftMs":[59000,61000],"running":0,"turnStartMs":1},` +
		`"engine":{"total":3,"toMove":0,"win":-1}}`)
	f.Add(good)
	f.Add([]byte(`{"v":1,"id":"r","game":"race5","variant":"5","seats":[{},{}],"status":"waiting","clock":null,"engine":{"total":0,"toMove":0,"win":-1}}`))
	f.Add([]byte(`{"seats":[{}],"clock":{"baseMs":1,"leftMs":[-1]},"moveLog":["5:x"]}`))
	// The chat's state (chat.go): mutes and the spectators' switch.
	f.Add([]byte(`{"v":1,"id":"r","game":"race5","variant":"5","seats":[{"playerId":"a"},{"playerId":"b"}],"status":"playing",` +
		`"chatState":{"mutes":{"a":["c"]},"off":[1,7]},"engine":{"total":0,"toMove":0,"win":-1}}`))
	m := NewManager(Config{Catalog: engine.NewCatalog(race5Game{})})
	var gs snapshotV1
	if err := json.Unmarshal(good, &gs); err != nil {
		f.Fatal(err)
	}
	if err := m.newRoom(race5Game{}, &race5{}).fromSnapshot(gs); err != nil {
		f.Fatalf("the good seed is refused: %v", err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		// RecordOf reads the same bytes for the HTTP API: it never panics
		// and what it accepts encodes.
		if rec, err := RecordOf(data); err == nil {
			if _, err := records.Encode(rec); err != nil {
				t.Fatalf("RecordOf accepted a record that does not encode: %v", err)
			}
		}
		var s snapshotV1
		if json.Unmarshal(data, &s) != nil {
			return
		}
		st, err := race5Game{}.Restore(s.Engine)
		if err != nil {
			return
		}
		r := m.newRoom(race5Game{}, st)
		if err := r.fromSnapshot(s); err != nil {
			return
		}
		for _, mv := range r.history {
			if mv.Seat < 0 || mv.Seat >= len(r.seats) {
				t.Fatalf("accepted a move of seat %d in %d seats", mv.Seat, len(r.seats))
			}
		}
		if len(r.rec.moveMs) != len(r.history) || len(r.rec.chat.lines) > ChatKeepLines || r.rec.chat.bytes > ChatKeepBytes {
			t.Fatalf("accepted %d move times for %d moves, %d chat lines of %d bytes",
				len(r.rec.moveMs), len(r.history), len(r.rec.chat.lines), r.rec.chat.bytes)
		}
		if c := r.clock; c != nil {
			if len(r.seats) != 2 || len(c.left) != 2 || c.left[0] < 0 || c.left[1] < 0 || c.base <= 0 || c.running != -1 {
				t.Fatalf("accepted clock %+v with %d seats", c, len(r.seats))
			}
		}
		again, err := r.snapshot(time.Unix(0, 0))
		if err != nil {
			t.Fatal(err)
		}
		var s2 snapshotV1
		if err := json.Unmarshal(again, &s2); err != nil {
			t.Fatal(err)
		}
		r2 := m.newRoom(race5Game{}, st)
		if err := r2.fromSnapshot(s2); err != nil {
			t.Fatalf("a snapshot it wrote does not read back: %v", err)
		}
		if len(r2.history) != len(r.history) || (r.clock == nil) != (r2.clock == nil) {
			t.Fatalf("round trip changed the room: %v/%v, %+v/%+v", r.history, r2.history, r.clock, r2.clock)
		}
		for i := range r.history {
			if r.history[i] != r2.history[i] {
				t.Fatalf("move %d: %v became %v", i, r.history[i], r2.history[i])
			}
		}
		if !slices.Equal(r.rec.moveMs, r2.rec.moveMs) || !jsonEqual(r.rec.chat.lines, r2.rec.chat.lines) ||
			string(r.rec.setup) != string(r2.rec.setup) || !r.rec.started.Equal(r2.rec.started) || !r.rec.ended.Equal(r2.rec.ended) {
			t.Fatalf("round trip changed the record fields: %+v became %+v", r.rec, r2.rec)
		}
		if r.clock != nil && (r.clock.left[0] != r2.clock.left[0] || r.clock.left[1] != r2.clock.left[1] ||
			r.clock.base != r2.clock.base || r.clock.inc != r2.clock.inc) {
			t.Fatalf("clock %+v became %+v", r.clock, r2.clock)
		}
	})
}
