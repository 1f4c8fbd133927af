package crashtest

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/tabuleiro/tabuleiro/engine"
)

// kinds of rooms.
const (
	pair = "pair" // two humans
	bot  = "bot"  // a human against a bot
	solo = "solo" // one human, 2048 solo
)

// errDown says the server went away (killed): the driver waits for the next
// run and reconnects.
var errDown = errors.New("server down")

// waitLimit bounds every wait for the server; reaching it fails the test
// (it is a hang, not a slow answer: the machine may be loaded).
const waitLimit = 90 * time.Second

// driver plays one room after another with its clients: the players
// (two, or one against a bot or alone) and the spectators. It is the only
// goroutine that touches its clients and its model.
type driver struct {
	h       *harness
	name    string
	kind    string
	game    engine.Game
	variant string
	level   string
	cap     int // plies after which the side to move resigns
	rng     *rand.Rand
	in      chan event

	players []*client
	specs   []*client
	epoch   int
	down    bool

	// the current game
	room     string
	creating bool
	reqID    int
	gameNo   int
	human    int // the human's seat in a bot room
	setup    json.RawMessage
	model    *model
	mEpoch   int   // the server run whose states the model last took
	mLastSeq int64 // highest seq taken in that run
	// views are the room.states of this run by seq, as the first client
	// to see each received it: another client's must be the same. They
	// are compared on the model's keys of the moment, which grow when the
	// game ends (go's "area"), so the raw state is kept, not a view.
	views    map[int64][]byte
	checkRun bool // the next state is the first of a new run: verify
	pending  *step
	plies    int
	known    map[string]bool // rooms this driver created

	done []finished
	st   stats
}

// finished is a game played to its end, to check again after the last kill.
type finished struct {
	room  string
	model *model
}

// stats are the driver's counts for the summary line.
type stats struct {
	games, resigned int
	acked           int // moves seen acknowledged in a room.state
	recovered       int // moves a restarted server showed that no client had seen (saved just before the kill, or a bot's move after the restore)
	landed          int // of which moves this driver had sent
	checked         int // acknowledged moves found again in a restarted server's state (each time)
	verified        int // distinct acknowledged moves found again after at least one kill
	lost            int // moves sent, never acknowledged, and absent after the restart
	verifiedUpTo    int // moves of the current game already counted in verified
	restartChecks   int
	rechecked       int // moves of finished games checked again after the last kill
}

func (d *driver) clients() []*client { return append(slices.Clone(d.players), d.specs...) }

// run plays games until the harness says to finish, then ends the current
// game and returns.
func (d *driver) run() (err error) {
	defer func() {
		for _, c := range d.clients() {
			c.close()
		}
		d.drain()
		if err != nil {
			err = fmt.Errorf("%s (room %s, game %d, %d plies): %w", d.name, d.room, d.gameNo, d.plies, err)
		}
	}()
	if err := d.connect(); err != nil {
		if !errors.Is(err, errDown) {
			return err
		}
		if err := d.recover(); err != nil {
			return err
		}
	}
	for {
		err := d.step()
		if errors.Is(err, errStop) {
			return nil
		}
		if errors.Is(err, errDown) {
			err = d.recover()
		}
		if err != nil {
			return err
		}
	}
}

var errStop = errors.New("finished")

// drain waits for every reader to exit, dropping their events.
func (d *driver) drain() {
	for _, c := range d.clients() {
		for c.readerQ != nil {
			select {
			case <-d.in:
			case <-c.readerQ:
				c.readerQ = nil
			}
		}
	}
}

// connect opens a new connection for every client to the server of the
// driver's run and waits for the welcomes. The harness's gate keeps the
// server from being killed and restarted while the clients dial, so that
// every connection is tagged with the run it really reached.
func (d *driver) connect() error {
	d.h.gate.RLock()
	if d.h.currentRun() != d.epoch {
		d.h.gate.RUnlock()
		return errDown // killed again meanwhile
	}
	for _, c := range d.clients() {
		if err := c.dial(d.h.lobby.wsURL(), d.epoch, d.in); err != nil {
			d.h.gate.RUnlock()
			return err
		}
	}
	d.h.gate.RUnlock()
	return d.waitFor("welcome", func() bool {
		for _, c := range d.clients() {
			if c.welcomed != d.epoch || c.token == "" {
				return false
			}
		}
		return true
	})
}

