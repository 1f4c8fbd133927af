package g2048

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/engine/enginetest"
)

// newState starts a game and fails the test on error.
func newState(t testing.TB, variant, setup string, seed uint64) *state {
	t.Helper()
	return enginetest.New(t, Game(), variant, setup, seed).(*state)
}

// snapshot returns the state's bytes and fails the test on error.
func snapshot(t testing.TB, s engine.State) []byte {
	t.Helper()
	b, err := s.MarshalJSON()
	if err != nil {
		t.Fatalf("MarshalJSON: %v", err)
	}
	return b
}

func countTiles(g *grid) int {
	return Size*Size - len(g.empties())
}

func TestInfo(t *testing.T) {
	info := Game().Info()
	if info.ID != "2048" {
		t.Errorf("ID = %q, want 2048", info.ID)
	}
	wantSeats := map[string]int{"solo": 1, "race": 2}
	if len(info.Variants) != len(wantSeats) || info.Variants[0].ID != "solo" {
		t.Fatalf("variants = %+v, want solo first, then race", info.Variants)
	}
	for _, v := range info.Variants {
		if v.Seats != wantSeats[v.ID] || len(v.SeatNames) != v.Seats {
			t.Errorf("variant %s: seats %d, names %v; want %d seats", v.ID, v.Seats, v.SeatNames, wantSeats[v.ID])
		}
	}
	for _, id := range []string{LevelGuloso, LevelForte} {
		if !info.HasLevel(id) {
			t.Errorf("levels %+v lack %q", info.Levels, id)
		}
	}
	for _, l := range info.Levels {
		if _, ok := Game().Bot(l.ID); !ok {
			t.Errorf("level %q listed but Bot(%q) is missing", l.ID, l.ID)
		}
	}
	if _, ok := Game().Bot("nope"); ok {
		t.Errorf("Bot(nope) found, want missing")
	}
	// Info hands out copies: changing one does not change the catalog.
	info.Variants[0].SeatNames[0] = "changed"
	if Game().Info().Variants[0].SeatNames[0] == "changed" {
		t.Errorf("Info shares its slices with the package")
	}
}

func TestNewUnknownVariant(t *testing.T) {
	_, err := Game().New("duo", nil, 1)
	if engine.CodeOf(err) != engine.CodeUnknownGame {
		t.Errorf("New(duo) error = %v, want code %s", err, engine.CodeUnknownGame)
	}
}

// TestNewStartsWithTwoTiles: a new game holds two tiles, each 2 or 4, and
// score 0; a race's two boards start alike.
func TestNewStartsWithTwoTiles(t *testing.T) {
	fours := 0
	for seed := range uint64(500) {
		for _, setup := range []string{"", "null", " "} {
			s := newState(t, VariantRace, setup, seed)
			for i := range s.boards {
				g := &s.boards[i].grid
				if n := countTiles(g); n != 2 || g.score != 0 {
					t.Fatalf("seed %d board %d: %d tiles, score %d; want 2 tiles, score 0:\n%s", seed, i, n, g.score, g)
				}
				for r := range Size {
					for c := range Size {
						if v := g.cells[r][c]; v != 0 && v != 2 && v != 4 {
							t.Fatalf("seed %d: tile %d, want 2 or 4", seed, v)
						}
						if g.cells[r][c] == 4 && i == 0 && setup == "" {
							fours++
						}
					}
				}
			}
			if !s.boards[0].grid.equal(&s.boards[1].grid) {
				t.Fatalf("seed %d: race boards start differently", seed)
			}
		}
	}
	// 1000 tiles at p(4) = 0.2: 200 expected; 130..270 is over 5 sigma.
	if fours < 130 || fours > 270 {
		t.Errorf("%d fours among 1000 starting tiles, want about 200", fours)
	}
}

