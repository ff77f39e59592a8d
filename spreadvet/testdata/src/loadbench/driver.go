// Package loadbench drives a server as a benchmark's clients do: a random sleep between
// requests is no pace. Not flagged.
package loadbench

import (
	"math/rand/v2"
	"time"
)

func request() {}

func Worker(maxSleep time.Duration) { // want Worker:"random\\(rand.N\\)"
	for {
		request()
		time.Sleep(rand.N(maxSleep))
	}
}
