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

// The draw and its read are in the test's closure, the bounds in another: client-go's
// TestBackoffWithJitter.
func TestPerItemJitter(t *testing.T) {
	b := stored.NewPerItem(0.1)
	check := func(t *testing.T, factor int, prev, cur time.Duration) {
		low := time.Duration(float64(prev) * float64(factor))
		high := low + time.Duration(0.1*float64(prev))
		if !(cur > low && cur <= high) {
			t.Errorf("delay %v not in (%v, %v]", cur, low, high)
		}
	}
	next := func() time.Duration {
		b.Next("id", base)
		return b.Get("id")
	}
	prev := next()
	check(t, 1, base, prev)
	for i := 0; i < 10; i++ {
		d := next() // want `blind test: TestPerItemJitter draws next \(the closure next returns b.Get, the draw b.Next stores in entry.backoff\) 10 times and checks only their bounds \(check\(t, 2, prev, d\)\)`
		check(t, 2, prev, d)
		prev = d
	}
}

// The kept draw is summed and the sum held to a bound: a constant growth passes.
func TestPerItemTotal(t *testing.T) {
	b := stored.NewPerItem(0.1)
	next := func() time.Duration {
		b.Next("id", base)
		return b.Get("id")
	}
	var prev, total time.Duration
	for i := 0; i < 10; i++ {
		d := next() // want `blind test: TestPerItemTotal draws next \(the closure next returns b.Get, the draw b.Next stores in entry.backoff\) 10 times and checks only their bounds \(d <= prev, total > 3000\*base\)`
		if d <= prev {
			t.Fatal("not increasing")
		}
		prev = d
		total += prev
	}
	if total > 3000*base {
		t.Fatal(total)
	}
}

// The draw lands in a variable declared before the loop, and the helper lets the cap through
// beside its bounds: client-go's form.
func TestPerItemCapped(t *testing.T) {
	b := stored.NewPerItem(0.1)
	maxDelay := 60 * base
	check := func(t *testing.T, prev, cur time.Duration) {
		low := 2 * prev
		if !((cur > low && cur <= low+prev/10) || cur == maxDelay) {
			t.Errorf("delay %v not in (%v, %v]", cur, low, low+prev/10)
		}
	}
	next := func() time.Duration {
		b.Next("id", base)
		d := b.Get("id")
		return d
	}
	got := next()
	prev := got
	for i := 0; i < 10; i++ {
		got = next() // want `blind test: TestPerItemCapped draws next \(the closure next returns b.Get, the draw b.Next stores in entry.backoff\) 10 times and checks only their bounds \(check\(t, prev, got\)\)`
		check(t, prev, got)
		prev = got
	}
}

// The helper pins the draw exactly: no bounds-only check.
func TestPerItemExactHelper(t *testing.T) {
	b := stored.NewPerItem(0)
	check := func(t *testing.T, prev, cur time.Duration) {
		if cur != 2*prev {
			t.Errorf("delay %v, want %v", cur, 2*prev)
		}
	}
	next := func() time.Duration {
		b.Next("id", base)
		return b.Get("id")
	}
	prev := next()
	for i := 0; i < 10; i++ {
		got := next()
		check(t, prev, got)
		prev = got
	}
}

// The last draw is pinned after the loop: the variable kept past the loop is checked exactly.
func TestPerItemLastExact(t *testing.T) {
	b := stored.NewPerItem(0.1)
	next := func() time.Duration {
		b.Next("id", base)
		return b.Get("id")
	}
	var got time.Duration
	for i := 0; i < 10; i++ {
		got = next()
		if got < base {
			t.Fatal(got)
		}
	}
	if got != 1024*base {
		t.Fatal("not capped")
	}
}
