package helpers

import (
	"testing"
	"time"

	qt "github.com/frankban/quicktest"
	"github.com/stretchr/testify/assert"
	gtassert "gotest.tools/v3/assert"
)

// The argument changes on each pass: still blind.
func TestBackoffCeiling(t *testing.T) {
	for n := 0; n < 10; n++ {
		d := Backoff(n) // want `blind test: TestBackoffCeiling draws Backoff 10 times, with an argument that changes on each pass \(n\), and checks only their bounds \(d >= 0 && d <= Ceiling\(n\)\).*at one value of n \(or each\), xs := spread.Draw\(1000, func\(\) time.Duration \{ return Backoff\(n\) \}\)`
		assert.True(t, d >= 0 && d <= Ceiling(n))
	}
}

// A table of cases, each in a subtest.
func TestFullTable(t *testing.T) {
	for _, max := range []time.Duration{time.Second, time.Minute} {
		t.Run(max.String(), func(t *testing.T) {
			d := Full(max) // want `blind test: TestFullTable draws Full repeatedly, with an argument that changes on each pass \(max\)`
			assert.GreaterOrEqual(t, d, time.Duration(0))
			assert.LessOrEqual(t, d, max)
		})
	}
}

// One draw, bounds only.
func TestFullOnce(t *testing.T) {
	d := Full(time.Second) // want `blind test: TestFullOnce draws Full once and checks only its bounds \(d < 0 \|\| d >= time.Second\)`
	if d < 0 || d >= time.Second {
		t.Fatal(d)
	}
}

// Two draws through the module's own bool helper.
func TestFullBetween(t *testing.T) {
	a, b := Full(time.Second), Full(time.Second) // want `blind test: TestFullBetween draws Full 2 times and checks only their bounds \(!between\(a, 0, time.Second\) \|\| !between\(b, 0, time.Second\)\)`
	if !between(a, 0, time.Second) || !between(b, 0, time.Second) {
		t.Fatal(a, b)
	}
}

func between(d, lo, hi time.Duration) bool { return d >= lo && d < hi }

// A helper that fails the test itself.
func TestFullInRange(t *testing.T) {
	for range 50 {
		inRange(t, Full(time.Second), 0, time.Second) // want `blind test: TestFullInRange draws Full 50 times and checks only their bounds \(inRange\(t, Full\(time.Second\), 0, time.Second\)\)`
	}
}

func inRange(t *testing.T, d, lo, hi time.Duration) {
	t.Helper()
	if d < lo || d >= hi {
		t.Errorf("%v outside [%v, %v)", d, lo, hi)
	}
}

func TestFractionInDelta(t *testing.T) {
	for range 100 {
		assert.InDelta(t, 0.5, Fraction(), 0.5) // want `blind test: TestFractionInDelta draws Fraction 100 times and checks only their bounds \(assert.InDelta`
	}
}

func TestFractionInEpsilon(t *testing.T) {
	for range 100 {
		assert.InEpsilon(t, 0.5, Fraction(), 1) // want `blind test: TestFractionInEpsilon draws Fraction 100 times and checks only their bounds \(assert.InEpsilon`
	}
}

func TestFullWithin(t *testing.T) {
	start := time.Now()
	for range 100 {
		assert.WithinDuration(t, start, start.Add(Full(time.Second)), time.Second) // want `blind test: TestFullWithin draws Full 100 times and checks only their bounds \(assert.WithinDuration`
	}
}

func TestFullGotestTools(t *testing.T) {
	for range 100 {
		d := Full(time.Second) // want `blind test: TestFullGotestTools draws Full 100 times and checks only their bounds \(d >= 0 && d < time.Second\)`
		gtassert.Assert(t, d >= 0 && d < time.Second)
	}
}

func TestFullQuicktest(t *testing.T) {
	c := qt.New(t)
	for range 100 {
		d := Full(time.Second) // want `blind test: TestFullQuicktest draws Full 100 times and checks only their bounds \(d >= 0 && d < time.Second\)`
		c.Assert(d >= 0 && d < time.Second, qt.IsTrue)
	}
}

// Four draws with no loop, bounds only.
func TestManyOnce(t *testing.T) {
	a, b, c, d := Full(time.Second), Full(time.Second), Full(time.Second), Full(time.Second) // want `blind test: TestManyOnce draws Full 4 times and checks only their bounds \(a < 0 \|\| b < 0 \|\| c < 0 \|\| d < 0\)`
	if a < 0 || b < 0 || c < 0 || d < 0 {
		t.Fatal(a)
	}
}

// One call pinned exactly (the first attempt has no jitter), a later one of a stateful
// method only against bounds: blind for the later one.
func TestStepsMixed(t *testing.T) {
	s := &Steps{}
	if s.Next() != time.Second {
		t.Fatal("first step")
	}
	if d := s.Next(); d < time.Second || d >= 2*time.Second { // want `blind test: TestStepsMixed draws s.Next once and checks only its bounds`
		t.Fatal(d)
	}
}

