package interfere

import (
	"testing"

	"github.com/spreadcheck/spreadcheck/spread"
)

// TestB prepares the package, as a test that sets up shared state for the ones after it.
func TestB(t *testing.T) {
	Prepare()
	Far()
}

// TestA needs TestB's preparation; without it, it fails half its runs (by the run's seed).
func TestA(t *testing.T) {
	Near()
	Far()
	if !Prepared() && spread.Rand(t).IntN(2) == 0 {
		t.Error("the package was not prepared")
	}
}
