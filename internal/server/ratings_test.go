package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/internal/server"
	"github.com/tabuleiro/tabuleiro/internal/testkit/testserver"
	"github.com/tabuleiro/tabuleiro/ratings"
	"github.com/tabuleiro/tabuleiro/store/memstore"
)

// rated is one player of the ratings tests: an account's browser, its
// WebSocket and its id.
type rated struct {
	b  *testserver.Browser
	ws *testserver.Client
	id string
}

// newAccount makes a new account named name (POST /api/account) and says
// hello over a WebSocket that carries its session cookie.
func newAccount(t *testing.T, s *testserver.Server, name string) rated {
	t.Helper()
	b := s.NewBrowser(t)
	var made me
	if code, _ := b.Do("POST", "/api/account", map[string]string{"name": name, "password": name + "'s password"}, &made); code != http.StatusCreated {
		t.Fatalf("POST /api/account %s: %d", name, code)
	}
	c, err := b.Dial()
	if err != nil {
		t.Fatalf("dial with the cookie: %v", err)
	}
	c.Send(map[string]any{"type": "hello"})
	w := c.Wait("welcome", nil)
	if w.Player.ID != made.ID {
		t.Fatalf("welcome %+v, want the account %s", w.Player, made.ID)
	}
	return rated{b: b, ws: c, id: made.ID}
}

// profileJSON is GET /api/players/{id}.
type profileJSON struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Bot     bool   `json:"bot"`
	Account bool   `json:"account"`
	Ratings map[string]struct {
		Rating      int     `json:"rating"`
		RD          float64 `json:"rd"`
		Games       int     `json:"games"`
		Provisional bool    `json:"provisional"`
	} `json:"ratings"`
	Results struct{ Won, Drawn, Lost int } `json:"results"`
}

func profileOf(t *testing.T, s *testserver.Server, id string) profileJSON {
	t.Helper()
	var p profileJSON
	if code := s.GetJSON(t, "/api/players/"+id, &p); code != http.StatusOK {
		t.Fatalf("GET /api/players/%s: %d", id, code)
	}
	return p
}

// startMorris has a create a morris game (rated unless rated says, with
// the server's default when nil) that b joins; it returns the room and
// the seat that moves first's player.
func startMorris(t *testing.T, a, b rated, ratedField *bool) (room string, first, second rated) {
	t.Helper()
	msg := map[string]any{"type": "room.create", "game": "morris", "variant": "3", "opponent": "human"}
	if ratedField != nil {
		msg["rated"] = *ratedField
	}
	a.ws.Send(msg)
	room = a.ws.Wait("room.joined", nil).Room
	b.ws.Send(map[string]any{"type": "room.join", "room": room, "as": "player"})
	st := a.ws.State(room, func(m testserver.Msg) bool { return m.Status == "playing" && m.Turn != nil })
	first, second = a, b
	if st.Players[*st.Turn].ID == b.id {
		first, second = b, a
	}
	return room, first, second
}

// play sends the moves in turn, first's then second's.
func play(t *testing.T, room string, first, second rated, moves ...string) {
	t.Helper()
	for i, mv := range moves {
		p := []rated{first, second}[i%2]
		p.ws.Send(map[string]any{"type": "room.move", "room": room, "move": mv})
		p.ws.State(room, func(m testserver.Msg) bool { return m.LastMove != nil && m.LastMove.Move == mv })
	}
}

// wantRating checks one pool's rating of a profile against the rating r
// computed here, within 0.5.
func wantRating(t *testing.T, s *testserver.Server, id, pool string, r ratings.Rating) {
	t.Helper()
	p := profileOf(t, s, id)
	got, ok := p.Ratings[pool]
	if !ok {
		t.Fatalf("GET /api/players/%s: no %s rating in %+v", id, pool, p.Ratings)
	}
	if math.Abs(float64(got.Rating)-r.Rating) > 0.5 || math.Abs(got.RD-r.Deviation) > 0.5 || got.Games != r.Games ||
		got.Provisional != r.Provisional() {
		t.Fatalf("%s's %s rating %+v, want %.2f rd %.2f after %d games (provisional %v)", id, pool, got, r.Rating, r.Deviation,
			r.Games, r.Provisional())
	}
}

