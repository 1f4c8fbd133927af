// The Room type and its fields. A room's code is split by concern:
// commands.go (the exported commands and the goroutine's loop), seats.go
// (seats and members), play.go (moves, resignation, chat, rematch),
// persistence.go (saves and rollback), bots.go (bot turns), views.go
// (room.state, frames, broadcast), clock.go, abandon.go, rules.go (abort,
// draw offers, takebacks), lease.go, patch.go and snapshot.go.

package rooms

import (
	"time"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/players"
	"github.com/tabuleiro/tabuleiro/protocol"
)

// Room statuses.
const (
	StatusWaiting  = "waiting"
	StatusPlaying  = "playing"
	StatusFinished = "finished"
)

// Roles of a member: room.join's "as" (protocol's roles).
const (
	RolePlayer    = protocol.RolePlayer
	RoleSpectator = protocol.RoleSpectator
)

// ChatLimit is the longest chat line, in runes.
const ChatLimit = 500

// Room is one game room. Its fields belong to its goroutine; the exported
// methods only post commands to it.
type Room struct {
	m    *Manager
	log  *zap.Logger
	id   string
	game engine.Game
	info engine.Info

	variant string
	// opts are the game's rule options (go's komi, handicap and stone
	// removal), the zero Options for the seed's rules.
	opts  engine.Options
	state engine.State
	// persist saves the room and takes back a change whose save failed
	// (persistence.go).
	persist persistence

	seats   []players.Player
	members map[uint64]*member
	// spectating counts the members with the spectator role and
	// memberOf the members of each player id, so that a room.state does not
	// walk every member (see addMember, removeMember).
	spectating int
	memberOf   map[string]int
	status     string
	// told is the status OnGame was last told of (gamehook.go).
	told     string
	seq      int64
	result   *protocol.Result
	lastMove *protocol.LastMove
	created  time.Time
	updated  time.Time
	private  bool
	watch    bool
	seed     uint64
	// rated marks a rated game (rated.go); ratingChanges are its seats'
	// changes once the rater applied them (room.state "ratingChanges").
	rated         bool
	ratingChanges []protocol.RatingChange

	moves     int64
	seatMoves []int64
	history   []protocol.LastMove // every move since the start (room.state "moves")
	rec       gameRecord          // setup, times, move times and chat, for the record (record.go)
	chatState chatState           // chat limits, mutes and the spectators' switch (chat.go)
	// botPending is set for a bot seat from the moment its turn is asked
	// for until the room took the answer, so a seat has at most one job
	// in the pool. botAnswers is the room's mailbox for the answers, a
	// slot per seat: the pool's Done never waits on the room goroutine.
	botPending []bool
	botAnswers chan botAnswer
	rematch    []int
	next       string

	clock     *clock
	flagTimer wakeup
	// live is set when the goroutine starts: no timer is set before, so a
	// room that never starts leaves none behind.
	live bool

	// offers are the standing draw offer and takeback request, and
	// abortTimer the deadline of a first move (rules.go). judging is set
	// while a bot works out its answer to a draw offer, which comes back
	// through drawAnswers.
	offers      offers
	abortTimer  wakeup
	judging     bool
	drawAnswers chan drawAnswer
	// score is go's stone-removal phase (scoring.go).
	score scoring

	// goneSince is, per human seat, since when it has had no connection
	// (zero while connected); see abandon.go.
	goneSince []time.Time
	idleTimer wakeup
	adjourned bool
	// awayTimer fires at awayAt, when the game becomes adjourned for the
	// lobby (abandon.go, armAway).
	awayTimer wakeup
	awayAt    time.Time

	cmds   chan func()
	done   chan struct{}
	timers map[*time.Timer]struct{}

	// patcher diffs the states sent to patch members; pres is what the
	// members were last told of the spectators and connections
	// (presence.go).
	patcher protocol.Patcher
	pres    presence

	// epoch is the room's lease epoch on this node (0: single node); every
	// save carries it. fenced is set when another node took the room over:
	// the room stops without writing anything more.
	epoch  int64
	fenced bool
	// broken is set when a change could not be taken back (see
	// persistence.rollback): the room closes, and the store's last save is
	// what a later join restores.
	broken bool
}

// ID is the room id.
func (r *Room) ID() string { return r.id }
