package fakeclock

import (
	"testing"
	"time"
)

func TestSmokeTicker(t *testing.T) {
	Test(t, func(t *testing.T, c *Fake) {
		start := c.Now()
		var got []time.Duration
		done := make(chan struct{})
		go func() {
			defer close(done)
			tk := c.NewTicker(time.Second)
			defer tk.Stop()
			for range 5 {
				v := <-tk.C
				got = append(got, v.Sub(start))
			}
		}()
		c.Advance(5 * time.Second)
		<-done
		t.Log(got)
	})
}
