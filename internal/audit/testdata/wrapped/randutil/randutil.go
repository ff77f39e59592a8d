// Package randutil wraps a locked source, as modules do to share one: Float64 and Int63n
// return its draws, Jitter returns Float64's, and Scaled changes its draw, which makes it no
// wrapper.
package randutil

import (
	"math/rand"
	"sync"
)

var (
	mu sync.Mutex
	r  = rand.New(rand.NewSource(1))
)

// Float64 is a draw in [0, 1).
func Float64() float64 {
	mu.Lock()
	defer mu.Unlock()
	return r.Float64()
}

// Int63n is a draw in [0, n).
func Int63n(n int64) int64 {
	mu.Lock()
	res := r.Int63n(n)
	mu.Unlock()
	return res
}

// Jitter is Float64.
func Jitter() float64 {
	return Float64()
}

// Scaled is a draw in [0, 2).
func Scaled() float64 {
	mu.Lock()
	defer mu.Unlock()
	return 2 * r.Float64()
}