// step does the next thing the current game needs.
func (d *driver) step() error {
	if d.down {
		return errDown
	}
	switch {
	case d.room == "":
		if d.h.finishing.Load() {
			return errStop
		}
		return d.create()
	case d.kind == pair && d.players[1].seat < 0:
		d.players[1].joinedRoom = d.room
		d.send(d.players[1], map[string]any{"type": "room.join", "room": d.room, "as": "player"})
		return d.waitFor("the second player's seat", func() bool { return d.players[1].seat >= 0 })
	}
	for _, sp := range d.specs {
		if sp.joinedRoom != d.room {
			sp.joinedRoom = d.room
			d.send(sp, map[string]any{"type": "room.join", "room": d.room, "as": "spectator"})
		}
	}
	if err := d.waitFor("spectators", func() bool {
		for _, sp := range d.specs {
			if sp.joined != d.epoch {
				return false
			}
		}
		return true
	}); err != nil {
		return err
	}
	if d.model.status == "finished" {
		return d.endGame()
	}
	return d.play()
}

// create starts a new game: a room.create from the first player.
func (d *driver) create() error {
	d.gameNo++
	d.plies, d.pending, d.views, d.st.verifiedUpTo = 0, nil, map[int64][]byte{}, 0
	d.human = d.gameNo % 2
	d.setup = nil
	req := map[string]any{"type": "room.create", "game": d.game.Info().ID, "variant": d.variant}
	switch d.kind {
	case pair:
		req["opponent"] = "human"
	case bot:
		req["opponent"], req["level"], req["seat"] = "bot", d.level, d.human
	case solo:
		d.human = 0
		var board [4][4]int
		for _, i := range d.rng.Perm(16)[:2] {
			board[i/4][i%4] = 2
		}
		setup, err := json.Marshal(map[string]any{"board": board, "score": 0, "seed": d.rng.Uint64() >> 12})
		if err != nil {
			return err
		}
		d.setup = setup
		req["opponent"], req["setup"] = "none", json.RawMessage(setup)
	}
	m, err := newModel(d.game, d.variant, d.setup)
	if err != nil {
		return err
	}
	d.model = m
	for _, c := range d.clients() {
		c.seat, c.joinedRoom, c.joined, c.stated, c.lastSeq = -1, "", -1, -1, 0
	}
	d.reqID++
	req["id"] = d.reqID
	d.creating = true
	d.send(d.players[0], req)
	d.h.games.Add(1)
	d.st.games++
	return d.waitFor("room.joined of the new room", func() bool { return d.room != "" })
}

// play makes the next move when a human is to move, or waits for the bot.
func (d *driver) play() error {
	before := len(d.model.moves)
	if d.pending == nil {
		seat, ok := d.model.st.Turn()
		if !ok {
			return fmt.Errorf("no seat to move in a playing game")
		}
		c := d.players[0]
		switch {
		case d.kind == pair:
			c = d.players[seat]
		case d.kind == bot && seat != d.human:
			return d.waitFor("the bot's move", func() bool { return len(d.model.moves) > before || d.model.status == "finished" })
		}
		if d.seatStatus() != "playing" {
			return d.waitFor("the room to start", func() bool { return d.seatStatus() == "playing" })
		}
		// A pause, so that kills find games at every stage; the clients
		// stay below the rate limit (20 a second): a 2048 player moves
		// about 15 times a second at most.
		if err := d.sleep(time.Duration(20+d.rng.IntN(90)) * time.Millisecond); err != nil {
			return err
		}
		if d.plies >= d.cap {
			d.pending = &step{seat: seat, resign: true}
			d.send(c, map[string]any{"type": "room.resign", "room": d.room})
		} else {
			legal := d.model.st.Legal(seat)
			if len(legal) == 0 {
				return fmt.Errorf("seat %d to move has no legal move", seat)
			}
			d.pending = &step{seat: seat, move: legal[d.rng.IntN(len(legal))]}
			d.send(c, map[string]any{"type": "room.move", "room": d.room, "move": d.pending.move})
		}
	}
	return d.waitFor("the answer to "+d.pending.String(), func() bool { return d.pending == nil })
}

// endGame records a finished game and leaves its room.
func (d *driver) endGame() error {
	if d.model.result != nil && d.model.result.Reason == "resign" {
		d.st.resigned++
	}
	d.done = append(d.done, finished{room: d.room, model: d.model})
	for _, c := range d.clients() {
		d.send(c, map[string]any{"type": "room.leave", "room": d.room})
		c.joinedRoom, c.seat = "", -1
	}
	d.room = ""
	return nil
}

