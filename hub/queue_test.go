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
					if q.push(frames[pushed%len(frames)], tt.limit, 1<<30) {
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
					q.written(f)
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

// TestFrameQueueBytes: the queue holds at most maxBytes, counting the frame
// being written until it is written; a frame larger than the bound goes
// only alone.
func TestFrameQueueBytes(t *testing.T) {
	frame := func(n int) *protocol.Frame { return &protocol.Frame{Data: make([]byte, n)} }
	const maxBytes = 350
	var q frameQueue
	peak := 0
	push := func(f *protocol.Frame) bool {
		ok := q.push(f, 256, maxBytes)
		peak = max(peak, q.held)
		return ok
	}
	for i := range 3 {
		if !push(frame(100)) {
			t.Fatalf("frame %d of 100 bytes refused under %d", i+1, maxBytes)
		}
	}
	if push(frame(100)) {
		t.Fatal("a fourth frame took the queue to 400 bytes, past 350")
	}
	if !push(frame(50)) {
		t.Fatal("a frame that fits exactly was refused")
	}
	f := q.pop()
	if push(frame(100)) {
		t.Fatal("a frame was taken while the popped one, not yet written, still held its bytes")
	}
	q.written(f)
	if !push(frame(100)) {
		t.Fatal("refused once the written frame's bytes were released")
	}
	for f := q.pop(); f != nil; f = q.pop() {
		q.written(f)
	}
	if q.held != 0 {
		t.Fatalf("%d bytes held by an empty queue", q.held)
	}
	if peak > maxBytes {
		t.Fatalf("held %d bytes, past the bound of %d", peak, maxBytes)
	}
	// A frame larger than the bound goes alone, and nothing joins it.
	if !push(frame(1000)) {
		t.Fatal("a frame larger than the bound was refused by an empty queue")
	}
	if push(frame(1)) {
		t.Fatal("a frame joined one larger than the bound")
	}
}
