package orbito

// The seed's printed examples (seed 000, section 2), one test each.

import (
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/engine/enginetest"
	"github.com/tabuleiro/tabuleiro/engine/seedgames"
)

// The position most of the seed's examples start from.
var (
	seedBlack = []string{"a3", "a4", "b1", "b3", "c3"}
	seedWhite = []string{"c1", "c2", "d2", "d3", "d4"}
	seedRows  = []string{".XO.", "..OO", "XXXO", "X..O"}
)

// setupJSON is the PROTOCOL.md setup object for the given stones.
func setupJSON(t testing.TB, blackSq, whiteSq []string, toMove string) json.RawMessage {
	t.Helper()
	raw, err := json.Marshal(map[string]any{"black": blackSq, "white": whiteSq, "toMove": toMove})
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// newFromSetup starts an orbito game of variant from a setup and fails the
// test when it is refused.
func newFromSetup(t testing.TB, variant string, blackSq, whiteSq []string, toMove string) *state {
	t.Helper()
	s, err := Game().New(variant, setupJSON(t, blackSq, whiteSq, toMove), 0)
	if err != nil {
		t.Fatalf("New(%s, %v, %v, %s): %v", variant, blackSq, whiteSq, toMove, err)
	}
	return s.(*state)
}

func names(g *geometry, squares []int) []string {
	out := make([]string, len(squares))
	for i, sq := range squares {
		out[i] = g.names[sq]
	}
	return out
}

func square(t testing.TB, g *geometry, name string) int {
	t.Helper()
	sq, err := g.parseSquare(name)
	if err != nil {
		t.Fatalf("parseSquare(%q): %v", name, err)
	}
	return sq
}

// TestSeedPositionExamples covers the TAD posicao examples: cria_posicao
// refusing 'a', 21, str_para_posicao, the adjacent positions of a2 (clockwise
// from above) and ordena_posicoes.
func TestSeedPositionExamples(t *testing.T) {
	g := geometries[2]
	for _, bad := range []string{"a21", "e1", "a0", "a5", "A2", "a02", "a+2", "2a", "", "a"} {
		if _, err := g.parseSquare(bad); err == nil {
			t.Errorf("parseSquare(%q) = nil error, want a refusal", bad)
		}
	}
	a2, b3 := square(t, g, "a2"), square(t, g, "b3")
	if a2 == b3 {
		t.Errorf("a2 and b3 are the same square %d", a2)
	}
	if got := g.names[b3]; got != "b3" {
		t.Errorf("name of b3 = %q, want b3", got)
	}
	var orthogonal []string
	for _, nb := range g.adjacent[a2] {
		if r, c := nb/g.size, nb%g.size; r == a2/g.size || c == a2%g.size {
			orthogonal = append(orthogonal, g.names[nb])
		}
	}
	if want := []string{"a1", "b2", "a3"}; !slices.Equal(orthogonal, want) {
		t.Errorf("orthogonal neighbours of a2 = %v, want %v", orthogonal, want)
	}
	if got, want := names(g, g.adjacent[a2]), []string{"a1", "b1", "b2", "b3", "a3"}; !slices.Equal(got, want) {
		t.Errorf("neighbours of a2 = %v, want %v", got, want)
	}
	tup := []int{square(t, g, "a1"), square(t, g, "a3"), square(t, g, "b1"), square(t, g, "b2")}
	slices.SortFunc(tup, func(a, b int) int { return g.rank[a] - g.rank[b] })
	if got, want := names(g, tup), []string{"b2", "a1", "b1", "a3"}; !slices.Equal(got, want) {
		t.Errorf("positions in reading order = %v, want %v", got, want)
	}
}

// TestSeedReadingOrder is the reading order printed under Figure 1.
func TestSeedReadingOrder(t *testing.T) {
	want := []string{"b2", "c2", "b3", "c3", "a1", "b1", "c1", "d1", "a2", "d2", "a3", "d3", "a4", "b4", "c4", "d4"}
	if got := names(geometries[2], geometries[2].reading); !slices.Equal(got, want) {
		t.Errorf("reading order = %v, want %v", got, want)
	}
	s, err := Game().New("2", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Legal(0); !slices.Equal(got, want) {
		t.Errorf("Legal(0) on the empty board = %v, want %v", got, want)
	}
}

// TestSeedStoneExamples covers the TAD pedra examples: 'O' and 'X', and
// pedra_para_int's 1 for black, -1 for white (the seats 0 and 1 here).
func TestSeedStoneExamples(t *testing.T) {
	tests := []struct {
		s        stone
		char     byte
		seat     int
		opponent stone
	}{
		{black, 'X', 0, white},
		{white, 'O', 1, black},
	}
	for _, tt := range tests {
		if got := tt.s.char(); got != tt.char {
			t.Errorf("char of %s = %q, want %q", tt.s.name(), got, tt.char)
		}
		if got := tt.s.seat(); got != tt.seat {
			t.Errorf("seat of %s = %d, want %d", tt.s.name(), got, tt.seat)
		}
		if got := stoneOfSeat(tt.seat); got != tt.s {
			t.Errorf("stoneOfSeat(%d) = %v, want %v", tt.seat, got, tt.s)
		}
		if got := tt.s.opponent(); got != tt.opponent {
			t.Errorf("opponent of %s = %v, want %v", tt.s.name(), got, tt.opponent)
		}
	}
	if got := empty.char(); got != '.' {
		t.Errorf("char of a free square = %q, want '.'", got)
	}
}

// TestSeedBoardExamples covers the TAD tabuleiro examples on the seed's
// position: the board, the lines through c3, the black stones in reading
// order, verifica_linha_pedras and the board after one rotation.
func TestSeedBoardExamples(t *testing.T) {
	s := newFromSetup(t, "2", seedBlack, seedWhite, "black")
	g := s.geo
	if got := s.cells.rows(g); !slices.Equal(got, seedRows) {
		t.Fatalf("board = %q, want %q", got, seedRows)
	}
	c3 := square(t, g, "c3")
	lineTests := []struct {
		name string
		dir  int
		want []string
	}{
		{"vertical", 1, []string{"c1:O", "c2:O", "c3:X", "c4:."}},
		{"horizontal", 0, []string{"a3:X", "b3:X", "c3:X", "d3:O"}},
		{"diagonal", 2, []string{"a1:.", "b2:.", "c3:X", "d4:O"}},
		{"anti-diagonal", 3, []string{"b4:.", "c3:X", "d2:O"}},
	}
	for _, tt := range lineTests {
		var got []string
		for _, sq := range g.lines[c3][tt.dir] {
			got = append(got, g.names[sq]+":"+string(s.cells[sq].char()))
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s line through c3 = %v, want %v", tt.name, got, tt.want)
		}
	}
	var blackInOrder []string
	for _, sq := range g.reading {
		if s.cells[sq] == black {
			blackInOrder = append(blackInOrder, g.names[sq])
		}
	}
	if want := []string{"b3", "c3", "b1", "a3", "a4"}; !slices.Equal(blackInOrder, want) {
		t.Errorf("black stones in reading order = %v, want %v", blackInOrder, want)
	}
	runTests := []struct {
		sq   string
		want bool
	}{{"d1", false}, {"d2", true}}
	for _, tt := range runTests {
		sq := square(t, g, tt.sq)
		got := s.cells[sq] == white && s.cells.runThrough(g, sq, white) >= 3
		if got != tt.want {
			t.Errorf("3 white stones in a row through %s = %v, want %v", tt.sq, got, tt.want)
		}
	}
	rotated := s.cells.rotate(g)
	if want := []string{"XO.O", ".OXO", "..XO", "XX.."}; !slices.Equal(rotated.rows(g), want) {
		t.Errorf("board after one rotation = %q, want %q", rotated.rows(g), want)
	}
	if slices.Equal(rotated, s.cells) {
		t.Errorf("rotating changed nothing")
	}
}

// TestSeedWinnerAndEnd covers eh_vencedor and eh_fim_jogo: nobody has won on
// the seed's position; a white stone on d1 completes column d.
func TestSeedWinnerAndEnd(t *testing.T) {
	g := geometries[2]
	empty := make(board, 16)
	if out := judge(g, empty); out.Over {
		t.Errorf("empty board judged %+v, want the game to go on", out)
	}
	s := newFromSetup(t, "2", seedBlack, seedWhite, "black")
	if bl, wl := s.cells.hasLine(g, black), s.cells.hasLine(g, white); bl || wl {
		t.Errorf("lines on the seed position = (%v, %v), want (false, false)", bl, wl)
	}
	s.cells[square(t, g, "d1")] = white
	if bl, wl := s.cells.hasLine(g, black), s.cells.hasLine(g, white); bl || !wl {
		t.Errorf("lines after white d1 = (%v, %v), want (false, true)", bl, wl)
	}
	want := engine.Outcome{Over: true, Winner: 1, Reason: ReasonLine}
	if out := judge(g, s.cells); out != want {
		t.Errorf("outcome after white d1 = %+v, want %+v", out, want)
	}
}

// TestSeedManualMoves covers escolhe_movimento_manual: d1 is accepted; c1
// and c3 are occupied and refused, then c4 is accepted.
func TestSeedManualMoves(t *testing.T) {
	tests := []struct {
		moves []string // refused moves, then the accepted one
	}{
		{[]string{"d1"}},
		{[]string{"c1", "c3", "c4"}},
	}
	for _, tt := range tests {
		s := newFromSetup(t, "2", seedBlack, seedWhite, "black")
		last := len(tt.moves) - 1
		for _, m := range tt.moves[:last] {
			before, _ := s.MarshalJSON()
			err := s.Apply(0, m)
			if code := engine.CodeOf(err); code != engine.CodeIllegalMove {
				t.Errorf("Apply(0, %q) = %v (code %q), want %s", m, err, code, engine.CodeIllegalMove)
			}
			if want := m + " is occupied"; err == nil || err.Error() != want {
				t.Errorf("Apply(0, %q) message = %v, want %q", m, err, want)
			}
			if after, _ := s.MarshalJSON(); string(after) != string(before) {
				t.Errorf("refused %q changed the state: %s -> %s", m, before, after)
			}
		}
		if err := s.Apply(0, tt.moves[last]); err != nil {
			t.Errorf("Apply(0, %q) = %v, want it accepted", tt.moves[last], err)
		}
	}
}

// TestSeedBotExamples covers escolhe_movimento_auto: each printed position
// is built from its setup JSON (as POST /api/bot/move does) and each bot
// asked for black and for white.
func TestSeedBotExamples(t *testing.T) {
	for _, ex := range seedgames.BotExamplesOf("orbito") {
		t.Run(ex.Level+" "+ex.Setup, func(t *testing.T) {
			bot := enginetest.Bot(t, Game(), ex.Level)
			es, err := Game().New(ex.Variant, json.RawMessage(ex.Setup), 0)
			if err != nil {
				t.Fatal(err)
			}
			if got := es.Board(); !slices.Equal(got.([]string), ex.Board) {
				t.Fatalf("board = %q, want the seed's %q", got, ex.Board)
			}
			before, _ := es.MarshalJSON()
			got, err := bot(es, ex.Seat, nil, noDeadline)
			if err != nil {
				t.Fatalf("%s bot for seat %d: %v", ex.Level, ex.Seat, err)
			}
			if got != ex.Want {
				t.Errorf("%s bot for seat %d = %s, want %s", ex.Level, ex.Seat, got, ex.Want)
			}
			if after, _ := es.MarshalJSON(); string(after) != string(before) {
				t.Errorf("%s bot changed the state", ex.Level)
			}
		})
	}
}

// TestSeedTranscripts replays the seed's three full games: each human move,
// each bot answer (asked from the bot, not typed in), the board printed after
// every turn and the final result.
func TestSeedTranscripts(t *testing.T) {
	for _, tr := range seedgames.Of("orbito") {
		t.Run(tr.Name, func(t *testing.T) {
			s := enginetest.New(t, Game(), "2", "", 0).(*state)
			var bot engine.Bot
			if tr.Level != "" {
				bot, _ = Game().Bot(tr.Level)
			}
			for i, tn := range tr.Turns {
				seat, ok := s.Turn()
				if !ok {
					t.Fatalf("turn %d: game over early: %+v", i+1, s.Outcome())
				}
				if tn.Bot != (bot != nil && seat == tr.BotSeat) {
					t.Fatalf("turn %d: seat %d to move, transcript says bot=%v", i+1, seat, tn.Bot)
				}
				for _, m := range tn.Refused {
					if err := s.Apply(seat, m); !errors.Is(err, &engine.Error{Code: engine.CodeIllegalMove}) {
						t.Errorf("turn %d: Apply(%d, %q) = %v, want %s", i+1, seat, m, err, engine.CodeIllegalMove)
					}
				}
				move := tn.Move
				if tn.Bot {
					got, err := bot(s.Clone(), seat, nil, noDeadline)
					if err != nil {
						t.Fatalf("turn %d: bot: %v", i+1, err)
					}
					if got != tn.Move {
						t.Errorf("turn %d: %s bot played %s, want %s", i+1, tr.Level, got, tn.Move)
					}
					move = got
				}
				if err := s.Apply(seat, move); err != nil {
					t.Fatalf("turn %d: Apply(%d, %q): %v", i+1, seat, move, err)
				}
				if got := s.Board().([]string); !slices.Equal(got, tn.Board) {
					t.Fatalf("turn %d (%s): board = %q, want %q", i+1, move, got, tn.Board)
				}
			}
			if got := s.Outcome(); got != tr.Outcome {
				t.Errorf("outcome = %+v, want %+v", got, tr.Outcome)
			}
		})
	}
}
