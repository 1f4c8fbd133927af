package clustertest

import (
	"context"
	"errors"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/internal/testkit/lobbybin"
	"github.com/tabuleiro/tabuleiro/internal/testkit/redistest"
)

// refused runs the lobby with args until it exits (bounded) and returns
// its output; it fails the test if the lobby started serving instead.
func refused(t *testing.T, bin string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, append([]string{"-addr", "127.0.0.1:0"}, args...)...).CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ctx.Err() != nil || strings.Contains(string(out), "lobby listening") {
		t.Fatalf("lobby %v was not refused (%v):\n%s", args, err, out)
	}
	return string(out)
}

// TestSafeByDefault: two nodes on one Redis never serve the same room. A
// node without -cluster refuses to start while a -cluster node is alive,
// and a -cluster node while a node without -cluster is; once the other is
// dead (SIGKILL: its liveness key runs out by itself), the node starts.
func TestSafeByDefault(t *testing.T) {
	t.Parallel()
	rs := redistest.StartServer(t)
	bin := lobbybin.Build(t, false)
	redisURL := "redis://" + rs.Addr() + "/0"
	const prefix = "alone:"

	n0 := startNode(t, bin, "node0", rs.Addr(), prefix)
	out := refused(t, bin, "-redis", redisURL, "-prefix", prefix, "-node", "solo")
	if !strings.Contains(out, "a node without -cluster must be alone") || !strings.Contains(out, "node0 (cluster)") {
		t.Fatalf("refusal does not say why:\n%s", out)
	}
	// Another prefix is another deployment: no conflict.
	other := startNode(t, bin, "solo-elsewhere", rs.Addr(), "elsewhere:", "-cluster=false")
	other.kill()

	n0.kill()
	solo := startNode(t, bin, "solo", rs.Addr(), prefix, "-cluster=false")
	if !hasLine(solo.log(), "lobby listening", `"cluster":false`) {
		t.Fatalf("solo is not a single node:\n%s", solo.logTail())
	}
	out = refused(t, bin, "-redis", redisURL, "-prefix", prefix, "-cluster", "-node", "node1")
	if !strings.Contains(out, "nodes without -cluster are alive") || !strings.Contains(out, "solo (single)") {
		t.Fatalf("refusal does not say why:\n%s", out)
	}
	out = refused(t, bin, "-redis", redisURL, "-prefix", prefix, "-node", "solo2")
	if !strings.Contains(out, "solo (single)") {
		t.Fatalf("refusal does not say why:\n%s", out)
	}
	// A single node restarted after a crash starts once the dead one's
	// key ran out.
	solo.kill()
	solo2 := startNode(t, bin, "solo2", rs.Addr(), prefix, "-cluster=false")
	if !hasLine(solo2.log(), "waiting for other nodes' liveness to run out", "solo (single)") {
		t.Logf("solo2 did not have to wait (solo's key ran out before it started)")
	}
}
