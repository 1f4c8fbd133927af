package main

import (
	"fmt"
	"net"
	"net/http"
	"net/http/pprof"
	"time"

	"go.uber.org/zap"
)

// debugMux serves the runtime profiles of net/http/pprof under /debug/pprof/.
// It is its own mux, not http.DefaultServeMux, so that nothing else
// registered there is exposed by accident.
func debugMux() *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	return mux
}

// serveDebug listens on addr and serves debugMux until the returned stop
// function is called.
func serveDebug(addr string, log *zap.Logger) (stop func(), err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("debug listener %s: %w", addr, err)
	}
	hs := &http.Server{Handler: debugMux(), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = hs.Serve(ln) }()
	log.Info("debug listening", zap.String("addr", ln.Addr().String()))
	return func() { _ = hs.Close() }, nil
}
