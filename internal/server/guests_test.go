package server_test

import (
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/internal/server"
	"github.com/tabuleiro/tabuleiro/internal/testkit/testserver"
	"github.com/tabuleiro/tabuleiro/netlimit"
)

// TestNewGuestsPerAddress: one address gets its burst of new guests and
// then a rate_limited refusal that creates nobody; a hello with a token
// already given is never limited.
func TestNewGuestsPerAddress(t *testing.T) {
	t.Parallel()
	const burst = 3
	s := testserver.Start(t, func(c *server.Config) {
		c.Hub.NewGuests = netlimit.NewRates(netlimit.Limit{Rate: 1, Per: time.Hour, Burst: burst}, 100, nil)
	})
	first := s.Hello(t, "g0", "")
	for i := 1; i < burst; i++ {
		s.Hello(t, "g", "")
	}
	c, err := s.Dial(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	c.Send(map[string]any{"type": "hello", "name": "one too many", "id": "h"})
	e := c.Wait("error", nil)
	if e.Code != "rate_limited" {
		t.Fatalf("guest %d from one address: %s %q, want rate_limited", burst+1, e.Code, e.Message)
	}
	// The refused connection may still say hello as someone it is.
	c.Send(map[string]any{"type": "hello", "token": first.Token})
	if w := c.Wait("welcome", nil); w.Player.ID != first.Player.ID {
		t.Fatalf("hello with g0's token welcomed %q, want %q", w.Player.ID, first.Player.ID)
	}
	again := s.Hello(t, "", first.Token)
	if again.Player.ID != first.Player.ID {
		t.Fatalf("a returning guest got %q, want %q", again.Player.ID, first.Player.ID)
	}
}
