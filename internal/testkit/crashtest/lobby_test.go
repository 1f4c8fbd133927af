package crashtest

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// lobby is the real binary, run as a child process on a fixed address so
// that clients come back to the same place after a kill.
type lobby struct {
	t       *testing.T
	bin     string
	addr    string
	args    []string
	logPath string

	cmd    *exec.Cmd
	exited chan struct{}
	starts int
}

func newLobby(t *testing.T, bin, redisAddr, prefix string) *lobby {
	t.Helper()
	port, err := freePort()
	if err != nil {
		t.Fatalf("free port: %v", err)
	}
	l := &lobby{t: t, bin: bin, addr: net.JoinHostPort("127.0.0.1", strconv.Itoa(port)),
		logPath: filepath.Join(t.TempDir(), "lobby.log")}
	l.args = []string{"-addr", l.addr, "-redis", "redis://" + redisAddr + "/0", "-prefix", prefix,
		"-bots", "2", "-bot-timeout", "250ms", "-log-level", "warn"}
	t.Cleanup(func() {
		if l.cmd != nil {
			l.kill()
		}
	})
	return l
}

func (l *lobby) url() string   { return "http://" + l.addr }
func (l *lobby) wsURL() string { return "ws://" + l.addr + "/ws" }

// start runs the binary and waits until it answers /readyz (the store
// answers too).
func (l *lobby) start() {
	l.t.Helper()
	logf, err := os.OpenFile(l.logPath, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		l.t.Fatal(err)
	}
	fmt.Fprintf(logf, "--- start %d\n", l.starts)
	l.starts++
	cmd := exec.Command(l.bin, l.args...)
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		logf.Close()
		l.t.Fatalf("start lobby: %v", err)
	}
	exited := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		logf.Close()
		close(exited)
	}()
	l.cmd, l.exited = cmd, exited
	deadline := time.Now().Add(60 * time.Second)
	hc := &http.Client{Timeout: 2 * time.Second}
	for {
		select {
		case <-exited:
			l.cmd = nil
			l.t.Fatalf("lobby exited at start:\n%s", l.logTail())
		default:
		}
		resp, err := hc.Get(l.url() + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		if time.Now().After(deadline) {
			l.kill()
			l.t.Fatalf("lobby not ready after 60s:\n%s", l.logTail())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// kill sends SIGKILL and waits for the process to be gone.
func (l *lobby) kill() {
	_ = l.cmd.Process.Signal(syscall.SIGKILL)
	<-l.exited
	l.cmd = nil
}

func (l *lobby) logTail() string {
	b, err := os.ReadFile(l.logPath)
	if err != nil {
		return "(no log: " + err.Error() + ")"
	}
	if len(b) > 4000 {
		b = b[len(b)-4000:]
	}
	return string(b)
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}
