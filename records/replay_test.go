package records

import (
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/engine/seedgames"
	"github.com/tabuleiro/tabuleiro/players"
)

// seedRecord is the record of one of the seeds' printed games, the seed
// bot in its seat.
func seedRecord(t testing.TB, tr seedgames.Transcript) *Record {
	t.Helper()
	rec := newRecord(t, tr.Game, tr.Variant, "")
	rec.Room = strings.NewReplacer(" ", "-", "'", "", "(", "", ")", "", "[", "", "]", "", ",", "").Replace(tr.Name)
	if tr.Level != "" {
		rec.Players[tr.BotSeat] = players.Player{Name: "bot " + tr.Level, Bot: tr.Level}
	}
	var moves []string
	for _, turn := range tr.Turns {
		moves = append(moves, turn.Move)
	}
	play(t, rec, moves...)
	return rec
}

// TestReplaySeedTranscripts: the positions of the seeds' printed games are
// the boards the seeds print, one a move, from the empty board; the last has
// no side to move and the record the seed's result.
func TestReplaySeedTranscripts(t *testing.T) {
	for _, tr := range seedgames.Transcripts {
		t.Run(tr.Name, func(t *testing.T) {
			rec := seedRecord(t, tr)
			ps, err := Replay(catalog, rec)
			if err != nil {
				t.Fatal(err)
			}
			if len(ps) != len(tr.Turns)+1 {
				t.Fatalf("%d positions for %d moves", len(ps), len(tr.Turns))
			}
			for i, p := range ps {
				var board []string
				if err := json.Unmarshal(p.Board, &board); err != nil {
					t.Fatal(err)
				}
				if i == 0 {
					if strings.Trim(strings.Join(board, ""), ".") != "" || p.Turn == nil || *p.Turn != 0 {
						t.Fatalf("start %q, turn %v", board, p.Turn)
					}
					continue
				}
				if want := tr.Turns[i-1].Board; !slices.Equal(board, want) {
					t.Fatalf("after move %d: %q, want %q", i, board, want)
				}
				if i < len(tr.Turns) && (p.Turn == nil || *p.Turn != i%2) {
					t.Fatalf("after move %d: turn %v", i, p.Turn)
				}
			}
			if last := ps[len(ps)-1]; last.Turn != nil {
				t.Fatalf("the final position has turn %d", *last.Turn)
			}
			if r := rec.Result; r == nil || r.Winner != tr.Outcome.Winner || r.Reason != tr.Outcome.Reason {
				t.Fatalf("result %+v, want %+v", r, tr.Outcome)
			}
		})
	}
}

// TestPositionJSON: a position carries the board, score, turn and the
// engine's extra fields side by side; the core fields win a clash.
func TestPositionJSON(t *testing.T) {
	rec := newRecord(t, "go", "9", "")
	play(t, rec, "E5", "pass")
	ps, err := Replay(catalog, rec)
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.Marshal(ps[2])
	if err != nil {
		t.Fatal(err)
	}
	want := `{"board":[".........",".........",".........",".........","....X....",".........",".........",".........","........."],` +
		`"score":{"black":81,"white":0},"turn":0,"passes":1,"stones":{"black":1,"white":0}}`
	if string(got) != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	clash := Position{Board: json.RawMessage(`1`), Extra: map[string]json.RawMessage{"board": json.RawMessage(`2`), "a": json.RawMessage(`"x"`)}}
	if got, _ := json.Marshal(clash); string(got) != `{"board":1,"score":null,"turn":null,"a":"x"}` {
		t.Fatalf("clash: %s", got)
	}
}

