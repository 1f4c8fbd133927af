package main

import (
	"net"
	"net/http"
	"os/exec"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/internal/testkit/lobbybin"
)

// lobbyProc is the real binary, running as a child process until the test
// ends.
type lobbyProc struct {
	addr string
	logs *syncBuffer
}

// startLobby builds the real binary and runs it on a free address, through
// shell when it is not empty (a sh -c script that ends with exec "$0"
// "$@", such as one that sets ulimit), with args after the defaults
// (-warm-up=false -log-level warn; a later flag wins), and waits until it
// answers /healthz.
func startLobby(t *testing.T, shell string, args ...string) *lobbyProc {
	t.Helper()
	bin := lobbybin.Build(t, false)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &lobbyProc{addr: ln.Addr().String(), logs: &syncBuffer{}}
	ln.Close()
	args = append([]string{"-addr", p.addr, "-warm-up=false", "-log-level", "warn"}, args...)
	cmd := exec.Command(bin, args...)
	if shell != "" {
		cmd = exec.Command("sh", append([]string{"-c", shell, bin}, args...)...)
	}
	cmd.Stdout, cmd.Stderr = p.logs, p.logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	for deadline := time.Now().Add(30 * time.Second); p.health() != http.StatusOK; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the lobby never answered /healthz:\n%s", p.logs.String())
		}
	}
	return p
}

// health is the status of GET /healthz on a connection of its own, 0 when
// it did not answer.
func (p *lobbyProc) health() int {
	c := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 10 * time.Second}
	resp, err := c.Get("http://" + p.addr + "/healthz")
	if err != nil {
		return 0
	}
	resp.Body.Close()
	return resp.StatusCode
}
