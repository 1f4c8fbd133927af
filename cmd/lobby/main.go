// Command lobby runs the Tabuleiro service: the web client, the WebSocket
// endpoint, the HTTP API and the metrics on one address.
//
// Configuration comes from flags, each with an environment variable
// (docs/configuration.md). SIGTERM or SIGINT stops it gracefully.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/internal/server"
	"github.com/tabuleiro/tabuleiro/rooms"
	"github.com/tabuleiro/tabuleiro/store"
	"github.com/tabuleiro/tabuleiro/store/memstore"
	"github.com/tabuleiro/tabuleiro/store/redisstore"
	"github.com/tabuleiro/tabuleiro/web"
)

func env(name, def string) string {
	if v, ok := os.LookupEnv(name); ok {
		return v
	}
	return def
}

func envInt(name string, def int) int {
	if v, ok := os.LookupEnv(name); ok {
		if n, err := strconv.Atoi(v); err == nil {
			return n
		}
		fmt.Fprintf(os.Stderr, "lobby: %s=%q is not a number\n", name, v)
		os.Exit(2)
	}
	return def
}

func envBool(name string, def bool) bool {
	if v, ok := os.LookupEnv(name); ok {
		if b, err := strconv.ParseBool(v); err == nil {
			return b
		}
		fmt.Fprintf(os.Stderr, "lobby: %s=%q is not a boolean\n", name, v)
		os.Exit(2)
	}
	return def
}

func envFloat(name string, def float64) float64 {
	if v, ok := os.LookupEnv(name); ok {
		if f, err := strconv.ParseFloat(v, 64); err == nil {
			return f
		}
		fmt.Fprintf(os.Stderr, "lobby: %s=%q is not a number\n", name, v)
		os.Exit(2)
	}
	return def
}

func envDuration(name string, def time.Duration) time.Duration {
	if v, ok := os.LookupEnv(name); ok {
		if d, err := time.ParseDuration(v); err == nil {
			return d
		}
		fmt.Fprintf(os.Stderr, "lobby: %s=%q is not a duration\n", name, v)
		os.Exit(2)
	}
	return def
}

// options are the service's settings, from flags and environment.
type options struct {
	addr, redisURL, prefix, origins string
	bots                            int
	botTimeout, watchDelay, grace   time.Duration
	adjourn                         int
	rate                            float64
	burst                           int
	compress                        bool
	cluster                         bool
	node                            string
	leaseTTL                        time.Duration
	retention                       time.Duration
	debugAddr                       string
	warmUp                          bool
	botCores                        int
	memoryLimit                     int64
}

// defaultNode is the host name and a random suffix, so that a process
// restarted on the same host is a new node (its former leases run out).
func defaultNode() string {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "lobby"
	}
	return host + "-" + strings.ToLower(rooms.NewID()[:6])
}

