// Package bidder is the retry backoff of the story "The jitter that never jittered", as it
// shipped.
package bidder

import (
	"math"
	"time"
)

type Config struct {
	BaseDelay time.Duration
	MaxDelay  time.Duration
}

func calculateDelay(cfg Config, attempt int) time.Duration { // want calculateDelay:"random\\(a clock reading\\)"
	delay := float64(cfg.BaseDelay) * math.Pow(2, float64(attempt))
	if delay > float64(cfg.MaxDelay) {
		delay = float64(cfg.MaxDelay)
	}
	// Add jitter (±25%)
	jitter := delay * 0.25 * (2*float64(time.Now().UnixNano()%2) - 1) // want `clock-derived randomness: time.Now\(\).UnixNano\(\)%2 takes a remainder of the clock reading UnixNano\(\) as a random number`
	delay += jitter
	if delay < 0 {
		delay = 0
	}
	return time.Duration(delay)
}
