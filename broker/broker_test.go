package broker_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"go.uber.org/goleak"

	"github.com/tabuleiro/tabuleiro/broker"
	"github.com/tabuleiro/tabuleiro/internal/testkit/redistest"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// wait bounds how long a test waits for a message that must come.
const wait = 10 * time.Second

// deployment returns a function that makes the brokers of one deployment's
// nodes: they share one transport (one Memory, or one Redis and prefix).
type deployment func(t *testing.T, buffer int) (node func() broker.Broker)

func implementations(t *testing.T) map[string]deployment {
	addr := redistest.Start(t)
	return map[string]deployment{
		"memory": func(t *testing.T, buffer int) func() broker.Broker {
			m := broker.NewMemory(buffer)
			t.Cleanup(func() { m.Close() })
			return func() broker.Broker { return m }
		},
		"redis": func(t *testing.T, buffer int) func() broker.Broker {
			prefix := redistest.Prefix(t, addr)
			return func() broker.Broker {
				c := redis.NewClient(&redis.Options{Addr: addr})
				b := broker.NewRedis(c, prefix, buffer)
				t.Cleanup(func() {
					b.Close()
					c.Close()
				})
				return b
			}
		},
	}
}

func recv(t *testing.T, s *broker.Subscription) string {
	t.Helper()
	select {
	case m, ok := <-s.C():
		if !ok {
			t.Fatalf("subscription to %s closed", s.Channel())
		}
		return string(m)
	case <-time.After(wait):
		t.Fatalf("nothing on %s within %v", s.Channel(), wait)
		return ""
	}
}

func mustSub(t *testing.T, b broker.Broker, ch string) *broker.Subscription {
	t.Helper()
	s, err := b.Subscribe(context.Background(), ch)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

func mustPub(t *testing.T, b broker.Broker, ch, msg string) {
	t.Helper()
	if err := b.Publish(context.Background(), ch, []byte(msg)); err != nil {
		t.Fatal(err)
	}
}

func TestBroker(t *testing.T) {
	for name, deploy := range implementations(t) {
		t.Run(name, func(t *testing.T) {
			t.Run("ChannelsAndOrder", func(t *testing.T) {
				node := deploy(t, 0)
				a, b := node(), node()
				a1, a2, bOnly := mustSub(t, a, "order:x"), mustSub(t, b, "order:x"), mustSub(t, b, "order:y")
				for i := range 100 {
					mustPub(t, a, "order:x", fmt.Sprint(i))
				}
				mustPub(t, b, "order:y", "marker")
				for i := range 100 {
					for _, s := range []*broker.Subscription{a1, a2} {
						if got := recv(t, s); got != fmt.Sprint(i) {
							t.Fatalf("message %d: got %q, want %d (in publish order)", i, got, i)
						}
					}
				}
				// y's subscriber got none of x's messages: its first is the marker.
				if got := recv(t, bOnly); got != "marker" {
					t.Errorf("order:y got %q, want only its own marker", got)
				}
			})
			t.Run("CloseStopsDelivery", func(t *testing.T) {
				a := deploy(t, 0)()
				s1, s2 := mustSub(t, a, "close:x"), mustSub(t, a, "close:x")
				s1.Close()
				s1.Close() // idempotent
				if _, ok := <-s1.C(); ok {
					t.Fatal("a closed subscription's channel is open")
				}
				mustPub(t, a, "close:x", "after")
				if got := recv(t, s2); got != "after" {
					t.Errorf("the other subscription got %q", got)
				}
				s2.Close()
				s3 := mustSub(t, a, "close:x") // the channel again, after its last subscription left
				mustPub(t, a, "close:x", "again")
				if got := recv(t, s3); got != "again" {
					t.Errorf("resubscribed: got %q", got)
				}
			})
			t.Run("SlowSubscriberDrops", func(t *testing.T) {
				const buffer, n = 8, 58
				a := deploy(t, buffer)()
				slow, fast := mustSub(t, a, "slow:x"), mustSub(t, a, "slow:x")
				// Each message reaches the fast subscriber before the next is
				// published: were delivery to wait for the slow one, the fast
				// one would stall at message buffer+1.
				for i := range n {
					mustPub(t, a, "slow:x", fmt.Sprint(i))
					if got := recv(t, fast); got != fmt.Sprint(i) {
						t.Fatalf("fast subscriber's message %d = %q", i, got)
					}
				}
				if d := slow.Dropped(); d != n-buffer {
					t.Errorf("slow subscriber dropped %d, want %d (all but its buffer)", d, n-buffer)
				}
				for i := range buffer {
					if m := recv(t, slow); m != fmt.Sprint(i) {
						t.Fatalf("slow subscriber's message %d = %q: it must keep the oldest", i, m)
					}
				}
			})
		})
	}
}

func TestClosedBroker(t *testing.T) {
	addr := redistest.Start(t)
	c := redis.NewClient(&redis.Options{Addr: addr})
	defer c.Close()
	for name, b := range map[string]broker.Broker{"memory": broker.NewMemory(0), "redis": broker.NewRedis(c, redistest.Prefix(t, addr), 0)} {
		s, err := b.Subscribe(context.Background(), "x")
		if err != nil {
			t.Fatal(err)
		}
		if err := b.Close(); err != nil {
			t.Errorf("%s: Close: %v", name, err)
		}
		if _, ok := <-s.C(); ok {
			t.Errorf("%s: subscription open after the broker closed", name)
		}
		s.Close()
		if _, err := b.Subscribe(context.Background(), "x"); err == nil {
			t.Errorf("%s: Subscribe on a closed broker: no error", name)
		}
	}
}

// After Redis restarts, the broker subscribes again by itself; what was
// published while it was down is lost (at most once), later messages come.
func TestRedisResubscribesAfterRestart(t *testing.T) {
	srv := redistest.StartServer(t)
	c := redis.NewClient(&redis.Options{Addr: srv.Addr(), MaxRetries: -1})
	defer c.Close()
	b := broker.NewRedis(c, "p:", 0)
	defer b.Close()
	s := mustSub(t, b, "room")
	mustPub(t, b, "room", "before")
	if got := recv(t, s); got != "before" {
		t.Fatalf("got %q", got)
	}
	srv.Stop()
	if err := b.Publish(context.Background(), "room", []byte("down")); err == nil {
		t.Error("Publish with Redis down: no error")
	}
	srv.Restart()
	deadline := time.Now().Add(30 * time.Second)
	for i := 0; ; i++ {
		_ = b.Publish(context.Background(), "room", []byte(fmt.Sprint("after ", i)))
		select {
		case m := <-s.C():
			if string(m) == "down" {
				t.Fatal("a message published while Redis was down arrived")
			}
			return
		case <-time.After(200 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatal("no message after Redis restarted: the broker did not subscribe again")
		}
	}
}
