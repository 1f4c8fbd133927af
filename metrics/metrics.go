// Package metrics holds the service's Prometheus collectors. Each server
// builds its own registry, so tests can run several servers in one process.
package metrics

import (
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics are the collectors of one server.
type Metrics struct {
	Registry    *prometheus.Registry
	Connections prometheus.Gauge
	ConnTotal   prometheus.Counter
	Rooms       *prometheus.GaugeVec   // game, status
	Moves       *prometheus.CounterVec // game, by (human|bot)
	BotThink    *prometheus.HistogramVec
	BotFallback *prometheus.CounterVec
	BotQueue    *prometheus.GaugeVec // class (live, stateless, analysis)
	Broadcast   prometheus.Histogram
	Errors      *prometheus.CounterVec // code
	Dropped     prometheus.Counter
	// Refused counts connections refused or closed by a bound, by reason:
	// global and per_addr (TCP, at the listener), ws_global and
	// ws_per_addr (WebSocket upgrades), no_hello (no hello in time).
	Refused *prometheus.CounterVec
	// SignIns counts POST /api/session by result: ok, wrong (name or
	// password), limited (too many failures), busy (the hashing queue
	// full), error (the store).
	SignIns *prometheus.CounterVec
}

// New builds and registers the collectors on a fresh registry.
func New() *Metrics {
	r := prometheus.NewRegistry()
	m := &Metrics{
		Registry: r,
		Connections: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "tabuleiro_connections", Help: "Open WebSocket connections."}),
		ConnTotal: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "tabuleiro_connections_total", Help: "WebSocket connections accepted."}),
		Rooms: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "tabuleiro_rooms", Help: "Open rooms by game and status."}, []string{"game", "status"}),
		Moves: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "tabuleiro_moves_total", Help: "Accepted moves by game and by whom (human, bot)."}, []string{"game", "by"}),
		BotThink: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "tabuleiro_bot_think_seconds", Help: "Time a bot took to choose a move.",
			Buckets: prometheus.ExponentialBuckets(0.0005, 4, 9)}, []string{"game", "level"}),
		BotFallback: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "tabuleiro_bot_fallbacks_total", Help: "Bot turns that failed or timed out and fell back to a random legal move."}, []string{"game", "level"}),
		BotQueue: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "tabuleiro_bot_queue", Help: "Bot jobs waiting for a worker, by class (live, stateless, analysis)."}, []string{"class"}),
		Broadcast: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "tabuleiro_broadcast_seconds", Help: "Time to encode a room.state and hand it to every member.",
			Buckets: prometheus.ExponentialBuckets(0.00001, 4, 9)}),
		Errors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "tabuleiro_errors_total", Help: "Errors sent to clients by code."}, []string{"code"}),
		Dropped: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "tabuleiro_slow_clients_dropped_total", Help: "Connections dropped because their queue was full."}),
		Refused: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "tabuleiro_connections_refused_total", Help: "Connections refused or closed by a bound, by reason."}, []string{"reason"}),
		SignIns: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "tabuleiro_signins_total", Help: "Sign-ins by result (ok, wrong, limited, busy, error)."}, []string{"result"}),
	}
	r.MustRegister(m.Connections, m.ConnTotal, m.Rooms, m.Moves, m.BotThink, m.BotFallback,
		m.BotQueue, m.Broadcast, m.Errors, m.Dropped, m.Refused, m.SignIns,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Handler serves the registry in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.Registry, promhttp.HandlerOpts{})
}
