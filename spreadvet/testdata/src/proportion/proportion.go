// Package proportion picks servers and times out nodes at random; its tests count how often
// an outcome happens and compare the count with typed limits.
package proportion

import "math/rand/v2"

// Pick is the index of one of two servers, each as likely.
func Pick() int { // want Pick:"random\\(rand.IntN, Uniform\\[0, 2\\)\\)"
	return rand.IntN(2)
}

// Conn is a connection to one of two servers.
type Conn struct{ Server int } // want Server:"stored\\(Conn.Server\\)"

// Connect connects to a random one of two servers.
func Connect() *Conn { // want Connect:"random\\(calls Pick\\)"
	return &Conn{Server: Pick()}
}

// Timeouts is how many of 5 nodes time out first in one round.
func Timeouts() int { // want Timeouts:"random\\(rand.IntN\\)"
	first, count := 10, 0
	for range 5 {
		switch t := rand.IntN(10); {
		case t < first:
			first, count = t, 1
		case t == first:
			count++
		}
	}
	return count
}

// Status is a fixed answer.
func Status() int { return 200 }

// Sample says whether to keep an event kept at the given rate.
func Sample(rate float64) bool { // want Sample:"random\\(rand.Float64\\)"
	return rate >= 1 || rand.Float64() < rate
}
