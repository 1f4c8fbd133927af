package ladder

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/engine/games"
	"github.com/tabuleiro/tabuleiro/players"
	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/ratings"
	"github.com/tabuleiro/tabuleiro/records"
	"github.com/tabuleiro/tabuleiro/rooms"
)

func cand(id string, r float64) candidate { return candidate{id: id, name: id, rating: r} }

func pairNames(ps [][2]candidate) []string {
	var out []string
	for _, p := range ps {
		a, b := p[0].id, p[1].id
		if b < a {
			a, b = b, a
		}
		out = append(out, a+"-"+b)
	}
	slices.Sort(out)
	return out
}

func TestPairs(t *testing.T) {
	tests := []struct {
		name  string
		cands []candidate
		last  map[string]string
		want  []string
	}{
		{"none", nil, nil, nil},
		{"one waits", []candidate{cand("a", 1500)}, nil, nil},
		{"two play", []candidate{cand("a", 1500), cand("b", 2500)}, nil, []string{"a-b"}},
		{"closest first", []candidate{cand("a", 1000), cand("b", 1400), cand("c", 1450), cand("d", 2000)}, nil,
			[]string{"a-d", "b-c"}},
		{"odd one out is the farthest", []candidate{cand("a", 1500), cand("b", 1510), cand("c", 1900)}, nil,
			[]string{"a-b"}},
		{"not again when another is free", []candidate{cand("a", 1500), cand("b", 1510), cand("c", 1900)},
			map[string]string{"a": "b", "b": "a"}, []string{"b-c"}},
		{"again when nobody else is", []candidate{cand("a", 1500), cand("b", 1510)},
			map[string]string{"a": "b", "b": "a"}, []string{"a-b"}},
		{"four, two repeated pairs cross", []candidate{cand("a", 1500), cand("b", 1501), cand("c", 1600), cand("d", 1601)},
			map[string]string{"a": "b", "b": "a", "c": "d", "d": "c"}, []string{"a-d", "b-c"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := pairNames(Pairs(tt.cands, tt.last))
			if !slices.Equal(got, tt.want) {
				t.Fatalf("pairs %v, want %v", got, tt.want)
			}
		})
	}
}

func TestPairsOnlyNeighbours(t *testing.T) {
	var cs []candidate
	for i := range 100 {
		cs = append(cs, cand(fmt.Sprintf("b%03d", i), float64(1000+10*i)))
	}
	ps := Pairs(cs, nil)
	if len(ps) != 50 {
		t.Fatalf("%d pairs of 100 bots, want 50", len(ps))
	}
	for _, p := range ps {
		if d := p[1].rating - p[0].rating; d < -10*Neighbours || d > 10*Neighbours {
			t.Fatalf("pair %s-%s is %v apart, beyond %d neighbours", p[0].id, p[1].id, d, Neighbours)
		}
	}
}

func TestFault(t *testing.T) {
	tests := []struct {
		winner int
		reason string
		moves  int
		want   int
	}{
		{0, rooms.ReasonTimeout, 10, 1},
		{1, rooms.ReasonBotError, 3, 0},
		{1, rooms.ReasonAbandoned, 3, 0},
		{0, "line", 9, -1},
		{1, "resign", 9, -1},
		{-1, "draw", 9, -1},
		{-1, rooms.ReasonAborted, 0, 0},
		{-1, rooms.ReasonAborted, 1, 1},
		{-1, rooms.ReasonAborted, 2, -1},
	}
	for _, tt := range tests {
		if got := Fault(tt.winner, tt.reason, tt.moves); got != tt.want {
			t.Errorf("Fault(%d, %q, %d) = %d, want %d", tt.winner, tt.reason, tt.moves, got, tt.want)
		}
	}
}

