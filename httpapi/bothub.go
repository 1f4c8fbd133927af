package httpapi

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"sync"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/hub"
	"github.com/tabuleiro/tabuleiro/netlimit"
	"github.com/tabuleiro/tabuleiro/players"
	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/rooms"
)

// The bot API's streams and commands over plain HTTP (docs/bots-api.md), in
// the style of lichess's Bot API: NDJSON streams kept open, one JSON object
// a line, an empty line as heartbeat.
//
// A game stream is a room member (rooms.Member) like a WebSocket, with a
// bounded queue written by the request's goroutine; the event stream hears
// of the bot's games from the rooms' OnGame hook through botHub. A bot's
// seat is connected while one of its game streams (or WebSockets) is in the
// room, so abandonment, clocks and the abort of a game that never started
// are a person's.

// botHub knows the bots online and their event streams. Lock order: botHub.mu
// is taken alone (never with a stream's or a room's lock held).
type botHub struct {
	cfg BotAPIConfig
	log *zap.Logger
	// nodes reaches the other nodes (cluster.Node; nil on a single node).
	// Set once, before the server serves.
	nodes otherNodes

	// quit is closed when the server shuts down: every stream ends, so
	// that http.Server.Shutdown, which waits for them, does not.
	quit     chan struct{}
	quitOnce sync.Once

	mu      sync.Mutex
	bots    map[string]*botOnline // bot id -> its streams; gone with its last stream
	streams int                   // open streams of every bot, for MaxStreams

	// commands are the bots' commands' token buckets, by bot id (at most
	// maxBuckets; its own lock, taken alone).
	commands *netlimit.Rates
}

// botOnline is one bot's open streams.
type botOnline struct {
	name   string
	open   bool        // open to tournaments (botopen.go)
	events []*eventSub // oldest first
	games  int
}

// eventSub is one open event stream: lines queued by OnGame for the
// stream's goroutine, at most eventQueue of them; a full queue or a newer
// stream past EventStreamsPerBot closes it (kicked).
type eventSub struct {
	lines  chan []byte
	kicked chan struct{}
	once   sync.Once
}

func (e *eventSub) kick() { e.once.Do(func() { close(e.kicked) }) }

// eventQueue is how many events may wait for one event stream's writer.
const eventQueue = 64

func newBotHub(cfg BotAPIConfig, log *zap.Logger) *botHub {
	return &botHub{cfg: cfg, log: log, bots: map[string]*botOnline{}, quit: make(chan struct{}),
		commands: netlimit.NewRates(netlimit.PerSecond(cfg.Rate, float64(cfg.Burst)), maxBuckets, nil)}
}

// shutdown ends every stream, now and from now on.
func (b *botHub) shutdown() { b.quitOnce.Do(func() { close(b.quit) }) }

// BotInfo is one online bot in GET /api/bots.
type BotInfo = protocol.BotInfo

// otherNodes is what the bot API needs of the other nodes behind the same
// balancer (cluster.Node): the bots online there, this node's bots told to
// them, the events of bots whose streams they hold, and the commands of the
// rooms they serve.
type otherNodes interface {
	BotsElsewhere() []protocol.BotInfo
	BotsChanged()
	BotEvent(bots []string, line []byte)
	RunAt(ctx context.Context, owner, player, name string, m *protocol.ClientMessage, attempt int) (*protocol.ErrorMessage, hub.Delivery)
}

// online lists the bots with an event stream open, here or on another
// node, by name.
func (b *botHub) online() []BotInfo {
	out := b.onlineHere()
	if b.nodes != nil {
		have := make(map[string]int, len(out))
		for i, o := range out {
			have[o.ID] = i
		}
		for _, o := range b.nodes.BotsElsewhere() {
			if i, ok := have[o.ID]; ok {
				out[i].Games += o.Games
			} else {
				out = append(out, o)
			}
		}
	}
	slices.SortFunc(out, func(x, y BotInfo) int {
		if c := strings.Compare(x.Name, y.Name); c != 0 {
			return c
		}
		return strings.Compare(x.ID, y.ID)
	})
	return out
}

// onlineHere lists the bots with an event stream open on this node (the
// heartbeat tells the other nodes of them).
func (b *botHub) onlineHere() []BotInfo {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]BotInfo, 0, len(b.bots))
	for id, o := range b.bots {
		if len(o.events) > 0 {
			out = append(out, BotInfo{ID: id, Name: o.name, Games: o.games, Open: o.open})
		}
	}
	return out
}

// name returns the name of a bot that is online, here or on another node.
func (b *botHub) name(id string) (string, bool) {
	b.mu.Lock()
	o := b.bots[id]
	here := o != nil && len(o.events) > 0
	name := ""
	if here {
		name = o.name
	}
	b.mu.Unlock()
	if here || b.nodes == nil {
		return name, here
	}
	for _, o := range b.nodes.BotsElsewhere() {
		if o.ID == id {
			return o.Name, true
		}
	}
	return "", false
}