func TestSetup(t *testing.T) {
	const board = `[[0,2,0,0],[0,0,0,0],[0,2,0,0],[0,0,0,0]]`
	tests := []struct {
		name    string
		setup   string
		wantErr string // empty: accepted
	}{
		{"protocol example", `{"board":` + board + `,"score":0,"seed":42}`, ""},
		{"no score, no seed", `{"board":` + board + `}`, ""},
		{"big tiles", `{"board":[[131072,65536,2,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]],"score":4}`, ""},
		{"full board", `{"board":[[2,4,2,4],[4,2,4,2],[2,4,2,4],[4,2,4,2]]}`, ""},
		{"unknown field", `{"board":` + board + `,"toMove":0}`, "unknown field"},
		{"missing board", `{"score":0}`, `"board" is required`},
		{"null board", `{"board":null}`, `"board" is required`},
		{"three rows", `{"board":[[0,2,0,0],[0,0,0,0],[0,2,0,0]]}`, "3 rows"},
		{"five cells", `{"board":[[0,2,0,0,0],[0,0,0,0],[0,2,0,0],[0,0,0,0]]}`, "row 1 has 5 cells"},
		{"tile 3", `{"board":[[0,3,0,0],[0,0,0,0],[0,2,0,0],[0,0,0,0]]}`, "(1, 2) holds 3"},
		{"tile 1", `{"board":[[0,1,0,0],[0,0,0,0],[0,2,0,0],[0,0,0,0]]}`, "holds 1"},
		{"negative tile", `{"board":[[0,-2,0,0],[0,0,0,0],[0,2,0,0],[0,0,0,0]]}`, "holds -2"},
		{"tile too big", `{"board":[[0,262144,0,0],[0,0,0,0],[0,2,0,0],[0,0,0,0]]}`, "holds 262144"},
		{"fractional tile", `{"board":[[0,2.5,0,0],[0,0,0,0],[0,2,0,0],[0,0,0,0]]}`, "cannot unmarshal"},
		{"string tile", `{"board":[[0,"2",0,0],[0,0,0,0],[0,2,0,0],[0,0,0,0]]}`, "cannot unmarshal"},
		{"empty board", `{"board":[[0,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]]}`, "no tiles"},
		{"negative score", `{"board":` + board + `,"score":-4}`, "score -4"},
		{"score not a multiple of 4", `{"board":` + board + `,"score":6}`, "score 6"},
		{"negative seed", `{"board":` + board + `,"seed":-1}`, "cannot unmarshal"},
		{"string seed", `{"board":` + board + `,"seed":"42"}`, "cannot unmarshal"},
		{"trailing data", `{"board":` + board + `} {}`, "trailing data"},
		{"not an object", `[1,2]`, "cannot unmarshal"},
		{"broken JSON", `{"board":`, "unexpected EOF"},
	}
	for _, tt := range tests {
		for _, variant := range []string{VariantSolo, VariantRace} {
			s, err := Game().New(variant, json.RawMessage(tt.setup), 7)
			if tt.wantErr == "" {
				if err != nil {
					t.Errorf("%s (%s): New error %v, want none", tt.name, variant, err)
				}
				continue
			}
			if err == nil {
				t.Errorf("%s (%s): New accepted %s, want an error containing %q", tt.name, variant, tt.setup, tt.wantErr)
				continue
			}
			if engine.CodeOf(err) != engine.CodeBadSetup || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%s (%s): error %q (code %s), want code bad_setup containing %q", tt.name, variant, err, engine.CodeOf(err), tt.wantErr)
			}
			if s != nil {
				t.Errorf("%s: New returned a state with its error", tt.name)
			}
		}
	}
}

