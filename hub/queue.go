package hub

import "github.com/tabuleiro/tabuleiro/protocol"

// queueKeep is the number of slots a frame queue keeps once it has emptied:
// enough for the usual one or two frames in flight without allocating, small
// enough that an idle connection costs a few words, not SendQueue of them.
const queueKeep = 4

// frameQueue is the bounded FIFO of frames waiting for a connection's
// writer, bounded in frames and in bytes. Its storage is a ring that grows
// with what is queued (doubling, up to the limit) and is let go when it
// empties after a burst, so the bound (Config.SendQueue, 256 by default)
// costs memory only while a client is that far behind. The zero value is an
// empty queue. It is not safe for concurrent use: the connection's mutex
// guards it.
type frameQueue struct {
	buf  []*protocol.Frame // the ring; len(buf) is its capacity
	head int               // index of the oldest frame
	n    int               // frames queued
	// held is the bytes of the frames queued and of the frame being
	// written (popped, not yet written): what the queue's bound is on.
	held int
}

// push appends f unless limit frames are already queued or f would take
// the bytes held past maxBytes. A frame is always taken when nothing is
// held, however large, so that no frame is too big ever to be sent.
func (q *frameQueue) push(f *protocol.Frame, limit, maxBytes int) bool {
	if q.n >= limit || (q.held > 0 && q.held+len(f.Data) > maxBytes) {
		return false
	}
	if q.n == len(q.buf) {
		size := min(max(queueKeep, 2*len(q.buf)), limit)
		buf := make([]*protocol.Frame, size)
		for i := range q.n {
			buf[i] = q.buf[(q.head+i)%len(q.buf)]
		}
		q.buf, q.head = buf, 0
	}
	q.buf[(q.head+q.n)%len(q.buf)] = f
	q.n++
	q.held += len(f.Data)
	return true
}

// pop removes and returns the oldest frame, nil when the queue is empty.
// Its bytes stay held until written says it left.
func (q *frameQueue) pop() *protocol.Frame {
	if q.n == 0 {
		return nil
	}
	f := q.buf[q.head]
	q.buf[q.head] = nil
	q.head = (q.head + 1) % len(q.buf)
	q.n--
	if q.n == 0 {
		q.head = 0
		if len(q.buf) > queueKeep {
			q.buf = nil // a burst is over: give its slots back
		}
	}
	return f
}

// written releases the bytes of a popped frame once it is written.
func (q *frameQueue) written(f *protocol.Frame) { q.held -= len(f.Data) }

// len returns the number of frames queued.
func (q *frameQueue) len() int { return q.n }
