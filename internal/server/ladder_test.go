package server_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"math"
	"net/http"
	"net/url"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/httpapi"
	"github.com/tabuleiro/tabuleiro/internal/server"
	"github.com/tabuleiro/tabuleiro/internal/testkit/testserver"
	"github.com/tabuleiro/tabuleiro/ladder"
	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/records"
)

// The bot ladder (package ladder, docs/bots-api.md "The ladder") through
// the real server: bots entered with their own tokens, paired while their
// event streams are open, their games rated in the pool, a bound on the
// games at once, a bot paused after faults in a row until its stream opens
// again.

// Bot modes of a ladderBot.
const (
	botIdle   = iota // holds its event stream, plays nothing (its games wait)
	botPlays         // plays the first legal move
	botFaults        // resigns every game with bot_error
)

// ladderBot is a bot account's program in Go: its event stream, and each
// game it hears of played (or resigned) on a goroutine of its own. It
// reports through t.Errorf only.
type ladderBot struct {
	t         *testing.T
	s         *testserver.Server
	id, token string
	mode      atomic.Int32
	cancel    context.CancelFunc
	done      sync.WaitGroup
	open      chan struct{} // closed once the event stream answered

	mu      sync.Mutex
	seen    map[string]bool // games heard of
	waiting []string        // games heard of while idle
}

func startLadderBot(t *testing.T, s *testserver.Server, id, token string, mode int32) *ladderBot {
	ctx, cancel := context.WithCancel(context.Background())
	b := &ladderBot{t: t, s: s, id: id, token: token, cancel: cancel, seen: map[string]bool{}, open: make(chan struct{})}
	b.mode.Store(mode)
	b.done.Add(1)
	go b.events(ctx)
	t.Cleanup(b.stop)
	select {
	case <-b.open:
	case <-time.After(testserver.Timeout):
		t.Fatal("the event stream did not open")
	}
	return b
}

// stop closes the bot's streams and waits for its goroutines.
func (b *ladderBot) stop() {
	b.cancel()
	b.done.Wait()
}

// setMode changes what the bot does, and starts the games it held back.
func (b *ladderBot) setMode(ctx context.Context, mode int32) {
	b.mode.Store(mode)
	b.mu.Lock()
	held := b.waiting
	b.waiting = nil
	b.mu.Unlock()
	for _, room := range held {
		b.done.Add(1)
		go b.play(ctx, room)
	}
}

// lines reads the NDJSON stream at path until it ends or ctx is done.
func (b *ladderBot) lines(ctx context.Context, path string, opened func(), each func(testserver.Msg) bool) {
	req, _ := http.NewRequestWithContext(ctx, "GET", b.s.URL+path, nil)
	req.Header.Set("Authorization", "Bearer "+b.token)
	resp, err := http.DefaultClient.Do(req)
	if opened != nil {
		opened()
	}
	if err != nil {
		if ctx.Err() == nil {
			b.t.Errorf("GET %s: %v", path, err)
		}
		return
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b.t.Errorf("GET %s: %d", path, resp.StatusCode)
		return
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var m testserver.Msg
		if err := json.Unmarshal(line, &m); err != nil {
			b.t.Errorf("%s: bad line %q", path, line)
			return
		}
		if !each(m) {
			return
		}
	}
}

func (b *ladderBot) events(ctx context.Context) {
	defer b.done.Done()
	var once sync.Once
	b.lines(ctx, "/api/bot/stream/event", func() { once.Do(func() { close(b.open) }) }, func(m testserver.Msg) bool {
		if m.Type != "gameStart" {
			return true
		}
		b.mu.Lock()
		fresh := !b.seen[m.Room]
		b.seen[m.Room] = true
		idle := b.mode.Load() == botIdle
		if fresh && idle {
			b.waiting = append(b.waiting, m.Room)
		}
		b.mu.Unlock()
		if fresh && !idle {
			b.done.Add(1)
			go b.play(ctx, m.Room)
		}
		return true
	})
}