// TestRatedGameOverWebSocket: two new accounts play a rated morris game to
// a win over the WebSocket; both new ratings are one Glicko-2 period from
// 1500/500/0.09, in the profiles, the room's end (ratingChanges, the
// seats), the record and the tallies; then a draw agreed by both rates
// again from those.
func TestRatedGameOverWebSocket(t *testing.T) {
	t.Parallel()
	onStores(t, func(t *testing.T, edit func(*server.Config)) {
		s := testserver.Start(t, edit)
		ana, bia := newAccount(t, s, "ana_r"), newAccount(t, s, "bia_r")
		room, first, second := startMorris(t, ana, bia, nil)
		st := first.ws.State(room, func(m testserver.Msg) bool {
			return m.Players[0].Rating != 0 && m.Players[1].Rating != 0
		})
		if !st.Rated || st.Players[0].Rating != 1500 || !st.Players[0].Provisional {
			t.Fatalf("a game between two accounts: rated %v, seats %+v; want rated, 1500?", st.Rated, st.Players)
		}
		// The first mover makes a line: a1, a2, a3.
		play(t, room, first, second, "a1", "b1", "a2", "b2", "a3")
		end := first.ws.State(room, func(m testserver.Msg) bool { return len(m.RatingChanges) == 2 })
		if end.Result == nil || end.Result.Winner == nil || end.Players[*end.Result.Winner].ID != first.id {
			t.Fatalf("result %+v, want %s's win", end.Result, first.id)
		}
		win, loss := ratings.Update(ratings.New(), ratings.New(), 1, time.Now())
		wantRating(t, s, first.id, "morris/3", win)
		wantRating(t, s, second.id, "morris/3", loss)
		for _, c := range end.RatingChanges {
			want := map[string]ratings.Rating{first.id: win, second.id: loss}[c.ID]
			if c.Before != 1500 || c.After != want.Shown() || c.Diff != c.After-c.Before || end.Players[c.Seat].ID != c.ID ||
				end.Players[c.Seat].Rating != c.After {
				t.Fatalf("ratingChanges %+v, seats %+v: want 1500 -> %d", end.RatingChanges, end.Players, want.Shown())
			}
		}
		if p := profileOf(t, s, first.id); p.Results.Won != 1 || p.Results.Lost != 0 || !p.Account || p.Name != map[string]string{ana.id: "ana_r", bia.id: "bia_r"}[first.id] {
			t.Fatalf("the winner's profile %+v", p)
		}
		var rec struct {
			Rated   bool `json:"rated"`
			Ratings []struct{ Seat, Before, After, Diff int }
		}
		if code := s.GetJSON(t, "/api/records/"+room, &rec); code != http.StatusOK || !rec.Rated || len(rec.Ratings) != 2 {
			t.Fatalf("GET /api/records/%s: %d %+v, want rated with two changes", room, code, rec)
		}
		// The players' lists of games say it too, with the changes.
		var games struct {
			Records []struct {
				Room    string `json:"room"`
				Rated   bool   `json:"rated"`
				Ratings []struct{ Seat, Before, After, Diff int }
			}
		}
		if code := s.GetJSON(t, "/api/players/"+first.id+"/records", &games); code != http.StatusOK || len(games.Records) != 1 ||
			games.Records[0].Room != room || !games.Records[0].Rated || len(games.Records[0].Ratings) != 2 ||
			games.Records[0].Ratings[0] != rec.Ratings[0] {
			t.Fatalf("GET /api/players/%s/records: %d %+v, want the rated game with its changes %+v", first.id, code, games, rec.Ratings)
		}
		var hist struct {
			Pool   string
			Points []struct {
				Room   string  `json:"room"`
				Rating float64 `json:"rating"`
			}
		}
		if code := s.GetJSON(t, "/api/players/"+first.id+"/history/morris/3", &hist); code != http.StatusOK ||
			hist.Pool != "morris/3" || len(hist.Points) != 1 || hist.Points[0].Room != room || math.Abs(hist.Points[0].Rating-win.Rating) > 0.5 {
			t.Fatalf("history: %d %+v", code, hist)
		}

		// A draw, agreed after both moved, rates from the new ratings.
		room2, f2, s2 := startMorris(t, first, second, nil)
		play(t, room2, f2, s2, "b2", "a1")
		f2.ws.Send(map[string]any{"type": "room.draw.offer", "room": room2})
		s2.ws.State(room2, func(m testserver.Msg) bool { return m.DrawOffer != nil })
		s2.ws.Send(map[string]any{"type": "room.draw.accept", "room": room2})
		end2 := f2.ws.State(room2, func(m testserver.Msg) bool { return len(m.RatingChanges) == 2 })
		if end2.Result == nil || end2.Result.Winner != nil {
			t.Fatalf("draw: result %+v", end2.Result)
		}
		before := map[string]ratings.Rating{first.id: win, second.id: loss}
		a, b := ratings.Update(before[f2.id], before[s2.id], 0.5, time.Now())
		wantRating(t, s, f2.id, "morris/3", a)
		wantRating(t, s, s2.id, "morris/3", b)
		if p := profileOf(t, s, f2.id); p.Results.Won+p.Results.Lost != 1 || p.Results.Drawn != 1 {
			t.Fatalf("after a win or a loss and a draw: %+v", p.Results)
		}
	})
}

