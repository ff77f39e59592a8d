// Package ids makes random trace and span IDs, as tracing SDKs do: fixed-size arrays and
// structs of numbers whose only rule is that the zero value is invalid.
package ids

import (
	"encoding/binary"
	"math/rand/v2"
	"sync"
	"time"
)

// A TraceID is 16 random bytes.
type TraceID [16]byte

// A SpanID is 8 random bytes.
type SpanID [8]byte

// IsValid reports whether t is not the zero ID.
func (t TraceID) IsValid() bool { return t != TraceID{} }

// IsValid reports whether s is not the zero ID.
func (s SpanID) IsValid() bool { return s != SpanID{} }

// A Wide ID is two numbers.
type Wide struct {
	High uint64 // want High:"stored\\(Wide.High\\)"
	Low  uint64 // want Low:"stored\\(Wide.Low\\)"
}

// Empty reports whether w is zero.
func (w Wide) Empty() bool { return w.High == 0 && w.Low == 0 }

// A Generator makes IDs from its source.
type Generator struct {
	mu   sync.Mutex
	r    *rand.Rand
	last uint64 // want last:"stored\\(Generator.last\\)"
}

// New returns a generator seeded at random.
func New() *Generator { // want New:"random\\(rand.Uint64\\)"
	return &Generator{r: rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))}
}

// NewIDs returns a trace ID and a span ID.
func (g *Generator) NewIDs() (TraceID, SpanID) { // want NewIDs:"random\\(rand.Uint64\\)"
	g.mu.Lock()
	defer g.mu.Unlock()
	var t TraceID
	var s SpanID
	binary.NativeEndian.PutUint64(t[:8], g.r.Uint64())
	binary.NativeEndian.PutUint64(t[8:], g.r.Uint64())
	binary.NativeEndian.PutUint64(s[:], g.r.Uint64())
	return t, s
}

// NewSpanID returns a span ID.
func (g *Generator) NewSpanID() SpanID { // want NewSpanID:"random\\(rand.Uint64\\)"
	g.mu.Lock()
	defer g.mu.Unlock()
	var s SpanID
	binary.NativeEndian.PutUint64(s[:], g.r.Uint64())
	return s
}

// NewWide returns a 128-bit ID.
func (g *Generator) NewWide() Wide { // want NewWide:"random\\(rand.Uint64\\)"
	g.mu.Lock()
	defer g.mu.Unlock()
	return Wide{High: g.r.Uint64(), Low: g.r.Uint64()}
}

// NewStamped returns a 128-bit ID whose high half starts with the time in seconds, as
// zipkin-go's time-stamped IDs do: they come in order.
func (g *Generator) NewStamped() Wide { // want NewStamped:"random\\(rand.Uint32N\\)"
	g.mu.Lock()
	defer g.mu.Unlock()
	return Wide{High: uint64(time.Now().Unix())<<32 | uint64(g.r.Uint32N(1<<31)), Low: g.r.Uint64()}
}

// NewCounted returns a 128-bit ID whose high half starts with a count of the IDs made: they
// come in order by the counter.
func (g *Generator) NewCounted() Wide { // want NewCounted:"random\\(rand.Uint32N, counter g.last\\)"
	g.mu.Lock()
	defer g.mu.Unlock()
	g.last++
	return Wide{High: g.last<<32 | uint64(g.r.Uint32N(1<<31)), Low: g.r.Uint64()}
}

// A UUID is 16 bytes, 122 of them random, the version and variant bits fixed.
type UUID [16]byte

// NewUUID returns a version 4 UUID.
func NewUUID() UUID { // want NewUUID:"random\\(rand.Uint64\\)"
	var u UUID
	binary.NativeEndian.PutUint64(u[:8], rand.Uint64())
	binary.NativeEndian.PutUint64(u[8:], rand.Uint64())
	u[6] = u[6]&0x0F | 0x40
	u[8] = u[8]&0x3F | 0x80
	return u
}

// Version is the UUID's version.
func (u UUID) Version() int { return int(u[6] >> 4) }

// Variant is the UUID's variant: 2 for RFC 4122.
func (u UUID) Variant() int { return int(u[8] >> 6) }

// RootSpan is the span ID of a trace's root span: its low half, as zipkin-go's generators give.
func RootSpan(w Wide) uint64 { return w.Low } // want RootSpan:"stored\\(Wide.Low\\)"

// A Mono is an ID that grows by a random step, as a monotonic ULID does.
type Mono [8]byte

// Compare orders two Monos.
func (m Mono) Compare(o Mono) int {
	a, b := binary.BigEndian.Uint64(m[:]), binary.BigEndian.Uint64(o[:])
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// NextMono returns the generator's last Mono plus a random step in [1, 1000].
func (g *Generator) NextMono() Mono { // want NextMono:"random\\(rand.Uint64N\\)"
	g.mu.Lock()
	defer g.mu.Unlock()
	g.last += 1 + g.r.Uint64N(1000)
	var m Mono
	binary.BigEndian.PutUint64(m[:], g.last)
	return m
}

// An RGB is a colour of three floats in [0, 1].
type RGB struct {
	R float64 // want R:"stored\\(RGB.R\\)"
	G float64 // want G:"stored\\(RGB.G\\)"
	B float64 // want B:"stored\\(RGB.B\\)"
}

// IsValid reports whether the colour is in gamut.
func (c RGB) IsValid() bool {
	return 0 <= c.R && c.R <= 1 && 0 <= c.G && c.G <= 1 && 0 <= c.B && c.B <= 1
}

// WarmColor returns a random colour, as go-colorful's generators do.
func WarmColor() RGB { // want WarmColor:"random\\(rand.Float64\\)"
	return RGB{R: 0.5 + rand.Float64()/2, G: rand.Float64() / 2, B: rand.Float64() / 4}
}

// A WideGen makes wide IDs, as zipkin-go's IDGenerator does.
type WideGen interface {
	Wide() Wide
}

// NewNarrow returns a generator of 64-bit IDs in a Wide, as zipkin-go's NewRandom64 does.
func NewNarrow() WideGen { return &narrow{} } // want NewNarrow:"constructs\\(Wide random fixed High\\)"

type narrow struct{}

// Wide draws the low half only: the high half is always zero.
func (*narrow) Wide() (w Wide) { // want Wide:"random\\(rand.Uint64\\)"
	w = Wide{Low: rand.Uint64()}
	return
}

// NewFull returns a generator of 128-bit IDs.
func NewFull() WideGen { return full{} } // want NewFull:"constructs\\(Wide random\\)"

type full struct{}

// Wide draws both halves.
func (full) Wide() Wide { // want Wide:"random\\(rand.Uint64\\)"
	return Wide{High: rand.Uint64(), Low: rand.Uint64()}
}
