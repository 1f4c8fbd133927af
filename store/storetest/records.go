package storetest

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/store"
)

// RecordsFactory returns a new, empty records store that keeps a record
// for retention after its last write.
type RecordsFactory func(t *testing.T, retention time.Duration) store.Records

// RecordRetention is the retention of the records subtests' stores: the
// expiry subtest waits for it.
const RecordRetention = 400 * time.Millisecond

// RunRecords runs the conformance subtests of store.Records, each on a new
// store, in parallel.
func RunRecords(t *testing.T, newStore RecordsFactory) {
	tests := []struct {
		name string
		fn   func(t *testing.T, s store.Records)
	}{
		{"RoundTrip", testRecordRoundTrip},
		{"RewriteIsIdempotent", testRecordRewrite},
		{"PlayerIndexOrder", testPlayerRecordsOrder},
		{"InvalidInput", testRecordInvalid},
		{"Expire", testRecordExpire},
		{"Analysis", testRecordAnalysis},
		{"PublicIndex", testPublicRecords},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.fn(t, newStore(t, RecordRetention))
		})
	}
}

var recT0 = time.Date(2031, 5, 6, 7, 8, 9, 0, time.UTC)

func mustPut(t *testing.T, s store.Records, e store.RecordEntry) {
	t.Helper()
	if err := s.PutRecord(ctxT(t), e); err != nil {
		t.Fatalf("PutRecord(%s): %v", e.Room, err)
	}
}

func refRooms(refs []store.RecordRef) []string {
	out := make([]string, len(refs))
	for i, r := range refs {
		out[i] = r.Room
	}
	return out
}

func testRecordRoundTrip(t *testing.T, s store.Records) {
	data := []byte{0, 1, 2, 0xff, 'x'}
	mustPut(t, s, store.RecordEntry{Room: "r1", Data: data, Players: []string{"pa", "pb"}, Ended: recT0})
	data[0] = 9 // the store keeps its own copy
	got, err := s.Record(ctxT(t), "r1")
	if err != nil || !bytes.Equal(got, []byte{0, 1, 2, 0xff, 'x'}) {
		t.Fatalf("Record(r1) = %v, %v", got, err)
	}
	if _, err := s.Record(ctxT(t), "nope"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Record(nope) = %v, want ErrNotFound", err)
	}
	for _, p := range []string{"pa", "pb"} {
		refs, err := s.PlayerRecords(ctxT(t), p, time.Time{}, 10)
		if err != nil || len(refs) != 1 || refs[0].Room != "r1" || !refs[0].Ended.Equal(recT0) {
			t.Fatalf("PlayerRecords(%s) = %v, %v", p, refs, err)
		}
	}
	if refs, err := s.PlayerRecords(ctxT(t), "pc", time.Time{}, 10); err != nil || len(refs) != 0 {
		t.Fatalf("PlayerRecords(pc) = %v, %v; want none", refs, err)
	}
}

func testRecordRewrite(t *testing.T, s store.Records) {
	mustPut(t, s, store.RecordEntry{Room: "r", Data: []byte("v1"), Players: []string{"p"}, Ended: recT0})
	mustPut(t, s, store.RecordEntry{Room: "r", Data: []byte("v2"), Players: []string{"p"}, Ended: recT0})
	if got, err := s.Record(ctxT(t), "r"); err != nil || string(got) != "v2" {
		t.Fatalf("Record(r) = %q, %v; want v2", got, err)
	}
	refs, err := s.PlayerRecords(ctxT(t), "p", time.Time{}, 10)
	if err != nil || !slices.Equal(refRooms(refs), []string{"r"}) {
		t.Fatalf("PlayerRecords(p) = %v, %v; want [r] once", refs, err)
	}
}

