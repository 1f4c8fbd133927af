// Command lobby runs the Tabuleiro service: the web client, the WebSocket
// endpoint and the HTTP API on one address, the metrics (-metrics-addr) and
// the profiles (-debug-addr) each on an address of their own.
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
	"net/netip"
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
	"github.com/tabuleiro/tabuleiro/httpapi"
	"github.com/tabuleiro/tabuleiro/internal/server"
	"github.com/tabuleiro/tabuleiro/ladder"
	"github.com/tabuleiro/tabuleiro/netlimit"
	"github.com/tabuleiro/tabuleiro/players"
	"github.com/tabuleiro/tabuleiro/rooms"
	"github.com/tabuleiro/tabuleiro/store"
	"github.com/tabuleiro/tabuleiro/store/memstore"
	"github.com/tabuleiro/tabuleiro/store/redisstore"
	"github.com/tabuleiro/tabuleiro/torneio"
	"github.com/tabuleiro/tabuleiro/web"
)

func env(name, def string) string {
	if v, ok := os.LookupEnv(name); ok {
		return v
	}
	return def
}

// envParsed returns the environment variable name read by parse, or def
// when it is not set. A value parse refuses stops the process (exit 2),
// saying which variable is not what (a number, a boolean…).
func envParsed[T any](name string, def T, what string, parse func(string) (T, error)) T {
	if v, ok := os.LookupEnv(name); ok {
		if x, err := parse(v); err == nil {
			return x
		}
		fmt.Fprintf(os.Stderr, "lobby: %s=%q is not a %s\n", name, v, what)
		os.Exit(2)
	}
	return def
}

func envInt(name string, def int) int { return envParsed(name, def, "number", strconv.Atoi) }

func envBool(name string, def bool) bool { return envParsed(name, def, "boolean", strconv.ParseBool) }

func envFloat(name string, def float64) float64 {
	return envParsed(name, def, "number", func(v string) (float64, error) { return strconv.ParseFloat(v, 64) })
}

func envDuration(name string, def time.Duration) time.Duration {
	return envParsed(name, def, "duration", time.ParseDuration)
}

