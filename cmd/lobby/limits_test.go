package main

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/gorilla/websocket"

	"github.com/tabuleiro/tabuleiro/internal/server"
	"github.com/tabuleiro/tabuleiro/netlimit"
	"github.com/tabuleiro/tabuleiro/store/memstore"
)

func TestConnCap(t *testing.T) {
	files, err := netlimit.OpenFileLimit()
	if err != nil {
		t.Fatal(err)
	}
	budget := int(files) - fdReserve
	if got, err := connCap(0, memstore.New()); err != nil || got != budget {
		t.Errorf("connCap(0) = %d, %v; want the open-file limit %d less %d = %d", got, err, files, fdReserve, budget)
	}
	if got, err := connCap(100, memstore.New()); err != nil || got != 100 {
		t.Errorf("connCap(100) = %d, %v", got, err)
	}
	if _, err := connCap(budget+1, memstore.New()); err == nil || !strings.Contains(err.Error(), "ulimit") {
		t.Errorf("connCap past the open-file limit: %v, want an error naming ulimit", err)
	}
}

// syncBuffer is a bytes.Buffer safe for a child process's output and the
// test reading it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestFileDescriptorsNeverRunOut runs the real binary with an open-file
// limit of 256 and opens 400 WebSockets at it: the cap derived from the
// limit refuses the ones past it (503, Retry-After), the process never
// fails to accept for want of a descriptor, and /healthz answers
// throughout.
func TestFileDescriptorsNeverRunOut(t *testing.T) {
	t.Parallel()
	const files, attempts = 256, 400
	p := startLobby(t, fmt.Sprintf(`ulimit -n %d && exec "$0" "$@"`, files), "-log-level", "info")
	addr, logs, health := p.addr, p.logs, p.health
	maxConns := files - fdReserve
	share := server.WebSocketShare(maxConns)
	accepted, refused := 0, 0
	for i := range attempts {
		ws, resp, err := websocket.DefaultDialer.Dial("ws://"+addr+"/ws", nil)
		switch {
		case err == nil:
			accepted++
			defer ws.Close()
		case resp != nil && resp.StatusCode == http.StatusServiceUnavailable && resp.Header.Get("Retry-After") != "":
			refused++
		default:
			t.Fatalf("WebSocket %d: %v (accepted %d, refused %d)\n%s", i+1, err, accepted, refused, logs.String())
		}
		if i%50 == 0 {
			if got := health(); got != http.StatusOK {
				t.Fatalf("/healthz after %d WebSockets: %d", i+1, got)
			}
		}
	}
	if accepted != share || refused != attempts-share {
		t.Errorf("%d WebSockets accepted and %d refused, want %d and %d (a cap of %d connections)", accepted, refused, share, attempts-share, maxConns)
	}
	if got := health(); got != http.StatusOK {
		t.Fatalf("/healthz with WebSockets at their cap: %d", got)
	}
	if out := logs.String(); strings.Contains(out, "too many open files") || !strings.Contains(out, fmt.Sprintf(`"maxConns":%d`, maxConns)) {
		t.Fatalf("the lobby ran out of descriptors, or did not derive its cap (%d):\n%s", maxConns, out)
	}
}