func testPlayerRecordsOrder(t *testing.T, s store.Records) {
	for i := range 5 {
		mustPut(t, s, store.RecordEntry{Room: fmt.Sprintf("g%d", i), Data: []byte{byte(i)}, Players: []string{"p"},
			Ended: recT0.Add(time.Duration(i) * time.Minute)})
	}
	tests := []struct {
		before time.Time
		limit  int
		want   []string
	}{
		{time.Time{}, 10, []string{"g4", "g3", "g2", "g1", "g0"}},
		{time.Time{}, 2, []string{"g4", "g3"}},
		{recT0.Add(3 * time.Minute), 2, []string{"g2", "g1"}},
		{recT0.Add(3*time.Minute + time.Millisecond), 1, []string{"g3"}},
		{recT0, 10, []string{}},
		{time.Time{}, 0, []string{}},
	}
	for _, tc := range tests {
		refs, err := s.PlayerRecords(ctxT(t), "p", tc.before, tc.limit)
		if err != nil || !slices.Equal(refRooms(refs), tc.want) {
			t.Errorf("PlayerRecords(p, %v, %d) = %v, %v; want %v", tc.before, tc.limit, refRooms(refs), err, tc.want)
		}
	}
}

func testRecordInvalid(t *testing.T, s store.Records) {
	for _, e := range []store.RecordEntry{{Room: "", Data: []byte("x")}, {Room: "r"}} {
		if err := s.PutRecord(ctxT(t), e); err == nil {
			t.Errorf("PutRecord(%+v) accepted", e)
		}
	}
	if _, err := s.Record(ctxT(t), "r"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a refused write left a record: %v", err)
	}
}

func testRecordExpire(t *testing.T, s store.Records) {
	mustPut(t, s, store.RecordEntry{Room: "old", Data: []byte("x"), Players: []string{"p"}, Ended: time.Now()})
	deadline := time.Now().Add(RecordRetention + 10*time.Second)
	for {
		_, err := s.Record(ctxT(t), "old")
		if errors.Is(err, store.ErrNotFound) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if time.Now().After(deadline) {
			t.Fatal("the record did not expire")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if refs, err := s.PlayerRecords(ctxT(t), "p", time.Time{}, 10); err != nil || len(refs) != 0 {
		t.Fatalf("PlayerRecords after expiry = %v, %v; want none", refs, err)
	}
}

func testRecordAnalysis(t *testing.T, s store.Records) {
	a := as[store.RecordAnalyses](t, s)
	mustPut(t, s, store.RecordEntry{Room: "r", Data: []byte("rec"), Ended: recT0})
	if _, err := a.Analysis(ctxT(t), "r"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Analysis before any = %v, want ErrNotFound", err)
	}
	if err := a.PutAnalysis(ctxT(t), "r", []byte(`{"plies":[]}`)); err != nil {
		t.Fatal(err)
	}
	mustPut(t, s, store.RecordEntry{Room: "r", Data: []byte("rec2"), Ended: recT0}) // a rewrite keeps it
	if got, err := a.Analysis(ctxT(t), "r"); err != nil || string(got) != `{"plies":[]}` {
		t.Fatalf("Analysis = %q, %v", got, err)
	}
}

func testPublicRecords(t *testing.T, s store.Records) {
	for i, private := range []bool{false, true, false, true} {
		mustPut(t, s, store.RecordEntry{Room: fmt.Sprintf("g%d", i), Data: []byte{byte(i)}, Players: []string{"p", "q"},
			Ended: recT0.Add(time.Duration(i) * time.Minute), Private: private})
	}
	tests := []struct {
		before time.Time
		limit  int
		want   []string
	}{
		{time.Time{}, 10, []string{"g2", "g0"}},
		{time.Time{}, 1, []string{"g2"}},
		{recT0.Add(2 * time.Minute), 10, []string{"g0"}},
	}
	for _, tc := range tests {
		refs, err := s.PublicRecords(ctxT(t), "q", tc.before, tc.limit)
		if err != nil || !slices.Equal(refRooms(refs), tc.want) {
			t.Errorf("PublicRecords(q, %v, %d) = %v, %v; want %v", tc.before, tc.limit, refRooms(refs), err, tc.want)
		}
	}
	if refs, err := s.PlayerRecords(ctxT(t), "q", time.Time{}, 10); err != nil ||
		!slices.Equal(refRooms(refs), []string{"g3", "g2", "g1", "g0"}) {
		t.Errorf("PlayerRecords(q) = %v, %v; want every game", refRooms(refs), err)
	}
}