func main() {
	var o options
	flag.StringVar(&o.addr, "addr", env("TABULEIRO_ADDR", "127.0.0.1:8080"), "listen address (env TABULEIRO_ADDR)")
	flag.StringVar(&o.redisURL, "redis", env("TABULEIRO_REDIS", ""), "Redis URL, e.g. redis://127.0.0.1:6379/0, a Sentinel (master_name=) or redis+cluster:// URL; empty keeps everything in memory (env TABULEIRO_REDIS)")
	flag.StringVar(&o.prefix, "prefix", env("TABULEIRO_PREFIX", "tabuleiro:"), "Redis key prefix (env TABULEIRO_PREFIX)")
	logLevel := flag.String("log-level", env("TABULEIRO_LOG_LEVEL", "info"), "log level: debug, info, warn, error (env TABULEIRO_LOG_LEVEL)")
	flag.DurationVar(&o.grace, "grace", envDuration("TABULEIRO_GRACE", rooms.DefaultGrace), "how long a player must be disconnected before the opponent may claim the win; at least a tenth of the clock's base time (env TABULEIRO_GRACE)")
	flag.DurationVar(&o.retention, "retention", envDuration("TABULEIRO_RETENTION", redisstore.DefaultRetention), "how long a finished game (its snapshot and move log) is kept in the store (env TABULEIRO_RETENTION)")
	flag.IntVar(&o.adjourn, "adjourn-factor", envInt("TABULEIRO_ADJOURN_FACTOR", rooms.DefaultAdjournFactor), "a game without a clock that nobody is in is adjourned after grace times this (env TABULEIRO_ADJOURN_FACTOR)")
	flag.StringVar(&o.origins, "origins", env("TABULEIRO_ORIGINS", ""), "comma-separated Origins allowed for /ws besides the same origin; * allows any (env TABULEIRO_ORIGINS)")
	flag.IntVar(&o.botCores, "bot-cores", envInt("TABULEIRO_BOT_CORES", max(1, runtime.NumCPU()-1)), "how many bot search threads may run at once, so that the rest of the cores always serve the rooms; 0 lets them use every core (env TABULEIRO_BOT_CORES)")
	flag.IntVar(&o.bots, "bots", envInt("TABULEIRO_BOTS", runtime.NumCPU()), "bot worker pool size (env TABULEIRO_BOTS)")
	flag.DurationVar(&o.botTimeout, "bot-timeout", envDuration("TABULEIRO_BOT_TIMEOUT", 2*time.Second), "deadline of one bot turn (env TABULEIRO_BOT_TIMEOUT)")
	flag.DurationVar(&o.watchDelay, "watch-delay", envDuration("TABULEIRO_WATCH_DELAY", 700*time.Millisecond), "pause before each move in bot-only rooms (env TABULEIRO_WATCH_DELAY)")
	flag.Float64Var(&o.rate, "rate", envFloat("TABULEIRO_RATE", 20), "messages a second each connection may send (env TABULEIRO_RATE); raise it only for load tests")
	flag.IntVar(&o.burst, "burst", envInt("TABULEIRO_BURST", 40), "burst of messages above -rate (env TABULEIRO_BURST)")
	flag.BoolVar(&o.compress, "compress", envBool("TABULEIRO_COMPRESS", false), "negotiate permessage-deflate with clients that offer it (env TABULEIRO_COMPRESS)")
	flag.BoolVar(&o.cluster, "cluster", envBool("TABULEIRO_CLUSTER", false), "run as one of several nodes sharing the Redis of -redis: rooms are leased, commands and frames cross nodes through Redis pub/sub (env TABULEIRO_CLUSTER)")
	flag.StringVar(&o.node, "node", env("TABULEIRO_NODE", ""), "this node's id among several; empty is the host name and a random suffix (env TABULEIRO_NODE)")
	flag.DurationVar(&o.leaseTTL, "lease-ttl", envDuration("TABULEIRO_LEASE_TTL", rooms.DefaultLeaseTTL), "with -cluster, how long a room's lease lasts unless renewed (every third of it); a dead node's rooms move after this (env TABULEIRO_LEASE_TTL)")
	flag.BoolVar(&o.warmUp, "warm-up", envBool("TABULEIRO_WARM_UP", true), "build the bots' precomputed tables at start-up, a few seconds of one core (env TABULEIRO_WARM_UP); false leaves it to the first game that needs them, for benchmarks of the steady state")
	flag.StringVar(&o.debugAddr, "debug-addr", env("TABULEIRO_DEBUG_ADDR", ""), "serve net/http/pprof on this address (e.g. 127.0.0.1:6060); empty serves nothing. Keep it off public interfaces (env TABULEIRO_DEBUG_ADDR)")
	memLimit := flag.String("memory-limit", env("TABULEIRO_MEMORY_LIMIT", ""), "soft limit on the memory the Go runtime uses, e.g. 350MiB (B, KiB, MiB, GiB, TiB): the garbage collector runs more often as it is neared, it refuses nothing; empty leaves the runtime's own (GOMEMLIMIT, or none) (env TABULEIRO_MEMORY_LIMIT)")
	probeURL := flag.String("probe", "", "check URL (e.g. http://127.0.0.1:8080/readyz) and exit 0 if it answers 200, 1 if not; for container health checks on images without curl")
	flag.Parse()
	if *probeURL != "" {
		os.Exit(probe(*probeURL))
	}

	var level zapcore.Level
	if err := level.UnmarshalText([]byte(*logLevel)); err != nil {
		fmt.Fprintf(os.Stderr, "lobby: bad log level %q\n", *logLevel)
		os.Exit(2)
	}
	if o.grace <= 0 || o.adjourn <= 0 || o.retention <= 0 {
		fmt.Fprintln(os.Stderr, "lobby: -grace, -adjourn-factor and -retention must be positive")
		os.Exit(2)
	}
	if o.cluster && (o.redisURL == "" || o.leaseTTL < 30*time.Millisecond) {
		fmt.Fprintln(os.Stderr, "lobby: -cluster needs -redis and a -lease-ttl of at least 30ms")
		os.Exit(2)
	}
	if o.node == "" {
		o.node = defaultNode()
	}
	if o.botCores < 0 {
		fmt.Fprintln(os.Stderr, "lobby: -bot-cores must be 0 or more")
		os.Exit(2)
	}
	limit, err := parseMemoryLimit(*memLimit)
	if err != nil {
		fmt.Fprintln(os.Stderr, "lobby: -memory-limit:", err)
		os.Exit(2)
	}
	o.memoryLimit = limit
	if o.rate <= 0 || o.burst <= 0 {
		fmt.Fprintln(os.Stderr, "lobby: -rate and -burst must be positive")
		os.Exit(2)
	}
	zc := zap.NewProductionConfig()
	zc.Level = zap.NewAtomicLevelAt(level)
	log, err := zc.Build()
	if err != nil {
		fmt.Fprintln(os.Stderr, "lobby:", err)
		os.Exit(1)
	}
	defer func() { _ = log.Sync() }()
	if o.memoryLimit > 0 {
		debug.SetMemoryLimit(o.memoryLimit)
		log.Info("memory limit", zap.Int64("bytes", o.memoryLimit))
	}
	if err := run(log, o); err != nil {
		log.Error("lobby stopped", zap.Error(err))
		os.Exit(1)
	}
}

