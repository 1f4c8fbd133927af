package morris

import (
	"slices"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/engine/enginetest"
)

// askBot asks the bot of level for the move of the side to move in s.
func askBot(t testing.TB, s *state, level string, deadline time.Time) string {
	t.Helper()
	bot := enginetest.Bot(t, Game(), level)
	seat, ok := s.Turn()
	if !ok {
		t.Fatalf("askBot %s: the game is over", level)
	}
	move, err := bot(s.Clone(), seat, nil, deadline)
	if err != nil {
		t.Fatalf("bot %s: %v", level, err)
	}
	return move
}

// The seed's placement priorities (section 1.3.1), the same at every seed
// level: win, block, centre, first free corner, first free side.
func TestPlacementPriority(t *testing.T) {
	for _, tc := range []struct {
		name, setup, want string
	}{
		{"empty board: centre", "", "b2"},
		{"centre taken: first corner a1", `{"board":[[0,0,0],[0,1,0],[0,0,0]],"toMove":"O"}`, "a1"},
		{"corners in reading order: c1 after a1", `{"board":[[-1,0,0],[0,1,0],[0,0,1]],"toMove":"O"}`, "c1"},
		{"block X's column a", `{"board":[[1,0,0],[1,-1,0],[0,0,0]],"toMove":"O"}`, "a3"},
		{"win before block", `{"board":[[1,1,0],[-1,-1,0],[1,0,0]],"toMove":"O"}`, "c2"},
		{"first blocking point in reading order", `{"board":[[1,1,0],[1,-1,0],[0,0,-1]],"toMove":"O"}`, "c1"},
		{"a diagonal pair is no threat: centre", `{"board":[[1,0,0],[0,0,0],[0,0,-1]],"toMove":"X"}`, "b2"},
		{"diagonal threat ignored: corner", `{"board":[[1,0,0],[0,1,0],[0,0,-1]],"toMove":"O"}`, "c1"},
		{"only sides left: first side", `{"board":[[1,0,-1],[0,-1,0],[1,0,0]],"toMove":"X"}`, "a2"},
		{"O places its last piece while X moves later", `{"board":[[1,0,-1],[0,1,0],[-1,0,1]],"toMove":"O"}`, "b1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, level := range []string{LevelFacil, LevelNormal, LevelDificil} {
				if got := askBot(t, mustNew(t, tc.setup), level, time.Time{}); got != tc.want {
					t.Errorf("%s places %q, want %q", level, got, tc.want)
				}
			}
		})
	}
}

// A blocked seed bot passes with its first piece in reading order.
func TestSeedBotsPassWhenBlocked(t *testing.T) {
	s := mustNew(t, `{"board":[[-1,-1,1],[-1,1,0],[1,0,0]],"toMove":"O"}`)
	for _, level := range []string{LevelFacil, LevelNormal, LevelDificil, LevelPerfeito} {
		if got := askBot(t, s, level, time.Time{}); got != "a1a1" {
			t.Errorf("%s plays %q, want the pass a1a1", level, got)
		}
	}
}

func TestBotRefusals(t *testing.T) {
	bot, _ := Game().Bot(LevelFacil)
	over := mustNew(t, `{"board":[[0,1,-1],[0,1,-1],[1,0,-1]],"toMove":"X"}`)
	if _, err := bot(over, 0, nil, time.Time{}); err == nil {
		t.Errorf("bot on a finished game: no error, want one")
	}
	if _, err := bot(mustNew(t, ""), 1, nil, time.Time{}); err == nil {
		t.Errorf("bot for the seat not to move: no error, want one")
	}
	if _, err := bot(nil, 0, nil, time.Time{}); err == nil {
		t.Errorf("bot on a nil state: no error, want one")
	}
}

