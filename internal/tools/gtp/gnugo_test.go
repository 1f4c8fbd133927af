package gtp_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tabuleiro/tabuleiro/internal/testkit/gtptest"
	"github.com/tabuleiro/tabuleiro/internal/tools/gtp"
)

// TestGnuGo plays a few moves with the real GNU Go: our I column is its J,
// an illegal move is refused with an *Error, genmove answers a vertex that
// converts to our notation, and final_score speaks its count.
func TestGnuGo(t *testing.T) {
	c := gtptest.Start(t, "--chinese-rules", "--komi", "0.5", "--level", "1")
	must := func(name string, args ...string) string {
		t.Helper()
		out, err := c.Command(name, args...)
		if err != nil {
			t.Fatalf("%s %v: %v", name, args, err)
		}
		return out
	}
	if v := must("protocol_version"); v != "2" {
		t.Fatalf("protocol_version = %q", v)
	}
	must("boardsize", "9")
	must("clear_board")
	must("komi", "0.5")
	vertex, err := gtp.ToGTP("I9", 9)
	if err != nil {
		t.Fatal(err)
	}
	must("play", "black", vertex)
	if got := must("color", "J9"); got != "black" {
		t.Fatalf("color J9 = %q after black I9 (ours), want black", got)
	}
	_, err = c.Command("play", "white", vertex)
	var gerr *gtp.Error
	if !errors.As(err, &gerr) || !strings.Contains(gerr.Message, "illegal") {
		t.Fatalf("playing on an occupied point: %v, want an illegal move *Error", err)
	}
	move := must("genmove", "white")
	ours, err := gtp.FromGTP(move, 9)
	if err != nil {
		t.Fatalf("genmove answered %q: %v", move, err)
	}
	if ours == "I9" {
		t.Fatalf("genmove played the occupied I9")
	}
	if score := must("final_score"); !strings.HasPrefix(score, "B+") && !strings.HasPrefix(score, "W+") && score != "0" {
		t.Fatalf("final_score = %q", score)
	}
	if _, err := c.Command("no_such_command"); err == nil {
		t.Fatal("unknown command accepted")
	}
}

// TestLoadSGFAndCheckBoard: GNU Go loads an SGF with setup stones and a
// move; Stones converts its board to our notation (its J is our I) and
// CheckBoard finds the board it holds and tells a different one.
func TestLoadSGFAndCheckBoard(t *testing.T) {
	c := gtptest.Start(t, "--chinese-rules", "--komi", "0.5", "--level", "1")
	path := filepath.Join(t.TempDir(), "g.sgf")
	if err := os.WriteFile(path, []byte("(;FF[4]GM[1]SZ[9]AB[ia][aa]AW[ii];B[ee])\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	toMove, err := c.LoadSGF(path)
	if err != nil || toMove != "white" {
		t.Fatalf("LoadSGF = %q, %v; want white", toMove, err)
	}
	black, err := c.Stones("black", 9)
	if err != nil || !slices.Equal(slices.Sorted(slices.Values(black)), []string{"A9", "E5", "I9"}) {
		t.Fatalf("black stones %v, %v", black, err)
	}
	board := []string{"X.......X", ".........", ".........", ".........", "....X....", ".........", ".........", ".........", "........O"}
	if err := c.CheckBoard(board); err != nil {
		t.Fatal(err)
	}
	board[8] = "O.......O"
	if err := c.CheckBoard(board); err == nil || !strings.Contains(err.Error(), "white stones") {
		t.Fatalf("a board with another white stone: %v", err)
	}
	if _, err := c.LoadSGF(filepath.Join(t.TempDir(), "missing.sgf")); err == nil {
		t.Fatal("loaded a missing file")
	}
}
