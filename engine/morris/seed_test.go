package morris

// The examples printed in the seed (001_662ef5637f69abf8.txt), one test or
// table row each: the TAD examples of section 2.1, the manual and automatic
// move examples of section 2.2 and the transcript of section 2.2.3.

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/engine/enginetest"
	"github.com/tabuleiro/tabuleiro/engine/seedgames"
)

// mustNew starts a game from a setup JSON, failing the test on error.
func mustNew(t testing.TB, setup string) *state {
	t.Helper()
	return enginetest.New(t, Game(), variant3, setup, 0).(*state)
}

// 2.1.1 TAD posicao.
func TestSeedPosicao(t *testing.T) {
	if _, ok := parsePoint("a4"); ok {
		t.Errorf(`parsePoint("a4") ok, want refused (cria_posicao: argumentos invalidos)`)
	}
	p1, ok1 := parsePoint("a2")
	p2, ok2 := parsePoint("b3")
	if !ok1 || !ok2 {
		t.Fatalf(`parsePoint("a2"), parsePoint("b3") = %v, %v; want both ok`, ok1, ok2)
	}
	if p1 == p2 {
		t.Errorf("a2 == b3, want different (posicoes_iguais is False)")
	}
	if got := p1.String(); got != "a2" {
		t.Errorf("posicao_para_str(a2) = %q, want %q", got, "a2")
	}
	var got []string
	for _, q := range adjacent[p2] {
		got = append(got, q.String())
	}
	if want := []string{"b2", "a3", "c3"}; !slices.Equal(got, want) {
		t.Errorf("obter_posicoes_adjacentes(b3) = %v, want %v", got, want)
	}
}

// 2.1.2 TAD peca: the seed's pieces are the setup's 1, -1, 0 and the
// toMove letters "X" and "O"; 'x' is not a piece.
func TestSeedPeca(t *testing.T) {
	if _, err := Game().New(variant3, json.RawMessage(`{"board":[[0,0,0],[0,0,0],[0,0,0]],"toMove":"x"}`), 0); engine.CodeOf(err) != engine.CodeBadSetup {
		t.Errorf(`toMove "x": error %v, want bad_setup (cria_peca: argumento invalido)`, err)
	}
	if pieceX == pieceO {
		t.Errorf("X == O, want different (pecas_iguais is False)")
	}
	if got := "[" + pieceX.String() + "]"; got != "[X]" {
		t.Errorf("peca_para_str(X) = %q, want %q", got, "[X]")
	}
	for _, tc := range []struct {
		pc   piece
		want int
	}{{pieceX, 1}, {pieceO, -1}, {free, 0}} {
		if got := int(tc.pc); got != tc.want {
			t.Errorf("peca_para_inteiro(%q) = %d, want %d", tc.pc, got, tc.want)
		}
	}
}

// 2.1.3 TAD tabuleiro: the boards printed after coloca_peca, move_peca and
// tuplo_para_tabuleiro.
func TestSeedTabuleiroPrints(t *testing.T) {
	a1, b1, b2 := point(0), point(1), point(4)
	var b board
	var printed []string
	steps := []struct {
		name string
		do   func()
		want []string
	}{
		{"coloca_peca X a1", func() { b[a1] = pieceX }, []string{"X..", "...", "..."}},
		{"coloca_peca O b2", func() { b[b2] = pieceO }, []string{"X..", ".O.", "..."}},
		{"move_peca a1 b1", func() { b[a1], b[b1] = free, pieceX }, []string{".X.", ".O.", "..."}},
	}
	for _, st := range steps {
		st.do()
		if got := b.rows(); !slices.Equal(got, st.want) {
			t.Errorf("%s: board %q, want %q", st.name, got, st.want)
		}
		printed = append(printed, ">>> "+st.name+"\n"+b.String())
	}
	// The same positions are accepted as setups (X a1 alone: O to move).
	mustNew(t, `{"board":[[1,0,0],[0,0,0],[0,0,0]],"toMove":"O"}`)
	mustNew(t, `{"board":[[1,0,0],[0,-1,0],[0,0,0]],"toMove":"X"}`)
	mustNew(t, `{"board":[[0,1,0],[0,-1,0],[0,0,0]],"toMove":"X"}`)

	s := mustNew(t, `{"board":[[0,1,-1],[0,1,-1],[1,0,-1]]}`)
	if got, want := s.pos.board.rows(), []string{".XO", ".XO", "X.O"}; !slices.Equal(got, want) {
		t.Errorf("tuplo_para_tabuleiro: board %q, want %q", got, want)
	}
	printed = append(printed, ">>> tuplo_para_tabuleiro(((0,1,-1),(-0,1,-1),(1,0,-1)))\n"+s.String())
	enginetest.Golden(t, "tabuleiro.golden", strings.Join(printed, "\n")+"\n")
}