// validPositions lists every position that can occur, in key order,
// keeping those keep accepts.
func validPositions(keep func(p position) bool) []position {
	var out []position
	for k := range uint32(numKeys) {
		p := positionFromKey(k)
		if p.validate() == nil && keep(p) {
			out = append(out, p)
		}
	}
	return out
}

// movable reports whether p is in the movement phase, not over, and the
// side to move has a piece that can move.
func movable(p position) bool {
	return !p.placing(pieceX) && !p.placing(pieceO) && p.board.winner() == free && !p.board.blocked(p.toMove)
}

// The seed's NOTA on normal: depth 1 is the first winning movement, else
// facil's movement. Checked on every position of the movement phase.
func TestNormalIsFirstWinElseFacil(t *testing.T) {
	positions := validPositions(movable)
	if len(positions) < 1000 {
		t.Fatalf("only %d movement positions", len(positions))
	}
	for _, p := range positions {
		moves := p.moves()
		want := moves[0]
		for _, m := range moves {
			if c := p.after(m); c.board.winner() == p.toMove {
				want = m
				break
			}
		}
		if got := chooseSeedMove(&p, minimaxChooser(depthNormal), time.Time{}); got != want {
			t.Fatalf("%q %v to move: normal plays %v, want %v", p.board.rows(), p.toMove, got, want)
		}
		if got := chooseSeedMove(&p, chooseFacil, time.Time{}); got != moves[0] {
			t.Fatalf("%q %v to move: facil plays %v, want %v", p.board.rows(), p.toMove, got, moves[0])
		}
	}
}

// literalMinimax transcribes Algorithm 1 as the seed prints it, with board
// copies and move sequences, to check the optimised search against. A node
// where the player cannot move keeps the sequence that led to it (the
// pseudo-code leaves melhor_seq_movimentos unset there), so the root's
// sequence always starts with the root movement.
func literalMinimax(b board, me piece, depth int, seq []movement) (int, []movement) {
	if w := b.winner(); w != free || depth == 0 {
		return int(w), seq
	}
	best := int(me.other())
	bestSeq := seq
	defined := false
	for _, from := range b.points(me) {
		for _, to := range adjacent[from] {
			if b[to] != free {
				continue
			}
			nb := b
			nb[from], nb[to] = free, me
			m := movement{from: from, to: to}
			v, s := literalMinimax(nb, me.other(), depth-1, append(slices.Clone(seq), m))
			if !defined || (me == pieceX && v > best) || (me == pieceO && v < best) {
				best, bestSeq, defined = v, s, true
			}
		}
	}
	return best, bestSeq
}

// dificil plays the first movement of the sequence the literal Algorithm 1
// of depth 5 returns, on a spread of movement positions.
func TestDificilMatchesLiteralAlgorithm(t *testing.T) {
	positions := validPositions(movable)
	step := 3
	if testing.Short() {
		step = 29
	}
	checked, blocking := 0, 0
	for i := 0; i < len(positions); i++ {
		p := positions[i]
		// Every position whose best movement blocks the opponent (the
		// search's subtle case), and a spread of the others.
		blocks := false
		for _, m := range p.moves() {
			if c := p.after(m); c.board.winner() == free && c.board.blocked(c.toMove) {
				blocks = true
			}
		}
		if !blocks && i%step != 0 {
			continue
		}
		if blocks {
			blocking++
		}
		_, seq := literalMinimax(p.board, p.toMove, depthDificil, nil)
		got := chooseSeedMove(&p, minimaxChooser(depthDificil), time.Time{})
		if len(seq) == 0 || got != seq[0] {
			t.Fatalf("%q %v to move: dificil plays %v, literal Algorithm 1 gives %v", p.board.rows(), p.toMove, got, seq)
		}
		checked++
	}
	if checked < 100 || blocking == 0 {
		t.Fatalf("checked only %d positions, %d with a blocking movement", checked, blocking)
	}
}