func TestClock(t *testing.T) {
	for _, gv := range [][2]string{{"orbito", "2"}, {"orbito", "5"}, {"morris", "3"}, {"go", "9"}, {"go", "19"}, {"queens", "tradicional"}} {
		tc := Clock(gv[0], gv[1])
		if tc == nil || tc.Base < 1 || tc.Base > protocol.MaxClockBase || tc.Increment > protocol.MaxClockIncrement {
			t.Errorf("Clock(%s, %s) = %v: want a clock the rooms take", gv[0], gv[1], tc)
		}
	}
	if tc := Clock("2048", "race"); tc != nil {
		t.Errorf("2048's race: clock %v, want none (both seats move at once)", tc)
	}
}

// fakes: a store of ladders, ratings, rooms and records; a room maker
// that records what it made and saves it as the bots' unfinished room.
type fake struct {
	mu      sync.Mutex
	ladders map[string][]string
	ratings map[string]float64 // by bot (one pool)
	rooms   map[string][]string
	records map[string][]byte
	made    []rooms.Spec
	n       int
	refuse  error
}

func newFake() *fake {
	return &fake{ladders: map[string][]string{}, ratings: map[string]float64{}, rooms: map[string][]string{}, records: map[string][]byte{}}
}

func (f *fake) Rating(_ context.Context, _, id string) (ratings.Rating, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	r := ratings.New()
	if x, ok := f.ratings[id]; ok {
		r.Rating, r.Deviation, r.Games = x, 60, 10
	}
	return r, nil
}
func (f *fake) JoinLadder(_ context.Context, pool, id string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !slices.Contains(f.ladders[pool], id) {
		f.ladders[pool] = append(f.ladders[pool], id)
	}
	return nil
}
func (f *fake) LeaveLadder(_ context.Context, pool, id string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.ladders[pool] = slices.DeleteFunc(f.ladders[pool], func(s string) bool { return s == id })
	return nil
}
func (f *fake) Ladder(_ context.Context, pool string) ([]string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.ladders[pool]), nil
}
func (f *fake) PlayerRooms(_ context.Context, id string) ([]string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.rooms[id]), nil
}
func (f *fake) PlayerNames(_ context.Context, ids []string) (map[string]string, error) {
	out := map[string]string{}
	for _, id := range ids {
		out[id] = "name of " + id
	}
	return out, nil
}
func (f *fake) Record(_ context.Context, room string) ([]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if d, ok := f.records[room]; ok {
		return d, nil
	}
	return nil, errors.New("not found")
}
func (f *fake) Create(_ context.Context, spec rooms.Spec) (*rooms.Room, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.refuse != nil {
		return nil, f.refuse
	}
	f.n++
	f.made = append(f.made, spec)
	for _, s := range spec.Seats {
		f.rooms[s.ID] = append(f.rooms[s.ID], spec.ID)
	}
	return nil, nil // the ladder names the room (spec.ID)
}

// finish ends a made room with a result.
func (f *fake) finish(t *testing.T, room string, winner int, reason string) {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	var spec rooms.Spec
	for _, s := range f.made {
		if s.ID == room {
			spec = s
		}
	}
	rec := &records.Record{Room: room, Game: spec.Game, Variant: spec.Variant, Players: spec.Seats,
		Started: time.UnixMilli(1e12), Ended: time.UnixMilli(1e12 + 1000),
		Result: &records.Result{Winner: winner, Reason: reason}}
	data, err := records.Encode(rec)
	if err != nil {
		t.Fatal(err)
	}
	f.records[room] = data
	for _, s := range spec.Seats {
		f.rooms[s.ID] = slices.DeleteFunc(f.rooms[s.ID], func(r string) bool { return r == room })
	}
}

func bot(n int) string { return players.BotIDPrefix + fmt.Sprintf("%024d", n) }

func newLadder(f *fake, online *[]protocol.BotInfo, edit func(*Config)) *Ladder {
	cfg := Config{Catalog: games.Catalog(), Store: f, Records: f, Rooms: f, Every: time.Hour,
		Online: func() []protocol.BotInfo { return slices.Clone(*online) }}
	if edit != nil {
		edit(&cfg)
	}
	return New(cfg)
}

// made returns the rooms made since the index from, as pairs of bots.
func (f *fake) since(from int) []rooms.Spec {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.made[from:])
}

func specPair(s rooms.Spec) string {
	a, b := s.Seats[0].ID, s.Seats[1].ID
	if b < a {
		a, b = b, a
	}
	return a + "-" + b
}

