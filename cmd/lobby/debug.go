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

// serveAside listens on addr and serves h there, on a listener of its own
// (the profiles, the metrics: never on the public one), until the returned
// stop function is called. what names it in errors and logs.
func serveAside(what, addr string, h http.Handler, log *zap.Logger) (stop func(), err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("%s listener %s: %w", what, addr, err)
	}
	hs := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 20 * time.Second,
		IdleTimeout: 60 * time.Second, MaxHeaderBytes: 16 << 10}
	go func() { _ = hs.Serve(ln) }()
	log.Info(what+" listening", zap.String("addr", ln.Addr().String()))
	return func() { _ = hs.Close() }, nil
}
