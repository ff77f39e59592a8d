package expiry_test

import (
	"expiry"
	"testing"
	"time"

	. "github.com/onsi/gomega"
)

const lifetime, jitter = time.Hour, time.Minute

// TestWithin checks one expiry only for falling between two times.
func TestWithin(t *testing.T) {
	before := time.Now()
	at := expiry.ExpiresAt(lifetime, jitter) // want `blind test: TestWithin draws expiry.ExpiresAt once and checks only its bounds \(at.Before\(before.Add\(lifetime-jitter\)\) \|\| at.After\(time.Now\(\).Add\(lifetime\+jitter\)\)\), so a constant or a collapsed range passes it; check the spread: xs := spread.Draw\(1000, func\(\) time.Duration \{ return time.Until\(expiry.ExpiresAt\(lifetime, jitter\)\) \}\); spread.Check\(t, xs, spread.Uniform\(lo, hi\)\)`
	if at.Before(before.Add(lifetime-jitter)) || at.After(time.Now().Add(lifetime+jitter)) {
		t.Fatalf("expiry %v out of range", at)
	}
}

// TestSpan checks the span of each of many expiries from a time before them against bounds.
func TestSpan(t *testing.T) {
	for range 100 {
		before := time.Now()
		d := expiry.ExpiresAt(lifetime, jitter).Sub(before) // want `blind test: TestSpan draws expiry.ExpiresAt 100 times and checks only their bounds \(d < lifetime-jitter \|\| d > lifetime\+jitter\+time.Second\)`
		if d < lifetime-jitter || d > lifetime+jitter+time.Second {
			t.Fatal(d)
		}
	}
}

// TestGomega checks many expiries with gomega's BeTemporally, in the order gomega reads.
func TestGomega(t *testing.T) {
	g := NewWithT(t)
	for range 100 {
		before := time.Now()
		at := expiry.ExpiresAt(lifetime, jitter) // want `blind test: TestGomega draws expiry.ExpiresAt 100 times and checks only their bounds \(g.Expect\(at\).To\(BeTemporally\(">=", before.Add\(lifetime-jitter\)\)\), Expect\(at\).To\(BeTemporally\("<", time.Now\(\).Add\(lifetime\+jitter\)\)\)\)`
		g.Expect(at).To(BeTemporally(">=", before.Add(lifetime-jitter)))
		Expect(at).To(BeTemporally("<", time.Now().Add(lifetime+jitter)))
	}
}

// TestLateShare counts the expiries past the lifetime: a statistic of their spread, not a
// bound; and one compared exactly with itself.
func TestLateShare(t *testing.T) {
	late := 0
	for range 1000 {
		before := time.Now()
		if expiry.ExpiresAt(lifetime, jitter).After(before.Add(lifetime)) {
			late++
		}
	}
	if late == 0 || late == 1000 {
		t.Fatal(late)
	}
	at := expiry.ExpiresAt(lifetime, jitter)
	Expect(at).To(Equal(at))
}
