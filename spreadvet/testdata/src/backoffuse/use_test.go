// Package backoffuse_test tests package backoff from outside: the random functions are known
// through facts.
package backoffuse_test

import (
	"testing"

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
