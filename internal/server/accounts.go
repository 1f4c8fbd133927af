package server

import (
	"runtime"
	"time"

	"github.com/tabuleiro/tabuleiro/players"
)

// AccountsConfig bounds accounts and sessions. Zero values take the
// defaults.
type AccountsConfig struct {
	// Hash are argon2id's costs (default players.OWASP).
	Hash players.HashParams
	// HashWorkers is how many passwords are hashed at once, each on a
	// core of its own (default a quarter of the CPUs, at least one), and
	// HashQueue how many more may wait (default 32): past it a sign-in is
	// answered 503 busy at once. A flood of sign-ins costs at most
	// HashWorkers cores, so the rooms keep the others.
	HashWorkers, HashQueue int
	// SessionTTL is how long a session lasts unused (default
	// players.DefaultSessionTTL); NameHold how long a closed account's
	// name stays taken (default players.DefaultNameHold).
	SessionTTL, NameHold time.Duration
	// MaxFailures failed sign-ins in FailureWindow refuse the next ones
	// (429) from the address, and to the account from a browser that
	// never signed in to it (defaults 10 and 15 minutes).
	MaxFailures   int
	FailureWindow time.Duration
	// HashPerAddr is how many of the hasher's places (queued or being
	// hashed) one client address may hold (default
	// players.DefaultHashPerKey): past it 429 at once, the others still
	// served.
	HashPerAddr int
	// SignInsPerAddr and SignInsPerAccount bound the sign-ins a minute
	// from one address and to one account (defaults
	// players.DefaultSignInsPerAddr and DefaultSignInsPerAccount): past
	// them 429, the password not hashed.
	SignInsPerAddr, SignInsPerAccount int
	// SessionsPerPlayer bounds each player's live sessions (default
	// players.DefaultMaxSessions): a sign-in past it ends the least
	// recently used one.
	SessionsPerPlayer int
}

// DefaultHashQueue is AccountsConfig.HashQueue's default.
const DefaultHashQueue = 32

func (c *AccountsConfig) defaults() {
	if c.Hash == (players.HashParams{}) {
		c.Hash = players.OWASP
	}
	if c.HashWorkers <= 0 {
		c.HashWorkers = max(1, runtime.NumCPU()/4)
	}
	if c.HashQueue <= 0 {
		c.HashQueue = DefaultHashQueue
	}
	if c.HashPerAddr <= 0 {
		c.HashPerAddr = players.DefaultHashPerKey
	}
}
