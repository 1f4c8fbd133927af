package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func TestRunPrintsTable(t *testing.T) {
	var out, errOut bytes.Buffer
	args := []string{"-game", "morris", "-a", "normal", "-b", "facil", "-games", "2", "-movetime", "50ms"}
	if err := run(context.Background(), args, &out, &errOut); err != nil {
		t.Fatalf("run: %v (stderr %s)", err, errOut.String())
	}
	for _, want := range []string{"morris 3: normal vs facil, 2 games", "| A | normal | 2 |", "| B | facil | 2 |", "Total time"} {
		if !strings.Contains(out.String(), want) {
			t.Fatalf("output lacks %q:\n%s", want, out.String())
		}
	}
}

func TestRunRefusesBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-game", "go"}, // no -a
		{"-game", "go", "-a", "basico", "-b", "nobody"}, // unknown level
		{"-game", "go", "-a", "basico", "-b", "basico", "extra"},
		{"-games", "x"},
		{"-game", "chess", "-a", "x", "-b", "y"},
	} {
		var out, errOut bytes.Buffer
		if err := run(context.Background(), args, &out, &errOut); err == nil {
			t.Errorf("run(%q) accepted", args)
		}
		if out.Len() != 0 {
			t.Errorf("run(%q) printed a table: %s", args, out.String())
		}
	}
}
