package server_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/tabuleiro/tabuleiro/internal/testkit/testserver"
)

// TestTrailingDataRefused: every JSON body of the HTTP API (a bot's
// registration, a challenge, a stateless bot move, a tournament) is one
// JSON value and nothing after it: the same body with data after its
// value is answered 400 bad_request and changes nothing, while the body
// alone is taken (POST /api/bots took trailing garbage; a tournament took
// a "}" after its object).
func TestTrailingDataRefused(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t)
	ana := s.Hello(t, "ana", "")
	botID, botToken := s.RegisterBot(t, ana.Token, "robo")
	s.OpenStream(t, "/api/bot/stream/event", botToken)
	bots := s.Store
	post := func(path, token, body string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, s.URL+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var e struct{ Error struct{ Code string } }
		_ = json.NewDecoder(resp.Body).Decode(&e)
		return resp.StatusCode, e.Error.Code
	}
	state := func() string {
		t.Helper()
		owned, err := bots.OwnerBots(t.Context(), ana.Player.ID)
		if err != nil {
			t.Fatal(err)
		}
		var list struct{ Torneios []json.RawMessage }
		s.GetJSON(t, "/api/torneios", &list)
		var b bytes.Buffer
		json.NewEncoder(&b).Encode([]any{len(owned), s.Rooms.Len(), len(list.Torneios)})
		return b.String()
	}
	paths := []struct {
		path, token, body string
		ok                int
	}{
		{"/api/bots", ana.Token, `{"name":"outro"}`, http.StatusCreated},
		{"/api/bots/" + botID + "/challenge", ana.Token, `{"game":"morris","variant":"3"}`, http.StatusCreated},
		{"/api/bot/move", "", `{"game":"morris","variant":"3","level":"facil"}`, http.StatusOK},
		{"/api/torneios", ana.Token, `{"game":"morris","entrants":[{"level":"facil"},{"level":"facil"}],"partidas":[["3",1]]}`, http.StatusCreated},
	}
	for _, p := range paths {
		for _, tail := range []string{" x", "}", "]", ` {"name":"x"}`, "{}", "\x00", " 1", "\n\n,"} {
			before := state()
			if code, errCode := post(p.path, p.token, p.body+tail); code != http.StatusBadRequest || errCode != "bad_request" {
				t.Errorf("POST %s with %q after the body: %d %q, want 400 bad_request", p.path, tail, code, errCode)
			}
			if after := state(); after != before {
				t.Errorf("POST %s with %q after the body changed [bots rooms torneios] from %s to %s", p.path, tail, before, after)
			}
		}
		if code, errCode := post(p.path, p.token, p.body+" \r\n\t"); code != p.ok {
			t.Errorf("POST %s with whitespace after the body: %d %q, want %d", p.path, code, errCode, p.ok)
		}
	}
}