// 2.1.3 obter_ganhador, obter_posicoes_livres and obter_vetor on the
// printed tuplo_para_tabuleiro board: O wins on column c.
func TestSeedTabuleiroQueries(t *testing.T) {
	s := mustNew(t, `{"board":[[0,1,-1],[0,1,-1],[1,0,-1]]}`)
	if got := s.pos.board.winner(); got != pieceO {
		t.Errorf("obter_ganhador = %q, want O", got)
	}
	if got, want := s.Outcome(), (engine.Outcome{Over: true, Winner: 1, Reason: ReasonLine}); got != want {
		t.Errorf("Outcome() = %+v, want %+v", got, want)
	}
	var frees []string
	for _, p := range s.pos.board.points(free) {
		frees = append(frees, p.String())
	}
	if want := []string{"a1", "a2", "b3"}; !slices.Equal(frees, want) {
		t.Errorf("obter_posicoes_livres = %v, want %v", frees, want)
	}
	for _, tc := range []struct {
		name string
		want [3]piece
	}{
		{"a", [3]piece{free, free, pieceX}},
		{"2", [3]piece{free, pieceX, pieceO}},
	} {
		got, ok := s.pos.board.vector(tc.name)
		if !ok || got != tc.want {
			t.Errorf("obter_vetor(%q) = %v, %v; want %v", tc.name, got, ok, tc.want)
		}
	}
}

// 2.2.1 obter_movimento_manual: the moves the seed accepts and refuses.
func TestSeedManualMoves(t *testing.T) {
	const blockedBoard = `{"board":[[0,1,-1],[1,-1,0],[1,-1,0]],"toMove":"%s"}`
	for _, tc := range []struct {
		name, setup string
		seat        int
		move        string
		wantErr     engine.Code
		wantBoard   []string
	}{
		{"empty board, X places a1", "", 0, "a1", "", []string{"X..", "...", "..."}},
		{"X moves b1a1", strings.Replace(blockedBoard, "%s", "X", 1), 0, "b1a1", "", []string{"X.O", "XO.", "XO."}},
		{"O may not move X's a2", strings.Replace(blockedBoard, "%s", "O", 1), 1, "a2a1", engine.CodeIllegalMove, []string{".XO", "XO.", "XO."}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := mustNew(t, tc.setup)
			err := s.Apply(tc.seat, tc.move)
			if got := engine.CodeOf(err); got != tc.wantErr || (err != nil) != (tc.wantErr != "") {
				t.Fatalf("Apply(%d, %q) = %v, want code %q", tc.seat, tc.move, err, tc.wantErr)
			}
			if got := s.Board().([]string); !slices.Equal(got, tc.wantBoard) {
				t.Errorf("board after %q = %q, want %q", tc.move, got, tc.wantBoard)
			}
		})
	}
}

// 2.2.2 obter_movimento_auto: every printed bot example, built from its
// setup JSON as POST /api/bot/move receives it.
func TestSeedBotExamples(t *testing.T) {
	for _, tc := range seedgames.BotExamplesOf("morris") {
		t.Run(tc.Level+" "+tc.Setup, func(t *testing.T) {
			s := mustNew(t, tc.Setup)
			bot := enginetest.Bot(t, Game(), tc.Level)
			got, err := bot(s.Clone(), tc.Seat, nil, time.Time{})
			if err != nil || got != tc.Want {
				t.Errorf("bot %s = %q, %v; want %q", tc.Level, got, err, tc.Want)
			}
			if err := s.Apply(tc.Seat, got); err != nil {
				t.Errorf("bot move %q refused: %v", got, err)
			}
		})
	}
}

// 2.2.3 moinho('[X]', 'facil'): the human plays X, the facil bot O. Every
// bot move, every printed board and the result are checked; the whole
// transcript, drawn as the seed draws it, is the golden file.
func TestSeedTranscript(t *testing.T) {
	tr := seedgames.Of("morris")[0]
	s := mustNew(t, "")
	bot, _ := Game().Bot(tr.Level)
	var out strings.Builder
	out.WriteString(">>> moinho('[X]', 'facil')\nBem-vindo ao JOGO DO MOINHO. Nivel de dificuldade facil.\n")
	out.WriteString(s.String() + "\n")
	for i, st := range tr.Turns {
		seat := 1 - tr.BotSeat
		if st.Bot {
			seat = tr.BotSeat
		}
		if turn, ok := s.Turn(); !ok || turn != seat {
			t.Fatalf("step %d: Turn() = %d, %v; want %d", i, turn, ok, seat)
		}
		if st.Bot {
			got, err := bot(s.Clone(), seat, nil, time.Time{})
			if err != nil || got != st.Move {
				t.Fatalf("step %d: facil bot plays %q, %v; want %q", i, got, err, st.Move)
			}
			out.WriteString("Turno do computador (facil):\n")
		} else if len(st.Move) == 2 {
			out.WriteString("Turno do jogador. Escolha uma posicao: " + st.Move + "\n")
		} else {
			out.WriteString("Turno do jogador. Escolha um movimento: " + st.Move + "\n")
		}
		if err := s.Apply(seat, st.Move); err != nil {
			t.Fatalf("step %d: Apply(%d, %q): %v", i, seat, st.Move, err)
		}
		if got := s.Board().([]string); !slices.Equal(got, st.Board) {
			t.Fatalf("step %d: board after %q = %q, want %q", i, st.Move, got, st.Board)
		}
		out.WriteString(s.String() + "\n")
	}
	if got := s.Outcome(); got != tr.Outcome {
		t.Errorf("Outcome() = %+v, want %+v (' [X] ')", got, tr.Outcome)
	}
	out.WriteString("'[X]'\n")
	enginetest.Golden(t, "transcript.golden", out.String())
}