// seatStatus is "playing" when the server's last state shows every seat
// taken, else "waiting".
func (d *driver) seatStatus() string {
	if d.kind == pair && d.players[1].seat < 0 {
		return "waiting"
	}
	return "playing"
}

func (d *driver) send(c *client, v any) {
	if err := c.send(v); err != nil {
		d.h.t.Errorf("%s: send: %v", d.name, err)
	}
}

// sleep waits for dur while handling events.
func (d *driver) sleep(dur time.Duration) error {
	until := time.Now().Add(dur)
	return d.waitFor("", func() bool { return !time.Now().Before(until) })
}

// waitFor handles events until pred holds. It returns errDown when the
// server goes away, and an error when a check fails or nothing comes for
// waitLimit.
func (d *driver) waitFor(what string, pred func() bool) error {
	limit := time.NewTimer(waitLimit)
	defer limit.Stop()
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for {
		if d.down {
			return errDown
		}
		if pred() {
			return nil
		}
		select {
		case ev := <-d.in:
			if err := d.handle(ev); err != nil {
				return err
			}
		case <-tick.C:
		case <-d.h.abort:
			return errors.New("aborted")
		case <-limit.C:
			return fmt.Errorf("waited %v for %s", waitLimit, what)
		}
	}
}

// handle takes one event.
func (d *driver) handle(ev event) error {
	c := ev.c
	if ev.m == nil {
		if ev.epoch < d.epoch {
			return nil // an old connection's end, already known
		}
		if int64(ev.epoch) > d.h.killed.Load() {
			return fmt.Errorf("%s's connection ended with no kill: %v", c.name, ev.err)
		}
		d.down = true
		return nil
	}
	m := ev.m
	switch m.Type {
	case "welcome":
		if ev.epoch != d.epoch {
			return nil
		}
		var rooms []string
		if err := json.Unmarshal(m.Rooms, &rooms); err != nil {
			return fmt.Errorf("welcome rooms %s: %w", m.Rooms, err)
		}
		if c.playerID != "" && m.Player.ID != c.playerID {
			return fmt.Errorf("%s came back with its token as player %s, was %s", c.name, m.Player.ID, c.playerID)
		}
		c.token, c.playerID, c.welcome, c.welcomed = m.Token, m.Player.ID, rooms, ev.epoch
	case "room.joined":
		if d.creating && c == d.players[0] && !d.known[m.Room] {
			d.adopt(m.Room)
		}
		if m.Room != d.room || m.Room == "" {
			return nil
		}
		if c.spectator != (m.Role == "spectator") {
			return fmt.Errorf("%s joined %s as %s", c.name, m.Room, m.Role)
		}
		if m.Seat != nil {
			if c.seat >= 0 && c.seat != *m.Seat {
				return fmt.Errorf("%s moved from seat %d to %d", c.name, c.seat, *m.Seat)
			}
			c.seat = *m.Seat
		}
		c.joined = ev.epoch
	case "room.state":
		if m.Room != d.room || m.Room == "" {
			return nil
		}
		return d.onState(ev)
	case "error":
		return fmt.Errorf("%s got an error: %s", c.name, m.Raw)
	}
	return nil
}

// adopt makes room the current game's room.
func (d *driver) adopt(room string) {
	d.room, d.creating = room, false
	d.known[room] = true
	d.players[0].joinedRoom = room
	if d.kind == bot {
		d.players[0].seat = d.human
	}
}

