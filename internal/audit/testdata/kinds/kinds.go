// Package kinds holds one of every kind of place where randomness enters, for the site
// finder's tests. Nothing here runs.
package kinds

import (
	crand "crypto/rand"
	"math/big"
	v1 "math/rand"
	"math/rand/v2"
	"time"
)

// jitter is a func-typed package variable whose default is a draw.
var jitter = rand.Float64

// Backoff holds its randomness in fields.
type Backoff struct {
	rng  *rand.Rand
	draw func(int64) int64
}

// New gives the draw field its default.
func New() *Backoff {
	return &Backoff{rng: rand.New(rand.NewPCG(1, 2)), draw: v1.Int63n}
}

// Next uses both fields.
func (b *Backoff) Next(n int) int {
	return b.rng.IntN(n) + int(b.draw(int64(n)))
}

// Local draws from a local *rand.Rand, with a nested draw.
func Local(n int) int {
	r := rand.New(rand.NewPCG(3, 4))
	return r.IntN(r.IntN(n) + 1)
}

// V1 calls math/rand's package functions.
func V1() (int, int64, float32) {
	return v1.Intn(10), v1.Int63(), v1.Float32()
}

// Generic calls rand.N, inferred and instantiated.
func Generic(d time.Duration) time.Duration {
	return rand.N(d) + rand.N[time.Duration](d)
}

// Crypto draws from crypto/rand.
func Crypto() (*big.Int, error) {
	buf := make([]byte, 8)
	if _, err := crand.Read(buf); err != nil {
		return nil, err
	}
	return crand.Int(crand.Reader, big.NewInt(1000))
}

// Var calls through the package variable.
func Var() float64 {
	return jitter()
}

// Clock reads the clock as a number, and seeds a source from it.
func Clock() int64 {
	src := v1.New(v1.NewSource(time.Now().UnixNano()))
	return time.Now().UnixNano()%1000 + src.Int63()
}

// Equivalents draws where nothing can change: discarded, or from one value.
func Equivalents() int {
	_ = rand.IntN(5)
	rand.Float64()
	return rand.IntN(1)
}

// Ignored has two of its classes accepted by its comment.
func Ignored() float64 {
	return rand.Float64() //spreadcheck:ignore constant, sign-flip: a draw kept for the report, accepted as it is
}

// Typed draws of a type parameter's type.
func Typed[D ~int64](d D) D {
	return rand.N(d)
}

// TypedClock reads the clock in a type parameter's type.
func TypedClock[D ~int32 | ~int64](n D) D {
	return D(time.Now().UnixNano()) % n
}

// Picker draws through a field of a type parameter's type.
type Picker[D ~int | ~uint8] struct{ pick func(D) D }

// NewPicker returns a Picker that draws with rand.N.
func NewPicker[D ~int | ~uint8]() *Picker[D] { return &Picker[D]{pick: rand.N[D]} }

// Pick draws one of n.
func (p *Picker[D]) Pick(n D) D { return p.pick(n) }

// Tagged is an integer type made of a type parameter.
type Tagged[T any] int64

// TypedTagged draws a Tagged[T], which is made of a type parameter without being one.
func TypedTagged[T any](n Tagged[T]) Tagged[T] {
	return rand.N(n)
}

// Order shuffles and permutes.
func Order(xs []int) []int {
	rand.Shuffle(len(xs), func(i, j int) { xs[i], xs[j] = xs[j], xs[i] })
	return rand.Perm(len(xs))
}

// Normal draws the unbounded kinds and a full-range unsigned.
func Normal() (float64, float64, uint64) {
	return rand.NormFloat64(), rand.ExpFloat64(), rand.Uint64()
}

// Full returns full jitter: the audit infers spread.Uniform(0, d) for it.
func Full(d time.Duration) time.Duration {
	return time.Duration(rand.Float64() * float64(d))
}

// Offset returns base plus a draw: spread.Uniform(base, base + j).
func Offset(base, j int64) int64 {
	return base + rand.Int64N(j)
}

// ViaLocal returns a draw through one local variable: spread.Uniform(0, time.Duration(n)).
func ViaLocal(n int64) time.Duration {
	x := rand.Int64N(n)
	return time.Duration(x)
}

// Millis returns a draw of untyped bounds as a duration: spread.Uniform[time.Duration](0, 100),
// since spread.Uniform(0, 100) declares ints, which a sample of durations does not take.
func Millis() time.Duration {
	return time.Duration(rand.Int64N(100))
}

// Helped passes its draw to a helper: nothing to infer.
func Helped(d time.Duration) time.Duration {
	return scale(d, rand.Float64())
}

func scale(d time.Duration, u float64) time.Duration { return time.Duration(u * float64(d)) }

// Sourced draws from sources held as their interfaces.
func Sourced(src v1.Source, s64 v1.Source64, s2 rand.Source) (int64, uint64, uint64) {
	return src.Int63(), s64.Uint64(), s2.Uint64()
}

// NewInferredPicker returns a Picker that draws with rand.N, its type argument inferred from
// the field it is assigned to (go1.21): the rewrite, which passes it to a generic helper,
// must name it.
func NewInferredPicker[D ~int | ~uint8]() *Picker[D] {
	p := &Picker[D]{}
	p.pick = rand.N
	return p
}
