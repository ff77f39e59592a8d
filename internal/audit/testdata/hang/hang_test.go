package hang

import "testing"

func TestSpread(t *testing.T) {
	Spread()
}
