package clustertest

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// node is one lobby process, a node of the cluster.
type node struct {
	t       *testing.T
	name    string
	addr    string
	logPath string
	cmd     *exec.Cmd
	exited  chan struct{}
}

// leaseTTL is the nodes' lease lifetime: short, so that a dead node's
// rooms move quickly, long enough for a loaded machine to renew in time.
const leaseTTL = 2 * time.Second

// startNode starts one node; extra flags come after the defaults (the last
// of a flag given twice wins).
func startNode(t *testing.T, bin, name, redisAddr, prefix string, extra ...string) *node {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	n := &node{t: t, name: name, addr: addr, logPath: filepath.Join(t.TempDir(), name+".log")}
	logf, err := os.Create(n.logPath)
	if err != nil {
		t.Fatal(err)
	}
	n.cmd = exec.Command(bin, "-addr", addr, "-redis", "redis://"+redisAddr+"/0", "-prefix", prefix,
		"-cluster", "-node", name, "-lease-ttl", leaseTTL.String(), "-bots", "1", "-bot-timeout", "200ms",
		"-watch-delay", "0s", "-rate", "1000", "-burst", "1000", "-log-level", "info")
	n.cmd.Args = append(n.cmd.Args, extra...)
	n.cmd.Stdout, n.cmd.Stderr = logf, logf
	if err := n.cmd.Start(); err != nil {
		logf.Close()
		t.Fatalf("start %s: %v", name, err)
	}
	n.exited = make(chan struct{})
	go func() {
		_ = n.cmd.Wait()
		logf.Close()
		close(n.exited)
	}()
	t.Cleanup(n.kill)
	hc := &http.Client{Timeout: 2 * time.Second}
	deadline := time.Now().Add(60 * time.Second)
	for {
		select {
		case <-n.exited:
			t.Fatalf("%s exited at start:\n%s", name, n.logTail())
		default:
		}
		if resp, err := hc.Get("http://" + addr + "/readyz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return n
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s not ready after 60s:\n%s", name, n.logTail())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (n *node) wsURL() string { return "ws://" + n.addr + "/ws" }

// signal sends sig; for SIGSTOP it waits until every thread of the
// process is stopped (the signal is delivered asynchronously).
func (n *node) signal(sig syscall.Signal) {
	if err := n.cmd.Process.Signal(sig); err != nil {
		n.t.Fatalf("signal %v to %s: %v", sig, n.name, err)
	}
	if sig != syscall.SIGSTOP {
		return
	}
	dir := fmt.Sprintf("/proc/%d/task", n.cmd.Process.Pid)
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		tasks, err := os.ReadDir(dir)
		if err != nil {
			n.t.Fatalf("threads of %s: %v", n.name, err)
		}
		stopped := true
		for _, task := range tasks {
			b, err := os.ReadFile(filepath.Join(dir, task.Name(), "stat"))
			if err != nil {
				continue // the thread exited
			}
			// The state follows the command name in parentheses.
			if i := strings.LastIndexByte(string(b), ')'); i < 0 || i+2 >= len(b) || b[i+2] != 'T' {
				stopped = false
			}
		}
		if stopped {
			return
		}
	}
	n.t.Fatalf("%s did not stop", n.name)
}

// kill sends SIGKILL (and SIGCONT, for a paused node) and waits.
func (n *node) kill() {
	select {
	case <-n.exited:
		return
	default:
	}
	_ = n.cmd.Process.Signal(syscall.SIGKILL)
	_ = n.cmd.Process.Signal(syscall.SIGCONT)
	<-n.exited
}

func (n *node) log() string {
	b, err := os.ReadFile(n.logPath)
	if err != nil {
		return "(no log: " + err.Error() + ")"
	}
	return string(b)
}

func (n *node) logTail() string {
	s := n.log()
	if len(s) > 4000 {
		s = s[len(s)-4000:]
	}
	return s
}

// startNodes starts k nodes named node0.. on one Redis.
func startNodes(t *testing.T, bin, redisAddr, prefix string, k int) []*node {
	t.Helper()
	ns := make([]*node, k)
	for i := range ns {
		ns[i] = startNode(t, bin, "node"+strconv.Itoa(i), redisAddr, prefix)
	}
	t.Cleanup(func() {
		if t.Failed() {
			for _, n := range ns {
				t.Logf("--- log of %s:\n%s", n.name, n.logTail())
			}
		}
	})
	return ns
}

func hasLine(log string, parts ...string) bool {
	for _, line := range strings.Split(log, "\n") {
		all := true
		for _, p := range parts {
			all = all && strings.Contains(line, p)
		}
		if all {
			return true
		}
	}
	return false
}
