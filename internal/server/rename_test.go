package server_test

import (
	"testing"

	"github.com/tabuleiro/tabuleiro/internal/server"
	"github.com/tabuleiro/tabuleiro/internal/testkit/testserver"
	"github.com/tabuleiro/tabuleiro/store/memstore"
)

// TestRename: a guest named by the server renames itself; the answer carries
// the player as welcome does, every connection of the player (two tabs)
// takes the name, chat carries it at once, the next seat taken shows it, and
// a later hello with the token (no name) is welcomed with it. A name that is
// empty once cleaned, and a store that cannot save, change nothing.
func TestRename(t *testing.T) {
	t.Parallel()
	fs := &flakyStore{Store: memstore.New()}
	s := testserver.Start(t, func(c *server.Config) { c.Store = fs })
	a := s.Hello(t, "", "")
	guest := a.Player.Name
	if guest == "" {
		t.Fatal("the server gave the guest no name")
	}
	tab2 := s.Hello(t, "", a.Token)
	b := s.Hello(t, "bia", "")

	for _, bad := range []string{"", "   ", "\u0007\u0008"} {
		a.Send(map[string]any{"type": "player.rename", "id": 1, "name": bad})
		a.WaitError("bad_request")
	}
	fs.failPlayers.Store(true)
	a.Send(map[string]any{"type": "player.rename", "id": 2, "name": "never"})
	a.WaitError("internal")
	fs.failPlayers.Store(false)

	a.Send(map[string]any{"type": "player.rename", "id": 3, "name": "  Ana\u0007 Maria  "})
	m := a.Wait("player.renamed", nil)
	if string(m.ID) != "3" || m.Player.ID != a.Player.ID || m.Player.Name != "Ana Maria" {
		t.Fatalf("player.renamed = %s", m.Raw)
	}

	// Chat from the other tab carries the new name; so does a new seat.
	room := humanRoom(a, b, "morris", "3")
	st := b.State(room, func(m testserver.Msg) bool { return m.Status == "playing" })
	if st.Players[0].Name != "Ana Maria" {
		t.Errorf("seat 0 is %q, want the new name", st.Players[0].Name)
	}
	tab2.Send(map[string]any{"type": "room.join", "room": room, "as": "player"})
	tab2.Wait("room.joined", nil)
	tab2.Send(map[string]any{"type": "room.chat", "room": room, "text": "olá"})
	if c := b.Wait("room.chat", nil); c.From != "Ana Maria" {
		t.Errorf("chat from the second tab says %q, want the new name", c.From)
	}

	// The name is stored: a new connection with the token is welcomed by it.
	again := s.Hello(t, "", a.Token)
	if again.Player.Name != "Ana Maria" || again.Player.ID != a.Player.ID {
		t.Errorf("hello after the rename: %+v, want Ana Maria (%s)", again.Player, a.Player.ID)
	}
	if guest == "Ana Maria" {
		t.Fatal("the guest name was already the new one: the test proves nothing")
	}
}
