package records

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/players"
)

// roundTrip encodes rec, decodes it and fails unless it is the same record.
func roundTrip(t *testing.T, rec *Record) []byte {
	t.Helper()
	data, err := Encode(rec)
	if err != nil {
		t.Fatalf("encode: %v", err)
	}
	got, err := Decode(data)
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	if !reflect.DeepEqual(got, rec) {
		t.Fatalf("round trip changed the record:\n got %+v\nwant %+v", got, rec)
	}
	return data
}

func TestEncodeRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	finishedGo := newRecord(t, "go", "9", `{"black":["E4","E5"],"white":["C1","C2"],"toMove":"white"}`)
	playRandom(t, finishedGo, rng, 400, 0.05)
	finishedGo.Clock = &Clock{Base: 300 * time.Second, Increment: 3 * time.Second}
	finishedGo.Chat = []ChatLine{
		{From: "ana", Seat: 0, Text: "boa sorte", At: t0.Add(5 * time.Second)},
		{From: "zé", Seat: -1, Text: "olá 👋 ]\\", At: t0.Add(-time.Second)},
	}
	// played is a new record of game and variant after up to plies random
	// moves.
	played := func(game, variant string, plies int) *Record {
		rec := newRecord(t, game, variant, "")
		playRandom(t, rec, rng, plies, 0)
		return rec
	}
	resigned := played("go", "19", 30)
	resigned.Result, resigned.Status, resigned.Ended = &Result{Winner: 0, Reason: "resign"}, StatusFinished, t0.Add(time.Hour)
	resigned.Players[1] = players.Player{Name: "bot forte", Bot: "forte"}
	resigned.Private, resigned.Watch = true, true
	waiting := &Record{Room: "w", Game: "morris", Variant: "3", Status: StatusWaiting, Created: t0,
		Players: []players.Player{{ID: "pa", Name: "ana"}, {}}, Result: &Result{Winner: -1, Reason: "resign"}}
	unknown := &Record{Room: "u", Game: "chess", Variant: "960", Created: t0, Players: []players.Player{{Name: "a"}, {Name: "b"}},
		Moves: []Move{{Seat: 0, Move: "e2e4", Ms: 0}, {Seat: 1, Move: "e7e5", Ms: 1 << 40}}}
	odd := newRecord(t, "go", "9", "")
	odd.Moves = []Move{{Seat: 0, Move: "E5", Ms: 10}, {Seat: 1, Move: "e5", Ms: 20}, {Seat: 0, Move: "J1", Ms: 30}, {Seat: 1, Move: "A01", Ms: 40}, {Seat: 0, Move: "PASS", Ms: 50}, {Seat: 1, Move: "pass", Ms: 60}}
	for _, tc := range []struct {
		name string
		rec  *Record
	}{
		{"zero", &Record{}},
		{"go 9x9 from a setup, clock and chat", finishedGo},
		{"2048 race", played("2048", "race", 300)},
		{"2048 solo", played("2048", "solo", 2000)},
		{"queens grande", played("queens", "grande", 100)},
		{"orbito 5", played("orbito", "5", 100)},
		{"morris", played("morris", "3", 60)},
		{"go 19x19 resigned against a bot, private watch", resigned},
		{"resigned while waiting", waiting},
		{"a game without a codec", unknown},
		{"moves no codec numbers are kept as text", odd},
		{"go counted after stone removal, komi 6.5", scoredWall(t)},
		{"go handicap, reverse komi", func() *Record {
			r := newRecord(t, "go", "19", "")
			r.Handicap, r.Komi = 9, -0.5
			playRandom(t, r, rng, 50, 0)
			return r
		}()},
		{"dead points no codec numbers", func() *Record {
			r := scoredWall(t)
			r.Dead = []string{"B5", "b5", "Z1"}
			return r
		}()},
		{"a bot account's notes", withNotes(played("orbito", "2", 6))},
		{"rated", func() *Record {
			r := played("orbito", "2", 20)
			r.Rated, r.Result, r.Status, r.Ended = true, &Result{Winner: 1, Reason: "timeout"}, StatusFinished, t0.Add(time.Hour)
			return r
		}()},
	} {
		t.Run(tc.name, func(t *testing.T) { roundTrip(t, tc.rec) })
	}
}

