// Package chance picks peers and waits jittered times; its tests' verdicts depend on chance
// and on the real clock.
package chance

import (
	"math/rand/v2"
	"time"
)

// Pick is the index of a random peer among 10.
func Pick() int { // want Pick:"random\\(rand.IntN, Uniform\\[0, 10\\)\\)"
	return rand.IntN(10)
}

// Peer is a random one of peers.
func Peer(peers []string) string { // want Peer:"random\\(rand.IntN\\)"
	return peers[rand.IntN(len(peers))]
}

// ID is a random 63-bit identifier.
func ID() int64 { // want ID:"random\\(rand.Int64\\)"
	return rand.Int64()
}

// Fraction is in [0, 1).
func Fraction() float64 { // want Fraction:"random\\(rand.Float64, Uniform\\[0, 1\\)\\)"
	return rand.Float64()
}

// Wait is a jittered wait in [10ms, 20ms).
func Wait() time.Duration { // want Wait:"random\\(rand.N, Uniform\\[10000000, 20000000\\)\\)"
	return 10*time.Millisecond + rand.N(10*time.Millisecond)
}

// After fires after a jittered wait.
func After() <-chan time.Time { // want After:"random\\(calls Wait\\)"
	return time.After(Wait())
}
