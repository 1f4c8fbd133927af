package records

import (
	"math/rand/v2"
	"testing"
	"time"
)

// FuzzDecode feeds arbitrary bytes to Decode: it never panics, and a record
// it accepts is valid, encodes, and decodes back to itself; its JSON and
// text exports do not fail either.
func FuzzDecode(f *testing.F) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, game := range []struct{ game, variant, setup string }{
		{"go", "9", `{"black":["E5"],"toMove":"white"}`}, {"orbito", "2", ""}, {"morris", "3", ""},
		{"2048", "race", ""}, {"queens", "impar", ""},
	} {
		rec := newRecord(f, game.game, game.variant, game.setup)
		rec.Clock = &Clock{Base: time.Minute, Increment: time.Second}
		rec.Chat = []ChatLine{{From: "ana", Seat: 0, Text: "oi", At: t0}, {From: "zé", Seat: -1, Text: "]", At: t0.Add(-1)}}
		playRandom(f, rec, rng, 40, 0.1)
		data, err := Encode(rec)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
		if game.game == "orbito" {
			if data, err = Encode(withNotes(rec)); err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
	scored, err := Encode(scoredWall(f))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(scored)
	f.Add([]byte("TR\x01"))
	f.Add([]byte("TR\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rec, err := Decode(data)
		if err != nil {
			return
		}
		if err := rec.Validate(); err != nil {
			t.Fatalf("accepted an invalid record: %v", err)
		}
		roundTrip(t, rec)
		if _, err := rec.MarshalJSON(); err != nil {
			t.Fatalf("JSON: %v", err)
		}
		_ = Text(rec)
	})
}