// TestEncodedSize measures a finished 19x19 go game of 360 moves, each
// taking up to 30 s, with two named players, a clock and ten chat lines:
// the figure quoted in docs/records.md.
func TestEncodedSize(t *testing.T) {
	rec := longGoGame(t)
	data := roundTrip(t, rec)
	noChat := *rec
	noChat.Chat = nil
	bare, err := Encode(&noChat)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("a finished 19x19 game of %d moves: %d bytes (%d without its %d chat lines), %.2f bytes a move",
		len(rec.Moves), len(data), len(bare), len(rec.Chat), float64(len(bare))/float64(len(rec.Moves)))
	if len(data) > 3072 {
		t.Errorf("%d bytes, want at most 3 KiB", len(data))
	}
}

// longGoGame is a finished 19x19 go game of 360 moves, each taking up to
// 30 s, between two named players with a clock, and ten chat lines.
func longGoGame(t *testing.T) *Record {
	t.Helper()
	rng := rand.New(rand.NewPCG(19, 360))
	rec := newRecord(t, "go", "19", "")
	rec.Room = "LMzKKBL2W9"
	rec.Players = []players.Player{{ID: "pQ3xk2Jd9LmN", Name: "ana"}, {ID: "pZ8wq1Rt7YbV", Name: "bia"}}
	rec.Clock = &Clock{Base: 1800 * time.Second, Increment: 10 * time.Second}
	playRandom(t, rec, rng, 358, 0)
	if len(rec.Moves) != 358 {
		t.Fatalf("the random game ended after %d moves", len(rec.Moves))
	}
	play(t, rec, "pass", "pass")
	for i := range 10 {
		rec.Chat = append(rec.Chat, ChatLine{From: "ana", Seat: i % 2, Text: "a chat line of some thirty bytes",
			At: t0.Add(time.Duration(i) * time.Minute)})
	}
	return rec
}

// TestCodecsNumberEveryLegalMove: every move the engines list as legal, in
// every variant, along random games, has a number that gives it back, so
// records of real games store no move as text.
func TestCodecsNumberEveryLegalMove(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, info := range catalog.Infos() {
		for _, v := range info.Variants {
			t.Run(info.ID+"/"+v.ID, func(t *testing.T) {
				seen := map[uint64]string{}
				for game := range 3 {
					rec := newRecord(t, info.ID, v.ID, "")
					rec.Seed = uint64(game + 1)
					st := replayed(t, rec)
					for ply := 0; ply < 400 && !st.Outcome().Over; ply++ {
						var movers []int
						for seat := range st.Seats() {
							for _, mv := range st.Legal(seat) {
								n, ok := codeOf(info.ID, v.ID, mv)
								if !ok {
									t.Fatalf("legal move %q has no number", mv)
								}
								if other, dup := seen[n]; dup && other != mv {
									t.Fatalf("%q and %q share number %d", mv, other, n)
								}
								seen[n] = mv
								if back, ok := moveOf(info.ID, v.ID, n); !ok || back != mv {
									t.Fatalf("number %d of %q gives back %q", n, mv, back)
								}
							}
							if len(st.Legal(seat)) > 0 {
								movers = append(movers, seat)
							}
						}
						seat := movers[rng.IntN(len(movers))]
						legal := st.Legal(seat)
						if err := st.Apply(seat, legal[rng.IntN(len(legal))]); err != nil {
							t.Fatal(err)
						}
					}
				}
			})
		}
	}
}

