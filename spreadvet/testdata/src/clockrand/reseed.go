package clockrand

import (
	"math/rand"
	"time"
)

// TwoStatements seeds a source from the clock on every call, the source kept in a variable
// first.
func TwoStatements(n int) int { // want TwoStatements:"random\\(rand.Intn, Uniform\\[0, 1\\*\\$0\\)\\)"
	src := rand.NewSource(time.Now().UnixNano()) // want `clock-derived randomness: rand.NewSource\(time.Now\(\).UnixNano\(\)\) seeds a source from the clock on every call`
	r := rand.New(src)
	return r.Intn(n)
}

// SeedVariable reads the clock into a seed first.
func SeedVariable(n int) int { // want SeedVariable:"random\\(rand.Intn, Uniform\\[0, 1\\*\\$0\\)\\)"
	seed := time.Now().UnixNano()
	r := rand.New(rand.NewSource(seed)) // want `clock-derived randomness: rand.NewSource\(seed\) seeds a source from the clock on every call`
	return r.Intn(n)
}

// Not flagged: a source made in two statements and kept (made once per value), and a seed
// variable that is a parameter (the caller chooses it).

type Picker struct{ rng *rand.Rand }

func NewPicker() *Picker {
	src := rand.NewSource(time.Now().UnixNano())
	return &Picker{rng: rand.New(src)}
}

func (p *Picker) Pick(n int) int { return p.rng.Intn(n) } // want Pick:"random\\(rand.Intn, Uniform\\[0, 1\\*\\$0\\)\\)"

func Seeded(seed int64, n int) int { // want Seeded:"random\\(rand.Intn, Uniform\\[0, 1\\*\\$1\\)\\)"
	s := seed
	r := rand.New(rand.NewSource(s))
	return r.Intn(n)
}

// SharedSource keeps the source for more than one generator: no per-call generator to drop.
func SharedSource() (*rand.Rand, rand.Source) {
	src := rand.NewSource(time.Now().UnixNano())
	return rand.New(src), src
}

// A constructor draws its value's seeds from a source seeded once per value, then drops the
// source: once per value, no per-call reseeding. Not flagged.
type Sketch struct{ seeds [4]uint64 }

func NewSketch() *Sketch { // want NewSketch:"random\\(rand.Uint64\\)"
	s := &Sketch{}
	r := rand.New(rand.NewSource(time.Now().UnixNano()))
	for i := range s.seeds {
		s.seeds[i] = r.Uint64()
	}
	return s
}

// Refresh seeds one source when it starts, then draws every wait of its loop from it, through
// a closure (kafka-go's discover goroutine): seeded once for many draws. Not flagged.
func Refresh(ttl time.Duration, wake <-chan struct{}) { // want Refresh:"random\\(rand.Int63n\\)"
	prng := rand.New(rand.NewSource(time.Now().UnixNano()))
	next := func() time.Duration { return time.Duration(prng.Int63n(int64(ttl))) }
	timer := time.NewTimer(next())
	for {
		select {
		case <-timer.C:
		case <-wake:
		}
		timer.Reset(next())
	}
}

// Drain seeds one source and draws from it in a counted loop: the next call seeds again
// (nats.go's shufflePool), so two calls in one clock step draw the same.
func Drain(n int) []int { // want Drain:"random\\(rand.Intn\\)"
	r := rand.New(rand.NewSource(time.Now().UnixNano())) // want `clock-derived randomness: rand.NewSource\(time.Now\(\).UnixNano\(\)\) seeds a source from the clock on every call`
	var out []int
	for range n {
		out = append(out, r.Intn(10))
	}
	return out
}

// Serve seeds one source, then draws every wait of its endless loop from it: it runs as long
// as what it serves. Not flagged.
func Serve(d time.Duration, stop <-chan struct{}) { // want Serve:"random\\(rand.Int63n\\)"
	r := rand.New(rand.NewSource(time.Now().UnixNano()))
	for {
		select {
		case <-time.After(time.Duration(r.Int63n(int64(d)))):
		case <-stop:
			return
		}
	}
}
