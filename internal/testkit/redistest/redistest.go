// Package redistest gives tests a real Redis over a real connection.
//
// Start returns the address of a private redis-server started for the test
// (a free port on 127.0.0.1, a temporary directory, no persistence) and
// stopped when the test ends. When TABULEIRO_TEST_REDIS is set to a
// host:port, Start returns that address instead, and tests keep to their own
// key prefix (Prefix), which is deleted afterwards: the shared database is
// never flushed.
//
// StartServer always starts a private server, which the test may stop and
// start again on the same port (outage tests): it does not use
// TABULEIRO_TEST_REDIS, since a test must not stop a Redis it does not own.
//
// Tests never skip for want of Redis: without a redis-server binary (on PATH
// or at /usr/bin/redis-server) and without TABULEIRO_TEST_REDIS they fail,
// saying how to install it. ./scripts/test installs it.
package redistest

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// EnvAddr names the environment variable that points tests at an existing
// Redis (host:port) instead of a private one.
const EnvAddr = "TABULEIRO_TEST_REDIS"

// Start returns the address of a Redis for the test: TABULEIRO_TEST_REDIS if
// set, else a private redis-server stopped at the end of the test.
func Start(t testing.TB) (addr string) {
	t.Helper()
	if a := os.Getenv(EnvAddr); a != "" {
		return a
	}
	return StartServer(t).Addr()
}

// Prefix returns a key prefix unique to this call (built from the test's
// name) and deletes every key under it when the test ends, so that tests can
// share one Redis database.
func Prefix(t testing.TB, addr string) string {
	t.Helper()
	var b [6]byte
	_, _ = rand.Read(b[:])
	name := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' {
			return r
		}
		return '_'
	}, t.Name())
	if len(name) > 60 {
		name = name[len(name)-60:]
	}
	prefix := "test:" + name + ":" + hex.EncodeToString(b[:]) + ":"
	t.Cleanup(func() {
		if err := deletePrefix(addr, prefix); err != nil {
			t.Logf("redistest: deleting keys %s*: %v", prefix, err)
		}
	})
	return prefix
}

func deletePrefix(addr, prefix string) error {
	c := redis.NewClient(&redis.Options{Addr: addr, DialTimeout: 2 * time.Second, MaxRetries: -1})
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	iter := c.Scan(ctx, 0, prefix+"*", 1000).Iterator()
	var keys []string
	for iter.Next(ctx) {
		keys = append(keys, iter.Val())
	}
	if err := iter.Err(); err != nil {
		if strings.Contains(err.Error(), "connection refused") {
			return nil // the server is gone, and its keys with it
		}
		return err
	}
	for _, k := range keys { // one by one: keys of a cluster live in many slots
		if err := c.Del(ctx, k).Err(); err != nil {
			return err
		}
	}
	return nil
}

// Server is a private redis-server.
type Server struct {
	t    testing.TB
	bin  string
	dir  string
	port int
	// conf, when set, is a configuration file given before the flags;
	// extra flags follow the defaults (cluster and sentinel modes).
	conf  string
	extra []string

	mu   sync.Mutex
	cmd  *exec.Cmd
	done chan struct{}
}

// StartServer starts a private redis-server on a free port of 127.0.0.1, in
// a temporary directory, with no save points and no append-only file, and
// stops it when the test ends.
func StartServer(t testing.TB) *Server {
	t.Helper()
	return startServer(t, "", nil)
}

// startServer starts a private redis-server with an optional configuration
// file (written by the caller into a temporary directory) and extra flags.
func startServer(t testing.TB, conf string, extra []string) *Server {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		if _, serr := os.Stat("/usr/bin/redis-server"); serr == nil {
			bin = "/usr/bin/redis-server"
		} else {
			t.Fatalf("redistest: no redis-server on PATH nor at /usr/bin/redis-server: install it " +
				"(apt-get install redis-server; ./scripts/test does it) or set " + EnvAddr + "=host:port")
		}
	}
	s := &Server{t: t, bin: bin, dir: t.TempDir(), conf: conf, extra: extra}
	var lastErr error
	for range 5 { // the free port may be taken between the probe and redis's bind
		s.port, err = freePort()
		if err != nil {
			t.Fatalf("redistest: free port: %v", err)
		}
		if lastErr = s.start(); lastErr == nil {
			break
		}
	}
	if lastErr != nil {
		t.Fatalf("redistest: starting redis-server: %v", lastErr)
	}
	t.Cleanup(s.kill)
	return s
}

