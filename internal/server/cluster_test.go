package server_test

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/broker"
	"github.com/tabuleiro/tabuleiro/httpapi"
	"github.com/tabuleiro/tabuleiro/internal/server"
	"github.com/tabuleiro/tabuleiro/internal/testkit/testserver"
	"github.com/tabuleiro/tabuleiro/store/memstore"
)

// startNodes starts n nodes sharing one memory store and one memory broker,
// as several lobby processes share one Redis; edit may change each node's
// configuration.
func startNodes(t *testing.T, n int, ttl time.Duration, edit ...func(*server.Config)) []*testserver.Server {
	t.Helper()
	st := memstore.New()
	b := broker.NewMemory(0)
	t.Cleanup(func() { _ = b.Close() })
	nodes := make([]*testserver.Server, n)
	for i := range nodes {
		nodes[i] = testserver.Start(t, append([]func(*server.Config){func(c *server.Config) {
			c.Store = st
			c.Cluster = &server.Cluster{Broker: b, Node: "node" + strconv.Itoa(i), TTL: ttl}
		}}, edit...)...)
	}
	return nodes
}

// TestClusterPlayersAndSpectatorsOnDifferentNodes: a room created on node 0
// is played by a player on node 1 and watched from node 2; everyone sees
// every seq, the spectator count and the opponent's presence.
func TestClusterPlayersAndSpectatorsOnDifferentNodes(t *testing.T) {
	t.Parallel()
	nodes := startNodes(t, 3, 2*time.Second)
	for i, gc := range allGames {
		t.Run(gc.game+"/"+gc.variant, func(t *testing.T) {
			t.Parallel() // a room each
			rng := rand.New(rand.NewPCG(uint64(i), 9))
			a := nodes[i%3].Hello(t, "ana", "")
			b := nodes[(i+1)%3].Hello(t, "bia", "")
			sp := nodes[(i+2)%3].Hello(t, "spec", "")
			sp0 := nodes[i%3].Hello(t, "spec-local", "")
			a.Send(map[string]any{"type": "room.create", "game": gc.game, "variant": gc.variant, "opponent": "human"})
			room := a.Wait("room.joined", nil).Room
			sp.Send(map[string]any{"type": "room.join", "room": room, "as": "spectator"})
			if j := sp.Wait("room.joined", nil); j.Role != "spectator" || j.Room != room {
				t.Fatalf("remote spectator joined as %s", j.Raw)
			}
			sp0.Send(map[string]any{"type": "room.join", "room": room, "as": "spectator"})
			sp0.Wait("room.joined", nil)
			b.Send(map[string]any{"type": "room.join", "room": room, "as": "player"})
			if jb := b.Wait("room.joined", nil); jb.Seat == nil || *jb.Seat != 1 {
				t.Fatalf("remote player joined as %s", jb.Raw)
			}
			st := a.State(room, func(m testserver.Msg) bool {
				return m.Status == "playing" && m.Spectators == 2 && len(m.Players) == 2 && m.Players[1].Connected
			})
			if !st.Players[0].Connected {
				t.Fatalf("the owner's own player shows as away: %s", st.Raw)
			}
			final := playOut(t, rng, map[int]*testserver.Client{0: a, 1: b}, room, 5000)
			if final.Result == nil {
				t.Fatalf("final state %s", final.Raw)
			}
			for who, c := range map[string]*testserver.Client{"remote spectator": sp, "local spectator": sp0, "remote player": b} {
				c.State(room, func(m testserver.Msg) bool { return m.Seq == final.Seq })
				if last := checkSeqs(t, who, c, room); last.Seq != final.Seq || string(last.Board) != string(final.Board) {
					t.Fatalf("%s ended at seq %d board %s; the owner's player at %d %s", who, last.Seq, last.Board, final.Seq, final.Board)
				}
			}
			// Chat crosses nodes both ways.
			b.Send(map[string]any{"type": "room.chat", "room": room, "text": "gg from " + fmt.Sprint(i)})
			a.Wait("room.chat", func(m testserver.Msg) bool { return m.Text == "gg from "+fmt.Sprint(i) })
			sp.Wait("room.chat", func(m testserver.Msg) bool { return m.Text == "gg from "+fmt.Sprint(i) })
			// A remote spectator leaving is seen by the owner.
			sp.Send(map[string]any{"type": "room.leave", "room": room, "id": 7})
			sp.Wait("room.left", nil)
			a.State(room, func(m testserver.Msg) bool { return m.Spectators == 1 })
			// A remote player disconnecting is seen by the owner.
			b.Close()
			a.State(room, func(m testserver.Msg) bool { return len(m.Players) == 2 && !m.Players[1].Connected })
		})
	}
}