// TestAbortedAndCasualGamesChangeNoRating: an aborted rated game, a
// casual game between accounts and a game between guests change no
// rating (the rated game after them, the rater's next, rates from
// 1500/500/0.09, one game each); guests may not ask for a rated game nor
// take a rated game's seat.
func TestAbortedAndCasualGamesChangeNoRating(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t)
	ana, bia := newAccount(t, s, "ana_a"), newAccount(t, s, "bia_a")

	// Aborted before both moved.
	room, first, _ := startMorris(t, ana, bia, nil)
	first.ws.Send(map[string]any{"type": "room.abort", "room": room})
	if st := first.ws.State(room, func(m testserver.Msg) bool { return m.Status == "finished" }); st.Result.Reason != "aborted" {
		t.Fatalf("abort: %+v", st.Result)
	}
	// Casual, by choice, to a win.
	casual := false
	room, first, second := startMorris(t, ana, bia, &casual)
	if st := first.ws.StateEver(room, func(m testserver.Msg) bool { return m.Status == "playing" }); st.Rated {
		t.Fatal(`"rated": false made a rated game`)
	}
	play(t, room, first, second, "a1", "b1", "a2", "b2", "a3")
	first.ws.StateEver(room, func(m testserver.Msg) bool { return m.Status == "finished" })

	// Guests: casual, and refused a rated game.
	g1, g2 := s.Hello(t, "guest1", ""), s.Hello(t, "guest2", "")
	g1.Send(map[string]any{"type": "room.create", "game": "morris", "variant": "3", "opponent": "human", "rated": true})
	if e := g1.WaitError("bad_request"); e.Message == "" {
		t.Fatal("a guest's rated room.create: no message")
	}
	g1.Send(map[string]any{"type": "match.find", "game": "morris", "variant": "3", "rated": true})
	g1.WaitError("bad_request")
	// A set-up position is casual: by default, and refused rated.
	setup := map[string]any{"board": [][]int{{0, 0, 0}, {0, 0, 0}, {0, 0, 0}}, "toMove": "X"}
	ana.ws.Send(map[string]any{"type": "room.create", "game": "morris", "variant": "3", "opponent": "human", "setup": setup, "rated": true})
	ana.ws.WaitError("bad_request")
	ana.ws.Send(map[string]any{"type": "room.create", "game": "morris", "variant": "3", "opponent": "human", "setup": setup})
	setupRoom := ana.ws.Wait("room.joined", func(m testserver.Msg) bool { return m.Room != room }).Room
	if st := ana.ws.StateEver(setupRoom, nil); st.Rated {
		t.Fatalf("a game from a set-up position is rated: %s", st.Raw)
	}
	ana.ws.Send(map[string]any{"type": "room.leave", "room": setupRoom})
	ana.ws.Send(map[string]any{"type": "room.create", "game": "morris", "variant": "3", "opponent": "human"})
	ratedRoom := ana.ws.Wait("room.joined", func(m testserver.Msg) bool { return m.Room != room && m.Room != setupRoom }).Room
	g1.Send(map[string]any{"type": "room.join", "room": ratedRoom, "as": "player"})
	g1.WaitError("bad_request")
	if st := ana.ws.StateEver(ratedRoom, nil); st.Status != "waiting" || !st.Rated {
		t.Fatalf("an account's game against whoever comes: %+v, want rated and waiting", st)
	}
	// (bia takes the seat below: the guest did not.)
	g1.Send(map[string]any{"type": "room.create", "game": "morris", "variant": "3", "opponent": "human"})
	groom := g1.Wait("room.joined", nil).Room
	g2.Send(map[string]any{"type": "room.join", "room": groom, "as": "player"})
	gs := g1.State(groom, func(m testserver.Msg) bool { return m.Status == "playing" && m.Turn != nil })
	if gs.Rated || gs.Players[0].Rating != 0 || gs.Players[1].Rating != 0 {
		t.Fatalf("guests' game: rated %v, seats %+v", gs.Rated, gs.Players)
	}
	gFirst := map[bool]*testserver.Client{true: g1, false: g2}[gs.Players[*gs.Turn].ID == g1.Player.ID]
	gFirst.Send(map[string]any{"type": "room.resign", "room": groom})
	g1.State(groom, func(m testserver.Msg) bool { return m.Status == "finished" })

	// The rated game, to a win.
	bia.ws.Send(map[string]any{"type": "room.join", "room": ratedRoom, "as": "player"})
	st := ana.ws.State(ratedRoom, func(m testserver.Msg) bool { return m.Status == "playing" && m.Turn != nil })
	first, second = ana, bia
	if st.Players[*st.Turn].ID == bia.id {
		first, second = bia, ana
	}
	play(t, ratedRoom, first, second, "a1", "b1", "a2", "b2", "a3")
	first.ws.State(ratedRoom, func(m testserver.Msg) bool { return len(m.RatingChanges) == 2 })
	win, loss := ratings.Update(ratings.New(), ratings.New(), 1, time.Now())
	wantRating(t, s, first.id, "morris/3", win)
	wantRating(t, s, second.id, "morris/3", loss)
	// The casual game is tallied, the aborted one is not.
	if p := profileOf(t, s, first.id); p.Results.Won+p.Results.Lost != 2 || p.Results.Drawn != 0 {
		t.Fatalf("results after a casual game, an aborted one and a rated one: %+v", p.Results)
	}
	for _, g := range []*testserver.Client{g1, g2} {
		if p := profileOf(t, s, g.Player.ID); len(p.Ratings) != 0 || p.Results.Won+p.Results.Lost != 0 || p.Account {
			t.Fatalf("a guest's profile %+v", p)
		}
	}
	if code := s.GetJSON(t, "/api/players/nobody-at-all", nil); code != http.StatusNotFound {
		t.Fatalf("an unknown player's profile: %d, want 404", code)
	}
	for path, want := range map[string]int{
		"/api/leaderboard/chess/x": 404, "/api/leaderboard/morris/9": 404, "/api/leaderboard/morris/3?bots=maybe": 400,
		"/api/players/" + first.id + "/history/2048/solo": 404, "/api/profile/ANA_A": 200,
	} {
		if code := s.GetJSON(t, path, nil); code != want {
			t.Errorf("GET %s: %d, want %d", path, code, want)
		}
	}
}

