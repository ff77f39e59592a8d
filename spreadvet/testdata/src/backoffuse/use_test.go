// Package backoffuse_test tests package backoff from outside: the random functions are known
// through facts.
package backoffuse_test

import (
	"testing"
	"time"

	"backoff"
)

func TestNextPositive(t *testing.T) {
	for attempt := 0; attempt < 5; attempt++ {
		for range 20 {
			if d := backoff.Next(attempt); d < 0 { // want `blind test: TestNextPositive draws backoff.Next 20 times and checks only their bounds \(d < 0\)`
				t.Fatal(d)
			}
		}
	}
}

// Bounds only, into a slice, in a file that does not import package spread: the fix adds the
// check and the import.
func TestEqualSlice(t *testing.T) {
	var xs []time.Duration
	for range 100 {
		xs = append(xs, backoff.Equal(time.Second)) // want `blind test: TestEqualSlice draws backoff.Equal 100 times and checks only their bounds \(x < time.Second/2 \|\| x >= time.Second\), so a constant or a collapsed range passes it; check the spread: spread.Check\(t, xs, spread.Uniform\(time.Second/2, time.Second\)\)`
	}
	for _, x := range xs {
		if x < time.Second/2 || x >= time.Second {
			t.Error(x)
		}
	}
}
