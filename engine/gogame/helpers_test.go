package gogame

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/engine/enginetest"
)

// update rewrites the golden files under testdata/ with the boards the
// engine prints: go test ./engine/gogame -run Golden -update

// mustNew starts a game of the variant from a setup given as JSON text
// ("" for the initial position) and fails the test when it is refused.
func mustNew(t testing.TB, variant, setup string) *state {
	t.Helper()
	return enginetest.New(t, Game(), variant, setup, 0).(*state)
}

// setupJSON writes the setup object of the given stones.
func setupJSON(t testing.TB, blackStones, whiteStones []string, toMove string) string {
	t.Helper()
	b, err := json.Marshal(setupSpec{Black: blackStones, White: whiteStones, ToMove: toMove})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// names turns intersections into their names.
func names(geo *geometry, ps []int) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = geo.names[p]
	}
	return out
}

// point parses an intersection name, failing the test when it does not parse.
func point(t testing.TB, geo *geometry, name string) int {
	t.Helper()
	p, err := geo.parsePoint(name)
	if err != nil {
		t.Fatalf("parsePoint(%q): %v", name, err)
	}
	return p
}

// wantCode fails the test unless err is an *engine.Error of the code whose
// message contains every fragment.
func wantCode(t testing.TB, err error, code engine.Code, fragments ...string) {
	t.Helper()
	if got := engine.CodeOf(err); got != code {
		t.Fatalf("error %v: code %q, want %q", err, got, code)
	}
	for _, f := range fragments {
		if !strings.Contains(err.Error(), f) {
			t.Fatalf("error %q does not say %q", err, f)
		}
	}
}

// scoreOf reads a go state's Score, failing unless it is the map
// {"black":n,"white":n}.
func scoreOf(t testing.TB, s engine.State) Score {
	t.Helper()
	m, ok := s.Score().(map[string]int)
	if keys := slices.Sorted(maps.Keys(m)); !ok || !slices.Equal(keys, []string{"black", "white"}) {
		t.Fatalf("Score() = %#v, want a map[string]int of black and white", s.Score())
	}
	return Score{Black: m["black"], White: m["white"]}
}

// jsonOf is v as encoding/json writes it.
func jsonOf(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
