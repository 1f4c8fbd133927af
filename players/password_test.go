package players

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// cheap are argon2id parameters a test can afford many times.
var cheap = HashParams{Memory: 64, Time: 1, Threads: 1}

func TestHashAndVerify(t *testing.T) {
	h := NewHasher(2, 8, 8, cheap)
	defer h.Close()
	ctx := context.Background()
	enc, err := h.Hash(ctx, "a", "s3cret pass")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(enc, "$argon2id$v=19$m=64,t=1,p=1$") || strings.Contains(enc, "s3cret") {
		t.Fatalf("hash %q", enc)
	}
	again, _ := h.Hash(ctx, "a", "s3cret pass")
	if again == enc {
		t.Fatal("two hashes of one password are equal: no salt")
	}
	for _, tc := range []struct {
		pw   string
		want bool
	}{{"s3cret pass", true}, {"s3cret pasS", false}, {"", false}} {
		if ok, err := h.Verify(ctx, "a", tc.pw, enc); err != nil || ok != tc.want {
			t.Errorf("Verify(%q) = %v, %v; want %v", tc.pw, ok, err, tc.want)
		}
	}
	// No account: the decoy is checked and the answer is no, whatever
	// the password (the decoy's own included).
	for _, pw := range []string{"", "anything"} {
		if ok, err := h.Verify(ctx, "a", pw, ""); err != nil || ok {
			t.Errorf("Verify(%q, no hash) = %v, %v; want false", pw, ok, err)
		}
	}
	// Parameters are read from the hash: an OWASP hash checks on a
	// cheap hasher.
	owasp := hash("pw", HashParams{Memory: 128, Time: 2, Threads: 2})
	if ok, err := h.Verify(ctx, "a", "pw", owasp); err != nil || !ok {
		t.Errorf("Verify of a hash with other parameters = %v, %v", ok, err)
	}
	if _, err := h.Verify(ctx, "a", "pw", "$argon2id$v=19$m=9999999,t=1,p=1$c2FsdHNhbHQ$a2V5a2V5a2V5a2V5a2V5aw"); err == nil {
		t.Error("a hash asking for 10 GB was checked")
	}
}

// TestHasherBusy: with its queue full, a request is refused at once
// (ErrBusy) rather than waited for; a request whose caller left is
// answered with the caller's error.
func TestHasherBusy(t *testing.T) {
	// No workers: what is queued stays queued.
	h := &Hasher{params: cheap, jobs: make(chan *hashJob, 1), quit: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	first := make(chan error, 1)
	go func() {
		_, err := h.Hash(ctx, "a", "one")
		first <- err
	}()
	for len(h.jobs) == 0 { // the first request is on its way into the queue
		time.Sleep(time.Millisecond)
	}
	if _, err := h.Hash(context.Background(), "a", "two"); !errors.Is(err, ErrBusy) {
		t.Fatalf("a request past the queue: %v, want ErrBusy", err)
	}
	cancel()
	if err := <-first; !errors.Is(err, context.Canceled) {
		t.Fatalf("the queued request whose caller left: %v", err)
	}
	h.Close()
	if _, err := h.Hash(context.Background(), "a", "three"); err == nil {
		t.Fatal("a closed hasher hashed")
	}
}

func FuzzParseHash(f *testing.F) {
	f.Add(hash("pw", cheap))
	f.Add("$argon2id$v=19$m=64,t=1,p=1$$")
	f.Add("$argon2i$v=19$m=64,t=1,p=1$c2FsdA$a2V5")
	f.Add("$argon2id$v=19$m=0,t=0,p=0$c2FsdHNhbHQ$a2V5a2V5a2V5a2V5a2V5aw")
	f.Fuzz(func(t *testing.T, s string) {
		p, salt, key, err := parseHash(s)
		if err != nil {
			if len(s) > 8 && strings.Contains(err.Error(), s) {
				t.Fatalf("the error quotes the hash: %v", err)
			}
			return
		}
		if p.Memory < 8*uint32(p.Threads) || p.Memory > maxMemory || p.Time < 1 || p.Time > maxTime ||
			p.Threads < 1 || p.Threads > maxThreads || len(salt) < 8 || len(key) < 16 {
			t.Fatalf("accepted %q: %+v salt %d key %d", s, p, len(salt), len(key))
		}
	})
}

// TestHasherShareOfOneKey: one key (a client address) holds at most its
// share of the places, queued or being hashed; past it its requests are
// refused at once (ErrTooManyAtOnce) while another key's are still
// queued; the places come back when a worker has dropped or done the jobs.
func TestHasherShareOfOneKey(t *testing.T) {
	// No workers yet: what is queued stays queued.
	h := &Hasher{params: cheap, jobs: make(chan *hashJob, 8), quit: make(chan struct{}), perKey: 2}
	ctx, cancel := context.WithCancel(context.Background())
	queued := make(chan error, 3)
	for _, key := range []string{"flood", "flood", "other"} {
		go func() {
			_, err := h.Verify(ctx, key, "pw", "")
			queued <- err
		}()
	}
	for len(h.jobs) < 3 {
		time.Sleep(time.Millisecond)
	}
	if _, err := h.Verify(context.Background(), "flood", "pw", ""); !errors.Is(err, ErrTooManyAtOnce) {
		t.Fatalf("a third request of one key: %v, want ErrTooManyAtOnce", err)
	}
	third := make(chan error, 1)
	go func() {
		_, err := h.Hash(context.Background(), "third", "pw")
		third <- err
	}()
	for len(h.jobs) < 4 {
		time.Sleep(time.Millisecond)
	}
	cancel() // the queued callers leave; their jobs hold their places until a worker drops them
	for range 3 {
		if err := <-queued; !errors.Is(err, context.Canceled) {
			t.Fatalf("a queued request whose caller left: %v", err)
		}
	}
	if _, err := h.Verify(context.Background(), "flood", "pw", ""); !errors.Is(err, ErrTooManyAtOnce) {
		t.Fatalf("a request of the key whose callers left, before a worker dropped their jobs: %v, want ErrTooManyAtOnce", err)
	}
	h.wg.Add(1)
	go h.work()
	if err := <-third; err != nil {
		t.Fatalf("another key's request: %v", err)
	}
	if ok, err := h.Verify(context.Background(), "flood", "pw", ""); err != nil || ok {
		t.Fatalf("the key's request once its places came back: %v, %v", ok, err)
	}
	h.Close()
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.held) != 0 {
		t.Fatalf("places still held after every job: %v", h.held)
	}
}
