package server_test

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/internal/server"
	"github.com/tabuleiro/tabuleiro/internal/testkit/testserver"
	"github.com/tabuleiro/tabuleiro/players"
	"github.com/tabuleiro/tabuleiro/records"
	"github.com/tabuleiro/tabuleiro/store"
	"github.com/tabuleiro/tabuleiro/store/memstore"
)

type analysisDoc struct {
	Status string
	Plies  []struct {
		Ply, Seat     int
		Method        string
		Outlook       string
		WinRate, Eval *float64
		Best, Played  string
		Mistake       bool
		Mark          string
		Drop          *float64
	}
	Worst *int
}

// playGame plays a game through the engine, choose picking each move, and
// writes its record to recs.
func playGame(t *testing.T, recs store.Records, room, game, variant string, maxPlies int,
	choose func(st engine.State, seat int) string) *records.Record {
	t.Helper()
	return playGameTB(t, recs, room, game, variant, maxPlies, choose)
}

// playGameTB is playGame for a benchmark too.
func playGameTB(t testing.TB, recs store.Records, room, game, variant string, maxPlies int,
	choose func(st engine.State, seat int) string) *records.Record {
	t.Helper()
	cat := server.Catalog()
	st, err := cat.New(game, variant, nil, 7)
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2031, 1, 2, 3, 4, 5, 0, time.UTC)
	rec := &records.Record{Room: room, Game: game, Variant: variant, Seed: 7, Status: records.StatusFinished,
		Players: []players.Player{{ID: "pa", Name: "ana"}, {Name: "bot", Bot: "forte"}}, Created: t0, Started: t0}
	for len(rec.Moves) < maxPlies {
		seat, ok := st.Turn()
		if !ok {
			break
		}
		mv := choose(st, seat)
		if err := st.Apply(seat, mv); err != nil {
			t.Fatal(err)
		}
		rec.Moves = append(rec.Moves, records.Move{Seat: seat, Move: mv, Ms: 100})
	}
	out := st.Outcome()
	if !out.Over {
		seat, _ := st.Turn()
		out = engine.Outcome{Over: true, Winner: 1 - seat, Reason: "resign"}
	}
	rec.Result, rec.Ended = &records.Result{Winner: out.Winner, Reason: out.Reason}, t0.Add(time.Hour)
	data, err := records.Encode(rec)
	if err != nil {
		t.Fatal(err)
	}
	if err := recs.PutRecord(context.Background(), store.RecordEntry{Room: room, Data: data, Players: []string{"pa"}, Ended: rec.Ended}); err != nil {
		t.Fatal(err)
	}
	return rec
}

