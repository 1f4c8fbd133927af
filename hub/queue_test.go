package hub

import (
	"fmt"
	"testing"

	"github.com/tabuleiro/tabuleiro/protocol"
)

func TestFrameQueue(t *testing.T) {
	frames := make([]*protocol.Frame, 300)
	for i := range frames {
		frames[i] = &protocol.Frame{Data: []byte(fmt.Sprint(i))}
	}
	// ops: a positive number pushes that many frames (the next ones in
	// order), a negative one pops that many and checks their order.
	tests := []struct {
		name     string
		limit    int
		ops      []int
		refused  int // pushes refused because the queue was full
		left     int // frames queued at the end
		maxSlots int // storage held at the end, at most
	}{
		{name: "one at a time", limit: 256, ops: []int{1, -1, 1, -1, 1, -1}, maxSlots: queueKeep},
		{name: "a burst is let go once drained", limit: 256, ops: []int{200, -200}, maxSlots: 0},
		{name: "wraps around", limit: 8, ops: []int{3, -2, 5, -4, 4, -6}, maxSlots: 8},
		{name: "full queue refuses", limit: 5, ops: []int{7}, refused: 2, left: 5, maxSlots: 5},
		{name: "limit below the kept slots", limit: 2, ops: []int{3, -2, 1}, refused: 1, left: 1, maxSlots: 2},
		{name: "default bound", limit: 256, ops: []int{300}, refused: 44, left: 256, maxSlots: 256},
		{name: "pop from empty", limit: 4, ops: []int{-1}, maxSlots: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var q frameQueue
			pushed, popped, refused := 0, 0, 0
			for _, op := range tt.ops {
				for ; op > 0; op-- {
					if q.push(frames[pushed%len(frames)], tt.limit) {
						pushed++
					} else {
						refused++
					}
				}
				for ; op < 0; op++ {
					f := q.pop()
					if popped == pushed {
						if f != nil {
							t.Fatalf("pop from an empty queue gave %q", f.Data)
						}
						continue
					}
					if want := frames[popped%len(frames)]; f != want {
						t.Fatalf("pop %d gave %v, want frame %q", popped, f, want.Data)
					}
					popped++
				}
			}
			if refused != tt.refused {
				t.Errorf("refused %d pushes, want %d", refused, tt.refused)
			}
			if q.len() != tt.left || pushed-popped != tt.left {
				t.Errorf("len %d (pushed %d, popped %d), want %d", q.len(), pushed, popped, tt.left)
			}
			if len(q.buf) > tt.maxSlots {
				t.Errorf("holds %d slots, want at most %d", len(q.buf), tt.maxSlots)
			}
		})
	}
}