func (b *ladderBot) play(ctx context.Context, room string) {
	defer b.done.Done()
	b.lines(ctx, "/api/bot/game/"+room+"/stream", nil, func(st testserver.Msg) bool {
		if st.Type != "room.state" {
			return true
		}
		if st.Status == "finished" {
			return false
		}
		seat := botSeat(st, b.id)
		if st.Status != "playing" || st.Turn == nil || *st.Turn != seat || len(st.Legal) == 0 {
			return true
		}
		path := "/api/bot/game/" + room + "/move/" + url.PathEscape(st.Legal[0])
		if b.mode.Load() == botFaults {
			path = "/api/bot/game/" + room + "/resign?reason=bot_error&info=test"
		}
		req, _ := http.NewRequestWithContext(ctx, "POST", b.s.URL+path, nil)
		req.Header.Set("Authorization", "Bearer "+b.token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return ctx.Err() == nil
		}
		resp.Body.Close()
		return true
	})
}

// ladderBoard reads GET /api/ladder/{game}/{variant}.
func ladderBoard(t *testing.T, s *testserver.Server, gv string) ladder.Board {
	t.Helper()
	var b ladder.Board
	if code := s.GetJSON(t, "/api/ladder/"+gv, &b); code != http.StatusOK {
		t.Fatalf("GET /api/ladder/%s: %d", gv, code)
	}
	return b
}

// entry is the bot's line of the board.
func entry(t *testing.T, b ladder.Board, id string) ladder.Entry {
	t.Helper()
	for _, e := range b.Bots {
		if e.ID == id {
			return e
		}
	}
	t.Fatalf("bot %s is not on the board %+v", id, b)
	return ladder.Entry{}
}

