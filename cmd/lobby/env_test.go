package main

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/tabuleiro/tabuleiro/internal/testkit/lobbybin"
)

// TestEnvValues: a setting from the environment that does not parse stops
// the lobby before it listens (exit 2), naming the variable and what it
// should be; one that parses is taken (-h then exits 0).
func TestEnvValues(t *testing.T) {
	t.Parallel()
	bin := lobbybin.Build(t, false)
	tests := []struct {
		env      string
		wantCode int
		wantErr  string
	}{
		{"TABULEIRO_BOTS=x", 2, `lobby: TABULEIRO_BOTS="x" is not a number`},
		{"TABULEIRO_RATE=fast", 2, `lobby: TABULEIRO_RATE="fast" is not a number`},
		{"TABULEIRO_COMPRESS=maybe", 2, `lobby: TABULEIRO_COMPRESS="maybe" is not a boolean`},
		{"TABULEIRO_GRACE=3", 2, `lobby: TABULEIRO_GRACE="3" is not a duration`},
		{"TABULEIRO_BOTS=3", 0, ""},
		{"TABULEIRO_RATE=2.5", 0, ""},
		{"TABULEIRO_COMPRESS=true", 0, ""},
		{"TABULEIRO_GRACE=3s", 0, ""},
	}
	for _, tc := range tests {
		t.Run(tc.env, func(t *testing.T) {
			cmd := exec.Command(bin, "-h")
			cmd.Env = append(os.Environ(), tc.env)
			out, err := cmd.CombinedOutput()
			code := 0
			var exit *exec.ExitError
			if errors.As(err, &exit) {
				code = exit.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != tc.wantCode {
				t.Errorf("exit code %d, want %d; output:\n%s", code, tc.wantCode, out)
			}
			if got := strings.Contains(string(out), "lobby: TABULEIRO_"); got != (tc.wantErr != "") {
				t.Errorf("output names a bad variable: %v, want %v; output:\n%s", got, tc.wantErr != "", out)
			}
			if tc.wantErr != "" && !strings.Contains(string(out), tc.wantErr) {
				t.Errorf("output lacks %q:\n%s", tc.wantErr, out)
			}
		})
	}
}
