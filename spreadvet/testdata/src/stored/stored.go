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

type entry struct {
	backoff time.Duration // want backoff:"stored\\(entry.backoff\\)"
}

// PerItem keeps a jittered exponential backoff for each key, as client-go's flowcontrol does:
// Next moves a key's backoff and Get reads it into a local before returning it.
type PerItem struct {
	items  map[string]*entry
	factor float64
	rnd    *rand.Rand
}

// NewPerItem returns a per-key backoff that adds up to factor times each delay.
func NewPerItem(factor float64) *PerItem {
	return &PerItem{items: map[string]*entry{}, factor: factor, rnd: rand.New(rand.NewPCG(1, 2))}
}

func (p *PerItem) jitter(d time.Duration) time.Duration { // want jitter:"random\\(rand.Float64\\)"
	return time.Duration(p.rnd.Float64() * p.factor * float64(d))
}

// Next moves the backoff of id: the first is base plus jitter, each next twice the last plus
// jitter.
func (p *PerItem) Next(id string, base time.Duration) { // want Next:"random\\(calls jitter\\)"
	e, ok := p.items[id]
	if !ok {
		e = &entry{backoff: base}
		p.items[id] = e
		e.backoff += p.jitter(e.backoff)
		return
	}
	delay := e.backoff * 2
	delay += p.jitter(e.backoff)
	e.backoff = delay
}

// Get returns the backoff of id.
func (p *PerItem) Get(id string) time.Duration { // want Get:"stored\\(entry.backoff\\)"
	var delay time.Duration
	if e, ok := p.items[id]; ok {
		delay = e.backoff
	}
	return delay
}