// TestSetupStartsFromBoard: a setup's board and score are the start of
// every board, without extra tiles; its seed (not New's) drives the tiles.
func TestSetupStartsFromBoard(t *testing.T) {
	const setup = `{"board":[[0,2,0,0],[0,0,0,0],[0,2,0,0],[0,0,0,0]],"score":8,"seed":42}`
	want := [][]int{{0, 2, 0, 0}, {0, 0, 0, 0}, {0, 2, 0, 0}, {0, 0, 0, 0}}
	a := newState(t, VariantRace, setup, 1)
	if got := a.Board(); !reflect.DeepEqual(got, [][][]int{want, want}) {
		t.Errorf("Board() = %v, want the setup board twice", got)
	}
	if got, want := a.Score(), map[string]int{"0": 8, "1": 8}; !reflect.DeepEqual(got, want) {
		t.Errorf("Score() = %v, want %v", got, want)
	}
	// New's seed is ignored when the setup has one.
	b := newState(t, VariantRace, setup, 2)
	for range 20 {
		for seat := range 2 {
			m := a.Legal(seat)[0]
			if err := a.Apply(seat, m); err != nil {
				t.Fatal(err)
			}
			if err := b.Apply(seat, m); err != nil {
				t.Fatal(err)
			}
		}
	}
	if !bytes.Equal(snapshot(t, a), snapshot(t, b)) {
		t.Errorf("same setup seed, different New seeds: games differ")
	}
	// Without a seed in the setup, New's seed drives the tiles.
	const noSeed = `{"board":[[0,2,0,0],[0,0,0,0],[0,2,0,0],[0,0,0,0]]}`
	differ := false
	for seed := range uint64(10) {
		c, d := newState(t, VariantSolo, noSeed, seed), newState(t, VariantSolo, noSeed, seed+100)
		for _, s := range []*state{c, d} {
			if err := s.Apply(0, "N"); err != nil {
				t.Fatal(err)
			}
		}
		if !reflect.DeepEqual(c.Board(), d.Board()) {
			differ = true
		}
	}
	if !differ {
		t.Errorf("setup without seed: ten pairs of New seeds all spawned the same tile")
	}
}

func TestApplyRefusals(t *testing.T) {
	// One tile in the top-left corner: N and W change nothing.
	const corner = `{"board":[[2,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]]}`
	tests := []struct {
		variant, setup string
		seat           int
		move           string
		code           engine.Code
		msg            string
	}{
		{VariantSolo, corner, 0, "N", engine.CodeIllegalMove, "N: nothing moves"},
		{VariantSolo, corner, 0, "W", engine.CodeIllegalMove, "W: nothing moves"},
		{VariantSolo, corner, 0, "n", engine.CodeIllegalMove, `"n" is not a direction`},
		{VariantSolo, corner, 0, "", engine.CodeIllegalMove, "not a direction"},
		{VariantSolo, corner, 0, "SE", engine.CodeIllegalMove, "not a direction"},
		{VariantSolo, corner, 1, "S", engine.CodeNotYourTurn, "seat 1"},
		{VariantSolo, corner, -1, "S", engine.CodeNotYourTurn, "seat -1"},
		{VariantRace, corner, 2, "S", engine.CodeNotYourTurn, "seat 2"},
		{VariantRace, corner, 1, "W", engine.CodeIllegalMove, "nothing moves"},
	}
	for _, tt := range tests {
		s := newState(t, tt.variant, tt.setup, 1)
		before := snapshot(t, s)
		err := s.Apply(tt.seat, tt.move)
		var e *engine.Error
		if !errors.As(err, &e) || e.Code != tt.code || !strings.Contains(e.Msg, tt.msg) {
			t.Errorf("%s Apply(%d, %q) = %v, want %s containing %q", tt.variant, tt.seat, tt.move, err, tt.code, tt.msg)
		}
		if !bytes.Equal(before, snapshot(t, s)) {
			t.Errorf("%s Apply(%d, %q) refused but changed the state", tt.variant, tt.seat, tt.move)
		}
	}
	s := newState(t, VariantSolo, corner, 1)
	if got, want := s.Legal(0), []string{"S", "E"}; !slices.Equal(got, want) {
		t.Errorf("Legal(0) = %v, want %v", got, want)
	}
	for _, seat := range []int{-1, 1} {
		if got := s.Legal(seat); got != nil {
			t.Errorf("Legal(%d) = %v, want nil", seat, got)
		}
	}
}

