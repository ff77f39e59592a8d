package testout

import "strconv"

// The output kept per failed test: the head (what led to the failure) and the tail (where
// t.Fatal's message and a panic are). The -o log keeps all of it.
const (
	clipHead = 4 << 10
	clipTail = 12 << 10
	// MaxOutput bounds what one TestResult.Output holds, the note on the cut included.
	MaxOutput = clipHead + clipTail + 100
)

// clip keeps the first clipHead and the last clipTail bytes written to it, and counts the
// bytes it dropped between them, so that a test printing megabytes costs a bounded amount
// of memory and its failure message survives.
type clip struct {
	head, tail []byte
	dropped    int64
}

func (c *clip) Write(b []byte) (int, error) {
	n := len(b)
	if room := clipHead - len(c.head); room > 0 {
		k := min(room, len(b))
		c.head, b = append(c.head, b[:k]...), b[k:]
	}
	c.tail = append(c.tail, b...)
	if over := len(c.tail) - clipTail; over > clipTail {
		// Shift only when the tail has grown to twice its size: linear time overall.
		c.dropped += int64(over)
		c.tail = append(c.tail[:0], c.tail[over:]...)
	}
	return n, nil
}

// Len returns how many bytes were written.
func (c *clip) Len() int64 { return int64(len(c.head)+len(c.tail)) + c.dropped }

// String returns the head and the last clipTail bytes, with a note on what was cut.
func (c *clip) String() string {
	tail := c.tail
	dropped := c.dropped
	if over := len(tail) - clipTail; over > 0 {
		tail, dropped = tail[over:], dropped+int64(over)
	}
	if dropped == 0 {
		return string(c.head) + string(tail)
	}
	return string(c.head) + "\n... (" + strconv.FormatInt(dropped, 10) + " bytes cut; -o keeps the whole log) ...\n" + string(tail)
}

func (c *clip) Reset() { *c = clip{head: c.head[:0], tail: c.tail[:0]} }
