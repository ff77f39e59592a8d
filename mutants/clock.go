package mutants

import (
	"sync"
	"time"
)

// clockEpoch is the instant the default clocks start at: 0.123456789 into a second, so that
// the coarse clock's constant is neither end of the range.
var clockEpoch = time.Date(2025, 1, 1, 0, 0, 0, 123456789, time.UTC)

// fineStep is how far the default fine clock advances per reading: (3 - sqrt(3))/6 of a
// second. The fraction of the second then steps round [0, 1) as a rotation whose lag-1
// serial correlation is almost exactly zero, the hardest stepped clock for a correlation
// test; its ascents (each value above the last 79% of the time) still give it away.
const fineStep = 211324865 * time.Nanosecond

// steppingClock is a deterministic clock that advances by step after each reading. With a
// step of zero it is the coarse clock of the story: every call sees the same instant.
type steppingClock struct {
	mu   sync.Mutex
	now  time.Time
	step time.Duration
}

func (c *steppingClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := c.now
	c.now = c.now.Add(c.step)
	return t
}

// fractionOfSecond returns the clock reading's fraction of a second, in [0, 1): the
// "random" number of a clock-derived mutant.
func fractionOfSecond(t time.Time) float64 {
	return float64(t.Nanosecond()) / 1e9
}
