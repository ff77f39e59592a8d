package channel_test

import (
	"channel"
	"testing"
	"time"
)

// The draws cross a channel and meet only a bound.
func TestConcurrentWaits(t *testing.T) {
	r := &channel.Retrier{}
	r.Failed()
	ch := make(chan time.Duration, 3)
	go func() {
		for range 3 {
			ch <- r.Wait() // want `blind test: TestConcurrentWaits draws r.Wait 3 times and checks only their bounds \(val <= 0\)`
		}
	}()
	for range 3 {
		val := <-ch
		if val <= 0 {
			t.Fatal(val)
		}
	}
}

// Ranged over: the same.
func TestRangedWaits(t *testing.T) {
	r := &channel.Retrier{}
	r.Failed()
	ch := make(chan time.Duration)
	go func() {
		defer close(ch)
		for range 20 {
			ch <- r.Wait() // want `blind test: TestRangedWaits draws r.Wait 20 times and checks only their bounds \(d < time.Millisecond \|\| d > 3\*time.Millisecond\)`
		}
	}()
	for d := range ch {
		if d < time.Millisecond || d > 3*time.Millisecond {
			t.Fatal(d)
		}
	}
}

// The receives of the draws are summed and the sum held to a bound: a constant wait passes.
func TestSummedWaits(t *testing.T) {
	r := &channel.Retrier{}
	r.Failed()
	ch := make(chan time.Duration, 100)
	go func() {
		for range 100 {
			ch <- r.Wait() // want `blind test: TestSummedWaits draws r.Wait 100 times and checks only their bounds \(sum < 200\*time.Millisecond\)`
		}
	}()
	var sum time.Duration
	for range 100 {
		sum += <-ch
	}
	if sum < 200*time.Millisecond {
		t.Fatal(sum)
	}
}

// The receives make a variance: more than bounds, not flagged.
func TestWaitsVariance(t *testing.T) {
	r := &channel.Retrier{}
	r.Failed()
	ch := make(chan time.Duration, 100)
	go func() {
		for range 100 {
			ch <- r.Wait()
		}
	}()
	var sum, squares float64
	for range 100 {
		d := (<-ch).Seconds()
		sum += d
		squares += d * d
	}
	if v := squares/100 - sum*sum/10000; v < 1e-6 {
		t.Fatal(v)
	}
}

// The channel goes to other code: what it does with the draws is not in view.
func TestHandedOn(t *testing.T) {
	r := &channel.Retrier{}
	r.Failed()
	ch := make(chan time.Duration, 10)
	for range 10 {
		ch <- r.Wait()
	}
	drain(t, ch)
}

func drain(t *testing.T, ch chan time.Duration) {
	close(ch)
	for d := range ch {
		t.Log(d)
	}
}
