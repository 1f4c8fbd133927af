package hub

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gorilla/websocket"

	"github.com/tabuleiro/tabuleiro/protocol"
)

// testHub is a hub with no server around it; its lobby goroutine ends
// with the test.
func testHub(t *testing.T, cfg Config) *Hub {
	t.Helper()
	h := New(cfg)
	t.Cleanup(func() {
		close(h.quit)
		h.lwg.Wait()
	})
	return h
}

// closedWith fails t unless c was closed with code.
func closedWith(t *testing.T, c *conn, code int) {
	t.Helper()
	if !c.isClosed() {
		t.Fatal("connection left open")
	}
	if c.closeCode != code {
		t.Fatalf("close code %d, want %d", c.closeCode, code)
	}
}

// A client whose queue is full is dropped (1013), never waited for.
func TestSlowClientIsDroppedNotWaitedFor(t *testing.T) {
	h := testHub(t, Config{SendQueue: 2})
	c := &conn{h: h, writing: true} // as if its writer were busy: frames stay queued
	f := protocol.MustEncode(map[string]string{"type": "x"})
	if !c.Send(f) || !c.Send(f) {
		t.Fatal("queue refused frames while it had room")
	}
	if c.Send(f) {
		t.Fatal("a full queue accepted a frame")
	}
	closedWith(t, c, protocol.CloseTryLater)
	if c.Send(f) {
		t.Fatal("a closed connection accepted a frame")
	}
}

func TestCheckOrigin(t *testing.T) {
	h := &Hub{cfg: Config{Origins: []string{"https://ok.example"}}}
	for origin, want := range map[string]bool{
		"":                     true,
		"http://example.com":   true, // same host as the request
		"https://ok.example":   true,
		"https://evil.example": false,
		"::bad":                false,
	} {
		r := httptest.NewRequest("GET", "http://example.com/ws", nil)
		if origin != "" {
			r.Header.Set("Origin", origin)
		}
		if got := h.checkOrigin(r); got != want {
			t.Errorf("origin %q: %v, want %v", origin, got, want)
		}
	}
}

func TestOffersDeflate(t *testing.T) {
	tests := []struct {
		name   string
		values []string
		want   bool
	}{
		{"none", nil, false},
		{"browser", []string{"permessage-deflate; client_max_window_bits"}, true},
		{"case", []string{"PerMessage-Deflate"}, true},
		{"second of a list", []string{"x-webkit-deflate-frame, permessage-deflate"}, true},
		{"second header", []string{"foo", "permessage-deflate;server_no_context_takeover"}, true},
		{"other extension", []string{"x-webkit-deflate-frame"}, false},
		{"prefix only", []string{"permessage-deflated"}, false},
	}
	for _, tt := range tests {
		h := http.Header{}
		for _, v := range tt.values {
			h.Add("Sec-WebSocket-Extensions", v)
		}
		if got := offersDeflate(h); got != tt.want {
			t.Errorf("%s: offersDeflate(%q) = %v, want %v", tt.name, tt.values, got, tt.want)
		}
	}
}

// A handler that panics (here: a hub built without the rooms it needs)
// closes its own connection with 1011; the panic does not leave handle.
func TestPanickingHandlerClosesItsConnection(t *testing.T) {
	h := testHub(t, Config{})
	c := &conn{h: h, writing: true, playerID: "p1"} // as if its writer were busy
	c.handle([]byte(`{"type":"room.join","room":"r1","as":"spectator"}`))
	closedWith(t, c, websocket.CloseInternalServerErr)
}