func TestRoundPairsOnlineBotsOfThePool(t *testing.T) {
	f := newFake()
	ctx := context.Background()
	online := []protocol.BotInfo{{ID: bot(1), Name: "um"}, {ID: bot(2), Name: "dois"}, {ID: bot(3), Name: "tres"}, {ID: bot(5), Name: "cinco"}}
	l := newLadder(f, &online, nil)
	for _, id := range []string{bot(1), bot(2), bot(3), bot(4)} {
		if _, err := l.Join(ctx, id, "orbito", "2"); err != nil {
			t.Fatal(err)
		}
	}
	f.ratings[bot(1)], f.ratings[bot(2)], f.ratings[bot(3)], f.ratings[bot(4)] = 1500, 1900, 1520, 1510
	l.round()
	made := f.since(0)
	// bot 4 is offline, bot 5 online but not entered: 1 and 3 are the
	// closest pair, 2 waits.
	if len(made) != 1 || specPair(made[0]) != bot(1)+"-"+bot(3) {
		t.Fatalf("made %v, want one game of bots 1 and 3", made)
	}
	s := made[0]
	if s.Game != "orbito" || s.Variant != "2" || s.Clock == nil || *s.Clock != *Clock("orbito", "2") || s.For != "" || s.ID == "" {
		t.Fatalf("spec %+v: want orbito 2 with the pool's clock, made for no one", s)
	}
	for _, p := range s.Seats {
		if !p.BotAccount || p.Name == "" {
			t.Fatalf("seat %+v: want a named bot account", p)
		}
	}
	if l.Playing() != 1 {
		t.Fatalf("playing %d, want 1", l.Playing())
	}
	// A bot enters a ladder only by its own bot id, in a pool that exists.
	if _, err := l.Join(ctx, "p123", "orbito", "2"); !errors.Is(err, ErrNotBot) {
		t.Fatalf("a person joined: %v", err)
	}
	for _, gv := range [][2]string{{"orbito", "9"}, {"xadrez", "1"}, {"2048", "solo"}} {
		if _, err := l.Join(ctx, bot(1), gv[0], gv[1]); !errors.Is(err, ErrNoPool) {
			t.Fatalf("joined %v: %v", gv, err)
		}
	}
}

func TestRoundBounds(t *testing.T) {
	f := newFake()
	ctx := context.Background()
	var online []protocol.BotInfo
	for i := range 12 {
		online = append(online, protocol.BotInfo{ID: bot(i), Name: fmt.Sprint("bot", i)})
		f.ratings[bot(i)] = float64(1500 + i)
		if err := f.JoinLadder(ctx, "orbito/2", bot(i)); err != nil {
			t.Fatal(err)
		}
	}
	l := newLadder(f, &online, func(c *Config) { c.Games = 3; c.PerBot = 1 })
	l.round()
	if n := len(f.since(0)); n != 3 {
		t.Fatalf("%d games made, want the bound of 3", n)
	}
	l.round()
	if n := len(f.since(0)); n != 3 {
		t.Fatalf("%d games after a second round with none finished, want 3", n)
	}
	// One ends: one more begins, among the bots not playing (PerBot 1).
	first := f.since(0)[0]
	f.finish(t, first.ID, 0, "line")
	l.round()
	made := f.since(0)
	if len(made) != 4 {
		t.Fatalf("%d games, want 4", len(made))
	}
	busy := map[string]bool{}
	for _, s := range made[1:3] {
		busy[s.Seats[0].ID], busy[s.Seats[1].ID] = true, true
	}
	for _, p := range made[3].Seats {
		if busy[p.ID] {
			t.Fatalf("bot %s paired while at its limit of games", p.ID)
		}
	}
}

