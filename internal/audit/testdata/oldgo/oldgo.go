// Package oldgo draws in each way that math/rand and crypto/rand allowed before generics, in
// a module whose go.mod says go 1.11: the audit's rewrites must compile at that language
// version, which has no generics, no 0o literals and no signed shift counts.
package oldgo

import (
	crand "crypto/rand"
	"math/big"
	"math/rand"
	"time"
)

// Backoff returns base plus a jitter of up to base.
func Backoff(base time.Duration) time.Duration {
	return base + time.Duration(rand.Int63n(int64(base)))
}

// Scale returns full jitter: a delay in [0, d).
func Scale(d time.Duration) time.Duration {
	return time.Duration(rand.Float64() * float64(d))
}

// Token returns 8 random bytes.
func Token() []byte {
	b := make([]byte, 8)
	crand.Read(b)
	return b
}

// Ticket returns a number in [0, 1000) from crypto/rand.
func Ticket() int64 {
	n, err := crand.Int(crand.Reader, big.NewInt(1000))
	if err != nil {
		return 0
	}
	return n.Int64()
}

// Order shuffles a copy of xs and returns it with a permutation of its indexes.
func Order(xs []int) ([]int, []int) {
	out := append([]int(nil), xs...)
	rand.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out, rand.Perm(len(out))
}

// Slot returns a slot in [0, n) from a source seeded by the clock.
func Slot(n int) int {
	r := rand.New(rand.NewSource(time.Now().UnixNano()))
	return r.Intn(n)
}

// Phase returns the clock's nanoseconds modulo n.
func Phase(n int64) int64 {
	return time.Now().UnixNano() % n
}

// Noise returns a normal, an exponential and a whole-range draw.
func Noise() (float64, float64, int64) {
	return rand.NormFloat64(), rand.ExpFloat64(), rand.Int63()
}
