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

// The receives of the draws sum them: more than bounds.
func TestSummedWaits(t *testing.T) {
	r := &channel.Retrier{}
	r.Failed()
	ch := make(chan time.Duration, 100)
	go func() {
		for range 100 {
			ch <- r.Wait()
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