// Different arguments in one loop: calcSleep(0) exact, calcSleep(1) bounds only.
func TestArgsMixed(t *testing.T) {
	for i := 0; i < 20; i++ {
		if Full(0) != 0 {
			t.Error("zero")
		}
		slp := Full(time.Second) // want `blind test: TestArgsMixed draws Full 20 times and checks only their bounds \(slp < 0 \|\| slp >= time.Second, slp < 0 \|\| slp >= time.Minute\)`
		if slp < 0 || slp >= time.Second {
			t.Error(slp)
		}
		slp = Full(time.Minute)
		if slp < 0 || slp >= time.Minute {
			t.Error(slp)
		}
	}
}

// Not flagged: a draw compared exactly, a helper that does more than bounds, a draw many
// calls away, a draw no check reads, and the same call checked exactly and against bounds.

func TestFullEqual(t *testing.T) {
	assert.Equal(t, Full(time.Second), Full(time.Second))
}

func TestFullHelperMore(t *testing.T) {
	for range 50 {
		record(t, Full(time.Second))
	}
}

var seen []time.Duration

func record(t *testing.T, d time.Duration) {
	if d < 0 {
		t.Fatal(d)
	}
	seen = append(seen, d)
}

func TestDeepOnce(t *testing.T) {
	if d := Deep(); d < 0 {
		t.Fatal(d)
	}
}

func TestFullIgnored(t *testing.T) {
	_ = Full(time.Second)
}

func TestSameCallExact(t *testing.T) {
	for range 10 {
		if Full(time.Minute) == Full(time.Minute) { // a chance of 1.7e-11 a pass, below 1e-9
			t.Fatal("twice the same")
		}
		if d := Full(time.Minute); d < 0 {
			t.Fatal(d)
		}
	}
}

// Bounds and coverage: it counts the draws near each end and fails when an end is never
// reached, which a constant does. Not flagged.
func TestFullCoverage(t *testing.T) {
	low, high := 0, 0
	for range 1000 {
		d := Full(time.Second)
		if d < 0 || d >= time.Second {
			t.Fatal(d)
		}
		if d < 100*time.Millisecond {
			low++
		}
		if d > 900*time.Millisecond {
			high++
		}
	}
	if low == 0 || high == 0 {
		t.Fatal(low, high)
	}
}

// A helper kept in a local variable that only compares its parameter with bounds (azcore's
// TestCalcDelay): still blind.
func TestFullLocalHelper(t *testing.T) {
	within := func(t testing.TB, want, got time.Duration) {
		lo, hi := float64(want)*0.8, float64(want)*1.3
		assert.True(t, float64(got) >= lo && float64(got) <= hi, "%.2f not within 20%% of %v", got.Seconds(), want)
	}
	for i := 1; i <= 5; i++ {
		d := Full(time.Duration(i) * time.Second) // want `blind test: TestFullLocalHelper draws Full 5 times, with an argument that changes on each pass \(i\), and checks only their bounds \(within\( t, time.Second, d, \)\)`
		within(
			t, time.Second, d,
		)
	}
}

// A local helper that compares its parameter exactly is no bounds check.
func TestFullLocalExact(t *testing.T) {
	same := func(t testing.TB, want, got time.Duration) {
		if got != want {
			t.Errorf("%v != %v", got, want)
		}
	}
	for range 5 {
		same(t, time.Second, Full(time.Second))
	}
}

// Bounds for the first attempts, an exact check for the later ones, where the backoff is
// capped (azcore's TestCalcDelay): the exact loop draws at other arguments, so the first is
// still blind.
func TestBackoffCapped(t *testing.T) {
	for n := 1; n <= 5; n++ {
		d := Backoff(n) // want `blind test: TestBackoffCapped draws Backoff 5 times, with an argument that changes on each pass \(n\), and checks only their bounds \(d < 0 \|\| d > Ceiling\(n\)\)`
		if d < 0 || d > Ceiling(n) {
			t.Fatal(d)
		}
	}
	for n := 6; n < 10; n++ {
		if Backoff(n) != Ceiling(n) {
			t.Fatal(n)
		}
	}
}

// The same loop checks each draw against bounds and against an exact value: not blind.
func TestBackoffPinned(t *testing.T) {
	for n := 1; n <= 5; n++ {
		if d := Backoff(n); d < 0 || d > Ceiling(n) {
			t.Fatal(d)
		}
		if Backoff(n) != Ceiling(n) {
			t.Fatal(n)
		}
	}
}

// testClock is the test's fake clock, moved by each wait.
type testClock struct{ now time.Time }

func (c *testClock) move(d time.Duration) { c.now = c.now.Add(d) }

func (c *testClock) moveExactly(t *testing.T, d time.Duration) {
	if d != time.Second {
		t.Fatalf("moved by %v", d)
	}
	c.now = c.now.Add(d)
}

