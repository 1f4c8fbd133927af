package records

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestSGFOfAnAbortedGame: a go game aborted before both sides moved has
// no winner and did not end on the board: RE[Void], not a draw.
func TestSGFOfAnAbortedGame(t *testing.T) {
	rec := newRecord(t, "go", "9", "")
	play(t, rec, "E5")
	rec.Result, rec.Status, rec.Ended = &Result{Winner: -1, Reason: "aborted"}, StatusFinished, t0.Add(time.Minute)
	sgf, err := SGF(context.Background(), catalog, rec)
	if err != nil {
		t.Fatal(err)
	}
	if s := string(sgf); !strings.Contains(s, "RE[Void]") || !strings.Contains(s, ";B[ee]") {
		t.Fatalf("aborted game:\n%s", s)
	}
}