// onState takes a room.state of the current room: it checks it against the
// model and moves the model on when the state shows a change of the game.
func (d *driver) onState(ev event) error {
	c, s := ev.c, ev.m
	if ev.epoch == c.epoch {
		if s.Seq < c.lastSeq {
			return fmt.Errorf("%s saw seq %d after %d on one connection", c.name, s.Seq, c.lastSeq)
		}
		c.lastSeq = s.Seq
		c.stated = ev.epoch
	}
	if d.kind == pair && c == d.players[0] && d.players[1].seat < 0 && len(s.Players) == 2 && s.Players[1].ID != "" {
		// the second seat is taken; its own room.joined may come later
		if s.Players[1].ID != d.players[1].playerID {
			return fmt.Errorf("seat 1 taken by %s, not by %s", s.Players[1].ID, d.players[1].playerID)
		}
	}
	if ev.epoch != d.mEpoch {
		if ev.epoch < d.mEpoch {
			return nil // a state of an earlier run, read late: already superseded
		}
		d.mEpoch, d.mLastSeq, d.views, d.checkRun = ev.epoch, 0, map[int64][]byte{}, true
	}
	seatStatus := "playing"
	if s.Status == "waiting" || len(s.Players) == 2 && (s.Players[1].ID == "" && s.Players[1].Bot == "" || s.Players[0].ID == "" && s.Players[0].Bot == "") {
		seatStatus = "waiting"
	}
	want, err := d.model.expected(seatStatus)
	if err != nil {
		return err
	}
	got, err := serverView(s.Raw, want.keys)
	if err != nil {
		return err
	}
	if n := len(d.model.moves); n > 0 && got == want.text {
		// The same position at a lower seq: the move's own broadcast,
		// read after a later state of another client.
		if lm := &d.model.moves[n-1]; lm.Seen && lm.Run == ev.epoch && s.Seq < lm.Seq {
			lm.Seq = s.Seq
		}
	}
	if raw, ok := d.views[s.Seq]; ok {
		v, err := serverView(raw, want.keys)
		if err != nil {
			return err
		}
		if v != got {
			return fmt.Errorf("clients diverge at seq %d:\n%s\n%s", s.Seq, v, got)
		}
		return nil
	}
	if s.Seq < d.mLastSeq {
		return nil // a late copy of an older state, seen by no one else
	}
	d.views[s.Seq] = s.Raw
	d.mLastSeq = s.Seq
	first := d.checkRun
	d.checkRun = false
	before := len(d.model.moves)
	if first && ev.epoch > 0 {
		// A restored room's seq is its snapshot's, at least the seq every
		// saved move was saved with. (A move first seen after a restart
		// has no known save seq.)
		for _, mv := range d.model.moves {
			if mv.Seen && s.Seq < mv.Seq {
				return fmt.Errorf("restarted at seq %d, below the seq %d of acknowledged move %s", s.Seq, mv.Seq, mv.Move)
			}
		}
	}
	if got != want.text {
		if err := d.advance(s, got, seatStatus, first && ev.epoch > 0); err != nil {
			return err
		}
	} else if first && ev.epoch > 0 && d.pending != nil {
		d.st.lost++ // sent before the kill, never saved: the player plays again
		d.pending = nil
	}
	if err := d.checkHistory(s.Raw); err != nil {
		return err
	}
	if first && ev.epoch > 0 {
		n := before
		d.st.restartChecks++
		d.st.checked += n
		d.h.checked.Add(int64(n))
		if n > d.st.verifiedUpTo {
			d.st.verified += n - d.st.verifiedUpTo
			d.st.verifiedUpTo = n
		}
	}
	return nil
}

// advance finds the change that leads from the model to the server's view
// got: the state's last move, or the move this driver sent and the last
// move (a move saved just before a kill, then a bot's answer), or the
// resignation it sent. Anything else is a lost or doubled move.
func (d *driver) advance(s *msg, got, seatStatus string, afterRestart bool) error {
	var cands [][]step
	if d.pending != nil && d.pending.resign && s.Status == "finished" {
		cands = append(cands, []step{*d.pending})
	}
	if s.LastMove != nil {
		last := step{seat: s.LastMove.Seat, move: s.LastMove.Move}
		cands = append(cands, []step{last})
		if d.pending != nil && !d.pending.resign && *d.pending != last {
			cands = append(cands, []step{*d.pending, last})
		}
	}
	var tried []string
	for _, steps := range cands {
		n, err := d.model.after(steps)
		if err != nil {
			tried = append(tried, err.Error())
			continue
		}
		want, err := n.expected(seatStatus)
		if err != nil {
			return err
		}
		g2, err := serverView(s.Raw, want.keys)
		if err != nil {
			return err
		}
		if g2 != want.text {
			tried = append(tried, fmt.Sprintf("%v gives %s", steps, want.text))
			continue
		}
		// Found: the new moves were acknowledged by this state.
		added := n.moves[len(d.model.moves):]
		for i := range added {
			added[i].Seq, added[i].Run = s.Seq, d.mEpoch
			added[i].Seen = !afterRestart
		}
		if afterRestart {
			d.st.recovered += len(added)
			d.h.recovered.Add(int64(len(added)))
		} else {
			d.st.acked += len(added)
			d.h.acked.Add(int64(len(added)))
		}
		d.plies += len(added)
		landed := false
		if d.pending != nil {
			for _, st := range steps {
				landed = landed || st == *d.pending
			}
			if !landed && afterRestart {
				d.st.lost++
			}
			if landed && afterRestart {
				d.st.landed++
			}
			if landed || afterRestart {
				d.pending = nil
			}
		}
		d.model = n
		return nil
	}
	return fmt.Errorf("state seq %d does not follow from the %d acknowledged moves (a move lost or applied twice?)\nserver: %s\nmodel:  %s\ntried: %s",
		s.Seq, len(d.model.moves), got, d.mustView(seatStatus), strings.Join(tried, "; "))
}