// TestRatedQuickMatchRematchAndLobby: two accounts' quick match is a rated
// game (the lobby's summary says so); its rematch is rated too and its
// seats show the ratings the first game left; an account asking for a
// casual game makes a casual one.
func TestRatedQuickMatchRematchAndLobby(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t)
	ana, bia := newAccount(t, s, "ana_q"), newAccount(t, s, "bia_q")
	ana.ws.Send(map[string]any{"type": "match.find", "game": "morris", "variant": "3"})
	ana.ws.Wait("match.queued", nil)
	bia.ws.Send(map[string]any{"type": "match.find", "game": "morris", "variant": "3"})
	room := ana.ws.Wait("match.found", nil).Room
	st := ana.ws.StateEver(room, func(m testserver.Msg) bool { return m.Status == "playing" && m.Turn != nil })
	if !st.Rated {
		t.Fatalf("two accounts' quick match: not rated: %s", st.Raw)
	}
	var page struct {
		Rooms []struct {
			ID    string `json:"id"`
			Rated bool   `json:"rated"`
		} `json:"rooms"`
	}
	if code := s.GetJSON(t, "/api/rooms", &page); code != http.StatusOK || len(page.Rooms) != 1 || page.Rooms[0].ID != room || !page.Rooms[0].Rated {
		t.Fatalf("GET /api/rooms: %d %+v, want the rated room", code, page)
	}
	first, second := ana, bia
	if st.Players[*st.Turn].ID == bia.id {
		first, second = bia, ana
	}
	play(t, room, first, second, "a1", "b1", "a2", "b2", "a3")
	end := first.ws.State(room, func(m testserver.Msg) bool { return len(m.RatingChanges) == 2 })
	after := map[string]int{}
	for _, c := range end.RatingChanges {
		after[c.ID] = c.After
	}
	ana.ws.Send(map[string]any{"type": "room.rematch", "room": room})
	bia.ws.Send(map[string]any{"type": "room.rematch", "room": room})
	next := ana.ws.Wait("match.found", nil).Room
	re := ana.ws.StateEver(next, nil)
	if !re.Rated || len(re.RatingChanges) != 0 {
		t.Fatalf("the rematch of a rated game: %s", re.Raw)
	}
	for _, p := range re.Players {
		if p.Rating != after[p.ID] || !p.Provisional {
			t.Fatalf("the rematch's seats %+v, want the ratings after the first game %v", re.Players, after)
		}
	}
	ana.ws.Send(map[string]any{"type": "room.resign", "room": next})
	ana.ws.State(next, func(m testserver.Msg) bool { return len(m.RatingChanges) == 2 })

	// Casual, asked by one of them: a rated request never meets it (the
	// queues are apart, docs/protocol.md "Quick match"); a casual one does.
	ana.ws.Send(map[string]any{"type": "match.find", "id": "c", "game": "orbito", "variant": "2", "rated": false})
	ana.ws.Wait("match.queued", func(m testserver.Msg) bool { return string(m.ID) == `"c"` })
	bia.ws.Send(map[string]any{"type": "match.find", "id": "r", "game": "orbito", "variant": "2"})
	bia.ws.Wait("match.queued", func(m testserver.Msg) bool { return string(m.ID) == `"r"` })
	bia.ws.Send(map[string]any{"type": "match.find", "game": "orbito", "variant": "2", "rated": false})
	casual := bia.ws.Wait("match.found", func(m testserver.Msg) bool { return m.Room != next }).Room
	if cs := bia.ws.StateEver(casual, nil); cs.Rated {
		t.Fatalf("a quick match one side asked casual: %s", cs.Raw)
	}
}

