// Package lobbybin builds the real cmd/lobby binary for tests that run it
// as a child process (the crash test, the cluster test, the deploy checks).
package lobbybin

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// mu keeps one build at a time in this process; lockFile keeps one at a
// time across the test processes of one go test run.
var mu sync.Mutex

// Build returns the path of the cmd/lobby binary, with the race detector
// when race, building it when its sources changed. It fails the test when
// the build fails.
//
// The binary is kept in the user's cache directory, one per checkout and
// race flag, and shared by every test of every package: go build relinks
// it only when something it is made of changed (a link costs seconds, and
// a dozen tests run the binary), and a file lock keeps two test processes
// from building it at once. A build replaces the file by a rename, so a
// binary already running is never written over.
func Build(t testing.TB, race bool) string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("no go command on PATH to build cmd/lobby: %v", err)
	}
	dir, err := cacheDir(goBin, race)
	if err != nil {
		t.Fatalf("cmd/lobby's build directory: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	unlock, err := lockFile(filepath.Join(dir, "lock"))
	if err != nil {
		t.Fatalf("lock cmd/lobby's build: %v", err)
	}
	defer unlock()
	bin := filepath.Join(dir, "lobby")
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

// cacheDir is the directory of this checkout's binary (named by its go.mod
// path) with the race flag, made if need be.
func cacheDir(goBin string, race bool) (string, error) {
	out, err := exec.Command(goBin, "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	sum := sha256.Sum256([]byte(strings.TrimSpace(string(out))))
	base, err := os.UserCacheDir()
	if err != nil {
		base = os.TempDir()
	}
	flavour := "plain"
	if race {
		flavour = "race"
	}
	dir := filepath.Join(base, "tabuleiro-lobbybin", hex.EncodeToString(sum[:8]), flavour)
	return dir, os.MkdirAll(dir, 0o755)
}