func TestValidate(t *testing.T) {
	two := func(edit func(r *Record)) *Record {
		r := &Record{Game: "go", Variant: "9", Players: []players.Player{{Name: "a"}, {Name: "b"}}, Moves: []Move{{Seat: 0, Move: "E5", Ms: 1}}}
		edit(r)
		return r
	}
	for _, tc := range []struct {
		name, want string
		rec        *Record
	}{
		{"nine seats", "9 seats", &Record{Players: make([]players.Player, 9)}},
		{"move of a missing seat", "seat 2 of 2", two(func(r *Record) { r.Moves[0].Seat = 2 })},
		{"move of a negative seat", "seat -1", two(func(r *Record) { r.Moves[0].Seat = -1 })},
		{"empty move", "0 bytes", two(func(r *Record) { r.Moves[0].Move = "" })},
		{"overlong move", "65 bytes", two(func(r *Record) { r.Moves[0].Move = strings.Repeat("x", 65) })},
		{"negative time", "-1 ms", two(func(r *Record) { r.Moves[0].Ms = -1 })},
		{"winner out of range", "winner 2", two(func(r *Record) { r.Result = &Result{Winner: 2} })},
		{"winner below -1", "winner -2", two(func(r *Record) { r.Result = &Result{Winner: -2} })},
		{"chat seat out of range", "chat line 1: seat 5", two(func(r *Record) { r.Chat = []ChatLine{{Seat: 5}} })},
		{"name not UTF-8", "not UTF-8", two(func(r *Record) { r.Players[1].Name = "\xff" })},
		{"chat not UTF-8", "not UTF-8", two(func(r *Record) { r.Chat = []ChatLine{{Text: "a\xc3"}} })},
		{"setup not JSON", "setup is not JSON", two(func(r *Record) { r.Setup = []byte("{") })},
		{"negative clock", "clock", two(func(r *Record) { r.Clock = &Clock{Base: -time.Second} })},
		{"whole komi", "komi 7", two(func(r *Record) { r.Komi = 7 })},
		{"quarter komi", "komi 0.25", two(func(r *Record) { r.Komi = 0.25 })},
		{"negative handicap", "handicap -1", two(func(r *Record) { r.Handicap = -1 })},
		{"empty dead point", "dead stone 2", two(func(r *Record) { r.Dead = []string{"E5", ""} })},
		{"dead point not UTF-8", "dead stone 1", two(func(r *Record) { r.Dead = []string{"\xff"} })},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Encode(tc.rec)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Encode: %v, want an error with %q", err, tc.want)
			}
		})
	}
}

// TestDecodeRefusesDamage: every strict prefix of an encoding, a wrong
// magic or version, unknown flags and bytes after the record are refused
// with ErrCorrupt.
func TestDecodeRefusesDamage(t *testing.T) {
	rec := newRecord(t, "go", "9", `{"black":["E5"]}`)
	rec.Clock = &Clock{Base: time.Minute}
	rec.Chat = []ChatLine{{From: "a", Seat: -1, Text: "oi", At: t0}}
	play(t, rec, "D4", "pass", "pass")
	good, err := Encode(rec)
	if err != nil {
		t.Fatal(err)
	}
	for n := range len(good) {
		if _, err := Decode(good[:n]); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("a prefix of %d of %d bytes: %v", n, len(good), err)
		}
	}
	damaged := func(edit func(b []byte) []byte) []byte { return edit(bytes.Clone(good)) }
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"magic", damaged(func(b []byte) []byte { b[0] = 'X'; return b })},
		{"version", damaged(func(b []byte) []byte { b[2] = 2; return b })},
		{"unknown flag", damaged(func(b []byte) []byte { b[3] |= 0x80; b = append(b[:4], append([]byte{1}, b[4:]...)...); return b })},
		{"trailing byte", damaged(func(b []byte) []byte { return append(b, 0) })},
		{"a move number past the board", func() []byte {
			r := *rec
			r.Moves = []Move{{Seat: 0, Move: "pass", Ms: 0}}
			r.Result, r.Status = nil, StatusPlaying
			b, _ := Encode(&r)
			// The token of the pass (9*9+1)*2+0 = 164 is the two bytes
			// 0xa4 0x01; 166 names the number 82, past the 9x9 pass.
			i := bytes.Index(b, []byte{0xa4, 0x01})
			b[i] = 0xa6
			return b
		}()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if r, err := Decode(tc.data); !errors.Is(err, ErrCorrupt) {
				t.Fatalf("accepted %x as %+v (err %v)", tc.data, r, err)
			}
		})
	}
}