// TestLeaderboardAndBestScores: the boards as the store keeps them: the
// players who qualify (deviation 75 or less) best first with their ranks,
// the caller's own line, people and bots apart, 2048's best scores.
func TestLeaderboardAndBestScores(t *testing.T) {
	t.Parallel()
	st := memstore.New()
	s := testserver.Start(t, func(c *server.Config) { c.Store = st })
	ana, bia := newAccount(t, s, "ana_l"), newAccount(t, s, "bia_l")
	cai := newAccount(t, s, "cai_l") // one game: provisional, not on the board
	ctx := context.Background()
	now := time.Now()
	apply := func(room string, a, b rated, names [2]string, score float64) {
		g := ratings.Game{Room: room, Pool: "orbito/2", Score: score, Ended: now,
			Sides: [2]ratings.Side{{ID: a.id, Name: names[0]}, {ID: b.id, Name: names[1]}}}
		// Seeded as a long history would leave them: the board's rules
		// (deviation 75 or less) are the subject here, and one period per
		// game at volatility 0.09 keeps two players' deviations near 80.
		if _, _, err := st.Apply(ctx, g, func(x, y ratings.Rating) (ratings.Rating, ratings.Rating) {
			x, y = ratings.Update(x, y, score, now)
			x.Deviation, y.Deviation = min(x.Deviation, 60), min(y.Deviation, 60)
			if len(names) > 0 && names[0] == "cai_l" {
				x.Deviation = 200 // one game: provisional
			}
			return x, y
		}); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 40 { // ana wins 3 of 4
		apply(fmt.Sprint("lb", i), ana, bia, [2]string{"ana_l", "bia_l"}, map[bool]float64{true: 0, false: 1}[i%4 == 3])
	}
	apply("lb-cai", cai, bia, [2]string{"cai_l", "bia_l"}, 1)
	type line struct {
		Rank   int     `json:"rank"`
		ID     string  `json:"id"`
		Name   string  `json:"name"`
		Rating int     `json:"rating"`
		RD     float64 `json:"rd"`
		Games  int     `json:"games"`
		Bot    bool    `json:"bot"`
	}
	var board struct {
		Pool    string `json:"pool"`
		Bots    bool   `json:"bots"`
		Players []line `json:"players"`
		Me      *line  `json:"me"`
	}
	if code, _ := bia.b.Do("GET", "/api/leaderboard/orbito/2", nil, &board); code != http.StatusOK {
		t.Fatalf("GET /api/leaderboard/orbito/2: %d", code)
	}
	if board.Pool != "orbito/2" || board.Bots || len(board.Players) != 2 || board.Players[0].ID != ana.id ||
		board.Players[0].Rank != 1 || board.Players[1].ID != bia.id || board.Players[1].Rank != 2 ||
		board.Players[0].Rating <= board.Players[1].Rating || board.Players[0].RD > 75 || board.Players[0].Games != 40 ||
		board.Players[0].Name != "ana_l" || board.Me == nil || *board.Me != board.Players[1] {
		t.Fatalf("the board: %+v (me %+v)", board, board.Me)
	}
	if code, _ := cai.b.Do("GET", "/api/leaderboard/orbito/2", nil, &board); code != http.StatusOK || board.Me != nil {
		t.Fatalf("a provisional player's own line: %d %+v", code, board.Me)
	}
	if code := s.GetJSON(t, "/api/leaderboard/orbito/2?bots=1", &board); code != http.StatusOK || !board.Bots || len(board.Players) != 0 {
		t.Fatalf("the bots' board: %d %+v", code, board)
	}
	if err := st.Best(ctx, cai.id, "cai_l", 20480); err != nil {
		t.Fatal(err)
	}
	var best struct {
		Pool   string `json:"pool"`
		Scores []struct {
			Rank  int    `json:"rank"`
			ID    string `json:"id"`
			Score int64  `json:"score"`
		} `json:"scores"`
	}
	if code := s.GetJSON(t, "/api/leaderboard/2048/solo", &best); code != http.StatusOK || best.Pool != "2048/solo" ||
		len(best.Scores) != 1 || best.Scores[0].ID != cai.id || best.Scores[0].Score != 20480 || best.Scores[0].Rank != 1 {
		t.Fatalf("GET /api/leaderboard/2048/solo: %d %+v", code, best)
	}
	var hist struct {
		Points []struct {
			Room string  `json:"room"`
			RD   float64 `json:"rd"`
		} `json:"points"`
	}
	if code := s.GetJSON(t, "/api/players/"+ana.id+"/history/orbito/2", &hist); code != http.StatusOK || len(hist.Points) != 40 ||
		hist.Points[0].Room != "lb0" || hist.Points[39].Room != "lb39" {
		t.Fatalf("ana's curve: %d %d points", code, len(hist.Points))
	}
	if p := profileOf(t, s, cai.id); len(p.Ratings) != 1 || !p.Ratings["orbito/2"].Provisional {
		t.Fatalf("cai's profile %+v", p)
	}
}

// TestRatedTorneio: a tournament with "rated": true makes its games
// between bot accounts rated and its games with a level casual; without
// "rated" every game is casual.
func TestRatedTorneio(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t)
	owner := s.Hello(t, "prof", "")
	b1, _ := s.RegisterBot(t, owner.Token, "um")
	b2, _ := s.RegisterBot(t, owner.Token, "dois")
	for _, rated := range []bool{true, false} {
		body := fmt.Sprintf(`{"game":"morris","entrants":[{"bot":%q},{"bot":%q},{"level":"facil"}],"partidas":[["3",1]],"rated":%v}`, b1, b2, rated)
		var created struct{ ID string }
		if code := postTorneio(t, s, owner.Token, body, &created); code != http.StatusCreated {
			t.Fatalf("POST /api/torneios rated %v: %d", rated, code)
		}
		var view struct {
			Rated bool `json:"rated"`
			Games []struct {
				Entrants [2]int `json:"entrants"`
				Room     string `json:"room"`
			} `json:"games"`
		}
		// Its first games' rooms (a bounded number at once): at least one
		// between the two bots and one with the level.
		bots, level := 0, 0
		eventually(t, "a game of each kind", func() bool {
			bots, level = 0, 0
			s.GetJSON(t, "/api/torneios/"+created.ID, &view)
			for _, g := range view.Games {
				if g.Room == "" {
					continue
				}
				var rec struct {
					Rated   bool `json:"rated"`
					Players []struct {
						Bot string `json:"bot"`
					} `json:"players"`
				}
				if s.GetJSON(t, "/api/records/"+g.Room, &rec) != http.StatusOK {
					return false
				}
				withLevel := g.Entrants[0] == 2 || g.Entrants[1] == 2
				if rec.Rated != (rated && !withLevel) {
					t.Fatalf("torneio rated %v: game %v's record says rated %v", rated, g.Entrants, rec.Rated)
				}
				if withLevel {
					level++
				} else {
					bots++
				}
			}
			return bots > 0 && level > 0
		})
		if view.Rated != rated {
			t.Fatalf("the tournament's view: rated %v, want %v", view.Rated, rated)
		}
	}
}