// TestClusterRoomMovesWhenItsNodeStops: the node serving a room shuts down
// (as on SIGTERM): it releases the lease, a node with members in the room
// takes it over, and the game goes on to its end with everyone, the
// player of the stopped node back through another node with its token.
func TestClusterRoomMovesWhenItsNodeStops(t *testing.T) {
	t.Parallel()
	nodes := startNodes(t, 3, 600*time.Millisecond)
	rng := rand.New(rand.NewPCG(5, 5))
	a := nodes[0].Hello(t, "ana", "")
	b := nodes[1].Hello(t, "bia", "")
	sp := nodes[2].Hello(t, "spec", "")
	room := humanRoom(a, b, "go", "9")
	b.Wait("room.joined", nil)
	sp.Send(map[string]any{"type": "room.join", "room": room, "as": "spectator"})
	sp.Wait("room.joined", nil)
	// A few moves on node 0.
	players := map[int]*testserver.Client{0: a, 1: b}
	st := a.State(room, func(m testserver.Msg) bool { return m.Status == "playing" && m.Spectators == 1 })
	for range 6 {
		seat := *st.Turn
		move := st.Legal[rng.IntN(len(st.Legal))]
		players[seat].Send(map[string]any{"type": "room.move", "room": room, "move": move})
		seq := st.Seq
		st = b.State(room, func(m testserver.Msg) bool { return m.Seq > seq && m.LastMove != nil })
	}
	before := st.Seq

	nodes[0].Stop()
	// The player of node 0 comes back through node 2 with its token.
	a2 := nodes[2].Hello(t, "ana", a.Token)
	// Everyone is joined again on the new owner: a full state, same board.
	for who, c := range map[string]*testserver.Client{"ana": a2, "bia": b, "spec": sp} {
		got := c.State(room, func(m testserver.Msg) bool { return m.Seq >= before })
		if got.Seq == before && string(got.Board) != string(st.Board) {
			t.Fatalf("%s sees board %s after the takeover; before it: %s", who, got.Board, st.Board)
		}
	}
	final := playOut(t, rng, map[int]*testserver.Client{0: a2, 1: b}, room, 5000)
	if final.Result == nil {
		t.Fatalf("final %s", final.Raw)
	}
	sp.State(room, func(m testserver.Msg) bool { return m.Seq == final.Seq })
}

// TestClusterQuickMatchAcrossNodes: two players looking for the same game on
// different nodes are matched into one room.
func TestClusterQuickMatchAcrossNodes(t *testing.T) {
	t.Parallel()
	nodes := startNodes(t, 2, 2*time.Second)
	a := nodes[0].Hello(t, "ana", "")
	b := nodes[1].Hello(t, "bia", "")
	a.Send(map[string]any{"type": "match.find", "game": "orbito", "variant": "2"})
	a.Wait("match.queued", nil)
	b.Send(map[string]any{"type": "match.find", "game": "orbito", "variant": "2"})
	fa, fb := a.Wait("match.found", nil), b.Wait("match.found", nil)
	if fa.Room == "" || fa.Room != fb.Room {
		t.Fatalf("matched into %q and %q", fa.Room, fb.Room)
	}
	final := playOut(t, rand.New(rand.NewPCG(1, 2)), map[int]*testserver.Client{*seatOf(t, a, fa.Room): a, *seatOf(t, b, fb.Room): b}, fa.Room, 500)
	if final.Result == nil {
		t.Fatalf("final %s", final.Raw)
	}
}

func seatOf(t *testing.T, c *testserver.Client, room string) *int {
	t.Helper()
	j := c.Wait("room.joined", func(m testserver.Msg) bool { return m.Room == room })
	if j.Seat == nil {
		t.Fatalf("joined without a seat: %s", j.Raw)
	}
	return j.Seat
}

// TestClusterLobbyListsEveryNodesRooms: a public room served by one node is
// in the other nodes' lobby and /api/rooms.
func TestClusterLobbyListsEveryNodesRooms(t *testing.T) {
	t.Parallel()
	nodes := startNodes(t, 2, 600*time.Millisecond)
	a := nodes[0].Hello(t, "ana", "")
	w := nodes[1].Hello(t, "watcher", "")
	w.Send(map[string]any{"type": "lobby.watch"})
	a.Send(map[string]any{"type": "room.create", "game": "orbito", "variant": "2", "opponent": "human"})
	room := a.Wait("room.joined", nil).Room
	w.Wait("lobby", func(m testserver.Msg) bool { return strings.Contains(string(m.Rooms), room) })
	var out struct {
		Rooms []struct {
			ID string `json:"id"`
		} `json:"rooms"`
	}
	nodes[1].GetJSON(t, "/api/rooms", &out)
	if len(out.Rooms) != 1 || out.Rooms[0].ID != room {
		t.Fatalf("/api/rooms on the other node: %+v; want %s", out.Rooms, room)
	}
}

