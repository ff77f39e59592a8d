package sleeploop

import (
	"math/rand/v2"
	"time"
)

// Not flagged: jitter + ticker with the ticker made by the caller, as a channel or a
// *time.Ticker.

func JitterTick(tick <-chan time.Time, interval time.Duration) { // want JitterTick:"random\\(rand.N\\)"
	for {
		time.Sleep(rand.N(interval))
		doThing()
		<-tick
	}
}

func JitterTicker2(t *time.Ticker, interval time.Duration) { // want JitterTicker2:"random\\(rand.N\\)"
	for {
		select {
		case <-t.C:
		}
		time.Sleep(rand.N(interval))
		doThing()
	}
}
