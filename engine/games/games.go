// Package games assembles the catalog of every game the service hosts.
package games

import (
	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/engine/g2048"
	"github.com/tabuleiro/tabuleiro/engine/gogame"
	"github.com/tabuleiro/tabuleiro/engine/morris"
	"github.com/tabuleiro/tabuleiro/engine/orbito"
	"github.com/tabuleiro/tabuleiro/engine/queens"
)

// Catalog returns the five games in lobby order: orbito, morris, go, 2048,
// queens.
func Catalog() *engine.Catalog {
	return engine.NewCatalog(orbito.Game(), morris.Game(), gogame.Game(), g2048.Game(), queens.Game())
}
