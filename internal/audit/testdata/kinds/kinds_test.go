package kinds

import (
	"math/rand/v2"
	"testing"
)

// A draw in a test file is no site.
func TestNothing(t *testing.T) {
	_ = rand.IntN(3)
}
