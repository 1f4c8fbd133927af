package server_test

import (
	"strings"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/httpapi"
	"github.com/tabuleiro/tabuleiro/internal/testkit/testserver"
	"github.com/tabuleiro/tabuleiro/torneio"
)

// waitTorneio reads GET /api/torneios/{id} until pred holds (bounded).
func waitTorneio(t *testing.T, s *testserver.Server, id, what string, pred func(torneio.View) bool) torneio.View {
	t.Helper()
	deadline := time.Now().Add(testserver.Timeout)
	for {
		var v torneio.View
		if got := s.GetJSON(t, "/api/torneios/"+id, &v); got != 200 {
			t.Fatalf("GET /api/torneios/%s = %d", id, got)
		}
		if pred(v) {
			return v
		}
		if time.Now().After(deadline) {
			t.Fatalf("torneio %s never %s: %+v", id, what, v)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestTorneioConsent is issue 24's "tournaments enroll anyone", through
// the real server: an entrant is a level, one of the creator's bots, a bot
// its owner opened to tournaments, or a person who accepted an invitation.
// A stranger's closed bot is 403 and a made-up id 400, creating nothing; a
// stranger named as a person is only invited, and a tournament started
// without their answer never seats them (no room, no record, their own
// rooms free); a bot's token creates nothing; one creator has at most two
// tournaments waiting or running.
func TestTorneioConsent(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t)
	ana := s.Hello(t, "Ana", "")
	bia := s.Hello(t, "Bia", "")
	stranger := s.Hello(t, "Estranho", "")
	mine, mineToken := s.RegisterBot(t, ana.Token, "Meu")
	hers, _ := s.RegisterBot(t, bia.Token, "Dela")
	spec := func(entrants ...string) string {
		return `{"game":"queens","entrants":[` + strings.Join(entrants, ",") + `],"partidas":[["tradicional",1]]}`
	}
	level := `{"level":"gulosa"}`
	for _, tt := range []struct {
		name, token, body string
		status            int
		code, msg         string
	}{
		{"a stranger's closed bot", ana.Token, spec(level, `{"bot":"`+hers+`"}`), 403, "forbidden", "is not yours, and its owner has not opened it to tournaments"},
		{"a made-up bot", ana.Token, spec(level, `{"bot":"bot.madeup"}`), 400, "bad_request", `entrant 1: there is no bot account "bot.madeup"`},
		{"a made-up person", ana.Token, spec(level, `{"player":"pmadeup"}`), 400, "bad_request", `entrant 1: there is no player "pmadeup"`},
		{"a person entered as a bot", ana.Token, spec(level, `{"bot":"`+bia.Player.ID+`"}`), 400, "bad_request", "is not a bot account's id"},
		{"a bot's token", mineToken, spec(level, `{"level":"roleta"}`), 403, "forbidden", "a bot cannot create tournaments"},
	} {
		var e apiError
		if got := postTorneio(t, s, tt.token, tt.body, &e); got != tt.status || e.Error.Code != tt.code || !strings.Contains(e.Error.Message, tt.msg) {
			t.Errorf("%s: %d %+v, want %d %s %q", tt.name, got, e, tt.status, tt.code, tt.msg)
		}
	}
	var list struct{ Torneios []torneio.Summary }
	if s.GetJSON(t, "/api/torneios", &list); len(list.Torneios) != 0 {
		t.Fatalf("refused requests made tournaments: %+v", list.Torneios)
	}

	// Ana's own bot needs nobody's leave; Bia's once she opens it.
	var created struct{ ID string }
	if got := postTorneio(t, s, ana.Token, spec(`{"bot":"`+mine+`"}`, level), &created); got != 201 {
		t.Fatalf("the creator's own bot: %d", got)
	}
	if got := s.Do(t, "PATCH", "/api/bots/"+hers, bia.Token, map[string]bool{"open": true}, nil); got != 200 {
		t.Fatalf("Bia opens her bot: %d", got)
	}
	// A stranger named as a person: invited, not seated.
	if got := postTorneio(t, s, ana.Token, spec(`{"bot":"`+hers+`"}`, level, `{"player":"`+stranger.Player.ID+`"}`), &created); got != 201 {
		t.Fatalf("Bia's open bot and an invited stranger: %d", got)
	}
	v := waitTorneio(t, s, created.ID, "waiting", func(v torneio.View) bool { return v.Status != "" })
	if v.Status != torneio.StatusWaiting || v.Entrants[2].Invite != torneio.InvitePending || len(v.Games) != 0 {
		t.Fatalf("a tournament inviting a stranger: %s, invite %q, %d games; want waiting, pending, none", v.Status, v.Entrants[2].Invite, len(v.Games))
	}
	// The third live tournament of one creator is refused; another
	// creator is not held back.
	var e apiError
	if got := postTorneio(t, s, ana.Token, spec(level, `{"level":"roleta"}`), &e); got != 409 || !strings.Contains(e.Error.Message, "2 tournaments waiting or running") {
		t.Errorf("Ana's third tournament: %d %+v, want 409", got, e)
	}
	if got := postTorneio(t, s, bia.Token, spec(level, `{"level":"roleta"}`), &struct{}{}); got != 201 {
		t.Errorf("Bia's first tournament: %d", got)
	}
	// Answers: only the invited accept, only the creator starts.
	for _, tt := range []struct {
		who, path string
		status    int
		code      string
	}{
		{bia.Token, "/accept", 403, "not_a_player"},
		{stranger.Token, "/start", 403, "forbidden"},
	} {
		var e apiError
		if got := s.Do(t, "POST", "/api/torneios/"+created.ID+tt.path, tt.who, nil, &e); got != tt.status || (tt.code != "" && e.Error.Code != tt.code) {
			t.Errorf("POST %s: %d %+v, want %d %s", tt.path, got, e, tt.status, tt.code)
		}
	}
	if got := s.Do(t, "POST", "/api/torneios/tnope/accept", stranger.Token, nil, &e); got != 404 {
		t.Errorf("accepting an unknown tournament: %d", got)
	}
	if got := s.Do(t, "POST", "/api/torneios/"+created.ID+"/start", ana.Token, nil, nil); got != 200 {
		t.Fatalf("the creator's start: %d", got)
	}
	v = waitTorneio(t, s, created.ID, "started", func(v torneio.View) bool { return v.Status != torneio.StatusWaiting })
	if v.Status != torneio.StatusRunning || len(v.Entrants) != 2 || len(v.Withdrawn) != 1 ||
		v.Withdrawn[0].Player != stranger.Player.ID || v.Withdrawn[0].Invite != torneio.InviteExpired || len(v.Games) != 2 {
		t.Fatalf("started without the stranger's answer: %s, entrants %+v, withdrawn %+v, %d games", v.Status, v.Entrants, v.Withdrawn, len(v.Games))
	}
	if got := s.Do(t, "POST", "/api/torneios/"+created.ID+"/accept", stranger.Token, nil, &e); got != 409 {
		t.Errorf("accepting after the start: %d %+v, want 409", got, e)
	}
	// The stranger was seated nowhere: no rooms, no records, and a room
	// of their own is made as before.
	rooms, err := s.Store.PlayerRooms(t.Context(), stranger.Player.ID)
	if err != nil || len(rooms) != 0 {
		t.Errorf("the stranger's rooms: %v, %v; want none", rooms, err)
	}
	var recs struct{ Records []any }
	if got := s.GetJSON(t, "/api/players/"+stranger.Player.ID+"/records", &recs); got != 200 || len(recs.Records) != 0 {
		t.Errorf("the stranger's records: %d %d, want none", got, len(recs.Records))
	}
	stranger.Send(map[string]any{"type": "room.create", "game": "queens", "variant": "tradicional", "opponent": "bot", "level": "gulosa"})
	stranger.Wait("room.joined", nil)
}

// TestBotOpenSetting: only a bot's owner opens or closes it to tournaments
// (PATCH /api/bots/{id}); GET /api/bots/mine lists the owner's bots with
// the setting; the bots online carry it in GET /api/bots.
func TestBotOpenSetting(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t)
	ana := s.Hello(t, "Ana", "")
	bia := s.Hello(t, "Bia", "")
	id, token := s.RegisterBot(t, ana.Token, "Robozinho")
	s.OpenStream(t, "/api/bot/stream/event", token)
	waitBotOnline(t, s, id, func() string { return "" })
	for _, tt := range []struct {
		name, token string
		body        any
		status      int
		code        string
	}{
		{"another player", bia.Token, map[string]bool{"open": true}, 404, "bad_request"},
		{"the bot itself", token, map[string]bool{"open": true}, 403, "forbidden"},
		{"no token", "", map[string]bool{"open": true}, 401, "unauthorized"},
		{"no setting", ana.Token, map[string]string{}, 400, "bad_request"},
	} {
		var e apiError
		if got := s.Do(t, "PATCH", "/api/bots/"+id, tt.token, tt.body, &e); got != tt.status || e.Error.Code != tt.code {
			t.Errorf("%s: %d %+v, want %d %s", tt.name, got, e, tt.status, tt.code)
		}
	}
	var mine struct{ Bots []httpapi.MyBot }
	if got := s.Do(t, "GET", "/api/bots/mine", ana.Token, nil, &mine); got != 200 || len(mine.Bots) != 1 || mine.Bots[0] != (httpapi.MyBot{ID: id, Name: "Robozinho", Online: true}) {
		t.Fatalf("GET /api/bots/mine = %d %+v", got, mine)
	}
	var set httpapi.MyBot
	if got := s.Do(t, "PATCH", "/api/bots/"+id, ana.Token, map[string]bool{"open": true}, &set); got != 200 || !set.Open {
		t.Fatalf("PATCH = %d %+v", got, set)
	}
	if got := s.Do(t, "GET", "/api/bots/mine", ana.Token, nil, &mine); got != 200 || !mine.Bots[0].Open {
		t.Fatalf("after opening, GET /api/bots/mine = %d %+v", got, mine)
	}
	var online struct{ Bots []httpapi.BotInfo }
	if s.GetJSON(t, "/api/bots", &online); len(online.Bots) != 1 || !online.Bots[0].Open {
		t.Fatalf("GET /api/bots = %+v, want the bot open", online)
	}
	if got := s.Do(t, "GET", "/api/bots/mine", bia.Token, nil, &mine); got != 200 || len(mine.Bots) != 0 {
		t.Errorf("Bia's bots: %d %+v, want none", got, mine)
	}
	if got := s.Do(t, "PATCH", "/api/bots/"+id, ana.Token, map[string]bool{"open": false}, &set); got != 200 || set.Open {
		t.Fatalf("closing: %d %+v", got, set)
	}
	online.Bots = nil
	if s.GetJSON(t, "/api/bots", &online); online.Bots[0].Open {
		t.Errorf("closed, GET /api/bots still says open")
	}
	// A bot opened while offline: its stream reads the setting from the
	// store when it comes online.
	id2, token2 := s.RegisterBot(t, bia.Token, "Zeca")
	if got := s.Do(t, "PATCH", "/api/bots/"+id2, bia.Token, map[string]bool{"open": true}, &set); got != 200 || set.Online {
		t.Fatalf("PATCH of an offline bot = %d %+v", got, set)
	}
	s.OpenStream(t, "/api/bot/stream/event", token2)
	waitBotOnline(t, s, id2, func() string { return "" })
	online.Bots = nil
	s.GetJSON(t, "/api/bots", &online)
	for _, b := range online.Bots {
		if b.ID == id2 && !b.Open {
			t.Errorf("a bot opened while offline came online closed: %+v", b)
		}
	}
}

// TestTorneioWrongFields: POST /api/torneios answers every wrong field in
// the API's own words (issue 29: a missing "partidas" said "1 to 8
// partidas, not 0" and a number there a Go decoder's message).
func TestTorneioWrongFields(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t)
	c := s.Hello(t, "Ana", "")
	for _, tt := range []struct{ body, want string }{
		{`{"game":"queens","entrants":[{"level":"gulosa"},{"level":"roleta"}]}`, `missing field "partidas": a list of ["variant", repetitions] pairs, such as [["tradicional", 1]]`},
		{`{"game":"queens","entrants":[{"level":"gulosa"},{"level":"roleta"}],"partidas":2}`, `"partidas" is a list of ["variant", repetitions] pairs, such as [["tradicional", 1]], not a number`},
		{`{"game":"queens","entrants":"gulosa","partidas":[["tradicional",1]]}`, `"entrants" is a list such as`},
	} {
		var e apiError
		if got := postTorneio(t, s, c.Token, tt.body, &e); got != 400 || e.Error.Code != "bad_request" || e.Error.Message != tt.want && !strings.HasPrefix(e.Error.Message, tt.want) {
			t.Errorf("%s: %d %+v, want 400 %q", tt.body, got, e, tt.want)
		}
		if strings.Contains(e.Error.Message, "Go struct") || strings.Contains(e.Error.Message, "unmarshal") {
			t.Errorf("%s: a Go decoder's words: %q", tt.body, e.Error.Message)
		}
	}
}
