package loadgen

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// RaiseFileLimit raises this process's open-file limit to its hard limit
// and returns the new soft limit.
func RaiseFileLimit() (uint64, error) {
	var l syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
		return 0, fmt.Errorf("getrlimit: %w", err)
	}
	if l.Cur < l.Max {
		l.Cur = l.Max
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
			return 0, fmt.Errorf("setrlimit: %w", err)
		}
	}
	return l.Cur, nil
}

// RSSKB reads VmRSS (KiB) of pid from /proc/<pid>/status.
func RSSKB(pid int) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, fmt.Errorf("read status of pid %d: %w", pid, err)
	}
	return parseRSS(string(b))
}

func parseRSS(status string) (int64, error) {
	for _, line := range strings.Split(status, "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			f := strings.Fields(rest)
			if len(f) == 0 {
				break
			}
			n, err := strconv.ParseInt(f[0], 10, 64)
			if err != nil {
				return 0, fmt.Errorf("VmRSS %q: %w", f[0], err)
			}
			return n, nil
		}
	}
	return 0, errors.New("no VmRSS line")
}

// CPUSeconds reads the user plus system CPU time of pid from
// /proc/<pid>/stat (100 ticks a second, as on every Linux we run on).
func CPUSeconds(pid int) (float64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, fmt.Errorf("read stat of pid %d: %w", pid, err)
	}
	return parseStatCPU(string(b))
}

func parseStatCPU(s string) (float64, error) {
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, errors.New("malformed stat")
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 13 {
		return 0, errors.New("short stat")
	}
	ut, err1 := strconv.ParseFloat(f[11], 64)
	st, err2 := strconv.ParseFloat(f[12], 64)
	if err1 != nil || err2 != nil {
		return 0, errors.New("malformed stat times")
	}
	return (ut + st) / 100, nil
}

// SelfCPUSeconds is this process's user plus system CPU time.
func SelfCPUSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	tv := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
	return tv(ru.Utime) + tv(ru.Stime)
}

// Spawned is a server process started by the load generator.
type Spawned struct {
	cmd *exec.Cmd
	// URL is the server's WebSocket endpoint; PID its process id.
	URL string
	PID int
}

// Spawn starts argv (a cmd/lobby binary and its flags) with -addr on a free
// loopback port and waits until /healthz answers.
func Spawn(ctx context.Context, argv []string) (*Spawned, error) {
	if len(argv) == 0 {
		return nil, errors.New("spawn: empty command")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("spawn: find a port: %w", err)
	}
	addr := ln.Addr().String()
	ln.Close()
	cmd := exec.Command(argv[0], append(argv[1:], "-addr", addr)...)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("spawn %s: %w", argv[0], err)
	}
	s := &Spawned{cmd: cmd, URL: "ws://" + addr + "/ws", PID: cmd.Process.Pid}
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get("http://" + addr + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return s, nil
			}
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			s.Stop()
			return nil, fmt.Errorf("spawn %s: not healthy at %s", argv[0], addr)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Stop ends the server with SIGTERM (its graceful shutdown) and waits.
func (s *Spawned) Stop() {
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		_ = s.cmd.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		_ = s.cmd.Process.Kill()
		<-done
	}
}
