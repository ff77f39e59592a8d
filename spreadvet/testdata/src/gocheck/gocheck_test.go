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

// juju/retry's TestExpBackofWithJitterAverage: each delay held to bounds, and the mean of their
// ratios to the unjittered delay held to (0.9, 1.1), which no jitter at all (ratio 1) meets.
func (*backoffSuite) TestJitterAverage(c *gc.C) {
	ratioSum := 0.0
	for attempt := 0; attempt < 100; attempt++ {
		got := Backoff(attempt % 5) // want `blind test: TestJitterAverage draws Backoff 100 times, with an argument that changes on each pass \(attempt\), and checks only their bounds \(c.Assert\(got, jc.GreaterThan, base\*8/10-1\), c.Check\(ratioAvg, jc.GreaterThan, 0.9\), c.Check\(ratioAvg, jc.LessThan, 1.1\)\)`
		base := time.Duration(1<<(attempt%5)) * 100 * time.Millisecond
		c.Assert(got, jc.GreaterThan, base*8/10-1)
		ratio := float64(got) / float64(base)
		ratioSum += ratio
	}
	ratioAvg := ratioSum / 100
	c.Check(ratioAvg, jc.GreaterThan, 0.9)
	c.Check(ratioAvg, jc.LessThan, 1.1)
}

// The ratios' squares are summed too: their spread is checked, not flagged.
func (*backoffSuite) TestJitterSpread(c *gc.C) {
	sum, squares := 0.0, 0.0
	for range 100 {
		ratio := float64(Backoff(0)) / float64(100*time.Millisecond)
		sum += ratio
		squares += ratio * ratio
	}
	mean := sum / 100
	c.Check(squares/100-mean*mean, jc.GreaterThan, 0.005)
}