func run(log *zap.Logger, o options) error {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()

	st, err := openStore(ctx, o.redisURL, o.prefix, o.retention)
	if err != nil {
		return err
	}
	defer st.Close()

	var allowed []string
	for _, origin := range strings.Split(o.origins, ",") {
		if origin = strings.TrimSpace(origin); origin != "" {
			allowed = append(allowed, origin)
		}
	}
	engine.LimitSearch(o.botCores)
	cfg := server.Config{Catalog: server.Catalog(), Store: st, Log: log, Origins: allowed,
		Bots: o.bots, BotTimeout: o.botTimeout, WatchDelay: o.watchDelay, Grace: o.grace, AdjournFactor: o.adjourn,
		Root: web.Handler()}
	cfg.Hub.Rate, cfg.Hub.Burst, cfg.Hub.Compression = o.rate, o.burst, o.compress
	if o.cluster {
		b, err := openBroker(st, o.prefix)
		if err != nil {
			return err
		}
		defer b.Close()
		cfg.Cluster = &server.Cluster{Broker: b, Node: o.node, TTL: o.leaseTTL}
	}
	srv, err := server.New(cfg)
	if err != nil {
		return err
	}
	if o.warmUp {
		go func() { // ends by itself once the bots' tables are built
			start := time.Now()
			server.WarmUp()
			log.Info("bots warmed up", zap.Duration("took", time.Since(start)))
		}()
	}
	if o.debugAddr != "" {
		stopDebug, err := serveDebug(o.debugAddr, log)
		if err != nil {
			return err
		}
		defer stopDebug()
	}
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return err
	}
	hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	log.Info("lobby listening", zap.String("addr", ln.Addr().String()), zap.Bool("redis", o.redisURL != ""),
		zap.Int("bots", o.bots), zap.Int("botCores", o.botCores), zap.Strings("origins", allowed), zap.Bool("compress", o.compress),
		zap.Bool("cluster", o.cluster), zap.String("node", o.node))

	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	// Stop accepting; hijacked WebSocket connections are the server's to close.
	if err := hs.Shutdown(sctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		log.Warn("http shutdown", zap.Error(err))
	}
	if err := srv.Shutdown(sctx); err != nil {
		log.Warn("service shutdown", zap.Error(err))
	}
	log.Info("stopped")
	return nil
}

func openStore(ctx context.Context, redisURL, prefix string, retention time.Duration) (store.Store, error) {
	if redisURL == "" {
		return memstore.New(memstore.WithRetention(retention)), nil
	}
	return openRedis(ctx, redisURL, prefix, retention)
}
