// Package counters makes IDs that hold a counter beside their random part: nats-io/nuid's
// sequence, shortid's count within a millisecond, a UUID v7's rising time. Such IDs differ
// from call to call whatever is drawn.
package counters

import (
	"crypto/rand"
	"fmt"
	mrand "math/rand/v2"
	"sync"
	"time"
)

// NUID is a random prefix and a sequence raised by a random step on each call.
type NUID struct {
	pre      [4]byte
	seq, inc int64 // want seq:"stored\\(NUID.seq\\)" inc:"stored\\(NUID.inc\\)"
}

// New draws a prefix, a start and a step.
func New() *NUID { // want New:"random\\(rand.Int64N\\)"
	n := &NUID{seq: mrand.Int64N(1 << 20), inc: 33 + mrand.Int64N(300)}
	rand.Read(n.pre[:])
	return n
}

// Next is the prefix and the raised sequence.
func (n *NUID) Next() string { // want Next:"random\\(crypto/rand.Read, counter n.seq\\)"
	n.seq += n.inc
	seq := n.seq
	var b [8]byte
	copy(b[:], n.pre[:])
	for i, l := len(b), seq; i > 4; l /= 62 {
		i--
		b[i] = byte('0' + l%62)
	}
	if n.seq > 1<<40 {
		rand.Read(n.pre[:])
	}
	return string(b[:])
}

var (
	mu       sync.Mutex
	lastTime int64
)

// rising is the clock in milliseconds, kept above the last reading: a UUID v7's time.
func rising() (milli int64) {
	mu.Lock()
	defer mu.Unlock()
	now := time.Now().UnixMilli()
	if now <= lastTime {
		now = lastTime + 1
	}
	lastTime = now
	return now
}

// stamp writes the rising time into the front of id.
func stamp(id []byte) {
	t := rising()
	id[0], id[1] = byte(t>>8), byte(t)
}

// ID is a UUID's bytes.
type ID [16]byte

// String writes an ID as text.
func (id ID) String() string { return fmt.Sprintf("%x", id[:]) }

// V7 is a random ID stamped with the rising time.
func V7() ID { // want V7:"random\\(crypto/rand.Read, counter lastTime\\)"
	var id ID
	rand.Read(id[:])
	stamp(id[:])
	return id
}

// Token is random, with a count of the calls kept beside it for statistics: the count is not
// in the token, so no counter.
type Tokens struct{ made int }

// Token draws a token.
func (t *Tokens) Token() string { // want Token:"random\\(crypto/rand.Read\\)"
	t.made++
	var b [8]byte
	rand.Read(b[:])
	return fmt.Sprintf("%x", b)
}

var (
	pool    [64]byte
	poolPos = len(pool)
)

// Pooled takes its bytes from a pool of draws, moving a position through it: the position is
// no part of the result, so no counter.
func Pooled() ID { // want Pooled:"random\\(crypto/rand.Read\\)"
	var id ID
	if poolPos == len(pool) {
		rand.Read(pool[:])
		poolPos = 0
	}
	copy(id[:], pool[poolPos:poolPos+16])
	id[0] = pool[poolPos]
	poolPos += 16
	return id
}

// Clock makes time-based IDs: the time it reads, and a sequence it raises when the time has
// not moved (gofrs/uuid's clock sequence).
type Clock struct {
	now  func() time.Time
	last int64
	seq  uint16
}

// NewClock returns a Clock that reads the wall clock.
func NewClock() *Clock { return &Clock{now: time.Now} }

// tick returns the time and the sequence.
func (c *Clock) tick() (int64, uint16) {
	t := c.now().UnixNano()
	if t <= c.last {
		c.seq++
	}
	c.last = t
	return t, c.seq
}

// V1 holds the time and the sequence beside random bytes.
func (c *Clock) V1() ID { // want V1:"random\\(crypto/rand.Read, counter c.seq\\)"
	t, s := c.tick()
	var id ID
	rand.Read(id[8:])
	id[0], id[1] = byte(t), byte(s)
	return id
}

// V6 holds the time and random bytes, and leaves the sequence out: no counter.
func (c *Clock) V6() ID { // want V6:"random\\(crypto/rand.Read\\)"
	t, _ := c.tick()
	var id ID
	rand.Read(id[8:])
	id[0] = byte(t)
	return id
}

// Maker makes IDs.
type Maker interface{ V1() ID }

// Default is the package's Maker, reached through the interface.
var Default Maker = NewClock()

// DefaultV1 is the default Maker's V1, through the interface: its counter too.
func DefaultV1() ID { return Default.V1() } // want DefaultV1:"random\\(calls V1, counter c.seq\\)"
