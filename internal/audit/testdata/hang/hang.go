// Package hang sends requests to one of two replicas picked at random and waits until both
// have served one: under a mutant whose pick never varies (constant, collapsed-range) or
// never reaches the second replica (sign-flip), the wait blocks forever, and the audit must
// count that hang as a kill by timeout.
package hang

import "math/rand/v2"

// Spread sends 64 requests, each to replica 0 or 1 at random, and returns once both have
// served one. A healthy pick leaves one of them out with probability 2^-63.
func Spread() {
	served := map[int]bool{}
	for i := 0; i < 64; i++ {
		served[rand.IntN(2)] = true
	}
	both := make(chan struct{})
	if served[0] && served[1] {
		close(both)
	}
	<-both
}
