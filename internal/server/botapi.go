package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/hub"
	"github.com/tabuleiro/tabuleiro/internal/jsonbody"
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
	buckets map[string]*bucket    // bot id -> moves' token bucket (at most maxBuckets)
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

// bucket is a token bucket.
type bucket struct {
	tokens float64
	last   time.Time
}

func newBotHub(cfg BotAPIConfig, log *zap.Logger) *botHub {
	return &botHub{cfg: cfg, log: log, bots: map[string]*botOnline{}, buckets: map[string]*bucket{}, quit: make(chan struct{})}
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

// allow takes a token from the bot's bucket.
func (b *botHub) allow(id string, now time.Time) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	k := b.buckets[id]
	if k == nil {
		if len(b.buckets) >= maxBuckets {
			full := time.Duration(float64(b.cfg.Burst) / b.cfg.Rate * float64(time.Second))
			for id, k := range b.buckets {
				if now.Sub(k.last) >= full { // full again: forgetting it changes nothing
					delete(b.buckets, id)
				}
			}
			if len(b.buckets) >= maxBuckets {
				return false
			}
		}
		k = &bucket{tokens: float64(b.cfg.Burst), last: now}
		b.buckets[id] = k
	}
	k.tokens = min(float64(b.cfg.Burst), k.tokens+now.Sub(k.last).Seconds()*b.cfg.Rate)
	k.last = now
	if k.tokens < 1 {
		return false
	}
	k.tokens--
	return true
}

// BotEvent is one line of GET /api/bot/stream/event.
type BotEvent struct {
	// Type is "gameStart" (the bot is seated in a game that is being
	// played) or "gameFinish" (that game ended).
	Type    string `json:"type"`
	Room    string `json:"room"`
	Game    string `json:"game,omitempty"`
	Variant string `json:"variant,omitempty"`
}

// ndjson starts a long-lived NDJSON answer: the server's write deadline is
// lifted (each write sets its own) and the headers are sent.
func ndjson(w http.ResponseWriter) *http.ResponseController {
	rc := http.NewResponseController(w)
	_ = rc.SetWriteDeadline(time.Time{})
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	_ = rc.Flush()
	return rc
}

var newline = []byte{'\n'}

// streamWriteWait bounds each write of a stream.
const streamWriteWait = 10 * time.Second

// writeLine writes one line and flushes it within streamWriteWait.
func writeLine(w http.ResponseWriter, rc *http.ResponseController, line []byte) error {
	_ = rc.SetWriteDeadline(time.Now().Add(streamWriteWait))
	// line is shared (one event, several streams; a frame, several
	// members): written as it is, never appended to.
	if _, err := w.Write(line); err != nil {
		return err
	}
	if _, err := w.Write(newline); err != nil {
		return err
	}
	return rc.Flush()
}

// botEventStream answers GET /api/bot/stream/event: first a gameStart for
// each of the bot's unfinished games, then one line per event, an empty
// line when idle for Heartbeat.
func (s *Server) botEventStream(w http.ResponseWriter, r *http.Request) {
	p, ok := s.bearerBot(w, r)
	if !ok {
		return
	}
	e := s.bots.openEvents(p, s.botOpen(r.Context(), p.ID))
	if e == nil {
		w.Header().Set("Retry-After", "5")
		s.httpError(w, http.StatusServiceUnavailable, protocol.Errorf(protocol.CodeBusy, "the server holds all the bot streams it can, try again later"))
		return
	}
	defer s.bots.closeEvents(p.ID, e)
	// Subscribed first, then the games so far: a game that starts in
	// between is told twice, never missed (a bot takes gameStart as
	// idempotent).
	ctx, cancel := context.WithTimeout(r.Context(), loadTimeout)
	ids, err := s.cfg.Store.PlayerRooms(ctx, p.ID)
	cancel()
	if err != nil {
		s.log.Warn("bot's rooms", zap.String("bot", p.ID), zap.Error(err))
		w.Header().Set("Retry-After", "2")
		s.httpError(w, http.StatusServiceUnavailable, protocol.Errorf(protocol.CodeInternal, "could not load your games, try again"))
		return
	}
	rc := ndjson(w)
	for _, id := range ids {
		line, _ := json.Marshal(BotEvent{Type: "gameStart", Room: id})
		if writeLine(w, rc, line) != nil {
			return
		}
	}
	t := time.NewTicker(s.cfg.BotAPI.Heartbeat)
	defer t.Stop()
	for {
		var line []byte
		select {
		case <-r.Context().Done():
			return
		case <-s.bots.quit:
			return
		case <-e.kicked:
			return
		case line = <-e.lines:
			t.Reset(s.cfg.BotAPI.Heartbeat)
		case <-t.C:
		}
		if writeLine(w, rc, line) != nil {
			return
		}
	}
}

