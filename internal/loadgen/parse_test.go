package loadgen

import (
	"testing"
)

func TestViewFollowsStatesAndPatches(t *testing.T) {
	steps := []struct {
		frame       string
		newMove, ok bool
		seq         int64
		turn        int
		legal       int
	}{
		{`{"type":"room.state","room":"r","seq":5,"status":"playing","turn":0,"legal":["A1","B1"],"lastMove":null}`, false, true, 5, 0, 2},
		{`{"type":"room.patch","room":"r","seq":6,"turn":1,"lastMove":{"seat":0,"move":"A1"},"legal":[]}`, true, true, 6, 1, 0},
		{`{"type":"room.patch","room":"r","seq":7,"spectators":2}`, false, true, 7, 1, 0},
		{`{"type":"room.patch","room":"r","base":7,"seq":9,"turn":0,"lastMove":{"seat":1,"move":"B1"},"legal":["C1"]}`, true, true, 9, 0, 1},
		{`{"type":"room.patch","room":"r","seq":11,"turn":1}`, false, false, 9, 0, 1}, // a gap
		{`{"type":"room.state","room":"r","seq":12,"status":"finished","turn":null,"legal":[],"lastMove":{"seat":1,"move":"B1"}}`, false, true, 12, -1, 0},
	}
	v := &View{Turn: -1}
	for i, s := range steps {
		f, err := ParseFrame([]byte(s.frame))
		if err != nil {
			t.Fatal(err)
		}
		newMove, ok := v.apply(f)
		if newMove != s.newMove || ok != s.ok || v.Seq != s.seq || v.Turn != s.turn || len(v.Legal) != s.legal {
			t.Fatalf("step %d: newMove %v ok %v seq %d turn %d legal %v; want %v %v %d %d %d",
				i, newMove, ok, v.Seq, v.Turn, v.Legal, s.newMove, s.ok, s.seq, s.turn, s.legal)
		}
	}
	if !v.Finished {
		t.Fatal("finished state not seen")
	}
}

func TestChooseMove(t *testing.T) {
	tests := []struct {
		game  string
		size  int
		legal []string
		k     int
		want  string
	}{
		{"go", 19, []string{"A1", "B1", "pass"}, 0, "A1"},
		{"go", 19, []string{"A1", "B1", "pass"}, 1, "B1"},
		{"go", 19, []string{"A1", "C2", "pass"}, 2, "C2"},   // point 2 (C1) taken: next legal
		{"go", 19, []string{"A1", "pass"}, 360, "A1"},       // wraps around
		{"go", 19, []string{"S19", "pass"}, 361 + 5, "S19"}, // k mod 361
		{"go", 9, []string{"pass"}, 0, ""},                  // only a pass
		{"go", 9, []string{"Z1", "A99", "pass"}, 0, ""},     // nothing on the board
		{"orbito", 0, []string{"a1", "b2", "c3"}, 4, "b2"},  // k mod len
		{"morris", 0, nil, 0, ""},
	}
	for _, tc := range tests {
		if got := ChooseMove(tc.game, tc.size, tc.legal, tc.k); got != tc.want {
			t.Errorf("ChooseMove(%s, %d, %v, %d) = %q, want %q", tc.game, tc.size, tc.legal, tc.k, got, tc.want)
		}
	}
}

func TestParseProc(t *testing.T) {
	kb, err := parseRSS("Name:\tlobby\nVmPeak:\t  99 kB\nVmRSS:\t   12345 kB\n")
	if err != nil || kb != 12345 {
		t.Fatalf("parseRSS = %d, %v", kb, err)
	}
	for _, bad := range []string{"", "VmRSS:", "VmRSS: x kB"} {
		if _, err := parseRSS(bad); err == nil {
			t.Errorf("parseRSS(%q) accepted", bad)
		}
	}
	cpu, err := parseStatCPU("42 (lob by) S 1 2 3 4 5 6 7 8 9 10 250 150 0 0")
	if err != nil || cpu != 4 {
		t.Fatalf("parseStatCPU = %v, %v", cpu, err)
	}
	if _, err := parseStatCPU("42 (x) S 1"); err == nil {
		t.Error("short stat accepted")
	}
}

// FuzzServerFrame: any bytes from the server are either refused by
// ParseFrame or applied to a view without a panic, and a refused patch
// leaves the view's seq alone.
func FuzzServerFrame(f *testing.F) {
	f.Add([]byte(`{"type":"room.patch","room":"r","seq":6,"turn":1,"lastMove":{"seat":0,"move":"A1"}}`))
	f.Add([]byte(`{"type":"room.state","room":"r","seq":5,"turn":null,"legal":["A1"]}`))
	f.Add([]byte(`{"type":"error","code":"illegal_move"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		fr, err := ParseFrame(data)
		if err != nil {
			return
		}
		v := &View{Room: "r", Seq: 5, Turn: -1}
		if _, ok := v.apply(fr); !ok && v.Seq != 5 {
			t.Fatalf("refused frame %q moved the view to seq %d", data, v.Seq)
		}
	})
}
