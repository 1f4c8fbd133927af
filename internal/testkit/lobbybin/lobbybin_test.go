package lobbybin_test

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/tabuleiro/tabuleiro/internal/testkit/lobbybin"
)

// The built binary is the lobby: its -h lists the lobby's flags.
func TestBuild(t *testing.T) {
	bin := lobbybin.Build(t, false)
	out, _ := exec.Command(bin, "-h").CombinedOutput() // -h prints the flags and exits
	for _, flag := range []string{"-addr", "-redis", "-cluster"} {
		if !strings.Contains(string(out), flag) {
			t.Errorf("%s -h does not list %s:\n%s", bin, flag, out)
		}
	}
}
