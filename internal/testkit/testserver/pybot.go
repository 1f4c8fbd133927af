package testserver

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// Proc is a child process of a test: what it prints, and its end.
type Proc struct {
	// Out is what it printed so far.
	Out  Output
	done chan struct{}
	err  error
}

// Exited is closed when the process has exited; Err then says how.
func (p *Proc) Exited() <-chan struct{} { return p.done }

// Err is the process's exit error, once Exited is closed.
func (p *Proc) Err() error { <-p.done; return p.err }

// PythonBot runs the Python client's example bot (clients/python/exemplo.py,
// standard library only, by the machine's python3) against the server at
// url with the bot's token and args, until it exits or the test ends. It
// fails the test without python3.
func PythonBot(t testing.TB, url, token string, args ...string) *Proc {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Fatalf("python3 is needed for the Python bot: %v", err)
	}
	_, here, _, _ := runtime.Caller(0)
	script := filepath.Join(filepath.Dir(here), "..", "..", "..", "clients", "python", "exemplo.py")
	p := &Proc{done: make(chan struct{})}
	// A token may begin with "-": one argument.
	cmd := exec.Command(py, append([]string{script, "--servidor", url, "--token=" + token}, args...)...)
	cmd.Stdout, cmd.Stderr = &p.Out, &p.Out
	cmd.Env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1") // nothing written into the source tree
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-p.done
	})
	return p
}