// checkHistory compares the room.state's move history ("moves", a list of
// {"seat","move"} from the start of the game, an addition of the clocks
// issue), when the server sends one, with the moves the model replayed.
func (d *driver) checkHistory(raw []byte) error {
	var h struct {
		Moves *[]struct {
			Seat int    `json:"seat"`
			Move string `json:"move"`
		} `json:"moves"`
	}
	if err := json.Unmarshal(raw, &h); err != nil || h.Moves == nil {
		return nil // no history in this server's states (or another form of it)
	}
	got := *h.Moves
	ok := len(got) == len(d.model.moves)
	for i := 0; ok && i < len(got); i++ {
		ok = got[i].Seat == d.model.moves[i].Seat && got[i].Move == d.model.moves[i].Move
	}
	if !ok {
		want := make([]string, len(d.model.moves))
		for i, m := range d.model.moves {
			want[i] = fmt.Sprintf("%d:%s", m.Seat, m.Move)
		}
		return fmt.Errorf("the state's move history %+v is not the moves replayed %v", got, want)
	}
	return nil
}

func (d *driver) mustView(seatStatus string) string {
	v, err := d.model.expected(seatStatus)
	if err != nil {
		return err.Error()
	}
	return v.text
}

// recover waits for the server to be back, reconnects every client with
// its token, joins the current room again and checks the room against the
// model (onState does, on the first state of the new run). A kill during
// the recovery starts it again.
func (d *driver) recover() error {
	for {
		err := d.recoverOnce()
		if !errors.Is(err, errDown) {
			return err
		}
	}
}

func (d *driver) recoverOnce() error {
	// Take what the old connections still hold: states sent before the
	// kill are acknowledgements too.
	for _, c := range d.clients() {
		for c.readerQ != nil {
			select {
			case ev := <-d.in:
				if err := d.handle(ev); err != nil {
					return err
				}
			case <-c.readerQ:
				c.readerQ = nil
			}
		}
	}
	for d.readerEvents() > 0 {
		if err := d.handle(<-d.in); err != nil {
			return err
		}
	}
	epoch, err := d.h.waitRun(d.epoch + 1)
	if err != nil {
		return err
	}
	d.epoch, d.down = epoch, false
	for _, c := range d.clients() {
		c.welcomed = -1
	}
	if err := d.connect(); err != nil {
		return err
	}
	if d.creating && d.room == "" {
		// The create may have been saved without its answer reaching us:
		// the creator's welcome lists the room then.
		var fresh []string
		for _, r := range d.players[0].welcome {
			if !d.known[r] {
				fresh = append(fresh, r)
			}
		}
		switch len(fresh) {
		case 0:
			d.creating = false
			d.h.games.Add(-1)
			d.st.games--
			d.gameNo--
		case 1:
			d.adopt(fresh[0])
		default:
			return fmt.Errorf("welcome lists %d unknown rooms %v", len(fresh), fresh)
		}
	}
	if d.room == "" {
		return d.h.ready(d)
	}
	// Seats held before the kill; the welcome must list the room if it
	// is still unfinished once the restarted server's state is checked.
	var seated []*client
	for _, c := range d.players {
		if c.seat >= 0 {
			seated = append(seated, c)
		}
	}
	var rejoined []*client
	for _, c := range d.clients() {
		if c.joinedRoom != d.room {
			continue
		}
		as := "player"
		if c.spectator {
			as = "spectator"
		}
		d.send(c, map[string]any{"type": "room.join", "room": d.room, "as": as})
		rejoined = append(rejoined, c)
	}
	if err := d.waitFor("the states after the restart", func() bool {
		for _, c := range rejoined {
			if c.joined != d.epoch || c.stated != d.epoch {
				return false
			}
		}
		return true
	}); err != nil {
		return err
	}
	if d.checkRun || d.mEpoch != d.epoch {
		return fmt.Errorf("no state of the restarted room was checked")
	}
	for _, c := range seated {
		if d.model.status != "finished" && !slices.Contains(c.welcome, d.room) {
			return fmt.Errorf("%s holds seat %d of unfinished room %s, its welcome lists %v", c.name, c.seat, d.room, c.welcome)
		}
	}
	return d.h.ready(d)
}

// readerEvents is the number of events waiting.
func (d *driver) readerEvents() int { return len(d.in) }
