package jitterapi_test

import (
	"io"

	"github.com/stretchr/testify/assert"
	"jitterapi"
	"math/rand/v2"
	"testing"
	"time"
)

const base = time.Second

func TestJitterBounds(t *testing.T) {
	for range 100 {
		d := jitterapi.Jitter(base, 0.5) // want `blind test: TestJitterBounds draws jitterapi.Jitter 100 times and checks only their bounds \(d < base \|\| d > base\*3/2\)`
		if d < base || d > base*3/2 {
			t.Fatalf("jitter %v outside [%v, %v]", d, base, base*3/2)
		}
	}
}

func TestBackoffBounds(t *testing.T) {
	b := jitterapi.New(base)
	for range 100 {
		if d := b.Next(2); d < 0 || d >= 4*base { // want `blind test: TestBackoffBounds draws b.Next 100 times`
			t.Fatal(d)
		}
	}
}

func TestJitterFuncBounds(t *testing.T) {
	jitter := jitterapi.JitterFunc(0.2)
	for range 100 {
		if d := jitter(base); d < base || d > base*6/5 { // want `blind test: TestJitterFuncBounds draws jitter 100 times`
			t.Fatal(d)
		}
	}
}

func TestPolicyBounds(t *testing.T) {
	p := jitterapi.NewPolicy(base, jitterapi.WithJitter())
	for range 100 {
		if d := p.Delay(); d < base/2 || d >= base { // want `blind test: TestPolicyBounds draws p.Delay 100 times`
			t.Fatal(d)
		}
	}
}

func TestSamplerBounds(t *testing.T) {
	s := jitterapi.NewSampler()
	for range 100 {
		if d := s.Sample(base); d < 0 || d >= base { // want `blind test: TestSamplerBounds draws s.Sample 100 times`
			t.Fatal(d)
		}
	}
}

// The wrapper's value hides the draw behind an interface method with two results, and the
// draw is also formatted into testify's message.
func TestSpreadBounds(t *testing.T) {
	b := jitterapi.WithSpread(base/10, jitterapi.StepFunc(func() (time.Duration, bool) { return base, false }))
	for range 100 {
		d, stop := b.Next() // want `blind test: TestSpreadBounds draws b.Next 100 times and checks only their bounds`
		if stop {
			t.Fatal("stopped")
		}
		assert.True(t, d >= base*9/10 && d < base*11/10, "wait %v", d)
	}
}

// One func variable, two jitters: the first checked against bounds, the second (no jitter)
// exactly. Blind for the first.
func TestJitterFuncReassigned(t *testing.T) {
	delay := jitterapi.JitterFunc(0.2)
	for range 5 {
		if v := delay(base); v < base || v > base*6/5 { // want `blind test: TestJitterFuncReassigned draws delay 5 times`
			t.Fatal(v)
		}
	}
	delay = jitterapi.JitterFunc(0)
	if v := delay(base); v != base {
		t.Fatal(v)
	}
}

// Not flagged: a fixed wait behind a func field, a clock behind an interface, and the
// test's own fake backoff that draws (a helper of the test, not the code under test).

func TestFixed(t *testing.T) {
	f := jitterapi.NewFixed()
	for range 10 {
		if d := f.Wait(); d <= 0 {
			t.Fatal(d)
		}
	}
}

func TestClock(t *testing.T) {
	c := jitterapi.NewClock()
	start := time.Now()
	for range 10 {
		if d := c.Since(start); d < 0 {
			t.Fatal(d)
		}
	}
}

func TestSpreaderBounds(t *testing.T) {
	s := jitterapi.NewSpreader(rand.New(rand.NewPCG(1, 2)))
	for range 100 {
		if d := s.Apply(base); d < base*9/10 || d >= base*11/10 { // want `blind test: TestSpreaderBounds draws s.Apply 100 times`
			t.Fatal(d)
		}
	}
}

func TestWriter(t *testing.T) {
	var w io.Writer = io.Discard
	for _, s := range []string{"a", "b"} {
		w.Write([]byte(s))
	}
}

type fake struct{}

func (fake) Next(attempt int) time.Duration { return rand.N(time.Second) }

func TestFake(t *testing.T) {
	var b jitterapi.Backoff = fake{}
	for range 10 {
		if d := b.Next(1); d < 0 {
			t.Fatal(d)
		}
	}
}
