// Package lobbybin builds the real cmd/lobby binary for tests that run it
// as a child process (the crash test, the cluster test, the deploy checks).
package lobbybin

import (
	"os/exec"
	"path/filepath"
	"testing"
)

// Build builds cmd/lobby into a temporary directory of t and returns the
// binary's path; with race, with the race detector. It fails the test when
// the build fails.
func Build(t testing.TB, race bool) string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("no go command on PATH to build cmd/lobby: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "lobby")
	args := []string{"build", "-o", bin}
	if race {
		args = append(args, "-race")
	}
	cmd := exec.Command(goBin, append(args, "github.com/tabuleiro/tabuleiro/cmd/lobby")...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build cmd/lobby: %v\n%s", err, out)
	}
	return bin
}