// analyse POSTs the analysis of room twice (the same answer), then polls
// GET until it is done.
func analyse(t *testing.T, s *testserver.Server, room string) analysisDoc {
	t.Helper()
	url := s.URL + "/api/records/" + room + "/analysis"
	for range 2 {
		resp, err := http.Post(url, "application/json", nil)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusAccepted && resp.StatusCode != http.StatusOK {
			t.Fatalf("POST %s: %d", url, resp.StatusCode)
		}
	}
	deadline := time.Now().Add(3 * time.Minute)
	for {
		a := get(t, url)
		var doc analysisDoc
		if err := json.Unmarshal(a.body, &doc); err != nil {
			t.Fatalf("GET %s: %d %s", url, a.status, a.body)
		}
		if doc.Status == "done" {
			return doc
		}
		if doc.Status != "pending" || a.status != http.StatusAccepted {
			t.Fatalf("GET %s: %d %s", url, a.status, a.body)
		}
		if time.Now().After(deadline) {
			t.Fatalf("the analysis of %s is still pending", room)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func TestAnalysis(t *testing.T) {
	t.Parallel()
	recs := memstore.NewRecords()
	s := testserver.Start(t, func(c *server.Config) { c.Store = memstore.New(memstore.WithRecords(recs)) })
	cat := server.Catalog()
	rng := rand.New(rand.NewPCG(1, 2))

	t.Run("morris", func(t *testing.T) {
		an, _ := cat.Analyser("morris")
		// Seat 0 plays well until it can go wrong once, the solved bot
		// (seat 1) plays the table's best.
		erred := false
		rec := playGame(t, recs, "morris1", "morris", "3", 200, func(st engine.State, seat int) string {
			a, err := an.Analyse(st, seat, engine.Budget{})
			if err != nil {
				t.Fatal(err)
			}
			if seat == 0 && !erred {
				for _, mv := range st.Legal(seat) {
					if !slices.Contains(a.Best, mv) {
						erred = true
						return mv
					}
				}
			}
			return a.Best[0]
		})
		if rec.Result.Winner != 1 {
			t.Fatalf("the solved bot did not win: %+v", rec.Result)
		}
		doc := analyse(t, s, "morris1")
		if len(doc.Plies) != len(rec.Moves) || doc.Plies[0].Outlook != "draw" {
			t.Fatalf("%d plies, first %+v; want %d, starting at draw", len(doc.Plies), doc.Plies[0], len(rec.Moves))
		}
		var mistakes []int
		for _, p := range doc.Plies {
			if p.Mistake {
				mistakes = append(mistakes, p.Ply)
			}
		}
		if len(mistakes) != 1 || doc.Plies[mistakes[0]].Seat != 0 || doc.Plies[mistakes[0]].Outlook != "draw" ||
			doc.Plies[mistakes[0]+1].Outlook != "win" {
			t.Fatalf("mistakes at %v: %+v", mistakes, doc.Plies)
		}
		// The review marks that move, a draw thrown to a loss, and no other.
		for _, p := range doc.Plies {
			want := ""
			if p.Ply == mistakes[0] {
				want = "?"
			}
			if p.Mark != want || p.Drop != nil {
				t.Errorf("ply %d: mark %q drop %v, want %q and no drop", p.Ply, p.Mark, p.Drop, want)
			}
		}
		if doc.Worst != nil {
			t.Errorf("worst %d without win rates", *doc.Worst)
		}
	})

	t.Run("orbito2", func(t *testing.T) {
		an, _ := cat.Analyser("orbito")
		rec := playGame(t, recs, "orbito1", "orbito", "2", 16, func(st engine.State, seat int) string {
			l := st.Legal(seat)
			return l[rng.IntN(len(l))]
		})
		doc := analyse(t, s, "orbito1")
		if len(doc.Plies) != len(rec.Moves) {
			t.Fatalf("%d plies for %d moves", len(doc.Plies), len(rec.Moves))
		}
		st, _ := cat.New("orbito", "2", nil, 7)
		for i, m := range rec.Moves {
			a, err := an.Analyse(st, m.Seat, engine.Budget{})
			if err != nil {
				t.Fatal(err)
			}
			p := doc.Plies[i]
			if p.Method != engine.MethodTable || p.Outlook != string(a.Outlook) || p.Best != a.Best[0] ||
				p.Mistake != !slices.Contains(a.Best, m.Move) {
				t.Fatalf("ply %d: %+v, the table says %s best %v", i, p, a.Outlook, a.Best)
			}
			// The mark: how far the move played moved the outlook.
			var left engine.Outlook
			for _, mv := range a.Moves {
				if mv.Move == m.Move {
					left = mv.Outlook
				}
			}
			want := ""
			switch {
			case a.Outlook == engine.OutlookWin && left == engine.OutlookLoss:
				want = "??"
			case a.Outlook.Better(left):
				want = "?"
			}
			if p.Mark != want || (want != "") != p.Mistake {
				t.Fatalf("ply %d: mark %q (mistake %v), want %q: the position was a %s, the move left a %s", i, p.Mark, p.Mistake, want, a.Outlook, left)
			}
			_ = st.Apply(m.Seat, m.Move)
		}
	})

	t.Run("go9", func(t *testing.T) {
		moves := []string{"E5", "D4", "C3", "F6"}
		n := 0
		rec := playGame(t, recs, "go1", "go", "9", len(moves), func(engine.State, int) string {
			n++
			return moves[n-1]
		})
		doc := analyse(t, s, "go1")
		if len(doc.Plies) != len(rec.Moves) {
			t.Fatalf("%d plies for %d moves", len(doc.Plies), len(rec.Moves))
		}
		for _, p := range doc.Plies {
			if p.WinRate == nil || *p.WinRate < 0 || *p.WinRate > 1 || p.Best == "" {
				t.Fatalf("ply %+v: no win rate", p)
			}
		}
		// Each move's drop is its player's win rate before it less the
		// same player's after it (one minus the opponent's); the last
		// move's comes from the final position, which was not over (the
		// game was resigned), so it is known too.
		wantWorst := -1
		for i, p := range doc.Plies {
			if p.Drop == nil {
				t.Fatalf("ply %d: no drop", i)
			}
			if i+1 < len(doc.Plies) {
				want := *p.WinRate - (1 - *doc.Plies[i+1].WinRate)
				if d := *p.Drop - want; d > 1e-9 || d < -1e-9 {
					t.Errorf("ply %d: drop %v, want %v", i, *p.Drop, want)
				}
			}
			if *p.Drop > 0 && (wantWorst < 0 || *p.Drop > *doc.Plies[wantWorst].Drop) {
				wantWorst = i
			}
			wantMark := ""
			switch {
			case *p.Drop >= 0.3:
				wantMark = "??"
			case *p.Drop >= 0.2:
				wantMark = "?"
			case *p.Drop >= 0.1:
				wantMark = "?!"
			}
			if p.Mark != wantMark {
				t.Errorf("ply %d: mark %q for a drop of %v, want %q", i, p.Mark, *p.Drop, wantMark)
			}
		}
		got := -1
		if doc.Worst != nil {
			got = *doc.Worst
		}
		if got != wantWorst {
			t.Errorf("worst %d, want %d (drops %+v)", got, wantWorst, doc.Plies)
		}
		t.Logf("go drops: %v", func() (ds []float64) {
			for _, p := range doc.Plies {
				ds = append(ds, *p.Drop)
			}
			return
		}())
	})

	for _, tc := range []struct {
		method, path string
		want         int
	}{
		{"GET", "/api/records/nope/analysis", 404},
		{"POST", "/api/records/nope/analysis", 404},
	} {
		req, _ := http.NewRequest(tc.method, s.URL+tc.path, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Errorf("%s %s: %d, want %d", tc.method, tc.path, resp.StatusCode, tc.want)
		}
	}
}
