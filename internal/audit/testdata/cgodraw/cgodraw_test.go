package cgodraw

import "testing"

// TestJitterSpread checks that 1,000 delays lie in [100, 150) and do not all agree.
func TestJitterSpread(t *testing.T) {
	seen := map[int]bool{}
	for range 1000 {
		d := Jitter()
		if d < 100 || d >= 150 {
			t.Fatalf("Jitter() = %d, want [100, 150)", d)
		}
		seen[d] = true
	}
	if len(seen) < 10 {
		t.Errorf("%d distinct delays of 1,000", len(seen))
	}
}

// TestWaitBelow checks the bounds of 100 delays only.
func TestWaitBelow(t *testing.T) {
	for range 100 {
		if d := Wait(); d < 1 || d > 100 {
			t.Fatalf("Wait() = %d, want [1, 100]", d)
		}
	}
}

// TestCoin only calls Coin: any answer passes.
func TestCoin(t *testing.T) { Coin() }

// TestPickOne checks that 100 picks are each one of the items (a mutant that draws out of
// range panics in about every run: its verdict does not hang on a lucky draw).
func TestPickOne(t *testing.T) {
	items := []string{"a", "b", "c"}
	for range 100 {
		if got := Pick(items); got != "a" && got != "b" && got != "c" {
			t.Fatalf("Pick = %q", got)
		}
	}
}
