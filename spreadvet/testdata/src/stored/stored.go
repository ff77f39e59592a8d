// Package stored keeps its draws in fields, as real breakers and policies do: a breaker draws
// its open delay when it opens and a policy its jitter when it is built; methods that draw
// nothing read them later.
package stored

import (
	"math/rand/v2"
	"time"
)

type state interface {
	remaining() time.Duration
}

type openState struct {
	delay time.Duration // want delay:"stored\\(openState.delay\\)"
	opens int
}

func (s *openState) remaining() time.Duration { return s.delay } // want remaining:"stored\\(openState.delay\\)"

type closedState struct{}

func (closedState) remaining() time.Duration { return 0 }

// A Breaker opens for Delay plus up to Jitter.
type Breaker struct {
	Delay, Jitter time.Duration
	state         state
	opened        int
}

func newOpen(delay time.Duration, opens int) *openState {
	return &openState{delay: delay, opens: opens}
}

func (b *Breaker) delayOf() time.Duration { // want delayOf:"random\\(rand.N\\)"
	return b.Delay + rand.N(b.Jitter)
}

// Open opens the breaker for a jittered delay.
func (b *Breaker) Open() { // want Open:"random\\(calls delayOf\\)"
	b.opened++
	b.state = newOpen(b.delayOf(), b.opened)
}

// Remaining is the delay the breaker stays open.
func (b *Breaker) Remaining() time.Duration { // want Remaining:"stored\\(openState.delay\\)"
	if b.state == nil {
		return 0
	}
	return b.state.remaining()
}

// Opened counts the openings: no draw.
func (b *Breaker) Opened() int { return b.opened }

// A Policy waits a jitter drawn when it is built.
type Policy struct {
	wait time.Duration // want wait:"stored\\(Policy.wait\\)"
}

// NewPolicy draws the policy's wait, in [base, 2 base).
func NewPolicy(base time.Duration) *Policy { // want NewPolicy:"random\\(rand.N\\)"
	return &Policy{wait: base + rand.N(base)}
}

// Wait is the wait drawn when the policy was built.
func (p *Policy) Wait() time.Duration { return p.wait } // want Wait:"stored\\(Policy.wait\\)"