// waitRounds waits until the ladder has run n more rounds.
func waitRounds(t *testing.T, s *testserver.Server, n int64) {
	t.Helper()
	until := s.Ladder.Rounds() + n
	deadline := time.Now().Add(testserver.Timeout)
	for s.Ladder.Rounds() < until {
		if time.Now().After(deadline) {
			t.Fatalf("the ladder ran no %d rounds", n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// soon polls cond until it holds, failing the test after a minute.
func soon(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(3 * testserver.Timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("never: %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// unfinished is the distinct unfinished rooms of the bots.
func unfinished(t *testing.T, s *testserver.Server, ids ...string) []string {
	t.Helper()
	var out []string
	for _, id := range ids {
		rs, err := s.Store.PlayerRooms(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rs {
			if !slices.Contains(out, r) {
				out = append(out, r)
			}
		}
	}
	return out
}

// botRecords are the bot's finished games' records, newest first.
func botRecords(t *testing.T, s *testserver.Server, id string) []*records.Record {
	t.Helper()
	ctx := context.Background()
	refs, err := s.Store.Records().PlayerRecords(ctx, id, time.Time{}, 1000)
	if err != nil {
		t.Fatal(err)
	}
	var out []*records.Record
	for _, ref := range refs {
		data, err := s.Store.Records().Record(ctx, ref.Room)
		if err != nil {
			t.Fatal(err)
		}
		r, err := records.Decode(data)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

func TestLadderPaths(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t)
	ana := s.Hello(t, "ana", "")
	id, tok := s.RegisterBot(t, ana.Token, "escalador")
	var e apiError
	if code := s.Do(t, "POST", "/api/bot/ladder/orbito/2", "", nil, &e); code != http.StatusUnauthorized {
		t.Fatalf("no token: %d %+v", code, e)
	}
	if code := s.Do(t, "POST", "/api/bot/ladder/orbito/2", ana.Token, nil, &e); code != http.StatusForbidden || e.Error.Code != "forbidden" {
		t.Fatalf("a person's token: %d %+v", code, e)
	}
	if code := s.Do(t, "DELETE", "/api/bot/ladder/orbito/2", ana.Token, nil, &e); code != http.StatusForbidden {
		t.Fatalf("a person's token leaving: %d %+v", code, e)
	}
	for _, gv := range []string{"orbito/9", "xadrez/1", "2048/solo", "go/7"} {
		e = apiError{}
		if code := s.Do(t, "POST", "/api/bot/ladder/"+gv, tok, nil, &e); code != http.StatusBadRequest || e.Error.Code != "bad_request" || e.Error.Message == "" {
			t.Fatalf("POST ladder %s: %d %+v, want 400", gv, code, e)
		}
		if code := s.GetJSON(t, "/api/ladder/"+gv, &e); code != http.StatusBadRequest {
			t.Fatalf("GET ladder %s: %d, want 400", gv, code)
		}
	}
	if b := ladderBoard(t, s, "orbito/2"); b.Pool != "orbito/2" || len(b.Bots) != 0 {
		t.Fatalf("nobody joined, yet the board is %+v", b)
	}
	var ans httpapi.LadderAnswer
	for range 2 { // idempotent
		if code := s.Do(t, "POST", "/api/bot/ladder/orbito/2", tok, nil, &ans); code != http.StatusOK || ans != (httpapi.LadderAnswer{Pool: "orbito/2", Joined: true}) {
			t.Fatalf("join: %d %+v", code, ans)
		}
	}
	b := ladderBoard(t, s, "orbito/2")
	if len(b.Bots) != 1 {
		t.Fatalf("board %+v, want the one bot", b)
	}
	if got := b.Bots[0]; got.ID != id || got.Name != "escalador" || got.Rating != 1500 || got.Low != 500 || got.High != 2500 ||
		got.Games != 0 || !got.Provisional || got.Online || got.Paused || got.Streak != 0 {
		t.Fatalf("a new bot on the board: %+v", got)
	}
	if b := ladderBoard(t, s, "go/9"); len(b.Bots) != 0 {
		t.Fatalf("go/9's board %+v: the bot joined orbito/2 only", b)
	}
	if code := s.Do(t, "DELETE", "/api/bot/ladder/orbito/2", tok, nil, &ans); code != http.StatusOK || ans != (httpapi.LadderAnswer{Pool: "orbito/2", Joined: false}) {
		t.Fatalf("leave: %d %+v", code, ans)
	}
	if b := ladderBoard(t, s, "orbito/2"); len(b.Bots) != 0 {
		t.Fatalf("left, yet on the board %+v", b)
	}
}

// TestLadderPlaysRatedGames: three bots on orbito/2's ladder with their
// streams open are paired by the server, one game at a time
// (-ladder-games 1), rated; one that resigns with bot_error three times in
// a row is paused (on the board, and no more games) until its event
// stream opens again.
func TestLadderPlaysRatedGames(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t, func(c *server.Config) {
		c.LadderGames, c.LadderEvery = 1, 5*time.Millisecond
		c.LadderClock = &protocol.TimeControl{Base: 60}
		c.AbortAfter = time.Hour // the idle bots' first game waits for them
	})
	ana := s.Hello(t, "ana", "")
	var ids, toks [3]string
	for i, name := range []string{"alfa", "bravo", "charlie"} {
		ids[i], toks[i] = s.RegisterBot(t, ana.Token, name)
		if code := s.Do(t, "POST", "/api/bot/ladder/orbito/2", toks[i], nil, nil); code != http.StatusOK {
			t.Fatalf("join: %d", code)
		}
	}
	// Online and idle: one game is made, and only one however many rounds
	// pass (-ladder-games 1).
	var bots [3]*ladderBot
	for i := range bots {
		bots[i] = startLadderBot(t, s, ids[i], toks[i], botIdle)
	}
	soon(t, "a ladder game", func() bool { return len(unfinished(t, s, ids[:]...)) > 0 })
	waitRounds(t, s, 20)
	if rs := unfinished(t, s, ids[:]...); len(rs) != 1 || s.Ladder.Playing() != 1 {
		t.Fatalf("unfinished ladder games %v (the ladder counts %d), want 1", rs, s.Ladder.Playing())
	}
	for _, e := range ladderBoard(t, s, "orbito/2").Bots {
		if !e.Online {
			t.Fatalf("%+v: its event stream is open", e)
		}
	}
	// They play: games are made one after another, rated.
	ctx := context.Background()
	for _, b := range bots {
		b.setMode(ctx, botPlays)
	}
	soon(t, "three rated games each", func() bool {
		for _, e := range ladderBoard(t, s, "orbito/2").Bots {
			if e.Games < 3 {
				return false
			}
		}
		return true
	})
	recs := botRecords(t, s, ids[0])
	for _, r := range recs {
		if !r.Rated || r.Clock == nil || r.Clock.Base != 60*time.Second || r.Result == nil || !r.Players[0].BotAccount || !r.Players[1].BotAccount {
			t.Fatalf("a ladder game's record %+v: want rated, with the ladder's clock, between bot accounts", r)
		}
	}
	var a, c ladder.Entry
	b := ladderBoard(t, s, "orbito/2")
	a = entry(t, b, ids[0])
	if a.Rating == 1500 || a.RD >= 500 || math.Abs(float64(a.Low)-(float64(a.Rating)-2*a.RD)) > 1 ||
		math.Abs(float64(a.High)-(float64(a.Rating)+2*a.RD)) > 1 {
		t.Fatalf("after %d games alfa is %+v: want a rating moved, a deviation shrunk, low and high 2 deviations away", a.Games, a)
	}
	for i := 1; i < len(b.Bots); i++ {
		if b.Bots[i].Rating > b.Bots[i-1].Rating {
			t.Fatalf("the board is not best first: %+v", b.Bots)
		}
	}

	// charlie fails every game: paused after three in a row.
	bots[2].setMode(ctx, botFaults)
	soon(t, "charlie paused", func() bool { return entry(t, ladderBoard(t, s, "orbito/2"), ids[2]).Paused })
	c = entry(t, ladderBoard(t, s, "orbito/2"), ids[2])
	if c.Streak != ladder.DefaultPauseAfter || !c.Online {
		t.Fatalf("charlie paused %+v: want a streak of %d, online", c, ladder.DefaultPauseAfter)
	}
	faults := 0
	for _, r := range botRecords(t, s, ids[2])[:ladder.DefaultPauseAfter] {
		if r.Result.Reason == "bot_error" && r.Players[1-r.Result.Winner].ID == ids[2] {
			faults++
		}
	}
	if faults != ladder.DefaultPauseAfter {
		t.Fatalf("charlie's last games: %d lost by bot_error, want %d", faults, ladder.DefaultPauseAfter)
	}
	n := len(botRecords(t, s, ids[2]))
	waitRounds(t, s, 20)
	soon(t, "alfa and bravo playing on", func() bool { return entry(t, ladderBoard(t, s, "orbito/2"), ids[0]).Games > a.Games+1 })
	if m := len(botRecords(t, s, ids[2])); m != n || len(unfinished(t, s, ids[2])) != 0 {
		t.Fatalf("paused charlie played on: %d games, then %d, unfinished %v", n, m, unfinished(t, s, ids[2]))
	}
	// Its stream opens again: it plays again.
	bots[2].stop()
	bots[2] = startLadderBot(t, s, ids[2], toks[2], botPlays)
	soon(t, "charlie back", func() bool {
		c := entry(t, ladderBoard(t, s, "orbito/2"), ids[2])
		return !c.Paused && c.Streak == 0
	})
	soon(t, "charlie's next game", func() bool { return len(botRecords(t, s, ids[2])) > n })
}

// TestLadderAcrossNodes: two nodes on one store, the ladder's bots' event
// streams on either: only the node that holds the ladder's lease pairs
// them (-ladder-games 1 holds across both), bots online on the other node
// are paired too, and their games are played and rated across the nodes.
func TestLadderAcrossNodes(t *testing.T) {
	t.Parallel()
	nodes := startNodes(t, 2, 0, func(c *server.Config) {
		c.LadderGames, c.LadderEvery = 1, 5*time.Millisecond
		c.LadderClock = &protocol.TimeControl{Base: 60}
		c.AbortAfter = time.Hour
	})
	owner := nodes[0].Hello(t, "ana", "")
	var ids, toks [3]string
	var bots [3]*ladderBot
	for i, name := range []string{"alfa", "bravo", "charlie"} {
		ids[i], toks[i] = nodes[0].RegisterBot(t, owner.Token, name)
		if code := nodes[1].Do(t, "POST", "/api/bot/ladder/orbito/2", toks[i], nil, nil); code != http.StatusOK {
			t.Fatalf("join: %d", code)
		}
		bots[i] = startLadderBot(t, nodes[min(i, 1)], ids[i], toks[i], botIdle) // alfa on node 0, the others on 1
	}
	soon(t, "a ladder game", func() bool { return len(unfinished(t, nodes[0], ids[:]...)) > 0 })
	for _, n := range nodes {
		waitRounds(t, n, 20)
	}
	if rs := unfinished(t, nodes[0], ids[:]...); len(rs) != 1 || nodes[0].Ladder.Playing()+nodes[1].Ladder.Playing() != 1 {
		t.Fatalf("unfinished ladder games %v (the nodes count %d and %d), want 1: one node pairs", rs,
			nodes[0].Ladder.Playing(), nodes[1].Ladder.Playing())
	}
	ctx := context.Background()
	for _, b := range bots {
		b.setMode(ctx, botPlays)
	}
	soon(t, "two rated games each", func() bool {
		for _, e := range ladderBoard(t, nodes[1], "orbito/2").Bots {
			if e.Games < 2 || !e.Online {
				return false
			}
		}
		return true
	})
}
