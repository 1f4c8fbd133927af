package testserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"sync"
	"testing"
)

// Browser is an HTTP client as the web page is one: a cookie jar of its
// own (a second Browser shares nothing with the first), the server's
// Origin on every request as a browser sends it, and every answer kept on
// the Server (Answers) for the tests that look for what must never be in
// one.
type Browser struct {
	s   *Server
	t   testing.TB
	c   *http.Client
	jar *cookiejar.Jar
	// Origin is sent with every request ("" sends none); Header's values
	// are added to every request (a proxy's X-Forwarded-For, say).
	Origin string
	Header http.Header
}

// answers is what the server answered this test: status, headers and
// body of each HTTP answer of a Browser.
type answers struct {
	mu  sync.Mutex
	all []string
}

// NewBrowser returns a Browser with an empty cookie jar.
func (s *Server) NewBrowser(t testing.TB) *Browser {
	jar, _ := cookiejar.New(nil)
	return &Browser{s: s, t: t, c: &http.Client{Jar: jar}, jar: jar, Origin: s.URL, Header: http.Header{}}
}

// Do sends method path with body as JSON (none when nil) and the extra
// headers hdr (name, value, ...), decodes a JSON answer into out when not
// nil, and returns the status and the answer's headers.
func (b *Browser) Do(method, path string, body, out any, hdr ...string) (int, http.Header) {
	b.t.Helper()
	var rd io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			b.t.Fatal(err)
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, b.s.URL+path, rd)
	if err != nil {
		b.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if b.Origin != "" {
		req.Header.Set("Origin", b.Origin)
	}
	for k, vs := range b.Header {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := b.c.Do(req)
	if err != nil {
		b.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		b.t.Fatalf("%s %s: reading the answer: %v", method, path, err)
	}
	// The cookies are kept without their values, which are what a
	// Set-Cookie is for; everything else of the answer as it came.
	head := resp.Header.Clone()
	head.Del("Set-Cookie")
	for _, c := range resp.Cookies() {
		c.Value = "<value>"
		head.Add("Set-Cookie", c.String())
	}
	var text strings.Builder
	_ = head.Write(&text)
	b.s.answers.mu.Lock()
	b.s.answers.all = append(b.s.answers.all, fmt.Sprintf("%s %s -> %d\n%s\n%s", method, path, resp.StatusCode, text.String(), raw))
	b.s.answers.mu.Unlock()
	if out != nil && len(raw) > 0 {
		if err := json.Unmarshal(raw, out); err != nil {
			b.t.Fatalf("decode %s %s answer %q: %v", method, path, raw, err)
		}
	}
	return resp.StatusCode, resp.Header
}

// Cookie returns the value of the browser's cookie name ("" without one).
func (b *Browser) Cookie(name string) string {
	u, _ := url.Parse(b.s.URL)
	for _, c := range b.jar.Cookies(u) {
		if c.Name == name {
			return c.Value
		}
	}
	return ""
}

// SetCookie puts a cookie in the browser's jar (an old session's, say).
func (b *Browser) SetCookie(name, value string) {
	u, _ := url.Parse(b.s.URL)
	b.jar.SetCookies(u, []*http.Cookie{{Name: name, Value: value, Path: "/"}})
}

// Dial opens a WebSocket as the page does: the jar's cookies and the
// Origin, and no hello yet.
func (b *Browser) Dial() (*Client, error) {
	b.t.Helper()
	u, _ := url.Parse(b.s.URL)
	h := http.Header{}
	var cs []string
	for _, c := range b.jar.Cookies(u) {
		cs = append(cs, c.Name+"="+c.Value)
	}
	if len(cs) > 0 {
		h.Set("Cookie", strings.Join(cs, "; "))
	}
	if b.Origin != "" {
		h.Set("Origin", b.Origin)
	}
	return b.s.Dial(b.t, h)
}

// Answers returns every HTTP answer a Browser of this server got, as text
// (status, headers, body), the values of the cookies it set left out.
func (s *Server) Answers() []string {
	s.answers.mu.Lock()
	defer s.answers.mu.Unlock()
	return append([]string(nil), s.answers.all...)
}