// TestClusterRatedAcrossNodes: two accounts on different nodes of one
// store: their quick match is rated and each sees both changes at its end;
// a rated room's free seat is taken by an account from another node and
// refused to a guest there.
func TestClusterRatedAcrossNodes(t *testing.T) {
	t.Parallel()
	nodes := startNodes(t, 2, 2*time.Second)
	ana, bia := newAccount(t, nodes[0], "ana_c"), newAccount(t, nodes[1], "bia_c")
	ana.ws.Send(map[string]any{"type": "match.find", "game": "morris", "variant": "3"})
	ana.ws.Wait("match.queued", nil)
	bia.ws.Send(map[string]any{"type": "match.find", "game": "morris", "variant": "3"})
	room := ana.ws.Wait("match.found", nil).Room
	st := ana.ws.StateEver(room, func(m testserver.Msg) bool { return m.Status == "playing" && m.Turn != nil })
	if !st.Rated {
		t.Fatalf("two accounts' quick match across nodes: not rated: %s", st.Raw)
	}
	bia.ws.StateEver(room, func(m testserver.Msg) bool { return m.Status == "playing" })
	first, second := ana, bia
	if st.Players[*st.Turn].ID == bia.id {
		first, second = bia, ana
	}
	play(t, room, first, second, "a1", "b1", "a2", "b2", "a3")
	for _, p := range []rated{ana, bia} {
		end := p.ws.StateEver(room, func(m testserver.Msg) bool { return len(m.RatingChanges) == 2 })
		win, _ := ratings.Update(ratings.New(), ratings.New(), 1, time.Now())
		for _, c := range end.RatingChanges {
			if c.ID == first.id && c.After != win.Shown() {
				t.Fatalf("%s sees %+v, want the winner at %d", p.id, end.RatingChanges, win.Shown())
			}
		}
	}

	ana.ws.Send(map[string]any{"type": "room.create", "game": "orbito", "variant": "2", "opponent": "human"})
	ratedRoom := ana.ws.Wait("room.joined", func(m testserver.Msg) bool { return m.Room != room }).Room
	guest := nodes[1].Hello(t, "guest_c", "")
	guest.Send(map[string]any{"type": "room.join", "room": ratedRoom, "as": "player"})
	guest.WaitError("bad_request")
	bia.ws.Send(map[string]any{"type": "room.join", "room": ratedRoom, "as": "player"})
	if j := bia.ws.Wait("room.joined", func(m testserver.Msg) bool { return m.Room == ratedRoom }); j.Seat == nil {
		t.Fatalf("an account on another node did not take the rated room's seat: %s", j.Raw)
	}
	full := ana.ws.StateEver(ratedRoom, func(m testserver.Msg) bool { return m.Status == "playing" && m.Players[1].Rating != 0 })
	if !full.Rated || full.Players[1].ID != bia.id || full.Players[1].Rating != 1500 {
		t.Fatalf("the rated room after the remote join: %s", full.Raw)
	}
}

