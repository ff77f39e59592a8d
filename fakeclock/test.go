package fakeclock

import (
	"testing"
	"testing/synctest"
	"time"
)

// Test runs f in a testing/synctest bubble with a Fake that starts at the
// bubble's start time, 2000-01-01 00:00:00 UTC. There, Advance and
// AdvanceNext wait until every other goroutine of the bubble is blocked
// before they fire the first instant and again after each instant, so a
// loop started just before Advance has armed its ticker, and has handled
// each tick before the next one fires, on every run.
//
// Advance from one goroutine at a time (synctest.Wait allows no more).
// The rules of synctest.Test apply: every goroutine that f starts must
// have exited when f returns (end loops with t.Context(), which is
// canceled as f returns), and a deadlock fails the test. A nil f fails the
// test with a message that says so; a nil t panics with one, having no
// test to fail.
func Test(t *testing.T, f func(t *testing.T, c *Fake)) {
	if t == nil {
		panic("fakeclock: Test(nil, ...): no test to run in")
	}
	t.Helper()
	if f == nil {
		t.Fatal("fakeclock: Test(t, nil): no test function to run")
	}
	synctest.Test(t, func(t *testing.T) {
		c := NewFake(time.Now())
		c.bubble = true
		f(t, c)
	})
}
