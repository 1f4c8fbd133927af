package server

import (
	"github.com/tabuleiro/tabuleiro/engine"
	"github.com/tabuleiro/tabuleiro/engine/games"
	"github.com/tabuleiro/tabuleiro/engine/orbito"
)

// Catalog is the catalog of the games the service hosts.
func Catalog() *engine.Catalog { return games.Catalog() }

// WarmUp builds the bots' precomputed tables (orbito perfeito's solved 4x4
// game: a few seconds of one core, about 11 MB) so that no bot turn pays for
// them under its deadline. It returns when they are built; a server calls it
// on a goroutine of its own at start-up.
func WarmUp() { orbito.WarmUp() }
