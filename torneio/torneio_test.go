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
		{Entrant: es[0], Played: 3, Won: 1, Drawn: 1, Lost: 1, Share: 33.3},
		{Entrant: es[1], Played: 3, Won: 1, Lost: 2, Share: 33.3},
		{Entrant: es[2], Played: 2, Won: 1, Drawn: 1, Share: 50},
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("standing %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

func TestParseSpec(t *testing.T) {
	many := make([]string, MaxEntrants+1)
	for i := range many {
		many[i] = fmt.Sprintf(`{"player":"p%d"}`, i)
	}
	tests := []struct {
		body, err string
	}{
		{`{"game":"queens","entrants":[{"level":"gulosa"},{"bot":"pB"},{"player":"pP"}],"partidas":[["tradicional",2],["x-random",1]]}`, ""},
		{`{"game":"chess","entrants":[{"level":"gulosa"},{"level":"roleta"}],"partidas":[["tradicional",1]]}`, "unknown game"},
		{`{"game":"queens","entrants":[{"level":"gulosa"}],"partidas":[["tradicional",1]]}`, "2 to 64 entrants"},
		{`{"game":"queens","entrants":[` + strings.Join(many, ",") + `],"partidas":[["tradicional",1]]}`, "2 to 64 entrants"},
		{`{"game":"queens","entrants":[{"level":"perfeito"},{"level":"roleta"}],"partidas":[["tradicional",1]]}`, `no level "perfeito"`},
		{`{"game":"queens","entrants":[{"level":"gulosa","bot":"x"},{"level":"roleta"}],"partidas":[["tradicional",1]]}`, "exactly one of"},
		{`{"game":"queens","entrants":[{},{"level":"roleta"}],"partidas":[["tradicional",1]]}`, "exactly one of"},
		{`{"game":"queens","entrants":[{"player":"a"},{"bot":"a"}],"partidas":[["tradicional",1]]}`, "entered twice"},
		{`{"game":"queens","entrants":[{"level":"gulosa"},{"level":"roleta"}],"partidas":[]}`, "1 to 8 partidas"},
		{`{"game":"queens","entrants":[{"level":"gulosa"},{"level":"roleta"}],"partidas":[["xadrez",1]]}`, `no variant "xadrez"`},
		{`{"game":"queens","entrants":[{"level":"gulosa"},{"level":"roleta"}],"partidas":[["tradicional",0]]}`, "repetitions 1..50"},
		{`{"game":"queens","entrants":[{"level":"gulosa"},{"level":"roleta"}],"partidas":[["tradicional"]]}`, "a pair"},
		{`{"game":"queens","entrants":[{"level":"gulosa"},{"level":"roleta"}],"partidas":[[1,1]]}`, "variant is a string"},
		{`{"game":"queens","entrants":[{"level":"gulosa"},{"level":"roleta"}],"partidas":[["tradicional",1]],"x":1}`, "unknown field"},
		{`{"game":"queens","entrants":[{"level":"gulosa"},{"level":"roleta"}],"partidas":[["tradicional",1]]}{}`, "after the object"},
		{`{"game":"queens","entrants":[{"level":"gulosa"},{"level":"roleta"}],"partidas":[["tradicional",1]],"clock":{"base":0,"increment":0}}`, "clock"},
		{`{"game":"2048","entrants":[{"level":"gulosa"},{"level":"roleta"}],"partidas":[["4",1]]}`, "no level"},
		{`{"game":"queens","entrants":[` + strings.Join(many[:16], ",") + `],"partidas":[["tradicional",50]]}`, "at most 4096"},
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

func FuzzParseSpec(f *testing.F) {
	f.Add([]byte(`{"game":"queens","entrants":[{"level":"gulosa"},{"bot":"pB"}],"partidas":[["tradicional",2]]}`))
	f.Add([]byte(`{"partidas":[[null,1e9]]}`))
	cat := games.Catalog()
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := ParseSpec(cat, b)
		if err == nil && (len(s.Schedule()) > MaxGames || len(s.Entrants) > MaxEntrants) {
			t.Fatalf("accepted a spec past the limits: %s", b)
		}
	})
}