// Addr is the server's host:port.
func (s *Server) Addr() string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(s.port)) }

// Stop stops the server as an outage would, but keeps its data: it saves the
// dataset to its directory (SHUTDOWN SAVE) and waits for the process to
// exit. Restart brings the same data back on the same port.
func (s *Server) Stop() {
	s.t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil {
		return
	}
	c := redis.NewClient(&redis.Options{Addr: s.Addr(), MaxRetries: -1, DialTimeout: 2 * time.Second})
	err := c.ShutdownSave(context.Background()).Err()
	c.Close()
	// SHUTDOWN answers by closing the connection; any other error is real.
	if err != nil && !errors.Is(err, redis.ErrClosed) && !strings.Contains(err.Error(), "EOF") &&
		!strings.Contains(err.Error(), "connection reset") {
		s.t.Fatalf("redistest: SHUTDOWN SAVE: %v", err)
	}
	select {
	case <-s.done:
	case <-time.After(10 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.done
		s.t.Fatalf("redistest: redis-server did not stop after SHUTDOWN SAVE")
	}
	s.cmd = nil
}

// Restart starts the stopped server again on the same port, with the data
// saved by Stop.
func (s *Server) Restart() {
	s.t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd != nil {
		return
	}
	var err error
	for range 50 { // the old socket may take a moment to free the port
		if err = s.startLocked(); err == nil {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	s.t.Fatalf("redistest: restarting redis-server on %s: %v", s.Addr(), err)
}

// Pause freezes the server (SIGSTOP): connections stay open and requests
// are accepted by the kernel but get no answer, as with a hung or
// partitioned Redis. Resume lets it go on, and it then executes what it
// received meanwhile.
func (s *Server) Pause() { s.signal(syscall.SIGSTOP) }

// Resume undoes Pause (SIGCONT).
func (s *Server) Resume() { s.signal(syscall.SIGCONT) }

func (s *Server) signal(sig syscall.Signal) {
	s.t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil {
		s.t.Fatalf("redistest: signal %v to a stopped server", sig)
	}
	if err := s.cmd.Process.Signal(sig); err != nil {
		s.t.Fatalf("redistest: signal %v: %v", sig, err)
	}
}

func (s *Server) start() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.startLocked()
}

func (s *Server) startLocked() error {
	logFile := filepath.Join(s.dir, "redis.log")
	var args []string
	if s.conf != "" {
		args = append(args, s.conf)
	}
	args = append(args,
		"--port", strconv.Itoa(s.port),
		"--bind", "127.0.0.1",
		"--dir", s.dir,
		"--save", "",
		"--appendonly", "no",
		"--daemonize", "no",
		"--logfile", logFile,
	)
	cmd := exec.Command(s.bin, append(args, s.extra...)...)
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(done)
	}()
	deadline := time.Now().Add(10 * time.Second)
	for {
		select {
		case <-done:
			return fmt.Errorf("redis-server exited at start: %s", tail(logFile))
		default:
		}
		if pid, err := serverPID(s.Addr()); err == nil && pid == cmd.Process.Pid {
			s.cmd, s.done = cmd, done
			return nil
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			<-done
			return fmt.Errorf("redis-server on %s did not answer PING within 10s: %s", s.Addr(), tail(logFile))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (s *Server) kill() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil {
		return
	}
	_ = s.cmd.Process.Signal(syscall.SIGCONT) // in case it was paused
	_ = s.cmd.Process.Kill()
	<-s.done
	s.cmd = nil
}

// serverPID asks the server at addr for its process id: the server is ours
// and up when it is our process's (another server may hold the port).
func serverPID(addr string) (int, error) {
	conn, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return 0, err
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(time.Second))
	if _, err := conn.Write([]byte("INFO server\r\n")); err != nil {
		return 0, err
	}
	r := bufio.NewReader(conn)
	head, err := r.ReadString('\n')
	if err != nil {
		return 0, err
	}
	if !strings.HasPrefix(head, "$") {
		return 0, fmt.Errorf("INFO answered %q", strings.TrimSpace(head))
	}
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return 0, err
		}
		if v, ok := strings.CutPrefix(line, "process_id:"); ok {
			return strconv.Atoi(strings.TrimSpace(v))
		}
	}
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func tail(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return "(no log: " + err.Error() + ")"
	}
	if len(b) > 2000 {
		b = b[len(b)-2000:]
	}
	return string(b)
}
