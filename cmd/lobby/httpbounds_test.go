package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/internal/server"
)

// dialSmall connects to addr with a 4 KiB receive buffer, so that a
// client that does not read holds little in its kernel.
func dialSmall(t *testing.T, addr string) net.Conn {
	t.Helper()
	d := net.Dialer{Timeout: 5 * time.Second, Control: func(_, _ string, rc syscall.RawConn) error {
		var serr error
		if err := rc.Control(func(fd uintptr) {
			serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096)
		}); err != nil {
			return err
		}
		return serr
	}}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// TestWriteDeadlineInTheBinary: the real binary (-write-timeout 500ms). A
// client pipelines many GET /api/games on one connection and never reads:
// the server's write blocks, and past the deadline the server gives the
// connection up, so reading afterwards ends before all the answers (the
// binary served the routes without the deadline: every answer waited for
// the client as long as it liked, issue 24).
func TestWriteDeadlineInTheBinary(t *testing.T) {
	addr := startLobby(t, "", "-write-timeout", "500ms").addr
	resp, err := http.Get("http://" + addr + "/api/games")
	if err != nil {
		t.Fatal(err)
	}
	one, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	// Answers well past what the kernel buffers on both sides.
	n := 16<<20/(len(one)+200) + 1
	c := dialSmall(t, addr)
	req := "GET /api/games HTTP/1.1\r\nHost: " + addr + "\r\n\r\n"
	go func() { _, _ = io.WriteString(c, strings.Repeat(req, n)) }()
	time.Sleep(4 * 500 * time.Millisecond) // the client reads nothing
	_ = c.SetReadDeadline(time.Now().Add(time.Minute))
	br := bufio.NewReaderSize(c, 64<<10)
	got := 0
	for ; got < n; got++ {
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			break
		}
		_, err = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if err != nil {
			break
		}
	}
	if got == n {
		t.Fatalf("all %d pipelined answers were written to a client that read nothing for 2 s, past the 500 ms write deadline", n)
	}
	t.Logf("%d of %d pipelined answers (%d bytes each) before the server gave up the connection", got, n, len(one))
}

// TestHeaderLimitInTheBinary: the real binary with the default limit, 16
// KiB for a request's line and headers (docs/configuration.md): a request
// of exactly 16 KiB is served, one byte more is answered 431, and so is a
// 20 KB header (net/http adds 4 KiB to MaxHeaderBytes: it passed), and a
// pipelined request whose start came with the one before.
func TestHeaderLimitInTheBinary(t *testing.T) {
	addr := startLobby(t, "").addr
	limit := server.DefaultMaxHeaderBytes
	// request is a GET /healthz whose line and headers are size bytes.
	request := func(size int) string {
		head := "GET /healthz HTTP/1.1\r\nHost: " + addr + "\r\nX-Pad: "
		pad := size - len(head) - len("\r\n\r\n")
		return head + strings.Repeat("p", pad) + "\r\n\r\n"
	}
	status := func(reqs ...string) []int {
		t.Helper()
		c := dialSmall(t, addr)
		if _, err := io.WriteString(c, strings.Join(reqs, "")); err != nil {
			t.Fatal(err)
		}
		_ = c.SetReadDeadline(time.Now().Add(30 * time.Second))
		br := bufio.NewReader(c)
		var out []int
		for range reqs {
			resp, err := http.ReadResponse(br, nil)
			if err != nil {
				break
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			out = append(out, resp.StatusCode)
		}
		return out
	}
	tests := []struct {
		name string
		reqs []string
		want []int
	}{
		{"a request of exactly the limit", []string{request(limit)}, []int{200}},
		{"a byte over the limit", []string{request(limit + 1)}, []int{431}},
		{"a 20 KB header", []string{request(20_000)}, []int{431}},
		{"a small request, then one 3 KB over the limit read partly with it", []string{request(200), request(limit + 3000)}, []int{200, 431}},
		{"two requests of the limit, pipelined", []string{request(limit), request(limit)}, []int{200, 200}},
	}
	for _, tc := range tests {
		if got := status(tc.reqs...); fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
