package server_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/tabuleiro/tabuleiro/internal/server"
	"github.com/tabuleiro/tabuleiro/internal/testkit/testserver"
	"github.com/tabuleiro/tabuleiro/rooms"
)

// chatLine is a room.chat message's fields beside testserver.Msg's.
type chatLine struct {
	From string `json:"from"`
	Seat *int   `json:"seat"`
	Role string `json:"role"`
	By   string `json:"by"`
	Text string `json:"text"`
}

func lineOf(t *testing.T, m testserver.Msg) chatLine {
	t.Helper()
	var l chatLine
	if err := json.Unmarshal(m.Raw, &l); err != nil {
		t.Fatal(err)
	}
	return l
}

// stateChat is the chat of a room.state.
func stateChat(t *testing.T, m testserver.Msg) (lines []chatLine, spectatorChat bool) {
	t.Helper()
	var st struct {
		Chat          []chatLine `json:"chat"`
		SpectatorChat bool       `json:"spectatorChat"`
	}
	if err := json.Unmarshal(m.Raw, &st); err != nil {
		t.Fatal(err)
	}
	return st.Chat, st.SpectatorChat
}

func texts(lines []chatLine) string {
	var out []string
	for _, l := range lines {
		out = append(out, l.Text)
	}
	return strings.Join(out, "|")
}

// heard reports whether c has received a room.chat with text so far.
func heard(c *testserver.Client, text string) bool {
	for _, m := range c.Log() {
		if m.Type == "room.chat" && m.Text == text {
			return true
		}
	}
	return false
}

// TestChatPlayersAndSpectatorsApart: a seated player's line reaches
// everyone, marked with its seat and role "player"; a spectator's line
// reaches the spectators only, marked "spectator", never a seated player,
// not even on a connection that joined as a spectator; the room.state a
// join gets carries the chat as that person reads it. Any seated player
// may switch the spectators' chat off (and only they): spectators are then
// refused with a clear error until every player who switched it off
// switches it on; the switch is in room.state and in the room's saved
// snapshot.
func TestChatPlayersAndSpectatorsApart(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t)
	a, b, sp, room, _ := morrisRoom(t, s)
	sp2 := s.Hello(t, "spec2", "")
	sp2.Send(map[string]any{"type": "room.join", "room": room, "as": "spectator", "id": "j"})
	sp2.Wait("room.joined", nil)
	aSpec := s.Hello(t, "ana", a.Token) // ana's second tab, joined as a spectator
	aSpec.Send(map[string]any{"type": "room.join", "room": room, "as": "spectator", "id": "j"})
	aSpec.Wait("room.joined", nil)

	a.Send(map[string]any{"type": "room.chat", "room": room, "text": "boa sorte"})
	for _, c := range []*testserver.Client{a, b, sp, sp2, aSpec} {
		l := lineOf(t, c.Wait("room.chat", func(m testserver.Msg) bool { return m.Text == "boa sorte" }))
		if l.Role != "player" || l.Seat == nil || *l.Seat != 0 || l.From != "ana" || l.By != a.Player.ID {
			t.Fatalf("a player's line as received: %+v", l)
		}
	}
	sp.Send(map[string]any{"type": "room.chat", "room": room, "text": "e4 ganha"})
	for _, c := range []*testserver.Client{sp, sp2} {
		l := lineOf(t, c.Wait("room.chat", func(m testserver.Msg) bool { return m.Text == "e4 ganha" }))
		if l.Role != "spectator" || l.Seat != nil || l.By != sp.Player.ID {
			t.Fatalf("a spectator's line as received: %+v", l)
		}
	}
	// The room handles commands in order and each queue keeps it: a line
	// sent after the spectator's reaches the players after it would have.
	b.Send(map[string]any{"type": "room.chat", "room": room, "text": "obrigada"})
	for _, c := range []*testserver.Client{a, b, aSpec} {
		c.Wait("room.chat", func(m testserver.Msg) bool { return m.Text == "obrigada" })
		if heard(c, "e4 ganha") {
			t.Fatalf("a seated player's connection got the spectators' chat")
		}
	}
	// A join's room.state: the chat as the joiner reads it.
	b.Send(map[string]any{"type": "room.join", "room": room, "as": "player", "id": "again"})
	st := b.Wait("room.state", func(m testserver.Msg) bool { return strings.Contains(string(m.Raw), `"chat"`) })
	if got, on := stateChat(t, st); texts(got) != "boa sorte|obrigada" || !on {
		t.Fatalf("a player's chat on join: %q, spectatorChat %v", texts(got), on)
	}
	sp3 := s.Hello(t, "spec3", "")
	sp3.Send(map[string]any{"type": "room.join", "room": room, "as": "spectator", "id": "j"})
	st = sp3.Wait("room.state", func(m testserver.Msg) bool { return strings.Contains(string(m.Raw), `"chat"`) })
	if got, _ := stateChat(t, st); texts(got) != "boa sorte|e4 ganha|obrigada" {
		t.Fatalf("a spectator's chat on join: %q", texts(got))
	}

	// Only a seated player switches the spectators' chat.
	sp.Send(map[string]any{"type": "room.chat.spectators", "room": room, "on": false, "id": "x"})
	if e := sp.WaitError("not_a_player"); !strings.Contains(e.Message, "only the players") {
		t.Fatalf("a spectator switching: %q", e.Message)
	}
	a.Send(map[string]any{"type": "room.chat.spectators", "room": room, "on": false})
	off := sp.State(room, func(m testserver.Msg) bool { _, on := stateChat(t, m); return !on })
	refused := func(text string) {
		t.Helper()
		sp.Send(map[string]any{"type": "room.chat", "room": room, "text": text, "id": text})
		e := sp.Wait("error", func(m testserver.Msg) bool { return string(m.ID) == `"`+text+`"` })
		if e.Code != "bad_request" || !strings.Contains(e.Message, "switched the spectators' chat off") {
			t.Fatalf("a spectator's line with the chat off: %s %q", e.Code, e.Message)
		}
	}
	refused("one")
	snap, err := s.Store.LoadRoom(t.Context(), room)
	if err != nil || !strings.Contains(string(snap.Snapshot), `"chatState":{"off":[0]}`) {
		t.Fatalf("saved snapshot after the switch: %v %s", err, snap.Snapshot)
	}
	// bia's wish does not take back ana's.
	b.Send(map[string]any{"type": "room.chat.spectators", "room": room, "on": true})
	b.Send(map[string]any{"type": "room.chat.spectators", "room": room, "on": false})
	b.Send(map[string]any{"type": "room.chat.spectators", "room": room, "on": true})
	a.Send(map[string]any{"type": "room.chat", "room": room, "text": "sync"})
	sp.Wait("room.chat", func(m testserver.Msg) bool { return m.Text == "sync" })
	refused("two")
	a.Send(map[string]any{"type": "room.chat.spectators", "room": room, "on": true})
	sp.State(room, func(m testserver.Msg) bool { _, on := stateChat(t, m); return on && m.Seq > off.Seq })
	sp.Send(map[string]any{"type": "room.chat", "room": room, "text": "de volta"})
	sp2.Wait("room.chat", func(m testserver.Msg) bool { return m.Text == "de volta" })
}