// streamMember is a game stream in its room: rooms.Member with a bounded
// queue of frames for the request's goroutine to write.
type streamMember struct {
	id   uint64
	p    players.Identity
	max  int
	wake chan struct{} // capacity 1

	mu     sync.Mutex
	queue  []*protocol.Frame
	held   int
	closed bool // too slow, or left the room
}

// streamIDs numbers the stream members above any WebSocket's id (the hub
// counts up from 1), so that a room never takes one for the other.
var streamIDs atomic.Uint64

func newStreamMember(p players.Identity, maxBytes int) *streamMember {
	return &streamMember{id: 1<<63 | streamIDs.Add(1), p: p, max: maxBytes, wake: make(chan struct{}, 1)}
}

func (m *streamMember) ConnID() uint64     { return m.id }
func (m *streamMember) PlayerID() string   { return m.p.ID }
func (m *streamMember) PlayerName() string { return m.p.Name }

// Send queues f; past the byte bound the stream is closed (never waits).
func (m *streamMember) Send(f *protocol.Frame) bool {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return false
	}
	if m.held > 0 && m.held+len(f.Data) > m.max {
		m.closed = true
		m.mu.Unlock()
		m.signal()
		return false
	}
	m.queue = append(m.queue, f)
	m.held += len(f.Data)
	m.mu.Unlock()
	m.signal()
	return true
}

func (m *streamMember) signal() {
	select {
	case m.wake <- struct{}{}:
	default:
	}
}

func (m *streamMember) Joined(*rooms.Room) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return !m.closed
}

func (m *streamMember) Left(*rooms.Room) {
	m.mu.Lock()
	m.closed = true
	m.mu.Unlock()
	m.signal()
}

// take returns the frames queued and whether the stream is closed.
func (m *streamMember) take() ([]*protocol.Frame, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	q := m.queue
	m.queue, m.held = nil, 0
	return q, m.closed
}

// frameHead is what a game stream reads of each frame.
type frameHead struct {
	Type   string `json:"type"`
	Status string `json:"status"`
}

// lookupRoom finds the request's room, or answers the error: the room when
// it runs here, else (several nodes) the node that serves it.
func (s *Server) lookupRoom(w http.ResponseWriter, r *http.Request) (room *rooms.Room, owner string, ok bool) {
	id := r.PathValue("room")
	if id == "" || len(id) > maxRoomID {
		s.httpError(w, http.StatusNotFound, protocol.Errorf(protocol.CodeUnknownRoom, "no room %q", id))
		return nil, "", false
	}
	if room, ok := s.Rooms.Running(id); ok {
		return room, "", true
	}
	ctx, cancel := context.WithTimeout(r.Context(), loadTimeout)
	defer cancel()
	room, err := s.Rooms.Lookup(ctx, id)
	var elsewhere *rooms.OwnedElsewhere
	switch {
	case errors.Is(err, rooms.ErrUnknownRoom):
		s.httpError(w, http.StatusNotFound, protocol.Errorf(protocol.CodeUnknownRoom, "no room %q", id))
		return nil, "", false
	case errors.As(err, &elsewhere) && s.bots.nodes != nil:
		// Several nodes behind a balancer: the room's node runs it.
		return nil, elsewhere.Node, true
	case err != nil:
		s.log.Warn("room lookup", zap.String("room", id), zap.Error(err))
		w.Header().Set("Retry-After", "2")
		s.httpError(w, http.StatusServiceUnavailable, protocol.Errorf(protocol.CodeInternal, "could not load room %s, try again", id))
		return nil, "", false
	}
	return room, "", true
}

