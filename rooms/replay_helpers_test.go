package rooms

import (
	"context"
	"testing"

	"go.uber.org/zap"

	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/engine/morris"
	"github.com/tabuleiro/tabuleiro/store"
)

// storedRoom loads the room from st and gives its snapshot as a restore
// sees it: the last one written, with the moves saved since replayed
// (Manager.SnapshotOf).
func storedRoom(t *testing.T, st store.Store, id string) (store.Room, []byte) {
	t.Helper()
	saved, err := st.LoadRoom(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	m := NewManager(Config{Catalog: engine.NewCatalog(race5Game{}, morris.Game()), Log: zap.NewNop()})
	snap, err := m.SnapshotOf(saved)
	if err != nil {
		t.Fatal(err)
	}
	return saved, snap
}
