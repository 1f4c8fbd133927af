package storetest

import (
	"fmt"
	"testing"

	"github.com/tabuleiro/tabuleiro/store"
)

// testTorneioAnswers checks the answers to a tournament's invitations: a
// later answer replaces an earlier one of the same player, tournaments
// apart, none is an empty map.
func testTorneioAnswers(t *testing.T, s store.Store) {
	ts := as[store.Torneios](t, s)
	ctx := ctxT(t)
	if got, err := ts.TorneioAnswers(ctx, "tnone"); err != nil || got == nil || len(got) != 0 {
		t.Fatalf("TorneioAnswers of none = %v, %v; want an empty map", got, err)
	}
	for _, a := range [][3]string{{"t1", "pana", "accept"}, {"t1", "pbia", "accept"}, {"t1", "pbia", "decline"}, {"t2", "pana", "start"}} {
		if err := ts.AnswerTorneio(ctx, a[0], a[1], a[2]); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := ts.TorneioAnswers(ctx, "t1"); err != nil || fmt.Sprint(got) != fmt.Sprint(map[string]string{"pana": "accept", "pbia": "decline"}) {
		t.Fatalf("TorneioAnswers(t1) = %v, %v", got, err)
	}
	if got, err := ts.TorneioAnswers(ctx, "t2"); err != nil || fmt.Sprint(got) != fmt.Sprint(map[string]string{"pana": "start"}) {
		t.Fatalf("TorneioAnswers(t2) = %v, %v", got, err)
	}
	if err := ts.AnswerTorneio(ctx, "t1", "", "accept"); err == nil {
		t.Error("an answer of nobody was kept")
	}
}