// TestClusterRematchCarriesRemotePlayers: a rematch started on the room's
// node seats the remote player in the new room, and that player leaving is
// seen there.
func TestClusterRematchCarriesRemotePlayers(t *testing.T) {
	t.Parallel()
	nodes := startNodes(t, 2, 2*time.Second)
	a := nodes[0].Hello(t, "ana", "")
	b := nodes[1].Hello(t, "bia", "")
	room := humanRoom(a, b, "orbito", "2")
	b.Wait("room.joined", nil)
	a.State(room, func(m testserver.Msg) bool { return m.Status == "playing" })
	a.Send(map[string]any{"type": "room.resign", "room": room})
	b.State(room, func(m testserver.Msg) bool { return m.Status == "finished" })
	a.Send(map[string]any{"type": "room.rematch", "room": room})
	b.Send(map[string]any{"type": "room.rematch", "room": room})
	next := b.Wait("match.found", nil).Room
	if got := a.Wait("match.found", nil).Room; got != next || next == room {
		t.Fatalf("rematch rooms %q and %q (old %q)", got, next, room)
	}
	b.StateEver(next, func(m testserver.Msg) bool { return m.Status == "playing" })
	a.StateEver(next, func(m testserver.Msg) bool {
		return m.Status == "playing" && m.Players[0].Connected && m.Players[1].Connected
	})
	b.Close()
	a.State(next, func(m testserver.Msg) bool {
		for _, p := range m.Players {
			if p.Name == "bia" {
				return !p.Connected
			}
		}
		return false
	})
}

// TestClusterBotOnEveryNode: a bot account whose every HTTP request goes to
// node 0 is online on node 1; a person there challenges it, the room runs
// on node 1, and the bot hears gameStart on node 0, streams the game from
// node 0 (the first state full), gets an illegal move's error from node 1's
// room with nothing changed, plays its moves through node 0, and hears the
// end: its last state and gameFinish.
func TestClusterBotOnEveryNode(t *testing.T) {
	t.Parallel()
	nodes := startNodes(t, 2, 600*time.Millisecond)
	near, far := nodes[0], nodes[1]
	ana := far.Hello(t, "ana", "")
	id, tok := far.RegisterBot(t, ana.Token, "robo")
	events := near.OpenStream(t, "/api/bot/stream/event", tok)
	if events.Status != http.StatusOK {
		t.Fatalf("event stream: %d", events.Status)
	}
	eventually(t, "the bot online on the other node", func() bool {
		var list struct{ Bots []httpapi.BotInfo }
		far.GetJSON(t, "/api/bots", &list)
		return len(list.Bots) == 1 && list.Bots[0].ID == id && list.Bots[0].Name == "robo"
	})
	var ch struct {
		Room string
		Seat int
	}
	if code := far.Do(t, "POST", "/api/bots/"+id+"/challenge", ana.Token,
		map[string]any{"game": "morris", "variant": "3", "seat": 1, "clock": map[string]int{"base": 300}}, &ch); code != http.StatusCreated {
		t.Fatalf("challenge on the other node: %d", code)
	}
	if _, here := near.Rooms.Running(ch.Room); here {
		t.Fatal("the challenge's room runs on the bot's node")
	}
	if ev := events.Next(nil); ev.Type != "gameStart" || ev.Room != ch.Room {
		t.Fatalf("event %s", ev.Raw)
	}
	ana.Send(map[string]any{"type": "room.join", "room": ch.Room, "as": "player"})
	ana.Wait("room.joined", nil)
	game := near.OpenStream(t, "/api/bot/game/"+ch.Room+"/stream", tok)
	first := game.Next(nil)
	if first.Type != "room.state" || first.Moves == nil || botSeat(first, id) != 0 {
		t.Fatalf("first line %s: want the full room.state, the bot in seat 0", first.Raw)
	}
	var e apiError
	if code := near.Do(t, "POST", "/api/bot/game/"+ch.Room+"/move/"+url.PathEscape("z9/x"), tok, nil, &e); code != http.StatusBadRequest || e.Error.Code != "illegal_move" {
		t.Fatalf("illegal move through the other node: %d %+v", code, e)
	}
	st, made := first, 0
	for made < 2 {
		if botTurn(st, 0) {
			if code := near.Do(t, "POST", "/api/bot/game/"+ch.Room+"/move/"+url.PathEscape(st.Legal[0]), tok, nil, &e); code != http.StatusOK {
				t.Fatalf("move %s: %d %+v", st.Legal[0], code, e)
			}
			made++
		}
		st = game.Next(func(m testserver.Msg) bool { return m.Seq > st.Seq })
		if !st.Players[0].Connected {
			t.Fatalf("the bot's seat shows away while its stream is open: %s", st.Raw)
		}
		if botTurn(st, 1) && made < 2 {
			ana.Send(map[string]any{"type": "room.move", "room": ch.Room, "move": st.Legal[0]})
		}
	}
	if code := near.Do(t, "POST", "/api/bot/game/"+ch.Room+"/move/"+url.PathEscape(st.Legal[0]), tok, nil, &e); code != http.StatusConflict || e.Error.Code != "not_your_turn" {
		t.Fatalf("a move out of turn: %d %+v", code, e)
	}
	ana.Send(map[string]any{"type": "room.resign", "room": ch.Room})
	if last := game.Next(func(m testserver.Msg) bool { return m.Status == "finished" }); last.Result == nil || *last.Result.Winner != 0 {
		t.Fatalf("finished: %s", last.Raw)
	}
	if fin := events.Next(nil); fin.Type != "gameFinish" || fin.Room != ch.Room {
		t.Fatalf("event %s", fin.Raw)
	}
}

