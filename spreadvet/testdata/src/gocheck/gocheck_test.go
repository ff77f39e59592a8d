package gocheck

import (
	"testing"
	"time"

	jc "github.com/juju/testing/checkers"
	gc "gopkg.in/check.v1"
)

func Test(t *testing.T) { gc.TestingT(t) }

type backoffSuite struct{}

var _ = gc.Suite(&backoffSuite{})

// juju/retry's TestExpBackoffWithJitter: each delay asserted only between two bounds.
func (*backoffSuite) TestJitter(c *gc.C) {
	for attempt := 0; attempt < 5; attempt++ {
		got := Backoff(attempt) // want `blind test: TestJitter draws Backoff 5 times, with an argument that changes on each pass \(attempt\), and checks only their bounds`
		base := time.Duration(1<<attempt) * 100 * time.Millisecond
		c.Assert(got, jc.GreaterThan, base*8/10-1, gc.Commentf("attempt %d: %s", attempt, got))
		c.Assert(got, jc.LessThan, base*12/10+1, gc.Commentf("attempt %d: %s", attempt, got))
	}
}

// An exact assertion is sharp.
func (*backoffSuite) TestExact(c *gc.C) {
	for range 5 {
		c.Assert(Backoff(0), gc.Equals, 100*time.Millisecond)
	}
}
