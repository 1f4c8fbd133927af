package server_test

import (
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/internal/testkit/testserver"
)

// The course's own projects as bots (clients/python/tabuleiro.py projeto and
// torneio, docs/bots-api.md "Your project as a bot"): the example projects
// of clients/python/projetos, written as students would, play through the
// adapter against the real server.

var (
	clientPy   = filepath.Join("..", "..", "clients", "python", "tabuleiro.py")
	projetosPy = filepath.Join("..", "..", "clients", "python", "projetos")
)

// python is a Python program started by a test: its output, and its exit.
type python struct {
	cmd    *exec.Cmd
	out    *testserver.Output
	exited chan error
}

// startPython runs python3 with args (standard library only, nothing
// written into the source tree) until it exits or the test ends.
func startPython(t *testing.T, dir string, args ...string) *python {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Fatalf("python3 is needed for the Python client's tests: %v", err)
	}
	p := &python{cmd: exec.Command(py, args...), out: &testserver.Output{}, exited: make(chan error, 1)}
	p.cmd.Dir = dir
	p.cmd.Stdout, p.cmd.Stderr = p.out, p.out
	p.cmd.Env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1", "PYTHONUNBUFFERED=1")
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.exited <- p.cmd.Wait() }()
	t.Cleanup(func() {
		_ = p.cmd.Process.Kill()
		p.exited <- <-p.exited
	})
	return p
}

// wait waits for the program to exit and fails the test unless it exited
// with code.
func (p *python) wait(t *testing.T, timeout time.Duration, code int) string {
	t.Helper()
	select {
	case err := <-p.exited:
		p.exited <- err // for the cleanup
		got := 0
		if ee, ok := err.(*exec.ExitError); ok {
			got = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("%v:\n%s", err, p.out.String())
		}
		if got != code {
			t.Fatalf("exit code %d, want %d; its output:\n%s", got, code, p.out.String())
		}
	case <-time.After(timeout):
		t.Fatalf("did not exit within %v; its output:\n%s", timeout, p.out.String())
	}
	return p.out.String()
}

