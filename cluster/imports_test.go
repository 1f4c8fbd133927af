package cluster

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestOnlyTheWiringImportsCluster: the several-nodes code stays out of
// every package but the wiring (internal/server, cmd/lobby), so a single
// node runs none of it and the hub knows nothing of it. Every Go file of
// the module is read.
func TestOnlyTheWiringImportsCluster(t *testing.T) {
	const self = "github.com/tabuleiro/tabuleiro/cluster"
	allowed := []string{"cluster", "internal/server", "cmd/lobby"}
	var importers []string
	fset := token.NewFileSet()
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".") && path != "..") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, im := range f.Imports {
			if p, _ := strconv.Unquote(im.Path.Value); p == self {
				dir, _ := filepath.Rel("..", filepath.Dir(path))
				importers = append(importers, filepath.ToSlash(dir))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(importers) == 0 {
		t.Fatal("nothing imports cluster: the wiring lost it, or the walk read nothing")
	}
	for _, dir := range importers {
		if !slices.Contains(allowed, dir) {
			t.Errorf("%s imports cluster; only %v may", dir, allowed)
		}
	}
}