// Each wait is positive or the sentinel, and moves the test's clock (temporal's
// TestNoMaxAttempts): a constant wait passes.
func TestRetryUnbounded(t *testing.T) {
	var clock testClock
	for n := range 20 {
		next := Retry(n) // want `blind test: TestRetryUnbounded draws Retry 20 times, with an argument that changes on each pass \(n\), and checks only their bounds \(next > 0 \|\| next == Done\)`
		assert.True(t, next > 0 || next == Done, "unexpected wait %v", next)
		clock.move(next)
	}
}

// A fake that checks the wait it is given, or an equality beside no bound, is a sharper
// check: not blind.
func TestRetryChecked(t *testing.T) {
	var clock testClock
	for n := range 20 {
		next := Retry(n)
		assert.True(t, next > 0 || next == Done)
		clock.moveExactly(t, next)
	}
	for n := range 20 {
		if next := Retry(n); next == Done || next == time.Second {
			t.Fatal(next)
		}
	}
}

// The waits of an interface whose value moves on every call: a copy of the interface would
// share that value, so the suggested draw makes it afresh each time.
func TestWaiterBounds(t *testing.T) {
	w := NewWaiter()
	for range 10 {
		if d := w.Next(); d < time.Second || d >= 2*time.Second { // want `blind test: TestWaiterBounds draws w.Next 10 times and checks only their bounds \(d < time.Second \|\| d >= 2\*time.Second\), so a constant or a collapsed range passes it; check the spread: Next is a method of an interface, which may move w's state on every call, so make w afresh for each draw as the test makes it: xs := spread.Draw\(1000, func\(\) time.Duration \{ w := ...; return w.Next\(\) \}\)`
			t.Fatal(d)
		}
	}
}

// The sentinel where the test expects it, bounds on the other waits (temporal's
// TestDefaultPublishRetryPolicy): blind.
func TestRetryPolicy(t *testing.T) {
	for n := range 12 {
		expected := time.Second << n
		if n >= 10 {
			expected = Done
		}
		next := Retry(n) // want `blind test: TestRetryPolicy draws Retry 12 times, with an argument that changes on each pass \(n\), and checks only their bounds \(next >= 0\)`
		if expected == Done {
			assert.Equal(t, Done, next, "not done yet")
		} else {
			assert.True(t, next >= 0, "wait %v", next)
		}
	}
}

// An exact check outside a sentinel's branch is a sharper check: not blind.
func TestRetryPinned(t *testing.T) {
	for n := range 12 {
		next := Retry(n)
		if n < 10 {
			assert.Equal(t, time.Second, next)
		} else {
			assert.True(t, next >= 0)
		}
	}
}

// TestRetryPolicy with the sentinel checked by a comparison in its own branch: blind as well.
func TestRetryPolicyIf(t *testing.T) {
	for n := range 12 {
		next := Retry(n) // want `blind test: TestRetryPolicyIf draws Retry 12 times, with an argument that changes on each pass \(n\), and checks only their bounds \(next < 0\)`
		if expected := Done; n >= 10 && expected == Done {
			if next != Done {
				t.Fatal(next)
			}
		} else if next < 0 {
			t.Fatal(next)
		}
	}
}

// A local predicate that converts its parameter and compares the result with bounds
// (elastic's between), over draws of one call at a few arguments with no loop, each read
// into the same variable: still blind.
func TestBackoffBetween(t *testing.T) {
	between := func(value time.Duration, a, b int) bool {
		x := int(value / time.Millisecond)
		return a <= x && x <= b
	}
	got := Backoff(0) // want `blind test: TestBackoffBetween draws Backoff 3 times and checks only their bounds \(!between\(got, 0, 1000\), !between\(got, 0, 2000\), !between\(got, 0, 4000\)\)`
	if !between(got, 0, 1000) {
		t.Errorf("got %v", got)
	}
	got = Backoff(1)
	if !between(got, 0, 2000) {
		t.Errorf("got %v", got)
	}
	got = Backoff(2)
	if !between(got, 0, 4000) {
		t.Errorf("got %v", got)
	}
}

// The same predicate, but the same call is then pinned exactly: the span of each draw ends
// at the next store, and the exact check is the second draw's.
func TestBackoffBetweenThenExact(t *testing.T) {
	between := func(value time.Duration, a, b int) bool {
		x := int(value / time.Millisecond)
		return a <= x && x <= b
	}
	got := Backoff(0)
	if !between(got, 0, 1000) {
		t.Errorf("got %v", got)
	}
	got = Backoff(0)
	if got != time.Second {
		t.Errorf("got %v", got)
	}
}

// A local predicate whose converted value is compared exactly is no bounds check.
func TestBackoffWhole(t *testing.T) {
	whole := func(value time.Duration) bool {
		x := int(value / time.Millisecond)
		return x == 1000
	}
	got := Backoff(0)
	if !whole(got) {
		t.Errorf("got %v", got)
	}
}