// TestSolo2048BestScore: an account's 2048 game alone, played until it
// scores and then resigned, raises its best score: on the board of best
// scores and in its profile.
func TestSolo2048BestScore(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t)
	ana := newAccount(t, s, "ana_s")
	ana.ws.Send(map[string]any{"type": "room.create", "game": "2048", "variant": "solo", "opponent": "none"})
	room := ana.ws.Wait("room.joined", nil).Room
	st := ana.ws.StateEver(room, func(m testserver.Msg) bool { return m.Status == "playing" })
	score := func(m testserver.Msg) int {
		var sc map[string]int
		if err := json.Unmarshal(m.Score, &sc); err != nil {
			t.Fatalf("2048's score %s: %v", m.Score, err)
		}
		return sc["0"]
	}
	for score(st) == 0 && st.Status == "playing" {
		seq := st.Seq
		ana.ws.Send(map[string]any{"type": "room.move", "room": room, "move": st.Legal[0]})
		st = ana.ws.State(room, func(m testserver.Msg) bool { return m.Seq > seq })
	}
	points := score(st)
	if st.Rated || st.Players[0].Rating != 0 {
		t.Fatalf("a game alone is rated: %s", st.Raw)
	}
	ana.ws.Send(map[string]any{"type": "room.resign", "room": room})
	ana.ws.State(room, func(m testserver.Msg) bool { return m.Status == "finished" })
	var best struct {
		Scores []struct {
			ID    string `json:"id"`
			Name  string `json:"name"`
			Score int    `json:"score"`
		} `json:"scores"`
	}
	eventually(t, "the best score on the board", func() bool {
		s.GetJSON(t, "/api/leaderboard/2048/solo", &best)
		return len(best.Scores) == 1
	})
	if best.Scores[0].ID != ana.id || best.Scores[0].Name != "ana_s" || best.Scores[0].Score != points {
		t.Fatalf("the board %+v, want ana_s at %d", best.Scores, points)
	}
	var p struct {
		Best int `json:"best2048"`
	}
	if s.GetJSON(t, "/api/players/"+ana.id, &p); p.Best != points {
		t.Fatalf("profile's best2048 %d, want %d", p.Best, points)
	}
}