// TestChatMute: a person mutes another in their own view: the muted
// person's lines no longer reach any of the muter's connections, nor the
// chat of the room.state the muter gets on a join; the others still get
// them; unmuting brings them back. Muting oneself or nobody is refused.
func TestChatMute(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t)
	a, b, sp, room, _ := morrisRoom(t, s)
	b2 := s.Hello(t, "bia", b.Token)
	b2.Send(map[string]any{"type": "room.join", "room": room, "as": "player", "id": "j"})
	b2.Wait("room.joined", nil)

	b.Send(map[string]any{"type": "room.chat.mute", "room": room, "player": a.Player.ID, "id": "m"})
	for _, c := range []*testserver.Client{b, b2} {
		var muted struct {
			Muted []string `json:"muted"`
		}
		m := c.Wait("room.chat.muted", nil)
		if err := json.Unmarshal(m.Raw, &muted); err != nil || len(muted.Muted) != 1 || muted.Muted[0] != a.Player.ID {
			t.Fatalf("room.chat.muted %s", m.Raw)
		}
	}
	a.Send(map[string]any{"type": "room.chat", "room": room, "text": "ruído"})
	sp.Wait("room.chat", func(m testserver.Msg) bool { return m.Text == "ruído" })
	a.Wait("room.chat", func(m testserver.Msg) bool { return m.Text == "ruído" })
	sp.Send(map[string]any{"type": "room.chat", "room": room, "text": "olá"}) // a barrier: sp's line reaches sp
	b.Send(map[string]any{"type": "room.chat", "room": room, "text": "silêncio"})
	for _, c := range []*testserver.Client{b, b2} {
		c.Wait("room.chat", func(m testserver.Msg) bool { return m.Text == "silêncio" })
		if heard(c, "ruído") {
			t.Fatal("a muted player's line reached the muter")
		}
	}
	b2.Send(map[string]any{"type": "room.join", "room": room, "as": "player", "id": "again"})
	st := b2.Wait("room.state", func(m testserver.Msg) bool { return strings.Contains(string(m.Raw), `"chat"`) })
	if got, _ := stateChat(t, st); texts(got) != "silêncio" {
		t.Fatalf("the muter's chat on join: %q", texts(got))
	}

	for _, tc := range []struct{ player, code string }{{b.Player.ID, "bad_request"}, {"", "bad_request"}} {
		b.Send(map[string]any{"type": "room.chat.mute", "room": room, "player": tc.player})
		b.WaitError(tc.code)
	}
	b.Send(map[string]any{"type": "room.chat.unmute", "room": room, "player": a.Player.ID})
	b.Wait("room.chat.muted", func(m testserver.Msg) bool { return strings.Contains(string(m.Raw), `"muted":[]`) })
	a.Send(map[string]any{"type": "room.chat", "room": room, "text": "de novo"})
	b.Wait("room.chat", func(m testserver.Msg) bool { return m.Text == "de novo" })
}