func TestRoundAvoidsTheSamePairBackToBack(t *testing.T) {
	f := newFake()
	ctx := context.Background()
	online := []protocol.BotInfo{{ID: bot(1), Name: "a"}, {ID: bot(2), Name: "b"}, {ID: bot(3), Name: "c"}}
	l := newLadder(f, &online, func(c *Config) { c.PerBot = 1 })
	for i := 1; i <= 3; i++ {
		_ = f.JoinLadder(ctx, "orbito/2", bot(i))
	}
	f.ratings[bot(1)], f.ratings[bot(2)], f.ratings[bot(3)] = 1500, 1505, 1800
	var seen []string
	for range 6 {
		l.round()
		made := f.since(len(seen))
		if len(made) != 1 {
			t.Fatalf("round made %d games, want 1", len(made))
		}
		seen = append(seen, specPair(made[0]))
		f.finish(t, made[0].ID, 0, "line")
	}
	for i := 1; i < len(seen); i++ {
		if seen[i] == seen[i-1] {
			t.Fatalf("games %v: the same pair back to back", seen)
		}
	}
}

func TestFaultsPauseUntilTheStreamOpens(t *testing.T) {
	f := newFake()
	ctx := context.Background()
	online := []protocol.BotInfo{{ID: bot(1), Name: "a"}, {ID: bot(2), Name: "b"}}
	l := newLadder(f, &online, nil)
	_ = f.JoinLadder(ctx, "orbito/2", bot(1))
	_ = f.JoinLadder(ctx, "orbito/2", bot(2))
	for i := range DefaultPauseAfter {
		l.round()
		made := f.since(i)
		if len(made) != 1 {
			t.Fatalf("round %d made %d games, want 1", i, len(made))
		}
		loser := slices.IndexFunc(made[0].Seats, func(p players.Player) bool { return p.ID == bot(1) })
		f.finish(t, made[0].ID, 1-loser, rooms.ReasonBotError)
	}
	l.round() // reads the third fault: paused, nothing made
	if n := len(f.since(0)); n != DefaultPauseAfter {
		t.Fatalf("%d games, want %d: the bot is paused", n, DefaultPauseAfter)
	}
	b, err := l.Board(ctx, "orbito", "2")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range b.Bots {
		want := e.ID == bot(1)
		if e.Paused != want || (want && e.Streak != DefaultPauseAfter) || (!want && e.Streak != 0) {
			t.Fatalf("board %+v: want bot 1 paused with a streak of %d", b.Bots, DefaultPauseAfter)
		}
	}
	// Seen offline, then online: it plays again.
	online = online[1:]
	l.round()
	online = append(online, protocol.BotInfo{ID: bot(1), Name: "a"})
	l.round()
	if n := len(f.since(0)); n != DefaultPauseAfter+1 {
		t.Fatalf("%d games, want one more once the bot came back", n)
	}
	// Paused again, then its stream opens on this node (StreamOpened).
	for range DefaultPauseAfter {
		made := f.since(len(f.made) - 1)
		loser := slices.IndexFunc(made[0].Seats, func(p players.Player) bool { return p.ID == bot(1) })
		f.finish(t, made[0].ID, 1-loser, rooms.ReasonTimeout)
		l.round()
	}
	n := len(f.since(0))
	l.round()
	if m := len(f.since(0)); m != n {
		t.Fatalf("paused again, yet a game was made")
	}
	l.resume(bot(1)) // what the goroutine does with StreamOpened
	l.round()
	if m := len(f.since(0)); m != n+1 {
		t.Fatalf("%d games, want %d once the stream opened", m, n+1)
	}
	// A stream that opens while the bot is not paused keeps its streak.
	made := f.since(n)
	loser := slices.IndexFunc(made[0].Seats, func(p players.Player) bool { return p.ID == bot(1) })
	f.finish(t, made[0].ID, 1-loser, rooms.ReasonAbandoned)
	l.round()
	l.resume(bot(1))
	l.publish() // as the goroutine does after StreamOpened
	if b, _ := l.Board(ctx, "orbito", "2"); entry(b, bot(1)).Streak != 1 {
		t.Fatalf("board %+v: the streak of 1 was forgotten as the stream opened", b.Bots)
	}
}

func entry(b Board, id string) Entry {
	for _, e := range b.Bots {
		if e.ID == id {
			return e
		}
	}
	return Entry{}
}

