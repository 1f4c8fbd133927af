package players

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/crypto/argon2"
)

// HashParams are argon2id's costs.
type HashParams struct {
	// Memory in KiB, Time the passes over it, Threads the lanes.
	Memory  uint32
	Time    uint32
	Threads uint8
}

// OWASP are the parameters the OWASP Password Storage Cheat Sheet gives as
// argon2id's minimum: 19 MiB, 2 passes, 1 lane. A hash takes tens of
// milliseconds of one core and 19 MiB while it runs.
var OWASP = HashParams{Memory: 19 * 1024, Time: 2, Threads: 1}

// Bounds of the parameters a stored hash may name (so that a hash read
// back never asks for more than a server would spend).
const (
	maxMemory  = 1 << 20 // 1 GiB
	maxTime    = 16
	maxThreads = 16
	saltLen    = 16
	keyLen     = 32
)

// ErrBusy: the hasher's queue is full; the caller answers "try again".
var ErrBusy = errors.New("password hashing busy")

// ErrTooManyAtOnce: the caller's key (a client address) holds its share of
// the hasher's places already; the others' requests are still taken.
var ErrTooManyAtOnce = errors.New("too many passwords of one address hashed at once")

// errClosed: the hasher was closed.
var errClosed = errors.New("password hasher closed")

// Hasher hashes and checks passwords with argon2id on a bounded pool of its
// own: Workers goroutines (each one hash at a time, so at most Workers
// times the parameters' memory) and a queue of Queue requests, past which
// a request is refused at once (ErrBusy) rather than waited for. A flood
// of sign-ins then costs at most Workers cores, whatever its size, and the
// rooms keep the others (-password-workers, docs/configuration.md).
//
// The places are shared between the callers' keys (their client
// addresses): one key holds at most PerKey of them, queued or being
// hashed, and a request past its key's share is refused at once
// (ErrTooManyAtOnce), so that one address's flood cannot fill the queue
// and starve everyone else's sign-ins.
//
// Its goroutines are started by NewHasher and end at Close. Lock: mu
// guards held alone, never across a channel operation.
type Hasher struct {
	params HashParams
	jobs   chan *hashJob
	quit   chan struct{}
	wg     sync.WaitGroup
	once   sync.Once
	perKey int
	mu     sync.Mutex
	// held counts each key's places, from the request's queueing to the
	// end of its work (a request whose caller left holds its place until
	// a worker drops it); a key at zero is deleted, so it holds at most
	// the queue's and the workers' keys.
	held map[string]int
	// decoy is a hash of nothing, checked in place of an account that does
	// not exist, so that a wrong name costs what a wrong password does; a
	// worker makes it the first time it is needed.
	decoyOnce sync.Once
	decoy     string
}

// hashJob is one request: hash password (encoded empty) or check it
// against encoded.
type hashJob struct {
	ctx      context.Context
	key      string
	password string
	encoded  string
	verify   bool
	done     chan hashResult // buffered: the worker never waits
}

type hashResult struct {
	encoded string
	ok      bool
	err     error
}

// DefaultHashPerKey is the places of the hasher one key (a client
// address) may hold at once.
const DefaultHashPerKey = 2

// NewHasher starts a hasher of workers goroutines and a queue of queue
// requests, perKey of which (queued or being hashed) one key may hold (at
// least 1 each).
func NewHasher(workers, queue, perKey int, p HashParams) *Hasher {
	workers, queue = max(workers, 1), max(queue, 1)
	h := &Hasher{params: p, jobs: make(chan *hashJob, queue), quit: make(chan struct{}),
		perKey: max(perKey, 1), held: map[string]int{}}
	h.wg.Add(workers)
	for range workers {
		go h.work()
	}
	return h
}

// Close stops the workers, once they finish the hash under way; requests
// still queued are answered with an error.
func (h *Hasher) Close() {
	h.once.Do(func() { close(h.quit) })
	h.wg.Wait()
}

func (h *Hasher) work() {
	defer h.wg.Done()
	for {
		select {
		case <-h.quit:
			return
		case j := <-h.jobs:
			r := h.do(j)
			h.release(j.key) // before the answer: the caller's next request finds its place
			j.done <- r
		}
	}
}

// do works out one job's answer.
func (h *Hasher) do(j *hashJob) hashResult {
	if err := j.ctx.Err(); err != nil {
		return hashResult{err: err} // its caller left: nothing to do
	}
	if !j.verify {
		return hashResult{encoded: hash(j.password, h.params)}
	}
	encoded := j.encoded
	if encoded == "" { // no such account: the decoy, made here once
		h.decoyOnce.Do(func() { h.decoy = hash("", h.params) })
		encoded = h.decoy
	}
	ok, err := verify(j.password, encoded)
	return hashResult{ok: ok && j.encoded != "", err: err}
}

