package server_test

import (
	"math"
	"net/http"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/internal/server"
	"github.com/tabuleiro/tabuleiro/internal/testkit/testserver"
	"github.com/tabuleiro/tabuleiro/ratings"
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
	ana.ws.Send(map[string]any{"type": "room.create", "game": "morris", "variant": "3", "opponent": "human"})
	ratedRoom := ana.ws.Wait("room.joined", func(m testserver.Msg) bool { return m.Room != room }).Room
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
