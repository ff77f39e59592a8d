// Package realgap retries on a jittered interval, as a backoff controller does: Start returns
// a controller whose channel ticks after each jittered wait.
package realgap

import (
	"math/rand/v2"
	"time"
)

// A Controller ticks once per attempt.
type Controller struct{ next chan struct{} }

func wait(base time.Duration) time.Duration { return base/2 + rand.N(base) } // want wait:"random\\(rand.N, Uniform\\[0.5\\*\\$0, 1.5\\*\\$0\\)\\)"

// Start ticks n times, base apart with jitter.
func Start(base time.Duration, n int) *Controller { // want Start:"random\\(calls wait\\)"
	c := &Controller{next: make(chan struct{})}
	go func() {
		for range n {
			time.Sleep(wait(base))
			c.next <- struct{}{}
		}
		close(c.next)
	}()
	return c
}

// Fixed ticks n times, base apart.
func Fixed(base time.Duration, n int) *Controller {
	c := &Controller{next: make(chan struct{})}
	go func() {
		for range n {
			time.Sleep(base)
			c.next <- struct{}{}
		}
		close(c.next)
	}()
	return c
}

// Continue waits for the next attempt.
func Continue(c *Controller) bool {
	_, ok := <-c.next
	return ok
}