func TestReplayRefuses(t *testing.T) {
	base := func(edit func(r *Record)) *Record {
		r := newRecord(t, "morris", "3", "")
		play(t, r, "b2", "a1")
		edit(r)
		return r
	}
	won := func(edit func(r *Record)) *Record {
		r := seedRecord(t, seedgames.Of("morris")[0])
		edit(r)
		return r
	}
	for _, tc := range []struct {
		name string
		rec  *Record
		want string
	}{
		{"an occupied point", base(func(r *Record) { r.Moves = append(r.Moves, Move{Seat: 0, Move: "b2"}) }), "move 3 (seat 0 \"b2\")"},
		{"a move out of turn", base(func(r *Record) { r.Moves = append(r.Moves, Move{Seat: 1, Move: "c3"}) }), "move 3 (seat 1 \"c3\")"},
		{"a malformed move", base(func(r *Record) { r.Moves[1].Move = "z9" }), "move 2"},
		{"a move after the end", won(func(r *Record) { r.Moves = append(r.Moves, Move{Seat: 1, Move: "a1a2"}) }), "move 12"},
		{"a result the engine contradicts", won(func(r *Record) { r.Result = &Result{Winner: 1, Reason: "resign"} }), "the record says winner 1 by \"resign\""},
		{"no result for an ended game", won(func(r *Record) { r.Result = nil }), "the record says it goes on"},
		{"an unknown game", &Record{Game: "chess", Variant: "8"}, "unknown game"},
		{"an unknown variant", &Record{Game: "go", Variant: "7"}, "no variant"},
		{"a bad setup", &Record{Game: "go", Variant: "9", Setup: json.RawMessage(`{"black":["Z9"]}`)}, "bad_setup"},
		{"a scored game the other way", func() *Record { r := scoredWall(t); r.Result.Winner = 1; return r }(), "the record says winner 1 by \"scored\""},
		{"a dead point that is empty", func() *Record { r := scoredWall(t); r.Dead = []string{"D5"}; return r }(), "D5 is empty"},
		{"dead stones without removal", func() *Record { r := scoredWall(t); r.Removal = false; return r }(), "did not end in a stone-removal phase"},
		{"a scored game without removal's phase", func() *Record {
			r := scoredWall(t)
			r.Moves = r.Moves[:len(r.Moves)-1]
			return r
		}(), "did not end in a stone-removal phase"},
		{"options the game does not take", func() *Record { r := base(func(*Record) {}); r.Komi = 6.5; return r }(), "no komi"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Replay(catalog, tc.rec)
			if err == nil {
				t.Fatal("replayed")
			}
			msg := err.Error()
			if code := engine.CodeOf(err); code != "" {
				msg += " " + string(code)
			}
			if !strings.Contains(msg, tc.want) {
				t.Fatalf("error %q, want it to say %q", msg, tc.want)
			}
		})
	}
}

// TestReplayBounds: a replay stops at its byte budget and when its context
// ends, and a budget that fits changes nothing.
func TestReplayBounds(t *testing.T) {
	rec := newRecord(t, "go", "19", "")
	playRandom(t, rec, rand.New(rand.NewPCG(5, 6)), 300, 0)
	all, err := Replay(catalog, rec)
	if err != nil {
		t.Fatal(err)
	}
	size := 0
	for _, p := range all {
		b, _ := json.Marshal(p)
		size += len(b)
	}
	if _, err := ReplayContext(context.Background(), catalog, rec, size/2); !errors.Is(err, ErrTooLong) {
		t.Fatalf("half the budget it needs: %v", err)
	}
	if got, err := ReplayContext(context.Background(), catalog, rec, 2*size); err != nil || len(got) != len(all) {
		t.Fatalf("twice the budget: %d positions, %v", len(got), err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ReplayContext(ctx, catalog, rec, 0); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
}

// TestReplayScoredGame: a game counted after its stone-removal phase
// replays to the marking the players accepted: the last position has the
// dead stones, the area counted without them and its score, and the
// engine's outcome is the record's; a game resigned in the phase keeps its
// marking in the last position, without the count.
func TestReplayScoredGame(t *testing.T) {
	rec := scoredWall(t)
	pos, err := Replay(catalog, rec)
	if err != nil {
		t.Fatal(err)
	}
	last := pos[len(pos)-1]
	if string(last.Extra["dead"]) != `["B5"]` || string(last.Extra["accepted"]) != `[0,1]` || string(last.Score) != `{"black":45,"white":36}` ||
		string(last.Extra["komi"]) != "6.5" || last.Turn != nil {
		t.Fatalf("last position: %s", mustJSON(t, last))
	}
	if before := pos[len(pos)-2]; before.Extra["dead"] != nil || string(before.Score) != `{"black":10,"white":37}` {
		t.Fatalf("the position before the last pass: %s", mustJSON(t, before))
	}
	resigned := scoredWall(t)
	resigned.Result = &Result{Winner: 1, Reason: "resign"}
	pos, err = Replay(catalog, resigned)
	if err != nil {
		t.Fatal(err)
	}
	if last := pos[len(pos)-1]; string(last.Extra["dead"]) != `["B5"]` || string(last.Extra["accepted"]) != `[]` {
		t.Fatalf("resigned in the phase: %s", mustJSON(t, last))
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
