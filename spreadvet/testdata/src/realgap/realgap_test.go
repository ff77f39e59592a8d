package realgap_test

import (
	"realgap"
	"testing"
	"time"
)

const base = 100 * time.Millisecond

func TestGapEndsLoop(t *testing.T) {
	c := realgap.Start(base, 100)
	prev := time.Now()
	attempts := 0
	for realgap.Continue(c) {
		attempts++
		if d := time.Since(prev); d < base*3/4 || d > base*5/4 { // want `real-time verdict: TestGapEndsLoop leaves the loop that realgap.Start drives \(calls wait\) when the wall-clock gap d between two passes meets d < base\*3/4 \|\| d > base\*5/4, and then checks attempts \(attempts == 100\)`
			break
		}
		prev = time.Now()
	}
	if attempts == 100 {
		t.Fatal("no wait was jittered")
	}
}

// A deadline since the start is a timeout, not a gap between passes.
func TestDeadline(t *testing.T) {
	c := realgap.Start(base, 100)
	start := time.Now()
	attempts := 0
	for realgap.Continue(c) {
		attempts++
		if time.Since(start) > time.Second {
			break
		}
	}
	if attempts == 0 {
		t.Fatal("no attempt")
	}
}

// Nothing is checked after the loop.
func TestGapLogged(t *testing.T) {
	c := realgap.Start(base, 10)
	prev := time.Now()
	for realgap.Continue(c) {
		if d := time.Since(prev); d > base {
			t.Logf("a long gap: %v", d)
			break
		}
		prev = time.Now()
	}
}

// The loop's waits are not drawn.
func TestFixedGap(t *testing.T) {
	c := realgap.Fixed(base, 10)
	prev := time.Now()
	attempts := 0
	for realgap.Continue(c) {
		attempts++
		if d := time.Since(prev); d > 2*base {
			break
		}
		prev = time.Now()
	}
	if attempts != 10 {
		t.Fatal(attempts)
	}
}