// TestApplySpawnsOneTile: a move reduces the board as grid.reduce does and
// then adds exactly one 2 or 4 on a cell the reduction left empty.
func TestApplySpawnsOneTile(t *testing.T) {
	s := newState(t, VariantSolo, `{"board":[[2,2,4,0],[0,0,0,0],[0,0,0,0],[0,0,0,4]],"score":12,"seed":5}`, 0)
	reduced := s.boards[0].grid
	reduced.reduce(West)
	if err := s.Apply(0, "W"); err != nil {
		t.Fatal(err)
	}
	got := s.boards[0].grid
	if got.score != 12+4 {
		t.Errorf("score = %d, want 16", got.score)
	}
	spawned := 0
	for r := range Size {
		for c := range Size {
			switch g, want := got.cells[r][c], reduced.cells[r][c]; {
			case g == want:
			case want == 0 && (g == 2 || g == 4):
				spawned++
			default:
				t.Errorf("cell (%d, %d) = %d, want %d or a new tile", r+1, c+1, g, want)
			}
		}
	}
	if spawned != 1 {
		t.Errorf("%d new tiles, want 1:\n%s", spawned, got.String())
	}
}

func TestSoloGameOver(t *testing.T) {
	tests := []struct {
		name       string
		board      string
		wantWinner int
	}{
		{"no 2048", `[[2,4,2,4],[4,2,4,2],[2,4,2,4],[4,2,4,2]]`, -1},
		{"2048 reached", `[[2048,4,2,4],[4,2,4,2],[2,4,2,4],[4,2,4,2]]`, 0},
		{"beyond 2048", `[[2,4,2,4],[4,2,4,2],[2,4,8192,4],[4,2,4,2]]`, 0},
	}
	for _, tt := range tests {
		s := newState(t, VariantSolo, `{"board":`+tt.board+`,"score":40}`, 1)
		want := engine.Outcome{Over: true, Winner: tt.wantWinner, Reason: ReasonNoMoves}
		if got := s.Outcome(); got != want {
			t.Errorf("%s: Outcome() = %+v, want %+v", tt.name, got, want)
		}
		if _, ok := s.Turn(); ok {
			t.Errorf("%s: Turn() ok after the end", tt.name)
		}
		if got := s.Legal(0); got != nil {
			t.Errorf("%s: Legal(0) = %v, want nil", tt.name, got)
		}
		if err := s.Apply(0, "N"); engine.CodeOf(err) != engine.CodeGameOver {
			t.Errorf("%s: Apply after the end = %v, want %s", tt.name, err, engine.CodeGameOver)
		}
	}
	// The last move can end the game. E merges the two 4s of the bottom row
	// and leaves only (4, 1) empty: a spawned 2 there can merge with the 2
	// above it, a 4 cannot merge with anything.
	s := newState(t, VariantSolo, `{"board":[[2,4,2,4],[4,2,4,2],[2,4,2,4],[8,16,4,4]],"seed":3}`, 0)
	if turn, ok := s.Turn(); !ok || turn != 0 {
		t.Errorf("Turn() = %d, %v before the end, want 0, true", turn, ok)
	}
	if err := s.Apply(0, "E"); err != nil {
		t.Fatal(err)
	}
	want := engine.Outcome{Over: true, Winner: -1, Reason: ReasonNoMoves}
	if s.boards[0].grid.cells[3][0] == 2 {
		want = engine.Ongoing
	}
	if got := s.Outcome(); got != want {
		t.Errorf("after the last move: Outcome() = %+v, want %+v\n%s", got, want, s.boards[0].grid.String())
	}
}

// raceOf builds a race from two boards, each with a generator from seed 1.
func raceOf(a, b grid) *state {
	s := &state{variant: VariantRace, boards: []board{{grid: a}, {grid: b}}}
	for i := range s.boards {
		s.boards[i].rng = *rand.NewPCG(1, pcgStream)
	}
	return s
}

