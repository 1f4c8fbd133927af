package server_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/tabuleiro/tabuleiro/internal/testkit/testserver"
)

// FuzzBotAPIInput sends the bot API's request-taking paths whatever a
// client may put in them (a move, a body, an Authorization header, a bot
// id): the server answers JSON with a status of the contract, never
// panics, and the bot's moves out of turn (it is the challenger's) change
// nothing.
func FuzzBotAPIInput(f *testing.F) {
	for _, seed := range []struct{ move, body, auth, id string }{
		{"b2", `{"name":"robo"}`, "", ""},
		{"pass", `{"game":"morris","variant":"3"}`, "Bearer", "bot.x"},
		{"a1%2Fb2", `{`, "Basic abc", "bot."},
		{"", `{"name":"` + strings.Repeat("x", 5000) + `"}`, "bearer  ", "../x"},
		{"\x00\u2028", `{"game":"go","variant":"9","clock":{"base":-1}}`, "Bearer \x00", "%00"},
	} {
		f.Add(seed.move, seed.body, seed.auth, seed.id)
	}
	s := testserver.Start(f)
	ana := s.Hello(f, "ana", "")
	botID, tok := s.RegisterBot(f, ana.Token, "robo")
	var ch struct{ Room string }
	s.OpenStream(f, "/api/bot/stream/event", tok)
	if code := s.Do(f, "POST", "/api/bots/"+botID+"/challenge", ana.Token, map[string]any{"game": "morris", "variant": "3"}, &ch); code != http.StatusCreated {
		f.Fatalf("challenge: %d", code)
	}
	room, ok := s.Rooms.Running(ch.Room)
	if !ok {
		f.Fatal("the room is not running")
	}
	before, _ := room.Stats()
	h := s.Handler()
	// 307: ServeMux's redirect of a path it cleans ("/api/bots/./challenge").
	allowed := map[int]bool{307: true, 200: true, 201: true, 400: true, 401: true, 403: true, 404: true, 405: true, 409: true, 413: true, 429: true}
	f.Fuzz(func(t *testing.T, move, body, auth, id string) {
		// An empty segment, or one with a slash, is another path (the
		// 404 of "/"), not the bot API's.
		if move == "" {
			move = "-"
		}
		if id = strings.ReplaceAll(id, "/", "-"); id == "" {
			id = "-"
		}
		for _, tc := range []struct{ method, path, auth string }{
			{"POST", "/api/bot/game/" + ch.Room + "/move/" + url.PathEscape(move), "Bearer " + tok},
			{"POST", "/api/bots", auth},
			{"POST", "/api/bots", "Bearer " + ana.Token},
			{"POST", "/api/bots/" + url.PathEscape(id) + "/challenge", "Bearer " + ana.Token},
			{"GET", "/api/bot/account", auth},
		} {
			req := httptest.NewRequest(tc.method, "http://tabuleiro"+tc.path, bytes.NewReader([]byte(body)))
			req.Header.Set("Authorization", tc.auth)
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if !allowed[rec.Code] || rec.Code != 307 && !strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json") {
				t.Fatalf("%s %s: %d %q %s", tc.method, tc.path, rec.Code, rec.Header().Get("Content-Type"), rec.Body)
			}
		}
		if now, _ := room.Stats(); now.Seq != before.Seq {
			t.Fatalf("the room changed: seq %d, was %d", now.Seq, before.Seq)
		}
	})
}