// botGameStream answers GET /api/bot/game/{room}/stream: the room's
// room.state objects, the first one full (with the move history), one a
// line, until the game is over (its last state is the last line) or the
// bot goes. The stream joins the room, in the bot's seat if it has one
// (as a spectator otherwise), so while it is open the bot is connected.
func (s *Server) botGameStream(w http.ResponseWriter, r *http.Request) {
	p, ok := s.bearerBot(w, r)
	if !ok {
		return
	}
	room, owner, ok := s.lookupRoom(w, r)
	if !ok {
		return
	}
	if status, perr := s.bots.openGame(p); perr != nil {
		w.Header().Set("Retry-After", "5")
		s.httpError(w, status, perr)
		return
	}
	defer s.bots.closeGame(p.ID)
	m := newStreamMember(p, s.cfg.BotAPI.QueueBytes)
	// A seated player joins its own seat whatever it asks for; anyone
	// else watches.
	var stopped <-chan struct{} // the room's Done when it runs here
	if owner == "" {
		if !room.Join(m, rooms.RoleSpectator, nil) {
			w.Header().Set("Retry-After", "1")
			s.httpError(w, http.StatusServiceUnavailable, protocol.Errorf(protocol.CodeInternal, "room %s closed as you came, try again", room.ID()))
			return
		}
		defer room.Gone(m)
		stopped = room.Done()
	} else {
		// Served by another node: the stream joins through the hub's
		// router as a WebSocket would, and is joined again wherever the
		// room moves until it ends (Detach).
		a := s.Hub.Attach(m)
		defer a.Detach()
		ctx, cancel := context.WithTimeout(r.Context(), loadTimeout)
		perr := a.Route(ctx, &protocol.ClientMessage{Type: protocol.TypeRoomJoin, Room: r.PathValue("room"), As: rooms.RoleSpectator})
		cancel()
		if perr != nil {
			s.unreached(w, perr)
			return
		}
	}
	rc := ndjson(w)
	t := time.NewTicker(s.cfg.BotAPI.Heartbeat)
	defer t.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-s.bots.quit:
			return
		case <-stopped:
			// Adjourned or stopped: what was queued still goes.
			frames, _ := m.take()
			s.writeStates(w, rc, frames)
			return
		case <-t.C:
			if writeLine(w, rc, nil) != nil {
				return
			}
			continue
		case <-m.wake:
		}
		frames, closed := m.take()
		over, err := s.writeStates(w, rc, frames)
		if over || err != nil || closed {
			return
		}
		t.Reset(s.cfg.BotAPI.Heartbeat)
	}
}

// writeStates writes the room.state frames among frames; over when one is
// of a finished game.
func (s *Server) writeStates(w http.ResponseWriter, rc *http.ResponseController, frames []*protocol.Frame) (over bool, err error) {
	for _, f := range frames {
		var h frameHead
		if json.Unmarshal(f.Data, &h) != nil || h.Type != protocol.TypeRoomState {
			continue // room.joined, chat lines, errors: not the stream's
		}
		if err := writeLine(w, rc, f.Data); err != nil {
			return false, err
		}
		if h.Status == rooms.StatusFinished {
			return true, nil
		}
	}
	return false, nil
}

// unreached answers the error of a room the hub's routing did not reach:
// 404 for a room that does not exist, else 503 to try again.
func (s *Server) unreached(w http.ResponseWriter, perr *protocol.Error) {
	if perr.Code == protocol.CodeUnknownRoom {
		s.httpError(w, http.StatusNotFound, perr)
		return
	}
	w.Header().Set("Retry-After", "1")
	s.httpError(w, http.StatusServiceUnavailable, perr)
}

// botCommand runs a bot's move or resignation in its room, here or on the
// node that serves it, and answers its outcome: 200 {"ok":true} once the
// room has taken it (saved and broadcast), the room's error otherwise. An
// illegal move changes nothing and the bot's clock runs on. check refuses
// a body the command does not take; msg is the command with the body's.
func (s *Server) botCommand(w http.ResponseWriter, r *http.Request, check func(BotCommandBody) *protocol.Error,
	msg func(BotCommandBody) *protocol.ClientMessage) {
	p, ok := s.bearerBot(w, r)
	if !ok {
		return
	}
	body, ok := s.commandBody(w, r)
	if !ok {
		return
	}
	if perr := check(body); perr != nil {
		s.httpError(w, http.StatusBadRequest, perr)
		return
	}
	if !s.bots.allow(p.ID, time.Now()) {
		w.Header().Set("Retry-After", "1")
		s.httpError(w, http.StatusTooManyRequests, protocol.Errorf(protocol.CodeRateLimited, "slow down: at most %g commands a second", s.cfg.BotAPI.Rate))
		return
	}
	m := msg(body)
	m.Room = r.PathValue("room")
	if m.Room == "" || len(m.Room) > maxRoomID {
		s.httpError(w, http.StatusNotFound, protocol.Errorf(protocol.CodeUnknownRoom, "no room %q", m.Room))
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), loadTimeout)
	defer cancel()
	var e *protocol.ErrorMessage
	here := func(room *rooms.Room) bool {
		var posted bool
		e, posted = hub.Run(room, p.ID, p.Name, m)
		return posted
	}
	var elsewhere func(context.Context, string, int) hub.Delivery
	if nodes := s.bots.nodes; nodes != nil {
		elsewhere = func(ctx context.Context, owner string, attempt int) hub.Delivery {
			var d hub.Delivery
			e, d = nodes.RunAt(ctx, owner, p.ID, p.Name, m, attempt)
			return d
		}
	}
	if perr := hub.ReachWith(ctx, s.Rooms, s.log, m.Room, here, elsewhere); perr != nil {
		s.unreached(w, perr)
		return
	}
	if e != nil {
		status := http.StatusBadRequest
		switch e.Code {
		case protocol.CodeNotAPlayer:
			status = http.StatusForbidden
		case protocol.CodeNotYourTurn, protocol.CodeGameOver:
			status = http.StatusConflict
		case protocol.CodeInternal:
			status = http.StatusServiceUnavailable
		}
		s.httpError(w, status, protocol.Errorf(e.Code, "%s", e.Message))
		return
	}
	writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