// options are the service's settings, from flags and environment.
type options struct {
	addr, redisURL, prefix, origins string
	bots                            int
	botTimeout, watchDelay, grace   time.Duration
	abortAfter                      time.Duration
	adjournAfter                    time.Duration
	adjourn                         int
	rate                            float64
	burst                           int
	compress                        bool
	cluster                         bool
	node                            string
	leaseTTL                        time.Duration
	liveTTL                         time.Duration
	retention, recordRetention      time.Duration
	guestTTL, idleRoomTTL           time.Duration
	debugAddr, metricsAddr          string
	warmUp                          bool
	botCores                        int
	memoryLimit                     int64
	maxConns, maxConnsPerAddr       int
	writeTimeout                    time.Duration
	maxPlayerRooms                  int
	guestsPerMinute                 int
	chatPlayerLines, chatRoomLines  float64
	trustedProxies                  []netip.Prefix
	botAPIPerClient                 int
	botsPerPlayer, botStreams       int
	classBotsPerPlayer              int
	torneioParallel, maxTorneios    int
	ladderGames                     int
	// accounts (issue 26): the password hashing pool, sessions' lifetime
	hashWorkers, hashQueue int
	hashPerAddr            int
	signInsPerAddr         int
	signInsPerAccount      int
	sessionsPerPlayer      int
	sessionTTL             time.Duration
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
	flag.DurationVar(&o.retention, "retention", envDuration("TABULEIRO_RETENTION", store.DefaultRetention), "how long a finished game (its snapshot and move log) is kept in the store (env TABULEIRO_RETENTION)")
	flag.DurationVar(&o.recordRetention, "record-retention", envDuration("TABULEIRO_RECORD_RETENTION", store.DefaultRecordRetention), "how long a finished game's record (docs/records.md) is kept after it was written, apart from its room and much longer (env TABULEIRO_RECORD_RETENTION)")
	flag.DurationVar(&o.adjournAfter, "adjourn-after", envDuration("TABULEIRO_ADJOURN_AFTER", rooms.DefaultAdjournAfter), "how long every player of a playing game must be gone before the lobby shows it adjourned instead of among the live games (env TABULEIRO_ADJOURN_AFTER)")
	flag.DurationVar(&o.abortAfter, "abort-after", envDuration("TABULEIRO_ABORT_AFTER", rooms.DefaultAbortAfter), "in a game with a clock, how long each side has for its first move, which its clock does not time, before the game is aborted with no result (env TABULEIRO_ABORT_AFTER)")
	flag.DurationVar(&o.guestTTL, "guest-ttl", envDuration("TABULEIRO_GUEST_TTL", store.DefaultGuestTTL), "how long a guest identity is kept after its last hello or the last save of an unfinished game it plays; at least -idle-room-ttl (env TABULEIRO_GUEST_TTL)")
	flag.DurationVar(&o.idleRoomTTL, "idle-room-ttl", envDuration("TABULEIRO_IDLE_ROOM_TTL", store.DefaultIdleRoomTTL), "how long an unfinished room (waiting, adjourned, or with no move) is kept in the store after its last change (env TABULEIRO_IDLE_ROOM_TTL)")
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
	flag.DurationVar(&o.liveTTL, "live-ttl", envDuration("TABULEIRO_LIVE_TTL", server.DefaultLiveTTL), "with -redis, the lifetime of this node's liveness key, renewed every quarter of it: a SIGKILLed node's rooms move after about this instead of -lease-ttl; 0 turns it off (env TABULEIRO_LIVE_TTL)")
	flag.DurationVar(&o.leaseTTL, "lease-ttl", envDuration("TABULEIRO_LEASE_TTL", rooms.DefaultLeaseTTL), "with -cluster, how long a room's lease lasts unless renewed (every third of it); a dead node's rooms move after this (env TABULEIRO_LEASE_TTL)")
	flag.BoolVar(&o.warmUp, "warm-up", envBool("TABULEIRO_WARM_UP", true), "build the bots' precomputed tables at start-up, a few seconds of one core (env TABULEIRO_WARM_UP); false leaves it to the first game that needs them, for benchmarks of the steady state")
	flag.StringVar(&o.debugAddr, "debug-addr", env("TABULEIRO_DEBUG_ADDR", ""), "serve net/http/pprof on this address (e.g. 127.0.0.1:6060); empty serves nothing. Keep it off public interfaces (env TABULEIRO_DEBUG_ADDR)")
	flag.StringVar(&o.metricsAddr, "metrics-addr", env("TABULEIRO_METRICS_ADDR", ""), "serve the Prometheus metrics (/metrics) on this address, e.g. :9090, on a listener of its own; empty serves none. Never the public address (env TABULEIRO_METRICS_ADDR)")
	memLimit := flag.String("memory-limit", env("TABULEIRO_MEMORY_LIMIT", ""), "soft limit on the memory the Go runtime uses, e.g. 350MiB (B, KiB, MiB, GiB, TiB): the garbage collector runs more often as it is neared, it refuses nothing; empty leaves the runtime's own (GOMEMLIMIT, or none) (env TABULEIRO_MEMORY_LIMIT)")
	flag.IntVar(&o.maxConns, "max-conns", envInt("TABULEIRO_MAX_CONNS", 0), "most connections open at once, WebSockets included; 0 derives it from the open-file limit (ulimit -n) less what the process keeps for itself (env TABULEIRO_MAX_CONNS)")
	flag.Float64Var(&o.chatPlayerLines, "chat-player-lines", envFloat("TABULEIRO_CHAT_PLAYER_LINES", rooms.DefaultChatLimits.PlayerLines), "chat lines a minute one person may say in one room, all their connections together (bursts and the byte budget scale with it: 5 lines and 4 KiB a minute at 20) (env TABULEIRO_CHAT_PLAYER_LINES)")
	flag.Float64Var(&o.chatRoomLines, "chat-room-lines", envFloat("TABULEIRO_CHAT_ROOM_LINES", rooms.DefaultChatLimits.RoomLines), "chat lines a minute one room carries from everyone together (bursts and the byte budget scale with it: 20 lines and 32 KiB a minute at 120) (env TABULEIRO_CHAT_ROOM_LINES)")
	flag.IntVar(&o.guestsPerMinute, "guests-per-minute", envInt("TABULEIRO_GUESTS_PER_MINUTE", defaultGuestsPerMinute), "new guest identities one client address may get a minute (and at once); 0 is no limit (env TABULEIRO_GUESTS_PER_MINUTE)")
	flag.IntVar(&o.maxPlayerRooms, "max-player-rooms", envInt("TABULEIRO_MAX_PLAYER_ROOMS", rooms.DefaultMaxPlayerRooms), "most unfinished rooms one player (a person or a bot account) may hold, all the player's connections together, however they are made: room.create, quick match, challenges, rematches, tournaments (env TABULEIRO_MAX_PLAYER_ROOMS)")
	flag.DurationVar(&o.writeTimeout, "write-timeout", envDuration("TABULEIRO_WRITE_TIMEOUT", server.DefaultWriteTimeout), "how long the answer to an HTTP request may take to write, on every path but /ws (whose writes have their own deadline); a client that does not read its answers is cut off past it (env TABULEIRO_WRITE_TIMEOUT)")
	flag.IntVar(&o.maxConnsPerAddr, "max-conns-per-addr", envInt("TABULEIRO_MAX_CONNS_PER_ADDR", defaultMaxConnsPerAddr), "most connections of one client address (IPv6: one /64); 0 is no cap (env TABULEIRO_MAX_CONNS_PER_ADDR)")
	trusted := flag.String("trusted-proxy", env("TABULEIRO_TRUSTED_PROXY", ""), "comma-separated addresses or CIDR prefixes of the proxies whose X-Forwarded-For / X-Real-IP name the client, e.g. 10.0.0.0/8; empty trusts none (env TABULEIRO_TRUSTED_PROXY)")
	flag.IntVar(&o.botAPIPerClient, "bot-api-per-client", envInt("TABULEIRO_BOT_API_PER_CLIENT", httpapi.DefaultBotAPIPerClient), "POST /api/bot/move requests one client address may have in flight (env TABULEIRO_BOT_API_PER_CLIENT)")
	flag.IntVar(&o.classBotsPerPlayer, "class-bots-per-player", envInt("TABULEIRO_CLASS_BOTS_PER_PLAYER", httpapi.DefaultMaxClassBotsPerPlayer), "class bots (a teacher's, for a class tournament) one player may register with POST /api/bots (env TABULEIRO_CLASS_BOTS_PER_PLAYER)")
	flag.IntVar(&o.botsPerPlayer, "bots-per-player", envInt("TABULEIRO_BOTS_PER_PLAYER", httpapi.DefaultMaxBotsPerPlayer), "bot accounts one player may register with POST /api/bots (env TABULEIRO_BOTS_PER_PLAYER)")
	flag.IntVar(&o.botStreams, "bot-streams", envInt("TABULEIRO_BOT_STREAMS", httpapi.DefaultMaxBotStreams), "bot API streams (event and game streams of every bot) open at once; past it a stream is answered 503 (env TABULEIRO_BOT_STREAMS)")
	flag.IntVar(&o.torneioParallel, "torneio-parallel", envInt("TABULEIRO_TORNEIO_PARALLEL", torneio.DefaultParallel), "games of one tournament played at once (env TABULEIRO_TORNEIO_PARALLEL)")
	flag.IntVar(&o.ladderGames, "ladder-games", envInt("TABULEIRO_LADDER_GAMES", ladder.DefaultGames), "games of the bot ladder played at once, in every pool together (env TABULEIRO_LADDER_GAMES)")
	flag.IntVar(&o.maxTorneios, "max-torneios", envInt("TABULEIRO_MAX_TORNEIOS", torneio.DefaultMaxLive), "tournaments running at once; past it POST /api/torneios answers 503 busy (env TABULEIRO_MAX_TORNEIOS)")
	flag.IntVar(&o.hashWorkers, "hash-workers", envInt("TABULEIRO_HASH_WORKERS", max(1, runtime.NumCPU()/4)), "passwords hashed at once (argon2id, 19 MiB and one core each): a flood of sign-ins takes at most this many cores from the rooms (env TABULEIRO_HASH_WORKERS)")
	flag.IntVar(&o.hashQueue, "hash-queue", envInt("TABULEIRO_HASH_QUEUE", server.DefaultHashQueue), "sign-ins that may wait for a hashing worker; past it POST /api/session answers 503 busy at once (env TABULEIRO_HASH_QUEUE)")
	flag.IntVar(&o.hashPerAddr, "hash-per-addr", envInt("TABULEIRO_HASH_PER_ADDR", players.DefaultHashPerKey), "places of the hashing queue (waiting or being hashed) one client address may hold; past it that address's sign-ins are answered 429 at once while everyone else's are still taken (env TABULEIRO_HASH_PER_ADDR)")
	flag.IntVar(&o.signInsPerAddr, "signins-per-addr", envInt("TABULEIRO_SIGNINS_PER_ADDR", players.DefaultSignInsPerAddr), "sign-ins a minute from one client address, the ones that succeed and the ones being checked; past it 429 with Retry-After, the password not hashed (env TABULEIRO_SIGNINS_PER_ADDR)")
	flag.IntVar(&o.signInsPerAccount, "signins-per-account", envInt("TABULEIRO_SIGNINS_PER_ACCOUNT", players.DefaultSignInsPerAccount), "sign-ins a minute to one account, as -signins-per-addr counts them (env TABULEIRO_SIGNINS_PER_ACCOUNT)")
	flag.IntVar(&o.sessionsPerPlayer, "sessions-per-player", envInt("TABULEIRO_SESSIONS_PER_PLAYER", players.DefaultMaxSessions), "live sessions (signed-in browsers) one player may have; a sign-in past it ends the least recently used one (env TABULEIRO_SESSIONS_PER_PLAYER)")
	flag.DurationVar(&o.sessionTTL, "session-ttl", envDuration("TABULEIRO_SESSION_TTL", players.DefaultSessionTTL), "how long a browser stays signed in (its session cookie) after it was last used (env TABULEIRO_SESSION_TTL)")
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
	if o.grace <= 0 || o.adjourn <= 0 || o.retention <= 0 || o.recordRetention <= 0 || o.abortAfter <= 0 || o.adjournAfter <= 0 || o.guestTTL <= 0 || o.idleRoomTTL <= 0 || o.writeTimeout <= 0 {
		fmt.Fprintln(os.Stderr, "lobby: -grace, -adjourn-factor, -adjourn-after, -retention, -record-retention, -abort-after, -guest-ttl, -idle-room-ttl and -write-timeout must be positive")
		os.Exit(2)
	}
	if o.guestTTL < o.idleRoomTTL {
		fmt.Fprintln(os.Stderr, "lobby: -guest-ttl must be at least -idle-room-ttl: a player's identity must outlive the rooms it is seated in")
		os.Exit(2)
	}
	if o.cluster && (o.redisURL == "" || o.leaseTTL < 30*time.Millisecond) {
		fmt.Fprintln(os.Stderr, "lobby: -cluster needs -redis and a -lease-ttl of at least 30ms")
		os.Exit(2)
	}
	if o.node == "" {
		o.node = defaultNode()
	}
	if o.liveTTL < 0 || o.liveTTL > 0 && o.liveTTL < 20*time.Millisecond {
		fmt.Fprintln(os.Stderr, "lobby: -live-ttl must be 0 (off) or at least 20ms")
		os.Exit(2)
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
	if o.chatPlayerLines <= 0 || o.chatRoomLines <= 0 {
		fmt.Fprintln(os.Stderr, "lobby: -chat-player-lines and -chat-room-lines must be positive")
		os.Exit(2)
	}
	if o.guestsPerMinute < 0 {
		fmt.Fprintln(os.Stderr, "lobby: -guests-per-minute must be 0 or more")
		os.Exit(2)
	}
	if o.maxConns < 0 || o.maxConnsPerAddr < 0 || o.botAPIPerClient <= 0 || o.maxPlayerRooms <= 0 || o.botsPerPlayer <= 0 || o.classBotsPerPlayer <= 0 || o.botStreams <= 0 || o.torneioParallel <= 0 || o.maxTorneios <= 0 || o.ladderGames <= 0 ||
		o.hashWorkers <= 0 || o.hashQueue <= 0 || o.hashPerAddr <= 0 || o.signInsPerAddr <= 0 || o.signInsPerAccount <= 0 ||
		o.sessionsPerPlayer <= 0 || o.sessionTTL < time.Minute {
		fmt.Fprintln(os.Stderr, "lobby: -max-conns and -max-conns-per-addr must be 0 or more; -bot-api-per-client, -max-player-rooms, -bots-per-player, -class-bots-per-player, -bot-streams, -torneio-parallel, -max-torneios, -ladder-games, -hash-workers, -hash-queue, -hash-per-addr, -signins-per-addr, -signins-per-account and -sessions-per-player positive; -session-ttl at least a minute")
		os.Exit(2)
	}
	if o.trustedProxies, err = netlimit.ParsePrefixes(*trusted); err != nil {
		fmt.Fprintln(os.Stderr, "lobby: -trusted-proxy:", err)
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

	st, err := openStore(ctx, o)
	if err != nil {
		return err
	}
	defer st.Close()
	stopLiveness, err := guardRooms(ctx, log, st, o)
	if err != nil {
		return err
	}
	if stopLiveness != nil {
		defer stopLiveness()
	}

	var allowed []string
	for _, origin := range strings.Split(o.origins, ",") {
		if origin = strings.TrimSpace(origin); origin != "" {
			allowed = append(allowed, origin)
		}
	}
	engine.LimitSearch(o.botCores)
	maxConns, err := connCap(o.maxConns, st)
	if err != nil {
		return err
	}
	cfg := server.Config{Catalog: server.Catalog(), Store: st, Log: log, Origins: allowed,
		Bots: o.bots, BotTimeout: o.botTimeout, WatchDelay: o.watchDelay, Grace: o.grace, AdjournFactor: o.adjourn,
		AbortAfter: o.abortAfter, AdjournAfter: o.adjournAfter, Root: web.Handler(), BotAPIPerClient: o.botAPIPerClient,
		BotAPI:          httpapi.BotAPIConfig{MaxBotsPerPlayer: o.botsPerPlayer, MaxClassBotsPerPlayer: o.classBotsPerPlayer, MaxStreams: o.botStreams},
		TorneioParallel: o.torneioParallel, MaxTorneios: o.maxTorneios, LadderGames: o.ladderGames,
		Accounts: server.AccountsConfig{HashWorkers: o.hashWorkers, HashQueue: o.hashQueue, SessionTTL: o.sessionTTL,
			HashPerAddr: o.hashPerAddr, SignInsPerAddr: o.signInsPerAddr, SignInsPerAccount: o.signInsPerAccount,
			SessionsPerPlayer: o.sessionsPerPlayer},
		HTTP: server.HTTPConfig{MaxConns: maxConns, MaxConnsPerAddr: o.maxConnsPerAddr, TrustedProxies: o.trustedProxies,
			WriteTimeout: o.writeTimeout}}
	cfg.Hub.Rate, cfg.Hub.Burst, cfg.Hub.Compression = o.rate, o.burst, o.compress
	cfg.MaxPlayerRooms = o.maxPlayerRooms
	if o.guestsPerMinute > 0 {
		cfg.Hub.NewGuests = netlimit.NewRates(netlimit.Limit{Rate: float64(o.guestsPerMinute), Per: time.Minute,
			Burst: float64(o.guestsPerMinute)}, guestRateKeys, nil)
	}
	cfg.Chat = chatLimits(o.chatPlayerLines, o.chatRoomLines)
	if o.cluster {
		b, err := openBroker(st, o.prefix)
		if err != nil {
			return err
		}
		defer b.Close()
		liveTTL := o.liveTTL
		if liveTTL == 0 {
			liveTTL = -1 // off
		}
		cfg.Cluster = &server.Cluster{Broker: b, Node: o.node, TTL: o.leaseTTL, LiveTTL: liveTTL}
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
		stopDebug, err := serveAside("debug", o.debugAddr, debugMux(), log)
		if err != nil {
			return err
		}
		defer stopDebug()
	}
	if o.metricsAddr != "" {
		stopMetrics, err := serveAside("metrics", o.metricsAddr, srv.MetricsHandler(), log)
		if err != nil {
			return err
		}
		defer stopMetrics()
	}
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return err
	}
	hs := srv.HTTPServer()
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(srv.Listen(ln)) }()
	log.Info("lobby listening", zap.String("addr", ln.Addr().String()), zap.Bool("redis", o.redisURL != ""),
		zap.Int("maxConns", maxConns), zap.Int("maxConnsPerAddr", o.maxConnsPerAddr), zap.Int("maxWebSockets", server.WebSocketShare(maxConns)),
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

// defaultMaxConnsPerAddr is -max-conns-per-addr's default: a classroom of
// 30 behind one NAT holds about 30 WebSockets and a few kept-alive HTTP
// connections each.
const defaultMaxConnsPerAddr = 128

// defaultGuestsPerMinute is -guests-per-minute's default: a classroom of
// 30 behind one NAT opening the page at once gets its guests; a client
// that makes guests in a loop gets one a second, not 300 (docs/configuration.md).
const defaultGuestsPerMinute = 60

// guestRateKeys bounds the addresses the guest limit tracks at once.
const guestRateKeys = 100_000

// fdReserve is how many open files the process keeps for itself besides
// the store's connections: listeners, the Redis pub/sub connection, logs,
// the runtime's own, and spares.
const fdReserve = 128

// connCap is the cap on connections: the one asked for, or the open-file
// limit less what the process keeps for itself (fdReserve and the store's
// connection pools), so that running out of file descriptors is prevented
// by refusing connections, never discovered by failing to accept. Asking
// for more than the limit allows is an error.
func connCap(asked int, st store.Store) (int, error) {
	files, err := netlimit.OpenFileLimit()
	if err != nil {
		if asked > 0 {
			return asked, nil
		}
		return 0, fmt.Errorf("-max-conns: %w; set it", err)
	}
	reserve := fdReserve + storeConns(st)
	budget, err := netlimit.ConnBudget(files, reserve)
	if err != nil {
		return 0, fmt.Errorf("-max-conns: %w", err)
	}
	if asked > budget {
		return 0, fmt.Errorf("-max-conns %d is more than the open-file limit allows: %d files less %d kept for the process leave %d; raise ulimit -n or lower -max-conns",
			asked, files, reserve, budget)
	}
	if asked > 0 {
		return asked, nil
	}
	return budget, nil
}

func openStore(ctx context.Context, o options) (store.Store, error) {
	if o.redisURL == "" {
		return memstore.New(memstore.WithRetention(o.retention), memstore.WithIdleRoomTTL(o.idleRoomTTL),
			memstore.WithGuestTTL(o.guestTTL), memstore.WithRecords(memstore.NewRecords(memstore.WithRecordRetention(o.recordRetention)))), nil
	}
	return openRedis(ctx, o.redisURL, o.prefix, redisstore.WithRetention(o.retention), redisstore.WithIdleRoomTTL(o.idleRoomTTL),
		redisstore.WithGuestTTL(o.guestTTL), redisstore.WithRecordRetention(o.recordRetention))
}

// chatLimits scales the default chat limits to player and room lines a
// minute: the bursts and the byte budgets keep the defaults' proportions.
func chatLimits(player, room float64) rooms.ChatLimits {
	d := rooms.DefaultChatLimits
	if player <= 0 || room <= 0 {
		return d
	}
	ps, rs := player/d.PlayerLines, room/d.RoomLines
	return rooms.ChatLimits{PlayerLines: player, PlayerBurst: max(1, d.PlayerBurst*ps),
		PlayerBytes: d.PlayerBytes * ps, PlayerBytesBurst: d.PlayerBytesBurst * ps,
		RoomLines: room, RoomBurst: max(1, d.RoomBurst*rs), RoomBytes: d.RoomBytes * rs, RoomBytesBurst: d.RoomBytesBurst * rs}
}
