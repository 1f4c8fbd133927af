package torneio

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/botpool"
	"github.com/tabuleiro/tabuleiro/engine/games"
	"github.com/tabuleiro/tabuleiro/rooms"
	"github.com/tabuleiro/tabuleiro/store"
	"github.com/tabuleiro/tabuleiro/store/memstore"
)

// harness is a room manager and a tournament manager on st.
type harness struct {
	rooms *rooms.Manager
	t     *Manager
	pool  *botpool.Pool
}

func start(t *testing.T, st store.Store) *harness {
	t.Helper()
	pool := botpool.New(2, 64, 2*time.Second, zap.NewNop(), nil)
	rm := rooms.NewManager(rooms.Config{Catalog: games.Catalog(), Store: st, Pool: pool, Log: zap.NewNop()})
	tm, err := New(Config{Rooms: rm, Store: st, Catalog: games.Catalog(), Poll: 20 * time.Millisecond, Parallel: 3})
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{rooms: rm, t: tm, pool: pool}
	t.Cleanup(h.stop)
	return h
}

func (h *harness) stop() {
	_ = h.t.Shutdown(context.Background())
	_ = h.rooms.Shutdown(context.Background())
	h.pool.Close()
}

// waitFinished polls the tournament until it is finished (bounded).
func waitFinished(t *testing.T, m *Manager, id string) *View {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		v, err := m.Get(context.Background(), id)
		if err == nil && v.Status == StatusFinished {
			return v
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("torneio %s did not finish", id)
	return nil
}

// checkAgainstRooms checks that every pair played each variant the asked
// number of times in each seat order, and that the standings are what the
// rooms' own results say.
func checkAgainstRooms(t *testing.T, st store.Store, v *View) {
	t.Helper()
	n := len(v.Entrants)
	order := map[[2]int]int{}
	var games []Game
	for _, g := range v.Games {
		order[g.Entrants]++
		saved, err := st.LoadRoom(context.Background(), g.Room)
		if err != nil {
			t.Fatalf("game %d: room %q: %v", g.Index, g.Room, err)
		}
		rec, err := rooms.RecordOf(saved.Snapshot)
		if err != nil {
			t.Fatal(err)
		}
		if rec.Status != rooms.StatusFinished || rec.Result == nil {
			t.Fatalf("game %d: room %s status %s", g.Index, g.Room, rec.Status)
		}
		for seat, ei := range g.Entrants {
			e := v.Entrants[ei]
			if p := rec.Players[seat]; p.Bot != e.Level || (e.Level == "" && p.ID != e.PlayerID()) {
				t.Errorf("game %d seat %d: room has %+v, want entrant %+v", g.Index, seat, p, e)
			}
		}
		rg := Game{Entrants: g.Entrants, Status: GameFinished}
		if w := rec.Result.Winner; w >= 0 {
			rg.Winner = &w
		} else if g.Winner != nil {
			if rec.Result.Reason != rooms.ReasonAborted {
				t.Errorf("game %d: a winner for a %s draw", g.Index, rec.Result.Reason)
			}
			rg.Winner = g.Winner
		}
		games = append(games, rg)
	}
	reps := 0
	for _, p := range v.Partidas {
		reps += p.Repetitions
	}
	for i := range n {
		for j := range n {
			if i != j && order[[2]int{i, j}] != reps {
				t.Errorf("entrants %d first, %d second: %d games, want %d", i, j, order[[2]int{i, j}], reps)
			}
		}
	}
	want := Standings(v.Entrants, games)
	for i := range want {
		if want[i] != v.Standings[i] {
			t.Errorf("standing %d = %+v, the rooms say %+v", i, v.Standings[i], want[i])
		}
		if got := v.Standings[i].Played; got != 2*(n-1)*reps {
			t.Errorf("entrant %d played %d, want %d", i, got, 2*(n-1)*reps)
		}
	}
}

func TestLevelsTorneio(t *testing.T) {
	st := memstore.New()
	h := start(t, st)
	spec := Spec{Game: "queens", Entrants: []Entrant{{Level: "apressado"}, {Level: "gulosa"}, {Level: "roleta"}},
		Partidas: []Partida{{"tradicional", 1}, {"impar", 1}}}
	id, err := h.t.Start(context.Background(), "p1", spec)
	if err != nil {
		t.Fatal(err)
	}
	v := waitFinished(t, h.t, id)
	if len(v.Games) != 12 {
		t.Fatalf("%d games, want 12", len(v.Games))
	}
	checkAgainstRooms(t, st, v)
	list, err := h.t.List(context.Background())
	if err != nil || len(list) != 1 || list[0].ID != id || list[0].Played != 12 || list[0].Status != StatusFinished {
		t.Errorf("List = %+v, %v", list, err)
	}
}

func TestStandings(t *testing.T) {
	w := func(s int) *int { return &s }
	es := []Entrant{{Level: "a"}, {Level: "b"}, {Level: "c"}}
	games := []Game{
		{Entrants: [2]int{0, 1}, Status: GameFinished, Winner: w(0)},
		{Entrants: [2]int{1, 0}, Status: GameFinished, Winner: w(0)},
		{Entrants: [2]int{0, 2}, Status: GameFinished},
		{Entrants: [2]int{2, 0}, Status: GamePlaying, Winner: w(1)},
		{Entrants: [2]int{1, 2}, Status: GameFinished, Winner: w(1)},
	}
	got := Standings(es, games)
	want := []Standing{
		{Entrant: es[0], Played: 3, Won: 1, Drawn: 1, Lost: 1, Share: 33.3, Points: 1.5, Rank: 2},
		{Entrant: es[1], Played: 3, Won: 1, Lost: 2, Share: 33.3, Points: 1, Rank: 3},
		{Entrant: es[2], Played: 2, Won: 1, Drawn: 1, Share: 50, Points: 1.5, Rank: 1},
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("standing %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

// TestStandingsTieBreak: the seed ranks by share of wins; equal shares go
// by points, a draw half a win (issue 29: 0 wins, 2 draws, 2 losses
// ranked above 0 wins and 4 draws); equal on both share the rank; the
// shares are compared exactly, not as rounded percentages.
func TestStandingsTieBreak(t *testing.T) {
	type rec struct{ won, drawn, lost int }
	tests := []struct {
		name  string
		recs  []rec
		ranks []int
	}{
		{"draws break a tie of shares", []rec{{0, 2, 2}, {0, 4, 0}}, []int{2, 1}},
		{"share first, whatever the points", []rec{{1, 0, 3}, {0, 4, 0}}, []int{1, 2}},
		{"equal on both share the rank", []rec{{1, 1, 2}, {2, 0, 0}, {1, 1, 2}, {0, 0, 4}}, []int{2, 1, 2, 4}},
		// 1 of 3 is 33.3 % and 333 of 1000 is 33.3 % too: not equal.
		{"exact shares, not rounded ones", []rec{{333, 0, 667}, {1, 0, 2}}, []int{2, 1}},
		{"a share of points, not a sum", []rec{{0, 2, 0}, {0, 3, 3}}, []int{1, 2}},
		{"nothing played yet", []rec{{0, 0, 0}, {0, 0, 0}}, []int{1, 1}},
	}
	for _, tt := range tests {
		// Each entrant plays its record against a foil of its own (a
		// level after the entrants), so that the games make it.
		n := len(tt.recs)
		es := make([]Entrant, 2*n)
		for i := range es {
			es[i] = Entrant{Level: fmt.Sprint("l", i)}
		}
		var games []Game
		add := func(a, b int, winner *int) {
			games = append(games, Game{Entrants: [2]int{a, b}, Status: GameFinished, Winner: winner})
		}
		first := 0
		for i, r := range tt.recs {
			for range r.won {
				add(i, n+i, &first)
			}
			for range r.drawn {
				add(i, n+i, nil)
			}
			for range r.lost {
				add(n+i, i, &first)
			}
		}
		got := Standings(es, games)
		// The ranks among the entrants alone: the foils are left out.
		rank(got[:n])
		for i, r := range tt.ranks {
			if got[i].Rank != r {
				t.Errorf("%s: entrant %d (%+v) rank %d, want %d", tt.name, i, tt.recs[i], got[i].Rank, r)
			}
			if want := float64(tt.recs[i].won) + float64(tt.recs[i].drawn)/2; got[i].Points != want {
				t.Errorf("%s: entrant %d points %v, want %v", tt.name, i, got[i].Points, want)
			}
		}
	}
}

func TestParseSpec(t *testing.T) {
	many := make([]string, MaxEntrants+1)
	for i := range many {
		many[i] = fmt.Sprintf(`{"player":"p%d"}`, i)
	}
	class := make([]string, MaxEntrants)
	for i := range class {
		class[i] = fmt.Sprintf(`{"bot":"bot.aluno%d"}`, i)
	}
	tests := []struct {
		body, err string
	}{
		{`{"game":"queens","entrants":[{"level":"gulosa"},{"bot":"bot.B"},{"player":"pP"}],"partidas":[["tradicional",2],["x-random",1]]}`, ""},
		{`{"game":"queens","entrants":[{"level":"gulosa"},{"bot":"pB"}],"partidas":[["tradicional",1]]}`, "not a bot account's id"},
		{`{"game":"queens","entrants":[{"level":"gulosa"},{"player":"bot.B"}],"partidas":[["tradicional",1]]}`, `enter it as {"bot": "bot.B"}`},
		{`{"game":"chess","entrants":[{"level":"gulosa"},{"level":"roleta"}],"partidas":[["tradicional",1]]}`, "unknown game"},
		{`{"game":"queens","entrants":[{"level":"gulosa"}],"partidas":[["tradicional",1]]}`, "2 to 64 entrants"},
		{`{"game":"queens","entrants":[` + strings.Join(many, ",") + `],"partidas":[["tradicional",1]]}`, "2 to 64 entrants"},
		{`{"game":"queens","entrants":[{"level":"perfeito"},{"level":"roleta"}],"partidas":[["tradicional",1]]}`, `no level "perfeito"`},
		{`{"game":"queens","entrants":[{"level":"gulosa","bot":"x"},{"level":"roleta"}],"partidas":[["tradicional",1]]}`, "exactly one of"},
		{`{"game":"queens","entrants":[{},{"level":"roleta"}],"partidas":[["tradicional",1]]}`, "exactly one of"},
		{`{"game":"queens","entrants":[{"player":"a"},{"player":"a"}],"partidas":[["tradicional",1]]}`, "entered twice"},
		{`{"game":"queens","entrants":[{"level":"gulosa"},{"level":"roleta"}],"partidas":[]}`, "1 to 8 partidas"},
		{`{"game":"queens","entrants":[{"level":"gulosa"},{"level":"roleta"}],"partidas":[["xadrez",1]]}`, `no variant "xadrez"`},
		{`{"game":"queens","entrants":[{"level":"gulosa"},{"level":"roleta"}],"partidas":[["tradicional",0]]}`, "repetitions 1..50"},
		{`{"game":"queens","entrants":[{"level":"gulosa"},{"level":"roleta"}],"partidas":[["tradicional"]]}`, "a pair"},
		{`{"game":"queens","entrants":[{"level":"gulosa"},{"level":"roleta"}],"partidas":[[1,1]]}`, "variant is a string"},
		{`{"game":"queens","entrants":[{"level":"gulosa"},{"level":"roleta"}],"partidas":[["tradicional",1]],"x":1}`, "unknown field"},
		{`{"game":"queens","entrants":[{"level":"gulosa"},{"level":"roleta"}],"partidas":[["tradicional",1]]}{}`, "something follows the object"},
		{`{"game":"queens","entrants":[{"level":"gulosa"},{"level":"roleta"}],"partidas":[["tradicional",1]]}}`, "something follows the object"},
		{`{"game":"queens","entrants":[{"level":"gulosa"},{"level":"roleta"}],"partidas":[["tradicional",1]],"clock":{"base":0,"increment":0}}`, "clock"},
		{`{"game":"2048","entrants":[{"level":"gulosa"},{"level":"roleta"}],"partidas":[["4",1]]}`, "no level"},
		{`{"game":"queens","entrants":[` + strings.Join(many[:16], ",") + `],"partidas":[["tradicional",1]]}`, ""},
		{`{"game":"queens","entrants":[` + strings.Join(many[:16], ",") + `],"partidas":[["tradicional",2]]}`, "480 games; at most 240"},
		{`{"game":"queens","entrants":[` + strings.Join(many[:16], ",") + `],"partidas":[["tradicional",1]],"wait":60}`, ""},
		{`{"game":"queens","entrants":[` + strings.Join(many[:16], ",") + `],"partidas":[["tradicional",1]],"wait":5}`, "from 30 to 3600"},
		// A class of programs: 64 bots play each other once with each first.
		{`{"game":"orbito","entrants":[` + strings.Join(class, ",") + `],"partidas":[["2",1]]}`, ""},
		{`{"game":"orbito","entrants":[` + strings.Join(class, ",") + `],"partidas":[["2",2]]}`, "8064 games; at most 4096"},
	}
	for _, tt := range tests {
		_, err := ParseSpec(games.Catalog(), []byte(tt.body))
		switch {
		case tt.err == "" && err != nil:
			t.Errorf("%s: %v", tt.body, err)
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("%s: error %v, want %q", tt.body, err, tt.err)
		}
	}
}

func TestSchedule(t *testing.T) {
	s := Spec{Entrants: make([]Entrant, 4), Partidas: []Partida{{"a", 2}, {"b", 1}}}
	g := s.Schedule()
	if len(g) != s.games() || len(g) != 4*3*3 {
		t.Fatalf("%d games, want %d", len(g), 36)
	}
	count := map[string]int{}
	for i, x := range g {
		if x.Index != i || x.Entrants[0] == x.Entrants[1] {
			t.Fatalf("game %d: %+v", i, x)
		}
		count[fmt.Sprint(x.Variant, x.Entrants)]++
	}
	for k, c := range count {
		if want := map[byte]int{'a': 2, 'b': 1}[k[0]]; c != want {
			t.Errorf("%s: %d games, want %d", k, c, want)
		}
	}
}

// TestParseSpecWords: every wrong field is answered in the API's own
// words, naming the field and what it should be (issue 29: a missing
// "partidas" said "1 to 8 partidas, not 0", a number there a Go decoder's
// "cannot unmarshal number into Go struct field Spec.partidas").
func TestParseSpecWords(t *testing.T) {
	const ents = `"entrants":[{"level":"gulosa"},{"level":"roleta"}]`
	tests := []struct{ body, want string }{
		{`{"game":"queens",` + ents + `}`, `missing field "partidas": a list of ["variant", repetitions] pairs, such as [["tradicional", 1]]`},
		{`{"game":"queens",` + ents + `,"partidas":3}`, `"partidas" is a list of ["variant", repetitions] pairs, such as [["tradicional", 1]], not a number`},
		{`{"game":"queens",` + ents + `,"partidas":["tradicional",1]}`, `partida 0: a partida is a pair ["variant", repetitions] such as ["tradicional", 1], not "tradicional"`},
		{`{"game":"queens",` + ents + `,"partidas":[["tradicional","1"]]}`, `partida 0: the repetitions are a whole number from 1 to 50, not "1"`},
		{`{"game":"queens",` + ents + `,"partidas":[["tradicional",1.5]]}`, `partida 0: the repetitions are a whole number from 1 to 50, not 1.5`},
		{`{` + ents + `,"partidas":[["tradicional",1]]}`, `missing field "game": a game id of GET /api/games, such as "queens"`},
		{`{"game":7,` + ents + `,"partidas":[["tradicional",1]]}`, `"game" is a game id such as "queens", not a number`},
		{`{"game":"queens","partidas":[["tradicional",1]]}`, `missing field "entrants": a list of 2 to 64 entrants`},
		{`{"game":"queens","entrants":{"level":"gulosa"},"partidas":[["tradicional",1]]}`, `"entrants" is a list such as`},
		{`{"game":"queens","entrants":["gulosa","roleta"],"partidas":[["tradicional",1]]}`, `entrant 0 is an object such as {"level":"gulosa"}`},
		{`{"game":"queens","entrants":[{"level":1},{"level":"roleta"}],"partidas":[["tradicional",1]]}`, `entrant 0: "level" is a string, not a number`},
		{`{"game":"queens","entrants":[{"nivel":"gulosa"},{"level":"roleta"}],"partidas":[["tradicional",1]]}`, `entrant 0: unknown field "nivel"`},
		{`{"game":"queens",` + ents + `,"partidas":[["tradicional",1]],"clock":60}`, `clock: want {"base":seconds,"increment":seconds}`},
		{`{"game":"queens",` + ents + `,"partidas":[["tradicional",1]],"wait":"soon"}`, `"wait" is how many seconds the invitations wait for an answer, a whole number from 30 to 3600, not "soon"`},
		{`{"game":"queens",` + ents + `,"partidas":[["tradicional",1]],"rated":"yes"}`, `"rated" is true (rated games between accounts) or false, not "yes"`},
		{`{"game":"queens",` + ents + `,"partidas":[["tradicional",1]],"Game":"go"}`, `unknown field "Game" (the fields are game, entrants, partidas, clock, wait, rated)`},
		{`[1,2]`, `a torneio is one JSON object`},
		{``, `the body is empty`},
		{`{"game":`, `the JSON ends early`},
		{`{"game" "queens"}`, `the JSON is malformed at byte`},
	}
	for _, tt := range tests {
		_, err := ParseSpec(games.Catalog(), []byte(tt.body))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s:\n got  %v\n want %q", tt.body, err, tt.want)
		}
		if err != nil && goWords(err.Error()) {
			t.Errorf("%s: a Go decoder's words: %v", tt.body, err)
		}
	}
}

// goWords reports whether msg speaks Go's encoding/json instead of the
// API.
func goWords(msg string) bool {
	for _, w := range []string{"json: ", "cannot unmarshal", "Go struct", "Go value", "torneio.Spec", "torneio.Partida", "torneio.Entrant", "invalid character"} {
		if strings.Contains(msg, w) {
			return true
		}
	}
	return false
}

func FuzzParseSpec(f *testing.F) {
	f.Add([]byte(`{"game":"queens","entrants":[{"level":"gulosa"},{"bot":"bot.B"}],"partidas":[["tradicional",2]]}`))
	f.Add([]byte(`{"partidas":[[null,1e9]]}`))
	f.Add([]byte(`{"game":"queens","entrants":[{"level":"gulosa"},{"player":"p"}],"partidas":[["tradicional",1]],"wait":30,"clock":{"base":3}}`))
	cat := games.Catalog()
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := ParseSpec(cat, b)
		if err == nil && (len(s.Schedule()) > s.maxGames() || len(s.Entrants) > MaxEntrants) {
			t.Fatalf("accepted a spec past the limits: %s", b)
		}
		if err != nil && goWords(err.Error()) {
			t.Fatalf("%q: a Go decoder's words: %v", b, err)
		}
	})
}