// BotCommandBody is the optional JSON body of a bot's move and resignation
// (docs/bots-api.md); the query's fields of the same names do as well.
type BotCommandBody struct {
	// Info is the bot's note on its move, or on what failed when it
	// resigns with reason bot_error: kept in the game's record, shown to
	// the bot's owner (at most rooms.MaxInfoBytes, cut).
	Info string `json:"info,omitempty"`
	// Reason of a resignation: "" or "bot_error" (the bot's program
	// failed: it raised, answered an illegal move or took too long).
	Reason string `json:"reason,omitempty"`
}

// commandBody reads a bot command's body and query, or answers the error:
// the body, when there is one, is one JSON object of BotCommandBody's
// fields and nothing after it (jsonbody).
func (s *Server) commandBody(w http.ResponseWriter, r *http.Request) (BotCommandBody, bool) {
	var b BotCommandBody
	data, err := jsonbody.ReadAll(w, r, botBodyLimit)
	if err != nil {
		s.bodyError(w, err, botBodyLimit)
		return b, false
	}
	if len(bytes.TrimSpace(data)) > 0 {
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if dec.Decode(&b) != nil || jsonbody.Decode(data, &b) != nil {
			s.httpError(w, http.StatusBadRequest, protocol.Errorf(protocol.CodeBadRequest, `the body is one object {"info"?, "reason"?}`))
			return b, false
		}
	}
	q := r.URL.Query()
	if v := q.Get("info"); v != "" {
		b.Info = v
	}
	if v := q.Get("reason"); v != "" {
		b.Reason = v
	}
	if len(b.Info) > botBodyLimit {
		s.httpError(w, http.StatusRequestEntityTooLarge, protocol.Errorf(protocol.CodeTooLarge, "info too long"))
		return b, false
	}
	return b, true
}

// botGameMove answers POST /api/bot/game/{room}/move/{move}[?info=]: the
// move, and the bot's info with it.
func (s *Server) botGameMove(w http.ResponseWriter, r *http.Request) {
	move := r.PathValue("move")
	if move == "" || len(move) > 256 {
		s.httpError(w, http.StatusBadRequest, protocol.Errorf(protocol.CodeBadRequest, "bad move %q", move))
		return
	}
	s.botCommand(w, r, func(b BotCommandBody) *protocol.Error {
		if b.Reason != "" {
			return protocol.Errorf(protocol.CodeBadRequest, `"reason" is for a resignation`)
		}
		return nil
	}, func(b BotCommandBody) *protocol.ClientMessage {
		return &protocol.ClientMessage{Type: protocol.TypeRoomMove, Move: move, Info: b.Info}
	})
}

// botGameResign answers POST /api/bot/game/{room}/resign[?reason=bot_error&info=].
func (s *Server) botGameResign(w http.ResponseWriter, r *http.Request) {
	s.botCommand(w, r, func(b BotCommandBody) *protocol.Error {
		if b.Reason != "" && b.Reason != rooms.ReasonBotError {
			return protocol.Errorf(protocol.CodeBadRequest, `"reason" is %q or absent, not %q`, rooms.ReasonBotError, b.Reason)
		}
		return nil
	}, func(b BotCommandBody) *protocol.ClientMessage {
		if b.Reason == rooms.ReasonBotError {
			return &protocol.ClientMessage{Type: hub.TypeResignBotError, Info: b.Info}
		}
		return &protocol.ClientMessage{Type: protocol.TypeRoomResign}
	})
}
