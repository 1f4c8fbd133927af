package testserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"testing"
	"time"
)

// Do sends an HTTP request of the bot API with token in "Authorization:
// Bearer" (none when empty) and body as JSON (none when nil), decodes the
// answer into out when not nil, and returns the status code.
func (s *Server) Do(t testing.TB, method, path, token string, body, out any) int {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, s.URL+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	if out != nil {
		if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
			t.Fatalf("decode %s %s answer: %v", method, path, err)
		}
	}
	return resp.StatusCode
}

// RegisterBot registers a bot named name for the player whose token is
// owner and returns its id and token; any answer but 201 fails the test.
func (s *Server) RegisterBot(t testing.TB, owner, name string) (id, token string) {
	t.Helper()
	var out struct{ ID, Token string }
	if code := s.Do(t, "POST", "/api/bots", owner, map[string]string{"name": name}, &out); code != http.StatusCreated {
		t.Fatalf("POST /api/bots answered %d", code)
	}
	return out.ID, out.Token
}

// Stream is an open NDJSON stream of the bot API: its lines, decoded, on
// a channel (empty heartbeat lines counted apart).
type Stream struct {
	t      testing.TB
	Status int
	lines  chan Msg
	done   chan struct{}
	cancel context.CancelFunc
	beat   chan struct{} // an empty line was read (capacity 1)
}

// OpenStream opens GET path with token and reads its lines until it ends
// or the test does.
func (s *Server) OpenStream(t testing.TB, path, token string) *Stream {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, "GET", s.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		t.Fatalf("GET %s: %v", path, err)
	}
	st := &Stream{t: t, Status: resp.StatusCode, lines: make(chan Msg, 10000), done: make(chan struct{}),
		cancel: cancel, beat: make(chan struct{}, 1)}
	go func() {
		defer close(st.done)
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 64<<10), 4<<20)
		for sc.Scan() {
			line := bytes.TrimSpace(sc.Bytes())
			if len(line) == 0 {
				select {
				case st.beat <- struct{}{}:
				default:
				}
				continue
			}
			var m Msg
			if err := json.Unmarshal(line, &m); err != nil {
				t.Errorf("stream %s: bad line %q: %v", path, line, err)
				return
			}
			m.Raw = bytes.Clone(line)
			st.lines <- m
		}
	}()
	t.Cleanup(st.Close)
	return st
}

// Next returns the next line for which pred holds (nil: any), failing the
// test after Timeout or when the stream ends first.
func (st *Stream) Next(pred func(Msg) bool) Msg {
	st.t.Helper()
	timer := time.NewTimer(Timeout)
	defer timer.Stop()
	for {
		select {
		case m := <-st.lines:
			if pred == nil || pred(m) {
				return m
			}
		case <-st.done:
			select {
			case m := <-st.lines:
				if pred == nil || pred(m) {
					return m
				}
				continue
			default:
			}
			st.t.Fatal("the stream ended before the line came")
			return Msg{}
		case <-timer.C:
			st.t.Fatal("timed out waiting for a stream line")
			return Msg{}
		}
	}
}

// Heartbeat waits for an empty line, failing after Timeout.
func (st *Stream) Heartbeat() {
	st.t.Helper()
	select {
	case <-st.beat:
	case <-time.After(Timeout):
		st.t.Fatal("no heartbeat")
	}
}

// Ended waits for the stream to end (the server closed it), failing after
// Timeout; it returns the lines left unread.
func (st *Stream) Ended() []Msg {
	st.t.Helper()
	select {
	case <-st.done:
	case <-time.After(Timeout):
		st.t.Fatal("the stream did not end")
	}
	var left []Msg
	for {
		select {
		case m := <-st.lines:
			left = append(left, m)
		default:
			return left
		}
	}
}

// Close closes the stream from the client's side and waits for its reader.
func (st *Stream) Close() {
	st.cancel()
	<-st.done
}
