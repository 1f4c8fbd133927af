package clustertest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/internal/testkit/lobbybin"
	"github.com/tabuleiro/tabuleiro/internal/testkit/redistest"
	"github.com/tabuleiro/tabuleiro/internal/testkit/testserver"
	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/rooms"
)

// api sends an HTTP request to node n with token in "Authorization:
// Bearer" and body as JSON (none when nil), decodes the answer into out
// when not nil, and returns the status code.
func (n *node) api(t *testing.T, method, path, token string, body, out any) int {
	t.Helper()
	var rd *bytes.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	} else {
		rd = bytes.NewReader(nil)
	}
	req, err := http.NewRequest(method, "http://"+n.addr+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := (&http.Client{Timeout: 20 * time.Second}).Do(req)
	if err != nil {
		t.Fatalf("%s %s on %s: %v", method, path, n.name, err)
	}
	defer resp.Body.Close()
	if out != nil {
		if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
			t.Fatalf("%s %s on %s: decode: %v", method, path, n.name, err)
		}
	}
	return resp.StatusCode
}

// TestBotBehindABalancer: two nodes on one Redis, as behind a load
// balancer. The Python example bot (clients/python) sends every request of
// its own to node 0: its event stream, its game streams and its moves. A
// tournament made on node 1, whose rooms run there, is played to the end
// with no game lost by abort, time or abandonment; the bot is online on
// node 1, and a challenge made there reaches it. (Before, the bot never
// heard of its games on node 1 and lost them all by abort, and node 1
// answered a challenge "not online".)
func TestBotBehindABalancer(t *testing.T) {
	rs := redistest.StartServer(t)
	ns := startNodes(t, lobbybin.Build(t, false), rs.Addr(), "bots:", 2)
	a, b := ns[0], ns[1]

	ana, err := dial(b.wsURL(), "ana", "")
	if err != nil {
		t.Fatal(err)
	}
	defer ana.close()
	var bot struct{ ID, Token string }
	if code := b.api(t, "POST", "/api/bots", ana.token, map[string]string{"name": "exemplo"}, &bot); code != http.StatusCreated {
		t.Fatalf("POST /api/bots: %d", code)
	}
	out := &testserver.PythonBot(t, "http://"+a.addr, bot.Token).Out
	defer func() {
		if t.Failed() {
			t.Logf("the Python bot's output:\n%s", out.String())
		}
	}()

	// Online on node 1, where its stream is not.
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		var list struct{ Bots []protocol.BotInfo }
		b.api(t, "GET", "/api/bots", "", nil, &list)
		if slices.ContainsFunc(list.Bots, func(x protocol.BotInfo) bool { return x.ID == bot.ID && x.Name == "exemplo" }) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the bot never came online on node 1: %+v", list)
		}
	}

	// A tournament made on node 1: the bot against the server's apressado,
	// each first once, with a clock (so that a game the bot never hears of
	// is aborted, as it was).
	var created struct{ ID string }
	body := map[string]any{"game": "queens", "entrants": []map[string]string{{"level": "apressado"}, {"bot": bot.ID}},
		"partidas": []any{[]any{"tradicional", 1}}, "clock": map[string]int{"base": 60, "increment": 2}}
	if code := b.api(t, "POST", "/api/torneios", ana.token, body, &created); code != http.StatusCreated {
		t.Fatalf("POST /api/torneios: %d", code)
	}
	var v struct {
		Status string
		Games  []struct{ Room, Status string }
	}
	for deadline := time.Now().Add(3 * time.Minute); ; time.Sleep(200 * time.Millisecond) {
		b.api(t, "GET", "/api/torneios/"+created.ID, "", nil, &v)
		if v.Status == "finished" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the tournament did not finish: %+v", v)
		}
	}
	if len(v.Games) != 2 {
		t.Fatalf("%d games, want 2", len(v.Games))
	}
	for _, g := range v.Games {
		if !hasLine(b.log(), "room created", g.Room) || hasLine(a.log(), "room created", g.Room) {
			t.Errorf("room %s was not made on node 1", g.Room)
		}
		var rec struct {
			Moves  []protocol.LastMove
			Result *protocol.Result
		}
		if code := a.api(t, "GET", "/api/records/"+g.Room, "", nil, &rec); code != http.StatusOK || rec.Result == nil {
			t.Fatalf("record of %s: %d %+v", g.Room, code, rec)
		}
		switch rec.Result.Reason {
		case rooms.ReasonAborted, rooms.ReasonAbandoned, "timeout":
			t.Errorf("game %s ended by %s: the bot did not play it", g.Room, rec.Result.Reason)
		}
		if len(rec.Moves) < 2 {
			t.Errorf("game %s: %d moves", g.Room, len(rec.Moves))
		}
	}

	// A challenge made on node 1 reaches the bot: it plays its move.
	ze, err := dial(b.wsURL(), "ze", "")
	if err != nil {
		t.Fatal(err)
	}
	defer ze.close()
	var ch struct {
		Room string
		Seat int
	}
	if code := b.api(t, "POST", "/api/bots/"+bot.ID+"/challenge", ze.token,
		map[string]any{"game": "orbito", "variant": "2", "seat": 1}, &ch); code != http.StatusCreated {
		t.Fatalf("the challenge on node 1: %d", code)
	}
	if err := ze.send(map[string]any{"type": "room.join", "room": ch.Room, "as": "player"}); err != nil {
		t.Fatal(err)
	}
	if _, err := ze.wait(30*time.Second, func(m *msg) bool {
		return m.Type == "room.state" && m.Room == ch.Room && m.LastMove != nil && m.LastMove.Seat == 0
	}); err != nil {
		t.Fatalf("the bot never moved in the challenge's room: %v", err)
	}
	if err := ze.send(map[string]any{"type": "room.resign", "room": ch.Room}); err != nil {
		t.Fatal(err)
	}
	if _, err := ze.wait(30*time.Second, func(m *msg) bool {
		return m.Type == "room.state" && m.Room == ch.Room && m.Status == "finished"
	}); err != nil {
		t.Fatal(fmt.Errorf("the challenge did not finish: %w", err))
	}
}