// changed tells the other nodes at once that a bot came online here or
// left (was is whether it had an event stream before).
func (b *botHub) changed(was, is bool) {
	if was != is && b.nodes != nil {
		b.nodes.BotsChanged()
	}
}

// setOpen records the bot's setting "open to tournaments" while it is
// online (and tells the other nodes at once).
func (b *botHub) setOpen(id string, open bool) {
	b.mu.Lock()
	o := b.bots[id]
	changed := o != nil && o.open != open && len(o.events) > 0
	if o != nil {
		o.open = open
	}
	b.mu.Unlock()
	if changed && b.nodes != nil {
		b.nodes.BotsChanged()
	}
}

// openEvents registers an event stream of the bot, closing its oldest past
// EventStreamsPerBot; nil when MaxStreams are open. open is the bot's
// setting as the store has it.
func (b *botHub) openEvents(p players.Identity, open bool) *eventSub {
	b.mu.Lock()
	if b.streams >= b.cfg.MaxStreams {
		b.mu.Unlock()
		return nil
	}
	o := b.bots[p.ID]
	if o == nil {
		o = &botOnline{}
		b.bots[p.ID] = o
	}
	was := len(o.events) > 0
	defer b.changed(was, true)
	defer b.mu.Unlock()
	o.name, o.open = p.Name, open
	e := &eventSub{lines: make(chan []byte, eventQueue), kicked: make(chan struct{})}
	o.events = append(o.events, e)
	b.streams++
	for len(o.events) > b.cfg.EventStreamsPerBot {
		o.events[0].kick()
		o.events = o.events[1:] // its goroutine's closeEvents finds it gone
		b.streams--
	}
	return e
}

// closeEvents forgets an event stream.
func (b *botHub) closeEvents(id string, e *eventSub) {
	b.mu.Lock()
	was, is := false, false
	if o := b.bots[id]; o != nil {
		was = len(o.events) > 0
		if i := slices.Index(o.events, e); i >= 0 {
			o.events = slices.Delete(o.events, i, i+1)
			b.streams--
		}
		is = len(o.events) > 0
		b.forgetIdle(id, o)
	}
	b.mu.Unlock()
	b.changed(was, is)
}

// openGame counts a game stream of the bot; it answers the refusal's
// status and error when a cap is reached.
func (b *botHub) openGame(p players.Identity) (int, *protocol.Error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.streams >= b.cfg.MaxStreams {
		return http.StatusServiceUnavailable, protocol.Errorf(protocol.CodeBusy, "the server holds all the bot streams it can, try again later")
	}
	o := b.bots[p.ID]
	if o == nil {
		o = &botOnline{name: p.Name}
		b.bots[p.ID] = o
	}
	if o.games >= b.cfg.GameStreamsPerBot {
		return http.StatusTooManyRequests, protocol.Errorf(protocol.CodeRateLimited, "at most %d game streams per bot", b.cfg.GameStreamsPerBot)
	}
	o.games++
	b.streams++
	return 0, nil
}

func (b *botHub) closeGame(id string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if o := b.bots[id]; o != nil && o.games > 0 {
		o.games--
		b.streams--
		b.forgetIdle(id, o)
	}
}

func (b *botHub) forgetIdle(id string, o *botOnline) {
	if len(o.events) == 0 && o.games == 0 {
		delete(b.bots, id)
	}
}

// kickEvents closes the event streams of the bot (its account closed).
func (b *botHub) kickEvents(id string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if o := b.bots[id]; o != nil {
		for _, e := range o.events {
			e.kick()
		}
	}
}

// onGame is the rooms' OnGame hook: it queues the event on the event
// streams of every bot seated in the room, here and, through the other
// nodes (BotEvent), wherever the bot's stream is. It never blocks: a
// stream whose queue is full is closed (the bot reconnects and is told its
// games again).
func (b *botHub) onGame(ev rooms.GameEvent) {
	if ev.Again {
		return // the bot heard of it, or hears of its games when it connects
	}
	typ := "gameStart"
	if ev.Status == rooms.StatusFinished {
		typ = "gameFinish"
	}
	var bots []string
	for _, p := range ev.Players {
		if p.BotAccount {
			bots = append(bots, p.ID)
		}
	}
	if len(bots) == 0 {
		return
	}
	line, _ := json.Marshal(BotEvent{Type: typ, Room: ev.Room, Game: ev.Game, Variant: ev.Variant})
	b.deliver(bots, line)
	if b.nodes != nil {
		b.nodes.BotEvent(bots, line)
	}
}

// deliver queues line on the event streams this node holds of bots; it is
// also the cluster's OnBotEvent, for the events of rooms on other nodes.
func (b *botHub) deliver(bots []string, line []byte) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, id := range bots {
		if !players.IsBotID(id) {
			continue
		}
		o := b.bots[id]
		if o == nil {
			continue
		}
		for _, e := range o.events {
			select {
			case e.lines <- line:
			default:
				e.kick()
			}
		}
	}
}

// allow takes a token from the bot's commands' bucket.
func (b *botHub) allow(id string) bool { return b.commands.Allow(id) }
