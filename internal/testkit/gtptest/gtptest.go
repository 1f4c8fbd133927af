// Package gtptest starts the real GNU Go for the tests that check our Go
// rules, records and bots against it.
package gtptest

import (
	"os"
	"testing"

	"github.com/tabuleiro/tabuleiro/internal/tools/gtp"
)

// Require fails the test (it never skips) when GNU Go is not installed at
// gtp.GnuGo.
func Require(t testing.TB) {
	t.Helper()
	if _, err := os.Stat(gtp.GnuGo); err != nil {
		t.Fatalf("GNU Go is required at %s (Debian package gnugo; scripts/test installs it): %v", gtp.GnuGo, err)
	}
}

// Start starts GNU Go in GTP mode with args added to "--mode gtp", failing
// the test when it is not installed or does not start; it is closed when
// the test ends.
func Start(t testing.TB, args ...string) *gtp.Client {
	t.Helper()
	Require(t)
	c, err := gtp.Start(gtp.GnuGo, append([]string{"--mode", "gtp"}, args...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := c.Close(); err != nil {
			t.Errorf("close GNU Go: %v", err)
		}
	})
	return c
}