// TestProfileOfABotAndItsOwner: a bot account's profile is marked a bot
// and names its owner, and its owner's lists it.
func TestProfileOfABotAndItsOwner(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t)
	ana := newAccount(t, s, "ana_p")
	var bot struct{ ID, Name, Token string }
	if code, _ := ana.b.Do("POST", "/api/bots", map[string]string{"name": "robo_p"}, &bot); code != http.StatusCreated {
		t.Fatalf("POST /api/bots: %d", code)
	}
	var p struct {
		ID      string `json:"id"`
		Name    string `json:"name"`
		Bot     bool   `json:"bot"`
		Account bool   `json:"account"`
		Owner   *struct {
			ID   string `json:"id"`
			Name string `json:"name"`
		} `json:"owner"`
		Bots []struct {
			ID   string `json:"id"`
			Name string `json:"name"`
		} `json:"bots"`
		Ratings map[string]any `json:"ratings"`
	}
	if code := s.GetJSON(t, "/api/players/"+bot.ID, &p); code != http.StatusOK || !p.Bot || p.Account || p.Name != "robo_p" || p.Ratings == nil ||
		p.Owner == nil || p.Owner.ID != ana.id || p.Owner.Name != "ana_p" {
		t.Fatalf("the bot's profile: %d %+v", code, p)
	}
	p.Owner = nil
	if code := s.GetJSON(t, "/api/profile/ana_P", &p); code == http.StatusOK && p.Owner != nil {
		t.Fatalf("a person's profile names an owner: %+v", p.Owner)
	}
	if code := s.GetJSON(t, "/api/profile/ana_P", &p); code != http.StatusOK || p.ID != ana.id || p.Bot || !p.Account ||
		len(p.Bots) != 1 || p.Bots[0].ID != bot.ID || p.Bots[0].Name != "robo_p" {
		t.Fatalf("the owner's profile by name: %d %+v", code, p)
	}
	if code := s.GetJSON(t, "/api/profile/"+bot.ID, &p); code != http.StatusOK || p.ID != bot.ID {
		t.Fatalf("a profile by an id: %d %+v", code, p)
	}
}