// abs is path made absolute.
func abs(t *testing.T, path string) string {
	t.Helper()
	a, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestProjectsPassTheirAssignmentsExamples: every example project passes
// every printed example of its assignment (clients/python/projetos/
// test_projetos.py, the assignments' examples and transcripts as Python
// tests).
func TestProjectsPassTheirAssignmentsExamples(t *testing.T) {
	p := startPython(t, abs(t, projetosPy), "-m", "unittest", "-v", "test_projetos")
	out := p.wait(t, 2*time.Minute, 0)
	for _, class := range []string{"OrbitoListas", "OrbitoDicionario", "MoinhoListas", "MoinhoClasses", "RainhasConjuntos", "RainhasClasses"} {
		if !strings.Contains(out, "test_projetos."+class+")") {
			t.Errorf("no tests of %s ran:\n%s", class, out)
		}
	}
}

// playProject runs `tabuleiro.py projeto file` for a new bot account of
// owner and returns the bot's id and the running program, once the bot is
// online.
func playProject(t *testing.T, s *testserver.Server, owner, file, game, strategy string, games int) (string, *python) {
	t.Helper()
	var bot struct{ ID, Token string }
	if code := s.Do(t, "POST", "/api/bots", owner, map[string]any{"name": strings.TrimSuffix(file, ".py") + ":" + strategy, "turma": true}, &bot); code != http.StatusCreated {
		t.Fatalf("POST /api/bots answered %d", code)
	}
	id, tok := bot.ID, bot.Token
	p := startPython(t, ".", clientPy, "projeto", filepath.Join(projetosPy, file), "--jogo", game, "--estrategia", strategy,
		"--servidor", s.URL, "--token", tok, "--partidas", fmt.Sprint(games))
	waitBotOnline(t, s, id, p.out.String)
	return id, p
}

// challenge starts a game of the bot against person, who takes seat; it
// returns the room.
func challenge(t *testing.T, s *testserver.Server, person *testserver.Client, bot, game, variant string, seat int, setup any) string {
	t.Helper()
	body := map[string]any{"game": game, "variant": variant, "seat": seat}
	if setup != nil {
		body["setup"] = setup
	}
	var ch struct{ Room string }
	if code := s.Do(t, "POST", "/api/bots/"+bot+"/challenge", person.Token, body, &ch); code != http.StatusCreated {
		t.Fatalf("challenge %s %s: %d", game, variant, code)
	}
	return ch.Room
}

// botMoves reads the record of room as the bot's owner: the bot's moves
// and its faults.
func botRecord(t *testing.T, s *testserver.Server, owner, room string) recordNotes {
	t.Helper()
	var rec recordNotes
	if code := s.Do(t, "GET", "/api/records/"+room, owner, nil, &rec); code != http.StatusOK {
		t.Fatalf("record of %s: %d", room, code)
	}
	return rec
}

var infoMs = regexp.MustCompile(`^\d+ ms`)

// TestProjectPlaysAWholeGame: each example project, through the adapter
// (its own constructors, its own choice, its own transformers), plays a
// whole game against a person on the server, every move with the time it
// took as its info; the program ends after its game.
func TestProjectPlaysAWholeGame(t *testing.T) {
	s := testserver.Start(t)
	owner := s.Hello(t, "professora", "")
	for _, tc := range []struct{ file, game, variant, strategy string }{
		{"orbito_listas.py", "orbito", "2", "normal"},
		{"orbito_dicionario.py", "orbito", "3", "facil"},
		{"moinho_listas.py", "morris", "3", "normal"},
		{"moinho_classes.py", "morris", "3", "dificil"},
		{"rainhas_conjuntos.py", "queens", "tradicional", "jogador_asfixiante"},
		{"rainhas_classes.py", "queens", "x-random", "jogador_gulosa"},
		{"go_simples.py", "go", "9", "joga_ou_passa"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			id, p := playProject(t, s, owner.Token, tc.file, tc.game, tc.strategy, 1)
			person := s.Hello(t, "ana", "")
			room := challenge(t, s, person, id, tc.game, tc.variant, 1, nil)
			fin := personPlays(t, person, room, 1, func(st testserver.Msg) string {
				if tc.game == "go" {
					return "pass" // the bot stops once it is ahead
				}
				return st.Legal[0]
			})
			if fin.Result == nil || slices.Contains([]string{"abandoned", "aborted", "timeout", "bot_error"}, fin.Result.Reason) {
				t.Fatalf("the game ended %s; the program's output:\n%s", fin.Raw, p.out.String())
			}
			p.wait(t, testserver.Timeout, 0)
			rec := botRecord(t, s, owner.Token, room)
			n := 0
			for _, m := range rec.Moves {
				if m.Seat == 0 {
					n++
					if !infoMs.MatchString(m.Info) {
						t.Errorf("the bot's move %s has info %q, want its time", m.Move, m.Info)
					}
				}
			}
			if n == 0 || len(rec.Faults) != 0 {
				t.Fatalf("the bot made %d moves, faults %+v; its output:\n%s", n, rec.Faults, p.out.String())
			}
		})
	}
}

// personPlays plays seat of room over the WebSocket with choose's move until
// the game is over, and returns the last state.
func personPlays(t *testing.T, c *testserver.Client, room string, seat int, choose func(testserver.Msg) string) testserver.Msg {
	t.Helper()
	c.Send(map[string]any{"type": "room.join", "room": room, "as": "player"})
	st := c.State(room, nil)
	for st.Status != "finished" {
		if botTurn(st, seat) {
			c.Send(map[string]any{"type": "room.move", "room": room, "move": choose(st)})
		}
		prev := st.Seq
		st = c.State(room, func(m testserver.Msg) bool { return m.Seq > prev })
	}
	return st
}

// printedPosition is a position an assignment prints with the move its
// strategy plays there.
type printedPosition struct {
	variant string
	setup   any
	bot     int // the bot's seat: the one to move
	want    string
}

