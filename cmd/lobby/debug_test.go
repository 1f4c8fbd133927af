package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"go.uber.org/zap"
)

func TestServeAside(t *testing.T) {
	stop, err := serveAside("debug", "127.0.0.1:0", debugMux(), zap.NewNop())
	if err != nil {
		t.Fatal(err)
	}
	stop()
	if _, err := serveAside("debug", "256.0.0.1:1", debugMux(), zap.NewNop()); err == nil {
		t.Error("serveAside on a bad address: got no error")
	}
}

func TestDebugMux(t *testing.T) {
	tests := []struct {
		path string
		want int
		body string
	}{
		{"/debug/pprof/", http.StatusOK, "goroutine"},
		{"/debug/pprof/goroutine?debug=1", http.StatusOK, "goroutine profile"},
		{"/debug/pprof/cmdline", http.StatusOK, ""},
		{"/", http.StatusNotFound, ""},
		{"/metrics", http.StatusNotFound, ""},
	}
	ts := httptest.NewServer(debugMux())
	defer ts.Close()
	srv := ts.URL
	for _, tt := range tests {
		resp, err := http.Get(srv + tt.path)
		if err != nil {
			t.Fatalf("GET %s: %v", tt.path, err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tt.want {
			t.Errorf("GET %s: got status %d, want %d", tt.path, resp.StatusCode, tt.want)
		}
		if !strings.Contains(string(body), tt.body) {
			t.Errorf("GET %s: body lacks %q", tt.path, tt.body)
		}
	}
}
