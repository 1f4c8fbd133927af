package hub

import (
	"testing"

	"github.com/tabuleiro/tabuleiro/protocol"
)

// TestEveryMessageHasOneHandler: the client messages of protocol.Messages
// and the hub's handlers are the same list, and each handler is of its
// message's kind: a room message is posted to its room, any other is
// handled by the hub.
func TestEveryMessageHasOneHandler(t *testing.T) {
	seen := map[string]bool{}
	for _, spec := range protocol.Messages {
		if seen[spec.Type] {
			t.Errorf("%s: two entries in protocol.Messages", spec.Type)
		}
		seen[spec.Type] = true
		do, ok := handlers[spec.Type]
		switch {
		case !ok:
			t.Errorf("%s: in protocol.Messages with no handler", spec.Type)
		case spec.Room && (do.post == nil || do.hub != nil):
			t.Errorf("%s: a room message needs a post, and no hub handler", spec.Type)
		case !spec.Room && (do.hub == nil || do.post != nil || do.admit != nil):
			t.Errorf("%s: a message the hub answers needs a hub handler, and no post or admit", spec.Type)
		}
	}
	for typ := range handlers {
		if _, ok := protocol.Message(typ); !ok {
			t.Errorf("%s: a handler with no entry in protocol.Messages", typ)
		}
	}
}