func TestRaceOutcome(t *testing.T) {
	stuck := [Size][Size]int{{2, 4, 2, 4}, {4, 2, 4, 2}, {2, 4, 2, 4}, {4, 2, 4, 2}}
	open := [Size][Size]int{{2, 0, 0, 0}}
	tests := []struct {
		name string
		a, b grid
		want engine.Outcome
	}{
		{"seat 0 higher", gridOf(stuck, 400), gridOf(stuck, 200), engine.Outcome{Over: true, Winner: 0, Reason: ReasonHigherScore}},
		{"seat 1 higher", gridOf(stuck, 200), gridOf(stuck, 400), engine.Outcome{Over: true, Winner: 1, Reason: ReasonHigherScore}},
		{"equal", gridOf(stuck, 400), gridOf(stuck, 400), engine.Outcome{Over: true, Winner: -1, Reason: ReasonEqualScore}},
		{"seat 1 still playing", gridOf(stuck, 400), gridOf(open, 0), engine.Ongoing},
		{"seat 0 still playing", gridOf(open, 0), gridOf(stuck, 400), engine.Ongoing},
	}
	for _, tt := range tests {
		s := raceOf(tt.a, tt.b)
		if got := s.Outcome(); got != tt.want {
			t.Errorf("%s: Outcome() = %+v, want %+v", tt.name, got, tt.want)
		}
		if _, ok := s.Turn(); ok {
			t.Errorf("%s: Turn() ok in a race, want false", tt.name)
		}
	}
	// A finished board stops while the other plays on.
	s := raceOf(gridOf(stuck, 400), gridOf(open, 0))
	if got := s.Legal(0); got != nil {
		t.Errorf("Legal(0) on a finished board = %v, want nil", got)
	}
	if err := s.Apply(0, "N"); engine.CodeOf(err) != engine.CodeGameOver {
		t.Errorf("Apply(0) on a finished board = %v, want %s", err, engine.CodeGameOver)
	}
	if err := s.Apply(1, "E"); err != nil {
		t.Errorf("Apply(1, E) = %v, want it accepted", err)
	}
	if got, want := s.Extra(), map[string]any{"finished": []bool{true, false}}; !reflect.DeepEqual(got, want) {
		t.Errorf("Extra() = %v, want %v", got, want)
	}
}

// spawnedTiles plays moves on one board of s and returns the value of the
// tile each move spawned.
func spawnedTiles(t *testing.T, s *state, seat int, rng *rand.Rand, n int) []int {
	t.Helper()
	var out []int
	for range n {
		legal := s.Legal(seat)
		if len(legal) == 0 {
			break
		}
		move := legal[rng.IntN(len(legal))]
		reduced := s.boards[seat].grid
		d, _ := parseDirection(move)
		reduced.reduce(d)
		if err := s.Apply(seat, move); err != nil {
			t.Fatalf("Apply(%d, %s): %v", seat, move, err)
		}
		tileSum := func(g *grid) int {
			sum := 0
			for r := range Size {
				for c := range Size {
					sum += g.cells[r][c]
				}
			}
			return sum
		}
		out = append(out, tileSum(&s.boards[seat].grid)-tileSum(&reduced))
	}
	return out
}

// TestRaceSameTileSequence: both boards of a race draw the same k-th tile
// value whatever the players do, and the same cell when they play alike.
func TestRaceSameTileSequence(t *testing.T) {
	for seed := range uint64(20) {
		s := newState(t, VariantRace, "", seed)
		a := spawnedTiles(t, s, 0, rand.New(rand.NewPCG(seed, 1)), 300)
		b := spawnedTiles(t, s, 1, rand.New(rand.NewPCG(seed, 2)), 300)
		n := min(len(a), len(b))
		if n < 20 || !slices.Equal(a[:n], b[:n]) {
			t.Errorf("seed %d: tile sequences differ:\n%v\n%v", seed, a, b)
		}
		// The same moves give the same boards.
		s = newState(t, VariantRace, "", seed)
		rng := rand.New(rand.NewPCG(seed, 3))
		for ply := 0; len(s.Legal(0)) > 0; ply++ {
			legal := s.Legal(0)
			m := legal[rng.IntN(len(legal))]
			for seat := range 2 {
				if err := s.Apply(seat, m); err != nil {
					t.Fatalf("seed %d ply %d: Apply(%d, %s): %v", seed, ply, seat, m, err)
				}
			}
			if !s.boards[0].grid.equal(&s.boards[1].grid) {
				t.Fatalf("seed %d ply %d: same moves, different boards:\n%s\n%s", seed, ply, s.boards[0].grid.String(), s.boards[1].grid.String())
			}
		}
		if want := (engine.Outcome{Over: true, Winner: -1, Reason: ReasonEqualScore}); s.Outcome() != want {
			t.Errorf("seed %d: identical play ends %+v, want %+v", seed, s.Outcome(), want)
		}
	}
}

