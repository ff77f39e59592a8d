// Package work is the CPU work of the benchmark's suites: a fixed amount, the same on every
// run, so that the suites differ only in how it is split among tests.
package work

import (
	"crypto/sha256"
	"testing"
)

// Hash hashes a 4 KB buffer rounds times, each round hashing the last round's sum: about 3 µs
// a round on this machine's cores (with the SHA instructions), so 400 rounds make a test of
// about a millisecond.
func Hash(t testing.TB, rounds int) {
	t.Helper()
	var buf [4096]byte
	sum := sha256.Sum256(buf[:])
	for range rounds {
		copy(buf[:], sum[:])
		sum = sha256.Sum256(buf[:])
	}
	if sum == [32]byte{} {
		t.Fatal("impossible hash")
	}
}