// TestProjectPlaysThePrintedMove: in each position the assignments print
// with a bot's choice, the move the server receives from each example
// project (through the adapter) is the printed one: orbito's
// escolhe_movimento_auto examples, morris's obter_movimento_auto examples,
// and for queens the move of faz_jogada's example, played by a player that
// checks it was given the printed game dictionary.
func TestProjectPlaysThePrintedMove(t *testing.T) {
	s := testserver.Start(t)
	owner := s.Hello(t, "professora", "")
	orbito := func(black, white []string, toMove string) any {
		return map[string]any{"black": black, "white": white, "toMove": toMove}
	}
	first := orbito([]string{"a3", "a4", "b1", "b3", "c3"}, []string{"c1", "c2", "d2", "d3", "d4"}, "black")
	firstW := orbito([]string{"a3", "a4", "b1", "b3", "c3"}, []string{"c1", "c2", "d2", "d3", "d4"}, "white")
	turned := orbito([]string{"a2", "b2", "c2", "b4", "c4"}, []string{"a1", "c1", "d1", "d2", "b3"}, "black")
	turnedW := orbito([]string{"a2", "b2", "c2", "b4", "c4"}, []string{"a1", "c1", "d1", "d2", "b3"}, "white")
	morris := func(board [3][3]int) any { return map[string]any{"board": board, "toMove": "X"} }
	a := morris([3][3]int{{1, 0, -1}, {0, 1, -1}, {1, -1, 0}})
	b := morris([3][3]int{{1, -1, -1}, {-1, 1, 0}, {0, 0, 1}})
	queens := map[string]any{"placed": map[string]string{"3,0": "D", "6,6": "R"},
		"hands": map[string][]string{"primeiro": {"D", "R", "R", "T"}, "segundo": {"D", "D", "R", "T"}}, "toMove": "primeiro"}
	for _, tc := range []struct {
		game, strategy string
		files          []string
		positions      []printedPosition
	}{
		{"orbito", "facil", []string{"orbito_listas.py", "orbito_dicionario.py"},
			[]printedPosition{{"2", first, 0, "b2"}, {"2", firstW, 1, "b2"}}},
		{"orbito", "normal", []string{"orbito_listas.py", "orbito_dicionario.py"},
			[]printedPosition{{"2", first, 0, "d1"}, {"2", firstW, 1, "c4"}, {"2", turned, 0, "d3"}, {"2", turnedW, 1, "b1"}}},
		{"morris", "facil", []string{"moinho_listas.py", "moinho_classes.py"},
			[]printedPosition{{"3", nil, 0, "b2"}, {"3", a, 0, "a1b1"}}},
		{"morris", "normal", []string{"moinho_listas.py", "moinho_classes.py"},
			[]printedPosition{{"3", a, 0, "b2a2"}, {"3", b, 0, "b2c2"}}},
		{"morris", "dificil", []string{"moinho_listas.py", "moinho_classes.py"},
			[]printedPosition{{"3", b, 0, "c3c2"}}},
		{"queens", "jogador_enunciado", []string{"rainhas_enunciado.py"},
			[]printedPosition{{"tradicional", queens, 0, "T@1,7"}}},
	} {
		for _, file := range tc.files {
			t.Run(file+" "+tc.strategy, func(t *testing.T) {
				id, p := playProject(t, s, owner.Token, file, tc.game, tc.strategy, len(tc.positions))
				for _, pos := range tc.positions {
					person := s.Hello(t, "ana", "")
					room := challenge(t, s, person, id, tc.game, pos.variant, 1-pos.bot, pos.setup)
					person.Send(map[string]any{"type": "room.join", "room": room, "as": "player"})
					st := person.State(room, func(m testserver.Msg) bool { return m.LastMove != nil || m.Status == "finished" })
					if st.LastMove == nil || st.LastMove.Seat != pos.bot || st.LastMove.Move != pos.want {
						t.Fatalf("the bot played %s, want %s; its output:\n%s", st.Raw, pos.want, p.out.String())
					}
					if st.Status != "finished" {
						person.Send(map[string]any{"type": "room.resign", "room": room})
						person.State(room, func(m testserver.Msg) bool { return m.Status == "finished" })
					}
				}
				p.wait(t, testserver.Timeout, 0)
			})
		}
	}
}
