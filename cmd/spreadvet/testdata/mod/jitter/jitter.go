// Package jitter is the fixture the command is run on.
package jitter

import "time"

// Jitter spreads d by ±25% by the clock's parity.
func Jitter(d time.Duration) time.Duration {
	return d + d/4*time.Duration(2*(time.Now().UnixNano()%2)-1)
}
