package fakeclock

import (
	"cmp"
	"math"
	"slices"
)

// Lazy ticks. A ticker whose reader is behind (a value already waits in
// its one-slot buffer) drops every tick until the reader takes the value,
// as time.Ticker does. Firing each dropped tick would cost an instant
// apiece: NewTicker(time.Nanosecond) and an Advance of a second, a billion.
// So before each instant, the tickers at the top of the heap whose reader
// is behind jump straight to their first tick at or after the next instant
// that can wake anybody (the earliest other event), or past the target.
// Nobody could have taken their value in between: in a bubble every
// goroutine is durably blocked when the next instant is chosen, so only an
// event of the Fake can wake one; outside a bubble, a reader that takes the
// value just after the check is a reader that ran a little later, which
// nothing outside a bubble promises against.
//
// The jump keeps what the skipped ticks would have left: the held value is
// the oldest tick, the phase is kept, and the order of ties (arming order)
// is the one that re-arming at each dropped tick gives: a ticker counts as
// re-armed at its last skipped tick, after every timer armed by then.

// skipDroppedLocked moves the tickers at the top of the heap whose reader
// is behind past the ticks they would drop before the next instant that
// fires anything else, or before target + 1.
func (f *Fake) skipDroppedLocked(target int64) {
	behind := f.behind[:0]
	for len(f.heap) > 0 {
		t := f.heap[0]
		if t.period == 0 || t.c == nil || len(t.c) < cap(t.c) || t.when > target {
			break
		}
		behind = append(behind, f.heap.remove(0))
	}
	if len(behind) == 0 {
		return
	}
	until := addSat(target, 1)
	if len(f.heap) > 0 {
		until = min(until, f.heap[0].when)
	}
	var moved []*timer
	for _, t := range behind {
		if next := firstTick(t.when, t.period, until); next != t.when {
			t.when = next
			moved = append(moved, t)
		}
	}
	// Re-arm in the order the dropped ticks would have: by the last one.
	slices.SortFunc(moved, func(a, b *timer) int {
		return cmp.Or(cmp.Compare(a.when-a.period, b.when-b.period), cmp.Compare(a.seq, b.seq))
	})
	for _, t := range moved {
		t.seq = f.seq
		f.seq++
	}
	for _, t := range behind {
		f.heap.push(t)
	}
	clear(behind)
	f.behind = behind[:0]
}

// firstTick returns the first tick at or after until of a ticker due at
// when with the given period, or the largest time if there is none.
func firstTick(when, period, until int64) int64 {
	if when >= until {
		return when
	}
	k := (until-when-1)/period + 1 // ceil((until - when) / period), without overflow
	if k > (math.MaxInt64-when)/period {
		return math.MaxInt64
	}
	return when + k*period
}
