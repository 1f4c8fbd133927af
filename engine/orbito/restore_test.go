package orbito

import (
	"strings"
	"testing"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/engine/enginetest"
)

// TestRestoreFinishedGame checks that a finished game (Exemplo 3) survives a
// snapshot: same board, same result, still refusing moves.
func TestRestoreFinishedGame(t *testing.T) {
	s, _ := Game().New("2", nil, 0)
	enginetest.Replay(t, s, "a1", "b2", "a4", "c4", "a4", "b3", "b4", "a3")
	snap, err := s.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	want := `{"variant":"2","board":["..OX",".OOX","...X","O..X"],"toMove":"black"}`
	if string(snap) != want {
		t.Errorf("snapshot = %s, want %s", snap, want)
	}
	r, err := Game().Restore(snap)
	if err != nil {
		t.Fatalf("Restore: %v", err)
	}
	if err := enginetest.Same(s, r); err != nil {
		t.Error(err)
	}
	if got := r.Outcome(); got != (engine.Outcome{Over: true, Winner: 0, Reason: ReasonLine}) {
		t.Errorf("restored outcome = %+v, want black winning by a line", got)
	}
	if err := r.Apply(0, "a1"); engine.CodeOf(err) != engine.CodeGameOver {
		t.Errorf("Apply after the end = %v, want %s", err, engine.CodeGameOver)
	}
}

// TestRestoreRefused checks that corrupt snapshots are errors.
func TestRestoreRefused(t *testing.T) {
	tests := []struct {
		name, snap, wantMsg string
	}{
		{"not JSON", `{"variant":`, "malformed JSON"},
		{"unknown field", `{"variant":"2","board":["....","....","....","...."],"toMove":"black","moves":[]}`, "unknown field"},
		{"unknown variant", `{"variant":"7","board":[],"toMove":"black"}`, "no variant"},
		{"bad toMove", `{"variant":"2","board":["....","....","....","...."],"toMove":""}`, "not a colour"},
		{"too few rows", `{"variant":"2","board":["....","....","...."],"toMove":"black"}`, "3 board rows, want 4"},
		{"short row", `{"variant":"2","board":["....","...","....","...."],"toMove":"black"}`, "want 4 squares"},
		{"bad square", `{"variant":"2","board":["....","..x.","....","...."],"toMove":"black"}`, "is not X, O or ."},
		{"counts", `{"variant":"2","board":["XX..","....","....","...."],"toMove":"white"}`, "cannot happen"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Game().Restore([]byte(tt.snap))
			if err == nil {
				t.Fatalf("Restore(%s) = %v, want an error", tt.snap, s.Board())
			}
			if !strings.Contains(err.Error(), tt.wantMsg) {
				t.Errorf("Restore(%s) = %q, want a message containing %q", tt.snap, err, tt.wantMsg)
			}
		})
	}
}

// TestApplyRefusals checks each refusal's code and message.
func TestApplyRefusals(t *testing.T) {
	s, _ := Game().New("2", nil, 0)
	tests := []struct {
		seat     int
		move     string
		wantCode engine.Code
		wantMsg  string
	}{
		{1, "b2", engine.CodeNotYourTurn, "it is black's turn"},
		{2, "b2", engine.CodeNotYourTurn, "it is black's turn"},
		{-1, "b2", engine.CodeNotYourTurn, "it is black's turn"},
		{0, "e1", engine.CodeIllegalMove, `"e1" is not a position`},
		{0, "B2", engine.CodeIllegalMove, `"B2" is not a position`},
		{0, "", engine.CodeIllegalMove, `"" is not a position`},
	}
	for _, tt := range tests {
		err := s.Apply(tt.seat, tt.move)
		if engine.CodeOf(err) != tt.wantCode || err == nil || !strings.Contains(err.Error(), tt.wantMsg) {
			t.Errorf("Apply(%d, %q) = %v, want %s containing %q", tt.seat, tt.move, err, tt.wantCode, tt.wantMsg)
		}
	}
	enginetest.Replay(t, s, "b2")
	if err := s.Apply(1, "b3"); err == nil || err.Error() != "b3 is occupied" {
		t.Errorf(`Apply(1, "b3") after b2 rotated to b3 = %v, want "b3 is occupied"`, err)
	}
}
