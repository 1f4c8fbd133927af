package server_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/tabuleiro/tabuleiro/internal/server"
	"github.com/tabuleiro/tabuleiro/internal/testkit/fakeclock"
	"github.com/tabuleiro/tabuleiro/internal/testkit/testserver"
	"github.com/tabuleiro/tabuleiro/store"
	"github.com/tabuleiro/tabuleiro/store/memstore"
	"github.com/tabuleiro/tabuleiro/store/redisstore"
)

// waitRecord waits until the records store has the room's record (it is
// written on the room goroutine once the end is broadcast).
func waitRecord(t *testing.T, rs store.Records, room string) []byte {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		data, err := rs.Record(context.Background(), room)
		if err == nil {
			return data
		}
		if !errors.Is(err, store.ErrNotFound) {
			t.Fatal(err)
		}
		if time.Now().After(deadline) {
			t.Fatalf("no record of room %s in the records store", room)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// playMorrisToResign plays a short morris game that ana resigns.
func playMorrisToResign(t *testing.T, s *testserver.Server, now *fakeclock.Clock) *wsGame {
	t.Helper()
	m := startGame(t, s, now, map[string]any{"game": "morris", "variant": "3"})
	for _, mv := range []string{"a1", "b2", "c3", "a3"} {
		m.move(mv, 700*time.Millisecond)
	}
	m.players[0].Send(map[string]any{"type": "room.resign", "room": m.room})
	m.finished()
	return m
}

// TestRecordOutlivesItsRoom: a finished game's record is written to the
// records store and is still served once the finished room expired from
// the room store; it expires after its own retention (a fake clock: a
// year).
func TestRecordOutlivesItsRoom(t *testing.T) {
	t.Parallel()
	now := fakeclock.New()
	recs := memstore.NewRecords(memstore.WithRecordsClock(now.Now))
	s := testserver.Start(t, func(c *server.Config) {
		c.Store, c.Now = memstore.New(memstore.WithRetention(300*time.Millisecond), memstore.WithRecords(recs)), now.Now
	})
	m := playMorrisToResign(t, s, now)
	waitRecord(t, recs, m.room)
	want := getRecord(t, s, m.room, false)
	deadline := time.Now().Add(20 * time.Second)
	for {
		_, err := s.Store.LoadRoom(context.Background(), m.room)
		if errors.Is(err, store.ErrNotFound) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the finished room did not expire: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	got := getRecord(t, s, m.room, false)
	if got.Status != "finished" || got.Result == nil || got.Result.Reason != "resign" || len(got.Moves) != 4 ||
		len(got.Moves) != len(want.Moves) || got.Moves[3] != want.Moves[3] || len(got.Chat) != 2 {
		t.Fatalf("record after the room expired: %+v\nbefore: %+v", got, want)
	}
	now.Advance(364 * 24 * time.Hour)
	if a := get(t, s.URL+"/api/records/"+m.room+"/txt"); a.status != 200 {
		t.Fatalf("txt after 364 days: %d %s", a.status, a.body)
	}
	now.Advance(2 * 24 * time.Hour)
	if a := get(t, s.URL+"/api/records/"+m.room); a.status != 404 {
		t.Fatalf("record after 366 days: %d %s, want 404", a.status, a.body)
	}
}

// TestRecordsStoreSurvivesRestart: on Redis, a finished game's record is
// read by a new server after the first stopped and the room's keys are
// gone (as after the room's retention); a record whose write was lost is
// written again from the finished room when asked for.
func TestRecordsStoreSurvivesRestart(t *testing.T) {
	t.Parallel()
	rs, prefix, open := redisOpener(t)
	now := fakeclock.New()
	openBoth := func(c *server.Config) {
		c.Store, c.Now = open(), now.Now
	}
	s1 := testserver.Start(t, openBoth)
	recs1 := s1.Store.(*redisstore.Store).Records()
	m := playMorrisToResign(t, s1, now)
	m2 := playMorrisToResign(t, s1, now)
	waitRecord(t, recs1, m.room)
	waitRecord(t, recs1, m2.room)
	before := get(t, s1.URL+"/api/records/"+m.room)
	if before.status != 200 {
		t.Fatalf("GET: %d %s", before.status, before.body)
	}
	s1.Stop()

	rc := redis.NewClient(&redis.Options{Addr: rs.Addr()})
	defer rc.Close()
	ctx := context.Background()
	st := open()
	defer st.Close()
	rst := st.(*redisstore.Store)
	if err := rc.Del(ctx, rst.RoomKey(m.room), rst.LogKey(m.room), rst.RecordKey(m2.room)).Err(); err != nil {
		t.Fatal(err)
	}
	_ = prefix

	s2 := testserver.Start(t, openBoth)
	if got := get(t, s2.URL+"/api/records/"+m.room); got.status != 200 || string(got.body) != string(before.body) {
		t.Fatalf("GET after the restart, the room gone: %d\n%s\nbefore:\n%s", got.status, got.body, before.body)
	}
	// m2's record was lost, its room is there: the read writes it again.
	if got := get(t, s2.URL+"/api/records/"+m2.room); got.status != 200 {
		t.Fatalf("GET %s: %d %s", m2.room, got.status, got.body)
	}
	waitRecord(t, rst.Records(), m2.room)
}
