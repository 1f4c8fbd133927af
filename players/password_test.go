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
	h := NewHasher(2, 8, cheap)
	defer h.Close()
	ctx := context.Background()
	enc, err := h.Hash(ctx, "s3cret pass")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(enc, "$argon2id$v=19$m=64,t=1,p=1$") || strings.Contains(enc, "s3cret") {
		t.Fatalf("hash %q", enc)
	}
	again, _ := h.Hash(ctx, "s3cret pass")
	if again == enc {
		t.Fatal("two hashes of one password are equal: no salt")
	}
	for _, tc := range []struct {
		pw   string
		want bool
	}{{"s3cret pass", true}, {"s3cret pasS", false}, {"", false}} {
		if ok, err := h.Verify(ctx, tc.pw, enc); err != nil || ok != tc.want {
			t.Errorf("Verify(%q) = %v, %v; want %v", tc.pw, ok, err, tc.want)
		}
	}
	// No account: the decoy is checked and the answer is no, whatever
	// the password (the decoy's own included).
	for _, pw := range []string{"", "anything"} {
		if ok, err := h.Verify(ctx, pw, ""); err != nil || ok {
			t.Errorf("Verify(%q, no hash) = %v, %v; want false", pw, ok, err)
		}
	}
	// Parameters are read from the hash: an OWASP hash checks on a
	// cheap hasher.
	owasp := hash("pw", HashParams{Memory: 128, Time: 2, Threads: 2})
	if ok, err := h.Verify(ctx, "pw", owasp); err != nil || !ok {
		t.Errorf("Verify of a hash with other parameters = %v, %v", ok, err)
	}
	if _, err := h.Verify(ctx, "pw", "$argon2id$v=19$m=9999999,t=1,p=1$c2FsdHNhbHQ$a2V5a2V5a2V5a2V5a2V5aw"); err == nil {
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
		_, err := h.Hash(ctx, "one")
		first <- err
	}()
	for len(h.jobs) == 0 { // the first request is on its way into the queue
		time.Sleep(time.Millisecond)
	}
	if _, err := h.Hash(context.Background(), "two"); !errors.Is(err, ErrBusy) {
		t.Fatalf("a request past the queue: %v, want ErrBusy", err)
	}
	cancel()
	if err := <-first; !errors.Is(err, context.Canceled) {
		t.Fatalf("the queued request whose caller left: %v", err)
	}
	h.Close()
	if _, err := h.Hash(context.Background(), "three"); err == nil {
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
