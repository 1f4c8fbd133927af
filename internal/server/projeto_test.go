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
	t.Parallel() // a Python process and rooms of its own
	p := startPython(t, abs(t, projetosPy), "-m", "unittest", "-v", "test_projetos")
	out := p.wait(t, 2*time.Minute, 0)
	for _, class := range []string{"OrbitoListas", "OrbitoDicionario", "MoinhoListas", "MoinhoClasses", "RainhasConjuntos", "RainhasClasses"} {
		if !strings.Contains(out, "test_projetos."+class) {
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
	t.Parallel() // a Python process and rooms of its own
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
	t.Parallel() // a Python process and rooms of its own
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
				t.Parallel() // a project of its own
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

// torneioView is what the tests read of GET /api/torneios/{id}.
type torneioView struct {
	ID       string
	Status   string
	Entrants []struct{ Bot, Level, Name string }
	Games    []struct {
		Entrants [2]int
		Room     string
		Status   string
		Winner   *int
		Reason   string
	}
	Standings []struct {
		Name                     string
		Played, Won, Drawn, Lost int
		Share                    float64
	}
}

var torneioURL = regexp.MustCompile(`Torneio: (\S+)/t/(\S+)`)

// runTorneio runs `tabuleiro.py torneio` in dir with the entries and the
// levels, to its end, and returns its output and the tournament's view.
func runTorneio(t *testing.T, s *testserver.Server, teacher, dir string, entries []string, extra ...string) (string, torneioView) {
	t.Helper()
	args := append([]string{abs(t, clientPy), "torneio", "--jogo", "orbito", "--variante", "2", "--partidas", "1",
		"--servidor", s.URL, "--jogador", teacher, "--espera", "0.2"}, extra...)
	p := startPython(t, dir, append(args, entries...)...)
	out := p.wait(t, 4*time.Minute, 0)
	m := torneioURL.FindStringSubmatch(out)
	if m == nil || m[1] != s.URL {
		t.Fatalf("no tournament address printed:\n%s", out)
	}
	var v torneioView
	if code := s.Do(t, "GET", "/api/torneios/"+m[2], "", nil, &v); code != http.StatusOK || v.Status != "finished" {
		t.Fatalf("the tournament %s: %d %+v", m[2], code, v)
	}
	return out, v
}

// checkStandings checks that the standings the program printed last, as
// the queens assignment's torneio returns them (a dictionary of win
// percentages), are the API's, and that every pair played each seat.
func checkStandings(t *testing.T, out string, v torneioView) {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var want []string
	for _, st := range v.Standings {
		want = append(want, fmt.Sprintf("'%s': %.1f", st.Name, st.Share))
	}
	if got := lines[len(lines)-1]; got != "{"+strings.Join(want, ", ")+"}" {
		t.Errorf("printed standings %s, the API's %v", got, want)
	}
	for _, st := range v.Standings {
		row := regexp.MustCompile(regexp.QuoteMeta(st.Name) + fmt.Sprintf(`\s+%d jogos\s+%d V\s+%d E\s+%d D\s+%.1f%%`, st.Played, st.Won, st.Drawn, st.Lost, st.Share))
		if !row.MatchString(out) {
			t.Errorf("no table row for %+v in:\n%s", st, out)
		}
	}
	n := len(v.Entrants)
	played := map[[2]int]int{}
	for _, g := range v.Games {
		if g.Status != "finished" {
			t.Errorf("game %+v not finished", g)
		}
		played[g.Entrants]++
	}
	for i := range n {
		for j := range n {
			if i != j && played[[2]int{i, j}] != 1 {
				t.Errorf("entrants %d and %d played %d games with %d first, want 1", i, j, played[[2]int{i, j}], i)
			}
		}
	}
}

// TestClassTournament: the class tournament in one command: four orbito
// projects (two files, two strategies each) and a server level, bots
// registered for the teacher and the tournament created by the program,
// which plays every project in one process to the end: every pair played
// both seats, no game lost by time or error, the standings printed as the
// API's. A second run reuses the bots it registered.
func TestClassTournament(t *testing.T) {
	s := testserver.Start(t)
	teacher := s.Hello(t, "professora", "")
	dir := t.TempDir()
	entries := []string{
		filepath.Join(abs(t, projetosPy), "orbito_listas.py") + ":normal",
		filepath.Join(abs(t, projetosPy), "orbito_listas.py") + ":facil",
		filepath.Join(abs(t, projetosPy), "orbito_dicionario.py") + ":normal",
		filepath.Join(abs(t, projetosPy), "orbito_dicionario.py") + ":facil",
	}
	out, v := runTorneio(t, s, teacher.Token, dir, entries, "--nivel", "normal")
	if len(v.Entrants) != 5 || v.Entrants[4].Level != "normal" || len(v.Games) != 20 {
		t.Fatalf("entrants %+v, %d games", v.Entrants, len(v.Games))
	}
	for i, name := range []string{"orbito_listas:normal", "orbito_listas:facil", "orbito_dicionario:normal", "orbito_dicionario:facil"} {
		if v.Entrants[i].Name != name || v.Entrants[i].Bot == "" {
			t.Errorf("entrant %d %+v, want the bot %s", i, v.Entrants[i], name)
		}
	}
	for _, g := range v.Games {
		if slices.Contains([]string{"timeout", "bot_error", "aborted", "abandoned"}, g.Reason) {
			t.Errorf("game %+v lost by %s; the output:\n%s", g, g.Reason, out)
		}
	}
	checkStandings(t, out, v)
	if !strings.Contains(out, "registado") {
		t.Errorf("no bot registered:\n%s", out)
	}

	// Again, two of them: the same bots, nothing registered.
	out2, v2 := runTorneio(t, s, teacher.Token, dir, entries[:2])
	if strings.Contains(out2, "registado") || v2.Entrants[0].Bot != v.Entrants[0].Bot || v2.Entrants[1].Bot != v.Entrants[1].Bot {
		t.Fatalf("the second run's entrants %+v, the first's %+v:\n%s", v2.Entrants, v.Entrants, out2)
	}
	checkStandings(t, out2, v2)
}

// TestFaultyProjectsInATournament: a project that raises on its third move
// and one that answers an occupied square, in a class tournament: each of
// their games ends with bot_error (the other seat wins), the program shows
// the traceback or the answer with the position as the file writes it,
// the record keeps the fault for the bot's owner, and the tournament
// finishes.
func TestFaultyProjectsInATournament(t *testing.T) {
	s := testserver.Start(t)
	teacher := s.Hello(t, "professora", "")
	dir := abs(t, projetosPy)
	out, v := runTorneio(t, s, teacher.Token, t.TempDir(), []string{
		filepath.Join(dir, "orbito_listas.py") + ":normal",
		filepath.Join(dir, "falha_terceira.py") + ":normal",
		filepath.Join(dir, "casa_ocupada.py") + ":normal",
	})
	checkStandings(t, out, v)
	for _, g := range v.Games {
		faulty := -1
		for seat, e := range g.Entrants {
			if e != 0 {
				faulty = seat // both faulty: the one that fails first
			}
		}
		if g.Entrants[0] != 0 && g.Entrants[1] != 0 {
			faulty = -1
		}
		if g.Reason != "bot_error" || g.Winner == nil || (faulty >= 0 && *g.Winner == faulty) {
			t.Errorf("game %+v: want bot_error, won by the other seat", g)
		}
		rec := botRecord(t, s, teacher.Token, g.Room)
		if len(rec.Faults) == 0 || rec.Faults[len(rec.Faults)-1].Code != "bot_error" {
			t.Errorf("game %s: faults %+v", g.Room, rec.Faults)
		}
	}
	for _, want := range []string{
		"falha_terceira:normal", "O projeto falhou na jogada", "Traceback (most recent call last):",
		"IndexError: list index out of range", "falha_terceira.py", // the student's traceback
		"casa_ocupada:normal", "uma jogada ilegal", "is occupied", // the illegal answer and the server's error
		"01 [", "    a   b   c   d", // the position, as tabuleiro_para_str writes it
		"O bot desiste desta partida (bot_error)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the output does not show %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "tabuleiro.py\", line") {
		t.Errorf("the traceback shows the adapter's frames:\n%s", out)
	}
}

// TestSlowProjectResigns: a project that takes longer than its limit is
// interrupted and resigns that game with bot_error, instead of losing
// silently on time; the student is told.
func TestSlowProjectResigns(t *testing.T) {
	s := testserver.Start(t)
	owner := s.Hello(t, "professora", "")
	var bot struct{ ID, Token string }
	if code := s.Do(t, "POST", "/api/bots", owner.Token, map[string]any{"name": "lenta", "turma": true}, &bot); code != http.StatusCreated {
		t.Fatalf("POST /api/bots answered %d", code)
	}
	p := startPython(t, ".", clientPy, "projeto", filepath.Join(projetosPy, "lenta.py"), "--jogo", "orbito",
		"--estrategia", "normal", "--servidor", s.URL, "--token", bot.Token, "--partidas", "1", "--limite", "1")
	waitBotOnline(t, s, bot.ID, p.out.String)
	person := s.Hello(t, "ana", "")
	room := challenge(t, s, person, bot.ID, "orbito", "2", 1, nil)
	fin := playAsPerson(t, person, room, 1)
	if fin.Result == nil || fin.Result.Reason != "bot_error" || fin.Result.Winner == nil || *fin.Result.Winner != 1 {
		t.Fatalf("the game ended %s", fin.Raw)
	}
	out := p.wait(t, testserver.Timeout, 0)
	for _, want := range []string{"demorou mais de 1 s", "A posição:", "01 [", "bot_error"} {
		if !strings.Contains(out, want) {
			t.Errorf("the output does not show %q:\n%s", want, out)
		}
	}
	rec := botRecord(t, s, owner.Token, room)
	if len(rec.Faults) != 1 || rec.Faults[0].Info != "demorou mais de 1 s" {
		t.Errorf("faults %+v", rec.Faults)
	}
}

// TestProjectPlays2048: a 2048 project's strategy, f(t) -> 'N'|'S'|'E'|'W'
// with t built by the file's own constructors, plays its board of a race.
func TestProjectPlays2048(t *testing.T) {
	t.Parallel() // a Python process and rooms of its own
	s := testserver.Start(t)
	owner := s.Hello(t, "professora", "")
	id, p := playProject(t, s, owner.Token, "g2048_simples.py", "2048", "escolhe_direcao", 1)
	person := s.Hello(t, "ana", "")
	room := challenge(t, s, person, id, "2048", "race", 1, nil)
	person.Send(map[string]any{"type": "room.join", "room": room, "as": "player"})
	moves := 0
	for moves < 20 {
		prev := person.State(room, nil).Seq
		st := person.State(room, func(m testserver.Msg) bool { return m.Seq > prev })
		if st.LastMove != nil && st.LastMove.Seat == 0 {
			moves++
		}
		if st.Status == "finished" {
			break
		}
	}
	person.Send(map[string]any{"type": "room.resign", "room": room})
	person.State(room, func(m testserver.Msg) bool { return m.Status == "finished" })
	p.wait(t, testserver.Timeout, 0)
	rec := botRecord(t, s, owner.Token, room)
	n := 0
	for _, m := range rec.Moves {
		if m.Seat == 0 && infoMs.MatchString(m.Info) {
			n++
		}
	}
	if n < 20 || len(rec.Faults) != 0 {
		t.Fatalf("%d moves of the bot with their time, faults %+v; its output:\n%s", n, rec.Faults, p.out.String())
	}
}

// TestTorneioNamesTheFilesThatCannotPlay: a file that does not import (a
// syntax error, a game started at import that asks for input) or lacks
// the function its game needs is named with its error before anything
// starts: no bot registered, no tournament.
func TestTorneioNamesTheFilesThatCannotPlay(t *testing.T) {
	s := testserver.Start(t)
	teacher := s.Hello(t, "professora", "")
	dir := t.TempDir()
	files := map[string]string{
		"sintaxe.py":    "def escolhe_movimento_auto(t, j, lvl)\n    return None\n",
		"pergunta.py":   "nome = input('Como te chamas? ')\n",
		"incompleto.py": "def cria_tabuleiro(n, tp, tb):\n    return None\n",
	}
	var entries []string
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		entries = append(entries, name+":normal")
	}
	entries = append(entries, filepath.Join(abs(t, projetosPy), "orbito_listas.py")+":normal")
	p := startPython(t, dir, append([]string{abs(t, clientPy), "torneio", "--jogo", "orbito", "--variante", "2",
		"--servidor", s.URL, "--jogador", teacher.Token}, entries...)...)
	out := p.wait(t, testserver.Timeout, 1)
	for _, want := range []string{
		"sintaxe.py (sintaxe:normal) não pode jogar", "SyntaxError",
		"pergunta.py (pergunta:normal) não pode jogar", "EOFError",
		"incompleto.py (incompleto:normal) não pode jogar", "O projeto não define: str_para_posicao",
		"Nada foi começado",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the output does not say %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "orbito_listas.py (") || strings.Contains(out, "registado") || strings.Contains(out, "Torneio:") {
		t.Errorf("a good file named, a bot registered or a tournament started:\n%s", out)
	}
	var list struct{ Torneios []any }
	s.GetJSON(t, "/api/torneios", &list)
	if len(list.Torneios) != 0 {
		t.Errorf("tournaments %+v", list.Torneios)
	}
	if _, err := os.Stat(filepath.Join(dir, "tabuleiro-turma.json")); !os.IsNotExist(err) {
		t.Errorf("a tokens file was written: %v", err)
	}
}
