package server_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/internal/server"
	"github.com/tabuleiro/tabuleiro/internal/testkit/fakeclock"
	"github.com/tabuleiro/tabuleiro/internal/testkit/testserver"
)

// botGame is a morris game between a bot account over HTTP (seat 0) and a
// person over the WebSocket (seat 1), after each side's first move (b2,
// a1), which no clock times: it is the bot's turn.
type botGame struct {
	s      *testserver.Server
	ana    *testserver.Client
	tok    string
	room   string
	events *testserver.Stream
	game   *testserver.Stream
	st     testserver.Msg // the state after the first moves
}

func startBotGame(t *testing.T, s *testserver.Server, clock any) *botGame {
	t.Helper()
	g := &botGame{s: s, ana: s.Hello(t, "ana", "")}
	var id string
	id, g.tok = s.RegisterBot(t, g.ana.Token, "robo")
	g.events = s.OpenStream(t, "/api/bot/stream/event", g.tok)
	body := map[string]any{"game": "morris", "variant": "3", "seat": 1}
	if clock != nil {
		body["clock"] = clock
	}
	var ch struct{ Room string }
	if code := s.Do(t, "POST", "/api/bots/"+id+"/challenge", g.ana.Token, body, &ch); code != http.StatusCreated {
		t.Fatalf("challenge: %d", code)
	}
	g.room = ch.Room
	g.events.Next(func(m testserver.Msg) bool { return m.Type == "gameStart" && m.Room == g.room })
	g.ana.Send(map[string]any{"type": "room.join", "room": g.room, "as": "player"})
	g.ana.Wait("room.joined", nil)
	g.game = s.OpenStream(t, "/api/bot/game/"+g.room+"/stream", g.tok)
	g.game.Next(nil)
	g.move(t, "b2", http.StatusOK)
	g.ana.State(g.room, func(m testserver.Msg) bool { return m.LastMove != nil && m.LastMove.Move == "b2" })
	g.ana.Send(map[string]any{"type": "room.move", "room": g.room, "move": "a1"})
	g.st = g.game.Next(func(m testserver.Msg) bool { return m.LastMove != nil && m.LastMove.Move == "a1" })
	return g
}

// move posts the bot's move and checks the answer's status.
func (g *botGame) move(t *testing.T, mv string, want int) apiError {
	t.Helper()
	var e apiError
	if code := g.s.Do(t, "POST", "/api/bot/game/"+g.room+"/move/"+mv, g.tok, nil, &e); code != want {
		t.Fatalf("move %s: %d %+v, want %d", mv, code, e, want)
	}
	return e
}

// TestBotIllegalMovesKeepItsClockRunning: a bot's illegal moves get the
// error and change nothing, and its clock runs on through them, as a
// person's does.
func TestBotIllegalMovesKeepItsClockRunning(t *testing.T) {
	t.Parallel()
	now := fakeclock.New()
	s := testserver.Start(t, func(c *server.Config) { c.Now = now.Now })
	g := startBotGame(t, s, map[string]int{"base": 2})
	for _, mv := range []string{"b2", "a1", "z9", "b2c3"} {
		now.Advance(200 * time.Millisecond)
		if e := g.move(t, mv, http.StatusBadRequest); e.Error.Code != "illegal_move" {
			t.Fatalf("%s answered %+v", mv, e)
		}
	}
	now.Advance(300 * time.Millisecond)
	g.move(t, "c3", http.StatusOK)
	st := g.game.Next(func(m testserver.Msg) bool { return m.LastMove != nil && m.LastMove.Move == "c3" })
	if st.Seq != g.st.Seq+1 {
		t.Fatalf("seq %d after the illegal moves and c3, want %d: they changed the room", st.Seq, g.st.Seq+1)
	}
	if c, _ := clocksOf(t, st); c["0"] != 900 || c["1"] != 2000 {
		t.Fatalf("clocks %v: want the bot's 2 s less the 1.1 s of its illegal moves and its move", c)
	}
}

// TestBotThatStopsAnsweringLosesOnTime: a bot whose stream is open but that
// never moves loses on time; its stream's last line is the result, and its
// event stream says the game finished.
func TestBotThatStopsAnsweringLosesOnTime(t *testing.T) {
	t.Parallel()
	now := fakeclock.New()
	s := testserver.Start(t, func(c *server.Config) { c.Now = now.Now })
	g := startBotGame(t, s, map[string]int{"base": 2})
	now.Advance(2 * time.Second)
	fin := g.game.Next(func(m testserver.Msg) bool { return m.Status == "finished" })
	if fin.Result == nil || fin.Result.Reason != "timeout" || fin.Result.Winner == nil || *fin.Result.Winner != 1 {
		t.Fatalf("result %s", fin.Raw)
	}
	g.game.Ended()
	g.events.Next(func(m testserver.Msg) bool { return m.Type == "gameFinish" && m.Room == g.room })
	if e := g.move(t, "c3", http.StatusConflict); e.Error.Code != "game_over" {
		t.Fatalf("a move after the flag: %+v", e)
	}
}

// TestBotThatDisconnectsIsAbandoned: a bot whose game stream closes is
// disconnected like a person whose socket closed; after the grace period
// the opponent claims the win.
func TestBotThatDisconnectsIsAbandoned(t *testing.T) {
	t.Parallel()
	now := fakeclock.New()
	s := testserver.Start(t, func(c *server.Config) { c.Now = now.Now })
	g := startBotGame(t, s, nil)
	g.game.Close()
	gone := g.ana.State(g.room, func(m testserver.Msg) bool { return !m.Players[0].Connected })
	if gone.Players[0].ClaimableAt != now.Now().Add(60*time.Second).UnixMilli() {
		t.Fatalf("bot gone: %+v", gone.Players[0])
	}
	g.ana.Send(map[string]any{"type": "room.claim", "room": g.room, "id": "early"})
	g.ana.WaitError("bad_request")
	now.Advance(60 * time.Second)
	g.ana.Send(map[string]any{"type": "room.claim", "room": g.room})
	fin := g.ana.State(g.room, func(m testserver.Msg) bool { return m.Status == "finished" })
	if fin.Result == nil || fin.Result.Reason != "abandoned" || fin.Result.Winner == nil || *fin.Result.Winner != 1 {
		t.Fatalf("after the claim: %s", fin.Raw)
	}
	g.events.Next(func(m testserver.Msg) bool { return m.Type == "gameFinish" && m.Room == g.room })
}

// TestShutdownEndsBotStreams: the bot API's streams never end by
// themselves, and http.Server.Shutdown waits for the requests running; as
// it begins they end, so a server with bots online stops at once instead
// of at its shutdown deadline (cmd/lobby's order: the HTTP server, then
// the service).
func TestShutdownEndsBotStreams(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t)
	g := startBotGame(t, s, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := s.HTTP.Config.Shutdown(ctx); err != nil {
		t.Fatalf("HTTP shutdown with bot streams open: %v", err)
	}
	g.events.Ended()
	g.game.Ended()
}