// TestChatRateLimits: a person's lines in a room are bounded in lines and
// in bytes, and a room's in lines, however many connections send them:
// past a bound the line is refused with rate_limited, reaches nobody, and
// the connection stays open. The limits refill at one line an hour here,
// so that nothing refills while the test runs.
func TestChatRateLimits(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t, func(c *server.Config) {
		c.Chat = rooms.ChatLimits{PlayerLines: 1.0 / 60, PlayerBurst: 3, PlayerBytes: 1.0 / 60, PlayerBytesBurst: 2000,
			RoomLines: 1.0 / 60, RoomBurst: 12, RoomBytes: 1.0 / 60, RoomBytesBurst: 1 << 20}
	})
	a, b, sp, room, _ := morrisRoom(t, s)

	// Lines per person: 3, then refused.
	for i := range 4 {
		a.Send(map[string]any{"type": "room.chat", "room": room, "text": fmt.Sprint("a", i), "id": i})
	}
	for i := range 3 {
		b.Wait("room.chat", func(m testserver.Msg) bool { return m.Text == fmt.Sprint("a", i) })
	}
	if e := a.Wait("error", func(m testserver.Msg) bool { return string(m.ID) == "3" }); e.Code != "rate_limited" || !strings.Contains(e.Message, "too fast") {
		t.Fatalf("a's fourth line: %s %q", e.Code, e.Message)
	}
	// Bytes per person: a burst of 2,000 bytes takes one line of 1,600
	// (400 runes of 4 bytes), not two, and then one of 390.
	wide, long := strings.Repeat("😀", 400), strings.Repeat("x", 390)
	b.Send(map[string]any{"type": "room.chat", "room": room, "text": wide, "id": "l1"})
	sp.Wait("room.chat", func(m testserver.Msg) bool { return m.Text == wide })
	b.Send(map[string]any{"type": "room.chat", "room": room, "text": wide, "id": "l2"})
	if e := b.Wait("error", func(m testserver.Msg) bool { return string(m.ID) == `"l2"` }); e.Code != "rate_limited" || !strings.Contains(e.Message, "too much") {
		t.Fatalf("b's second long line: %s %q", e.Code, e.Message)
	}
	b.Send(map[string]any{"type": "room.chat", "room": room, "text": long, "id": "l3"})
	sp.Wait("room.chat", func(m testserver.Msg) bool { return m.Text == long })

	// The room: 12 lines in all, 5 taken; twenty spectators send two each.
	var wg sync.WaitGroup
	var mu sync.Mutex
	delivered, limited := 0, 0
	for i := range 20 {
		c := s.Hello(t, fmt.Sprint("flood", i), "")
		c.Send(map[string]any{"type": "room.join", "room": room, "as": "spectator", "id": "j"})
		c.Wait("room.joined", nil)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range 2 {
				text := fmt.Sprintf("flood %d %d", i, k)
				c.Send(map[string]any{"type": "room.chat", "room": room, "text": text, "id": text})
				m := c.Wait("", func(m testserver.Msg) bool {
					return m.Type == "room.chat" && m.Text == text || m.Type == "error" && string(m.ID) == `"`+text+`"`
				})
				mu.Lock()
				if m.Type == "room.chat" {
					delivered++
				} else if m.Code == "rate_limited" {
					limited++
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if delivered != 7 || limited != 33 {
		t.Fatalf("of 40 lines from 20 connections: %d delivered, %d rate_limited; want 7 and 33", delivered, limited)
	}
	if a.Closed() || sp.Closed() {
		t.Fatal("a connection was closed for chatting too fast")
	}
}