// withNotes gives rec a bot account's notes: info on some moves, an illegal
// answer and a bot_error resignation as faults.
func withNotes(rec *Record) *Record {
	rec.Players[0] = players.Of("bot.x", "aluno:normal")
	rec.Moves[0].Info = "12 ms"
	rec.Moves[2].Info = "profundidade 3 | avaliação +1"
	rec.Faults = []Fault{{Ply: 4, Seat: 0, Move: "b2", Code: "illegal_move", Message: "b2 is occupied", Info: "3 ms", Ms: 40},
		{Ply: 4, Seat: 0, Code: "bot_error", Info: "ZeroDivisionError: division by zero", Ms: 41}}
	rec.Result, rec.Status = &Result{Winner: 1, Reason: "bot_error"}, StatusFinished
	return rec
}

// TestVisibleTo: a reader sees the info and faults of its own seats only,
// the times of every seat, and the record is not changed.
func TestVisibleTo(t *testing.T) {
	rec := newRecord(t, "orbito", "2", "")
	playRandom(t, rec, rand.New(rand.NewPCG(1, 2)), 6, 0)
	rec = withNotes(rec)
	none := rec.VisibleTo(func(int) bool { return false })
	if none.HasNotes() || len(none.Moves) != len(rec.Moves) || none.Moves[0].Ms != rec.Moves[0].Ms {
		t.Errorf("a stranger sees %+v", none)
	}
	owner := rec.VisibleTo(func(seat int) bool { return seat == 0 })
	if owner.Moves[0].Info != "12 ms" || len(owner.Faults) != 2 {
		t.Errorf("the owner sees %+v", owner)
	}
	other := rec.VisibleTo(func(seat int) bool { return seat == 1 })
	if other.HasNotes() {
		t.Errorf("seat 1's owner sees seat 0's notes: %+v", other)
	}
	if rec.Moves[0].Info != "12 ms" || len(rec.Faults) != 2 {
		t.Errorf("VisibleTo changed the record: %+v", rec)
	}
}

// TestRatedScore: the first seat's score of a rated game, and the games
// that change no rating.
func TestRatedScore(t *testing.T) {
	two := []players.Player{{ID: "pa", Name: "ana"}, {ID: "pb", Name: "bia"}}
	rec := func(rated bool, seats []players.Player, started bool, res *Result) *Record {
		r := &Record{Rated: rated, Players: seats, Result: res}
		if started {
			r.Started = t0
		}
		return r
	}
	for _, tt := range []struct {
		name  string
		rec   *Record
		score float64
		ok    bool
	}{
		{"win", rec(true, two, true, &Result{Winner: 0, Reason: "line"}), 1, true},
		{"loss on time", rec(true, two, true, &Result{Winner: 1, Reason: "timeout"}), 0, true},
		{"resignation", rec(true, two, true, &Result{Winner: 1, Reason: "resign"}), 0, true},
		{"abandonment", rec(true, two, true, &Result{Winner: 0, Reason: "abandoned"}), 1, true},
		{"draw agreed", rec(true, two, true, &Result{Winner: -1, Reason: "agreement"}), 0.5, true},
		{"aborted", rec(true, two, true, &Result{Winner: -1, Reason: ReasonAborted}), 0, false},
		{"casual", rec(false, two, true, &Result{Winner: 0, Reason: "line"}), 0, false},
		{"not over", rec(true, two, true, nil), 0, false},
		{"never started", rec(true, two, false, &Result{Winner: -1, Reason: "resign"}), 0, false},
		{"a free seat", rec(true, []players.Player{two[0], {}}, true, &Result{Winner: 0, Reason: "resign"}), 0, false},
		{"against themselves", rec(true, []players.Player{two[0], two[0]}, true, &Result{Winner: 0, Reason: "line"}), 0, false},
	} {
		if score, ok := tt.rec.RatedScore(); score != tt.score || ok != tt.ok {
			t.Errorf("%s: RatedScore() = %v, %v; want %v, %v", tt.name, score, ok, tt.score, tt.ok)
		}
	}
}
