package stored_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"stored"
)

const base = time.Second

func TestOpenBounds(t *testing.T) {
	for range 100 {
		b := &stored.Breaker{Delay: base, Jitter: base / 10}
		b.Open()
		d := b.Remaining() // want `blind test: TestOpenBounds draws b.Remaining \(the draw b.Open stores in openState.delay\) 100 times and checks only their bounds \(assert.GreaterOrEqual\(t, d, base\), assert.LessOrEqual\(t, d, base\*11/10\)\)`
		assert.GreaterOrEqual(t, d, base)
		assert.LessOrEqual(t, d, base*11/10)
	}
}

func TestPolicyBounds(t *testing.T) {
	for i := 0; i < 50; i++ {
		p := stored.NewPolicy(base)
		if w := p.Wait(); w < base || w >= 2*base { // want `blind test: TestPolicyBounds draws p.Wait \(the draw stored.NewPolicy stores in Policy.wait\) 50 times and checks only their bounds \(w < base \|\| w >= 2\*base\)`
			t.Fatal(w)
		}
	}
}

// One read of one opening tests the configuration more often than the draw.
func TestOpenOnce(t *testing.T) {
	b := &stored.Breaker{Delay: base}
	b.Open()
	if b.Remaining() < base {
		t.Fatal("opened for less than the delay")
	}
}

// The breaker opens once: the loop reads one draw again, no sample of the draws.
func TestOpenedOnceReadOften(t *testing.T) {
	b := &stored.Breaker{Delay: base, Jitter: base}
	b.Open()
	for range 10 {
		if b.Remaining() < base {
			t.Fatal("opened for less than the delay")
		}
	}
}

// An exact check is sharp.
func TestOpenExact(t *testing.T) {
	for range 100 {
		b := &stored.Breaker{Delay: base}
		b.Open()
		if b.Remaining() != base {
			t.Fatal("a breaker with no jitter opens for its delay")
		}
	}
}

// Opened reads no draw.
func TestOpened(t *testing.T) {
	for range 100 {
		b := &stored.Breaker{Delay: base, Jitter: base}
		b.Open()
		if b.Opened() < 1 {
			t.Fatal("not opened")
		}
	}
}

// The draw is made on another breaker.
func TestOtherBreaker(t *testing.T) {
	closed := &stored.Breaker{Delay: base}
	for range 100 {
		b := &stored.Breaker{Delay: base, Jitter: base}
		b.Open()
		if closed.Remaining() > 0 {
			t.Fatal("a closed breaker has no delay")
		}
	}
}