// hold takes one of key's places, false when it holds its share.
func (h *Hasher) hold(key string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.held == nil { // a Hasher made without NewHasher (tests)
		h.held = map[string]int{}
	}
	if h.perKey > 0 && h.held[key] >= h.perKey {
		return false
	}
	h.held[key]++
	return true
}

// release gives back one of key's places.
func (h *Hasher) release(key string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.held[key]--; h.held[key] <= 0 {
		delete(h.held, key)
	}
}

// run queues j and waits for its answer, ctx's end or the close.
func (h *Hasher) run(j *hashJob) (hashResult, error) {
	j.done = make(chan hashResult, 1)
	select {
	case <-h.quit:
		return hashResult{}, errClosed
	default:
	}
	if !h.hold(j.key) {
		return hashResult{}, ErrTooManyAtOnce
	}
	select {
	case h.jobs <- j:
	default:
		h.release(j.key)
		return hashResult{}, ErrBusy
	}
	select {
	case r := <-j.done:
		return r, r.err
	case <-j.ctx.Done():
		return hashResult{}, j.ctx.Err()
	case <-h.quit:
		return hashResult{}, errClosed
	}
}

// Hash returns password's argon2id hash in the PHC string format
// ($argon2id$v=19$m=...,t=...,p=...$salt$key, base64 without padding),
// on one of key's places.
func (h *Hasher) Hash(ctx context.Context, key, password string) (string, error) {
	r, err := h.run(&hashJob{ctx: ctx, key: key, password: password})
	if err != nil {
		return "", fmt.Errorf("hash password: %w", err)
	}
	return r.encoded, nil
}

// Verify reports whether password is the one encoded hashes, with the
// parameters encoded names. An empty encoded (no such account) is checked
// against a decoy hash, so that it takes as long, and is false. It takes
// one of key's places, as Hash.
func (h *Hasher) Verify(ctx context.Context, key, password, encoded string) (bool, error) {
	r, err := h.run(&hashJob{ctx: ctx, key: key, password: password, encoded: encoded, verify: true})
	if err != nil {
		return false, fmt.Errorf("verify password: %w", err)
	}
	return r.ok, nil
}

// hash is argon2id with a new random salt.
func hash(password string, p HashParams) string {
	salt := make([]byte, saltLen)
	_, _ = rand.Read(salt)
	key := argon2.IDKey([]byte(password), salt, p.Time, p.Memory, p.Threads, keyLen)
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, p.Memory, p.Time, p.Threads,
		b64.EncodeToString(salt), b64.EncodeToString(key))
}

// verify checks password against a PHC argon2id string, in constant time
// for the comparison.
func verify(password, encoded string) (bool, error) {
	p, salt, key, err := parseHash(encoded)
	if err != nil {
		return false, err
	}
	got := argon2.IDKey([]byte(password), salt, p.Time, p.Memory, p.Threads, uint32(len(key)))
	return subtle.ConstantTimeCompare(got, key) == 1, nil
}

// parseHash reads a PHC argon2id string. Its errors never quote it.
func parseHash(encoded string) (HashParams, []byte, []byte, error) {
	bad := errors.New("malformed password hash")
	f := strings.Split(encoded, "$")
	if len(f) != 6 || f[0] != "" || f[1] != "argon2id" || f[2] != "v="+strconv.Itoa(argon2.Version) {
		return HashParams{}, nil, nil, bad
	}
	var p HashParams
	for _, kv := range strings.Split(f[3], ",") {
		k, v, _ := strings.Cut(kv, "=")
		n, err := strconv.ParseUint(v, 10, 32)
		if err != nil {
			return HashParams{}, nil, nil, bad
		}
		switch k {
		case "m":
			p.Memory = uint32(n)
		case "t":
			p.Time = uint32(n)
		case "p":
			if n > maxThreads {
				return HashParams{}, nil, nil, bad
			}
			p.Threads = uint8(n)
		default:
			return HashParams{}, nil, nil, bad
		}
	}
	if p.Memory < 8*uint32(p.Threads) || p.Memory > maxMemory || p.Time < 1 || p.Time > maxTime || p.Threads < 1 {
		return HashParams{}, nil, nil, bad
	}
	salt, err1 := base64.RawStdEncoding.DecodeString(f[4])
	key, err2 := base64.RawStdEncoding.DecodeString(f[5])
	if err1 != nil || err2 != nil || len(salt) < 8 || len(key) < 16 || len(key) > 64 {
		return HashParams{}, nil, nil, bad
	}
	return p, salt, key, nil
}