func TestBoard(t *testing.T) {
	f := newFake()
	ctx := context.Background()
	online := []protocol.BotInfo{{ID: bot(1), Name: "um"}}
	l := newLadder(f, &online, nil)
	for i := 1; i <= 3; i++ {
		_ = f.JoinLadder(ctx, "go/9", bot(i))
	}
	f.ratings[bot(1)], f.ratings[bot(3)] = 1600, 1700
	b, err := l.Board(ctx, "go", "9")
	if err != nil {
		t.Fatal(err)
	}
	if b.Pool != "go/9" || len(b.Bots) != 3 {
		t.Fatalf("board %+v", b)
	}
	want := []string{bot(3), bot(1), bot(2)} // 1700, 1600, 1500 (new)
	for i, e := range b.Bots {
		if e.ID != want[i] {
			t.Fatalf("board order %+v, want %v", b.Bots, want)
		}
		if e.Low != e.Rating-int(2*e.RD+0.5) && e.Low != e.Rating-int(2*e.RD) {
			t.Fatalf("entry %+v: low is rating - 2 rd", e)
		}
		if e.Name == "" || e.Online != (e.ID == bot(1)) {
			t.Fatalf("entry %+v: name and online", e)
		}
	}
	if e := b.Bots[2]; e.Low != 500 || e.High != 2500 || !e.Provisional || e.Games != 0 {
		t.Fatalf("a new bot %+v: want 1500 +- 1000, provisional", e)
	}
	if !strings.HasPrefix(b.Bots[0].Name, "name of") {
		t.Fatalf("an offline bot's name %q: want the store's", b.Bots[0].Name)
	}
}

func TestShutdownStopsTheGoroutine(t *testing.T) {
	f := newFake()
	var online []protocol.BotInfo
	l := newLadder(f, &online, func(c *Config) { c.Every = time.Millisecond })
	l.Start()
	l.StreamOpened(bot(1))
	l.GameEnded(rooms.GameEvent{Status: rooms.StatusFinished})
	if err := l.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	select {
	case <-l.done:
	default:
		t.Fatal("the goroutine runs after Shutdown")
	}
}

func TestSeats(t *testing.T) {
	tests := []struct {
		name    string
		first   string
		balance map[string]int
		coin    bool
		want    [2]string
	}{
		{"a first last time: b now", "a", nil, false, [2]string{"b", "a"}},
		{"b first last time: a now", "b", map[string]int{"a": 5}, true, [2]string{"a", "b"}},
		{"new pair: who moved first less", "", map[string]int{"a": 2, "b": -1}, false, [2]string{"b", "a"}},
		{"new pair, even: the coin", "", map[string]int{"a": 1, "b": 1}, true, [2]string{"b", "a"}},
		{"new pair, even: the coin's other side", "", nil, false, [2]string{"a", "b"}},
	}
	for _, tt := range tests {
		if got := Seats("a", "b", tt.first, tt.balance, tt.coin); got != tt.want {
			t.Errorf("%s: Seats = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestRoundAlternatesTheFirstMove(t *testing.T) {
	f := newFake()
	ctx := context.Background()
	online := []protocol.BotInfo{{ID: bot(1), Name: "a"}, {ID: bot(2), Name: "b"}}
	l := newLadder(f, &online, nil)
	_ = f.JoinLadder(ctx, "orbito/2", bot(1))
	_ = f.JoinLadder(ctx, "orbito/2", bot(2))
	firsts := map[string]int{}
	for i := range 6 {
		l.round()
		made := f.since(i)
		if len(made) != 1 {
			t.Fatalf("round %d made %d games", i, len(made))
		}
		firsts[made[0].Seats[0].ID]++
		if i > 0 && made[0].Seats[0].ID == f.since(i - 1)[0].Seats[0].ID {
			t.Fatalf("game %d: %s moves first twice in a row", i, made[0].Seats[0].ID)
		}
		f.finish(t, made[0].ID, 0, "line")
	}
	if firsts[bot(1)] != 3 || firsts[bot(2)] != 3 {
		t.Fatalf("first moves %v, want 3 each", firsts)
	}
}