// TestSnapshotContinuesIdentically: a game restored mid-way draws the same
// tiles as the original.
func TestSnapshotContinuesIdentically(t *testing.T) {
	for _, variant := range []string{VariantSolo, VariantRace} {
		s := newState(t, variant, "", 99)
		rng := rand.New(rand.NewPCG(99, 0))
		play := func(s engine.State, moves []string) {
			for _, m := range moves {
				seat, move := int(m[0]-'0'), m[1:]
				if err := s.Apply(seat, move); err != nil {
					t.Fatalf("%s: Apply(%d, %s): %v", variant, seat, move, err)
				}
			}
		}
		var moves []string
		for range 60 {
			seat := rng.IntN(s.Seats())
			legal := s.Legal(seat)
			m := string(rune('0'+seat)) + legal[rng.IntN(len(legal))]
			moves = append(moves, m)
			play(s, []string{m})
		}
		r, err := Game().Restore(snapshot(t, s))
		if err != nil {
			t.Fatalf("%s: Restore: %v", variant, err)
		}
		for range 40 {
			seat := rng.IntN(s.Seats())
			legal := s.Legal(seat)
			if len(legal) == 0 {
				continue
			}
			m := string(rune('0'+seat)) + legal[rng.IntN(len(legal))]
			play(s, []string{m})
			play(r, []string{m})
			if !reflect.DeepEqual(s.Board(), r.Board()) || !reflect.DeepEqual(s.Score(), r.Score()) {
				t.Fatalf("%s: restored game diverged after %s:\n%v\n%v", variant, m, s.Board(), r.Board())
			}
		}
		if !bytes.Equal(snapshot(t, s), snapshot(t, r)) {
			t.Errorf("%s: snapshots differ after the same moves", variant)
		}
	}
}

func TestRestoreRefusesCorrupt(t *testing.T) {
	good := string(snapshot(t, newState(t, VariantSolo, "", 1)))
	rng := good[strings.Index(good, `"rng":`):]
	rng = rng[:strings.Index(rng, "}")]
	board := `[[2,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]]`
	tests := []struct{ name, snap, want string }{
		{"empty", ``, "EOF"},
		{"not JSON", `{"variant"`, "unexpected EOF"},
		{"unknown variant", `{"variant":"duo","boards":[]}`, "unknown variant"},
		{"too few boards", `{"variant":"race","boards":[{"board":` + board + `,"score":0,` + rng + `}]}`, "1 boards"},
		{"no boards", `{"variant":"solo","boards":null}`, "0 boards"},
		{"bad tile", `{"variant":"solo","boards":[{"board":[[3,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]],"score":0,` + rng + `}]}`, "holds 3"},
		{"bad score", `{"variant":"solo","boards":[{"board":` + board + `,"score":5,` + rng + `}]}`, "score 5"},
		{"missing rng", `{"variant":"solo","boards":[{"board":` + board + `,"score":0}]}`, "generator"},
		{"bad rng", `{"variant":"solo","boards":[{"board":` + board + `,"score":0,"rng":"AAAA"}]}`, "generator"},
		{"unknown field", strings.Replace(good, `"variant"`, `"x":1,"variant"`, 1), "unknown field"},
		{"trailing data", good + `{}`, "trailing data"},
	}
	for _, tt := range tests {
		s, err := Game().Restore([]byte(tt.snap))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: Restore error = %v, want one containing %q", tt.name, err, tt.want)
		}
		if s != nil {
			t.Errorf("%s: Restore returned a state with its error", tt.name)
		}
	}
	if _, err := Game().Restore([]byte(good)); err != nil {
		t.Errorf("Restore(good snapshot) = %v", err)
	}
}