// TestClusterBotStreamFollowsItsRoom: a bot's game stream on node 0
// follows its room from node 1 when node 1 stops: it is joined again where
// the room goes, gets the whole state again, and the bot's next move
// through node 0 is played there.
func TestClusterBotStreamFollowsItsRoom(t *testing.T) {
	t.Parallel()
	nodes := startNodes(t, 3, 600*time.Millisecond)
	near, far, third := nodes[0], nodes[1], nodes[2]
	ana := third.Hello(t, "ana", "")
	id, tok := near.RegisterBot(t, ana.Token, "robo")
	events := near.OpenStream(t, "/api/bot/stream/event", tok)
	eventually(t, "the bot online on node 1", func() bool {
		var list struct{ Bots []httpapi.BotInfo }
		far.GetJSON(t, "/api/bots", &list)
		return len(list.Bots) == 1
	})
	var ch struct{ Room string }
	if code := far.Do(t, "POST", "/api/bots/"+id+"/challenge", ana.Token,
		map[string]any{"game": "orbito", "variant": "2", "seat": 1}, &ch); code != http.StatusCreated {
		t.Fatalf("challenge: %d", code)
	}
	events.Next(func(m testserver.Msg) bool { return m.Type == "gameStart" && m.Room == ch.Room })
	ana.Send(map[string]any{"type": "room.join", "room": ch.Room, "as": "player"})
	ana.Wait("room.joined", nil)
	game := near.OpenStream(t, "/api/bot/game/"+ch.Room+"/stream", tok)
	st := game.Next(func(m testserver.Msg) bool { return botTurn(m, 0) })
	var e apiError
	if code := near.Do(t, "POST", "/api/bot/game/"+ch.Room+"/move/"+url.PathEscape(st.Legal[0]), tok, nil, &e); code != http.StatusOK {
		t.Fatalf("first move: %d %+v", code, e)
	}
	st = game.Next(func(m testserver.Msg) bool { return m.Status == "playing" && m.Turn != nil && *m.Turn == 1 })

	far.Stop() // its room releases its lease; the members join it again elsewhere
	rejoined := game.Next(func(m testserver.Msg) bool { return m.Moves != nil && len(m.Moves) == 1 })
	if _, onFar := far.Rooms.Running(ch.Room); onFar {
		t.Fatal("the room still runs on the stopped node")
	}
	for tries := 0; ; tries++ {
		if tries == 100 {
			t.Fatal("ana's move was refused a hundred times after the room moved")
		}
		// ana's connection may be joining again too: her move is
		// refused (internal, try again) until it has.
		ana.Send(map[string]any{"type": "room.move", "room": ch.Room, "move": st.Legal[0], "id": 1})
		if m, ok := ana.TryWait("", func(m testserver.Msg) bool {
			return m.Room == ch.Room && (m.Type == "error" || m.Type == "room.state" && m.LastMove != nil && m.LastMove.Seat == 1)
		}, testserver.Timeout); !ok || m.Type == "room.state" {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	again := game.Next(func(m testserver.Msg) bool { return m.Seq > rejoined.Seq && botTurn(m, 0) })
	if code := near.Do(t, "POST", "/api/bot/game/"+ch.Room+"/move/"+url.PathEscape(again.Legal[0]), tok, nil, &e); code != http.StatusOK {
		t.Fatalf("the bot's move after the room moved: %d %+v", code, e)
	}
	game.Next(func(m testserver.Msg) bool { return m.LastMove != nil && m.LastMove.Seat == 0 && m.Seq > again.Seq })
}
