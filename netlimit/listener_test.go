package netlimit

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/netip"
	"testing"
	"time"
)

func TestCounter(t *testing.T) {
	c := NewCounter(2)
	if !c.Acquire("a") || !c.Acquire("a") {
		t.Fatal("the first two were refused")
	}
	if c.Acquire("a") {
		t.Fatal("a third was taken past the limit of 2")
	}
	if !c.Acquire("b") {
		t.Fatal("another key was refused")
	}
	c.Release("a")
	if !c.Acquire("a") {
		t.Fatal("refused after a release")
	}
	c.Release("a")
	c.Release("a")
	c.Release("b")
	if n := c.Keys(); n != 0 {
		t.Fatalf("%d keys kept after everything was released", n)
	}
	unlimited := NewCounter(0)
	for range 100 {
		if !unlimited.Acquire("x") {
			t.Fatal("a counter without a limit refused")
		}
	}
	if n := unlimited.Held("x"); n != 100 {
		t.Fatalf("held %d, want 100", n)
	}
}

func TestConnBudget(t *testing.T) {
	tests := []struct {
		files   uint64
		reserve int
		want    int
		wantErr bool
	}{
		{files: 1024, reserve: 256, want: 768},
		{files: 1 << 20, reserve: 256, want: 1<<20 - 256},
		{files: ^uint64(0), reserve: 256, want: 1<<31 - 1 - 256},
		{files: 256, reserve: 256, wantErr: true},
		{files: 256 + MinConns - 1, reserve: 256, wantErr: true},
		{files: 256 + MinConns, reserve: 256, want: MinConns},
	}
	for _, tt := range tests {
		got, err := ConnBudget(tt.files, tt.reserve)
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("ConnBudget(%d, %d) = %d, %v; want %d, error %v", tt.files, tt.reserve, got, err, tt.want, tt.wantErr)
		}
	}
	if n, err := OpenFileLimit(); err != nil || n == 0 {
		t.Errorf("OpenFileLimit() = %d, %v", n, err)
	}
}

// capped starts a Listener on loopback with the given caps; each
// connection it keeps or refuses sends "kept" or the refusal's reason on the
// returned channel. Kept connections stay open until their peer closes them.
func capped(t *testing.T, max, perAddr int, r *Resolver) (*Listener, <-chan string) {
	t.Helper()
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	events := make(chan string, 100)
	l := &Listener{Listener: inner, Max: max, PerAddr: perAddr, Resolver: r, OnRefuse: func(r string) { events <- r }}
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			events <- "kept"
			go func() {
				_, _ = io.Copy(io.Discard, c)
				c.Close()
			}()
		}
	}()
	t.Cleanup(func() { l.Close() })
	return l, events
}

// dial opens a connection to l and returns it with what l did with it; a
// refused one must have read the listener's 503.
func dial(t *testing.T, l *Listener, events <-chan string) (net.Conn, string) {
	t.Helper()
	c, err := net.Dial("tcp", l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	ev := <-events
	if ev != "kept" {
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatalf("reading a refusal: %v", err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
			t.Fatalf("refused with %s, Retry-After %q", resp.Status, resp.Header.Get("Retry-After"))
		}
	}
	return c, ev
}

func TestListenerCaps(t *testing.T) {
	l, events := capped(t, 5, 3, nil)
	var kept []net.Conn
	for range 3 {
		c, ev := dial(t, l, events)
		if ev != "kept" {
			t.Fatalf("a connection under the caps was refused (%s)", ev)
		}
		kept = append(kept, c)
	}
	if _, ev := dial(t, l, events); ev != RefusedPerAddr {
		t.Fatalf("a fourth connection from one address: %s, want refused %s (PerAddr is 3)", ev, RefusedPerAddr)
	}
	// Closing one gives its place back.
	kept[0].Close()
	for deadline := time.Now().Add(10 * time.Second); l.Open() != 2; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d open after a close, want 2", l.Open())
		}
	}
	if _, ev := dial(t, l, events); ev != "kept" {
		t.Fatalf("refused (%s) after a connection closed", ev)
	}
}

func TestListenerGlobalCapAndTrustedProxies(t *testing.T) {
	// The peer is a trusted proxy: its connections are not capped by
	// address, only by the global cap.
	l, events := capped(t, 4, 1, NewResolver([]netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}))
	for i := range 4 {
		if _, ev := dial(t, l, events); ev != "kept" {
			t.Fatalf("connection %d from a trusted proxy: %s", i+1, ev)
		}
	}
	if _, ev := dial(t, l, events); ev != RefusedGlobal {
		t.Fatalf("a fifth connection: %s, want refused %s (Max is 4)", ev, RefusedGlobal)
	}
	if n := l.Open(); n != 4 {
		t.Fatalf("%d open, want 4", n)
	}
}
