package token

import (
	"testing"

	"example.com/crossreader/nonce"
)

// distinct fails unless 20 values are all different.
func distinct(t *testing.T, draw func() string) {
	t.Helper()
	seen := map[string]bool{}
	for range 20 {
		seen[draw()] = true
	}
	if len(seen) != 20 {
		t.Errorf("%d distinct values of 20", len(seen))
	}
}

func TestID(t *testing.T) { distinct(t, ID) }

func TestSealers(t *testing.T) {
	for _, make := range []func() *nonce.Sealer{Literal, Assigned, Constructed, Optioned} {
		s := make()
		distinct(t, func() string { return string(s.Nonce()) })
	}
}

func TestPrime(t *testing.T) {
	if Prime() < 2 {
		t.Error("not a prime")
	}
}