func TestViews(t *testing.T) {
	const setup = `{"board":[[0,2,0,0],[0,0,0,0],[0,2,0,0],[0,0,0,0]],"score":4,"seed":42}`
	rows := [][]int{{0, 2, 0, 0}, {0, 0, 0, 0}, {0, 2, 0, 0}, {0, 0, 0, 0}}
	solo := newState(t, VariantSolo, setup, 0)
	race := newState(t, VariantRace, setup, 0)
	tests := []struct {
		name      string
		got, want any
	}{
		{"solo board", solo.Board(), rows},
		{"race board", race.Board(), [][][]int{rows, rows}},
		{"solo score", solo.Score(), map[string]int{"0": 4}},
		{"race score", race.Score(), map[string]int{"0": 4, "1": 4}},
		{"solo extra", solo.Extra(), map[string]any(nil)},
		{"race extra", race.Extra(), map[string]any{"finished": []bool{false, false}}},
		{"solo seats", solo.Seats(), 1},
		{"race seats", race.Seats(), 2},
		{"solo variant", solo.Variant(), "solo"},
		{"race variant", race.Variant(), "race"},
	}
	for _, tt := range tests {
		if !reflect.DeepEqual(tt.got, tt.want) {
			t.Errorf("%s = %#v, want %#v", tt.name, tt.got, tt.want)
		}
	}
	// The board view is a copy: changing it does not change the game.
	solo.Board().([][]int)[0][1] = 1024
	if solo.boards[0].grid.cells[0][1] != 2 {
		t.Errorf("changing Board() changed the game")
	}
	// The wire form of the score is {"0":n}.
	if b, _ := json.Marshal(race.Score()); string(b) != `{"0":4,"1":4}` {
		t.Errorf("score JSON = %s, want {\"0\":4,\"1\":4}", b)
	}
}

func TestCloneIsIndependent(t *testing.T) {
	s := newState(t, VariantRace, "", 5)
	c := s.Clone()
	before := snapshot(t, c)
	for seat := range 2 {
		if err := s.Apply(seat, s.Legal(seat)[0]); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(before, snapshot(t, c)) {
		t.Errorf("moves on the original changed the clone")
	}
	// The clone draws the same tiles as the original did.
	for seat := range 2 {
		if err := c.Apply(seat, c.Legal(seat)[0]); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(snapshot(t, s), snapshot(t, c)) {
		t.Errorf("clone and original differ after the same moves")
	}
}

// TestMarshalMatchesEncodingJSON: the hand-written snapshot bytes are the
// bytes encoding/json gives for the same snapshotJSON.
func TestMarshalMatchesEncodingJSON(t *testing.T) {
	for seed := range uint64(20) {
		s := newState(t, VariantRace, "", seed)
		rng := rand.New(rand.NewPCG(seed, 9))
		for ply := range 50 {
			seat := rng.IntN(2)
			if legal := s.Legal(seat); len(legal) > 0 {
				if err := s.Apply(seat, legal[rng.IntN(len(legal))]); err != nil {
					t.Fatal(err)
				}
			}
			var want snapshotJSON
			want.Variant = s.variant
			for i := range s.boards {
				b := &s.boards[i]
				rngState, _ := b.rng.MarshalBinary()
				var rows [][]int64
				for r := range Size {
					var row []int64
					for c := range Size {
						row = append(row, int64(b.grid.cells[r][c]))
					}
					rows = append(rows, row)
				}
				want.Boards = append(want.Boards, boardSnapshot{Board: rows, Score: int64(b.grid.score), RNG: rngState})
			}
			wantBytes, err := json.Marshal(want)
			if err != nil {
				t.Fatal(err)
			}
			if got := snapshot(t, s); !bytes.Equal(got, wantBytes) {
				t.Fatalf("seed %d ply %d: MarshalJSON\n got %s\nwant %s", seed, ply, got, wantBytes)
			}
		}
	}
}
