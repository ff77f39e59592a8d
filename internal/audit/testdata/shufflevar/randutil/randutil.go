// Package randutil shuffles under a lock, as modules do to share one source: Shuffle hands
// its parameters to rand.Shuffle, Perm returns rand.Perm's permutation; Reverse only
// reverses, and is no shuffle; RandShuffle is a variable that another package calls through.
package randutil

import (
	"math/rand"
	"sync"
)

var (
	mu sync.Mutex
	r  = rand.New(rand.NewSource(1))
)

// Shuffle is rand.Shuffle under the lock.
func Shuffle(n int, swap func(i, j int)) {
	mu.Lock()
	defer mu.Unlock()
	r.Shuffle(n, swap)
}

// Perm is a random permutation of [0, n).
func Perm(n int) []int {
	mu.Lock()
	defer mu.Unlock()
	return r.Perm(n)
}

// Reverse reverses, which a test may put in place of a shuffle.
func Reverse(n int, swap func(i, j int)) {
	for i := 0; i < n/2; i++ {
		swap(i, n-1-i)
	}
}

// RandShuffle is the shuffle that the module's other packages call, and their tests may
// replace.
var RandShuffle = rand.Shuffle
