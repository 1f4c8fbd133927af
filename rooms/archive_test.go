package rooms

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/engine/games"
	"github.com/tabuleiro/tabuleiro/players"
	"github.com/tabuleiro/tabuleiro/protocol"
	"github.com/tabuleiro/tabuleiro/records"
	"github.com/tabuleiro/tabuleiro/store"
	"github.com/tabuleiro/tabuleiro/store/memstore"
)

// TestFinishingSaveCarriesTheRecord: the save that ends a game writes its
// record with it (the store has it the moment the end is saved, before the
// room does anything more), and a finished room saved without one (by a
// version that wrote records after the save, and crashed in between) gets
// it when the room is restored.
func TestFinishingSaveCarriesTheRecord(t *testing.T) {
	ctx := context.Background()
	st := memstore.New()
	m := NewManager(Config{Catalog: games.Catalog(), Store: st})
	defer m.Shutdown(ctx)
	a, b := newMember(1, "a"), newMember(2, "b")
	r, err := m.Create(ctx, Spec{Game: "morris", Variant: "3", Seats: []players.Player{{ID: "a", Name: "ana"}, {ID: "b", Name: "bia"}},
		Join: []JoinAs{{M: a, As: RolePlayer}, {M: b, As: RolePlayer}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Records().Record(ctx, r.ID()); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a record before the end: %v", err)
	}
	r.Resign(a, nil)
	a.waitState(t, func(s protocol.RoomState) bool { return s.Status == StatusFinished })
	data, err := st.Records().Record(ctx, r.ID())
	if err != nil {
		t.Fatalf("no record once the end was seen: %v", err)
	}
	if rec, err := records.Decode(data); err != nil || rec.Result == nil || rec.Result.Reason != "resign" {
		t.Fatalf("the record %+v, %v", rec, err)
	}

	// The same finished room, as an older version left it: no record.
	saved, err := st.LoadRoom(ctx, r.ID())
	if err != nil {
		t.Fatal(err)
	}
	old := memstore.New()
	saved.Record, saved.Tail = nil, nil
	if err := old.SaveRoom(ctx, saved); err != nil {
		t.Fatal(err)
	}
	m2 := NewManager(Config{Catalog: games.Catalog(), Store: old})
	defer m2.Shutdown(ctx)
	if _, err := m2.Lookup(ctx, r.ID()); err != nil {
		t.Fatal(err)
	}
	if got, err := old.Records().Record(ctx, r.ID()); err != nil || string(got) != string(data) {
		t.Fatalf("the restored room's record: %v; want the record of the end", err)
	}
	refs, err := old.Records().PlayerRecords(ctx, "b", time.Time{}, 10)
	if err != nil || len(refs) != 1 || refs[0].Room != r.ID() {
		t.Fatalf("b's games after the restore: %v %v", refs, err)
	}
}