// With a deadline already past, dificil stops after its first root
// movement and plays it: facil's movement, a legal one.
func TestDificilDeadline(t *testing.T) {
	s := mustNew(t, `{"board":[[1,-1,-1],[-1,1,0],[0,0,1]],"toMove":"X"}`)
	got := askBot(t, s, LevelDificil, time.Unix(1, 0))
	if want := s.Legal(0)[0]; got != want {
		t.Errorf("dificil past its deadline plays %q, want the first legal move %q", got, want)
	}
	if got := askBot(t, s, LevelDificil, time.Time{}); got != "c3c2" {
		t.Errorf("dificil without a deadline plays %q, want c3c2", got)
	}
}

// playMatch plays levels[0] as X against levels[1] as O from setup and
// returns the outcome.
func playMatch(t testing.TB, setup string, levels [2]string) engine.Outcome {
	t.Helper()
	s := mustNew(t, setup)
	for ply := 0; !s.Outcome().Over; ply++ {
		if ply > 1000 {
			t.Fatalf("%v: not over after 1000 plies", levels)
		}
		seat, _ := s.Turn()
		move := askBot(t, s, levels[seat], time.Time{})
		if err := s.Apply(seat, move); err != nil {
			t.Fatalf("%v ply %d: bot %s's move %q refused: %v", levels, ply, levels[seat], move, err)
		}
	}
	return s.Outcome()
}

// The start is a draw with perfect play, so perfeito never loses from it,
// and two perfeitos draw.
func TestPerfeitoNeverLosesFromTheStart(t *testing.T) {
	if r := solved().result[positionKey(initialPosition)]; r != resultDraw {
		t.Fatalf("solved start = %d, want a draw", r)
	}
	for _, other := range []string{LevelFacil, LevelNormal, LevelDificil, LevelPerfeito} {
		for seat := range 2 {
			levels := [2]string{other, other}
			levels[seat] = LevelPerfeito
			out := playMatch(t, "", levels)
			if out.Winner == 1-seat {
				t.Errorf("%v: perfeito in seat %d lost: %+v", levels, seat, out)
			}
			if other == LevelPerfeito && out.Winner != -1 {
				t.Errorf("perfeito against itself: %+v, want a draw", out)
			}
		}
	}
}

// From every won position perfeito keeps the win: each of its moves goes
// to a position lost for the opponent in one ply less, and a won game ends
// with its line in exactly the solved number of plies against any reply.
func TestPerfeitoKeepsEveryWin(t *testing.T) {
	sol := solved()
	positions := validPositions(func(p position) bool {
		return sol.result[positionKey(p)] == resultWin
	})
	if len(positions) < 1000 {
		t.Fatalf("only %d won positions", len(positions))
	}
	for _, p := range positions {
		s := newState(p)
		m := choosePerfect(s, time.Time{})
		k, c := positionKey(p), positionKey(p.after(m))
		if sol.result[c] != resultLoss || sol.plies[c] != sol.plies[k]-1 {
			t.Fatalf("%q %v to move, won in %d: perfeito plays %v to a position with result %d in %d",
				p.board.rows(), p.toMove, sol.plies[k], m, sol.result[c], sol.plies[c])
		}
	}
}

// The seed bots and perfeito play whole games from the seed's positions and
// the start without a refused move, and every game ends.
func TestBotsPlayWholeGames(t *testing.T) {
	levels := []string{LevelFacil, LevelNormal, LevelDificil, LevelPerfeito}
	setups := []string{"", `{"board":[[1,0,-1],[0,1,-1],[1,-1,0]],"toMove":"X"}`, `{"board":[[1,-1,-1],[-1,1,0],[0,0,1]],"toMove":"X"}`}
	for _, setup := range setups {
		for _, x := range levels {
			for _, o := range levels {
				if out := playMatch(t, setup, [2]string{x, o}); !out.Over || out.Reason == "" {
					t.Errorf("%s vs %s from %s: outcome %+v", x, o, setup, out)
				}
			}
		}
	}
}
