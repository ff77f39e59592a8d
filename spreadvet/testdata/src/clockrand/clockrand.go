// Package clockrand reads randomness from the clock, and the clock for what it is for.
package clockrand

import (
	"context"
	"math/rand"
	"time"
)

// Shard picks a shard by the clock.
func Shard(n int64) int64 { // want Shard:"random\\(a clock reading\\)"
	return time.Now().UnixNano() % n // want `clock-derived randomness: time.Now\(\).UnixNano\(\) % n takes a remainder of the clock reading UnixNano\(\) as a random number; .*draw from math/rand/v2 or an injected \*rand.Rand`
}

// Coin flips a coin by the parity of the clock.
func Coin() bool { // want Coin:"random\\(a clock reading\\)"
	now := time.Now()
	return now.UnixNano()&1 == 1 // want `clock-derived randomness: now.UnixNano\(\)&1 takes the low bits of the clock reading UnixNano\(\)`
}

// Fraction is the fraction of the current second.
func Fraction() float64 { // want Fraction:"random\\(a clock reading\\)"
	return float64(time.Now().Nanosecond()) / 1e9 // want `clock-derived randomness: float64\(time.Now\(\).Nanosecond\(\)\) / 1e9 takes the fraction of the current second`
}

// PerRequest seeds a new source from the clock on every call.
func PerRequest(max int64) int64 { // want PerRequest:"random\\(rand.Int63n, Uniform\\[0, 1\\*\\$0\\)\\)"
	r := rand.New(rand.NewSource(time.Now().UnixNano())) // want `clock-derived randomness: rand.NewSource\(time.Now\(\).UnixNano\(\)\) seeds a source from the clock on every call`
	return r.Int63n(max)
}

// Reseed reseeds the global source on every call.
func Reseed() int { // want Reseed:"random\\(rand.Intn, Uniform\\[0, 10\\)\\)"
	rand.Seed(time.Now().UnixNano()) // want `clock-derived randomness: rand.Seed\(time.Now\(\).UnixNano\(\)\) seeds a source from the clock`
	return rand.Intn(10)
}

// A Clock is an injected clock; its readings are no randomness either.
type Clock interface{ Now() time.Time }

// Parity reads an injected clock's parity.
func Parity(c Clock) int64 { // want Parity:"random\\(a clock reading\\)"
	return c.Now().UnixNano() % 2 // want `clock-derived randomness: c.Now\(\).UnixNano\(\) % 2`
}

// Not flagged: a deadline, a timeout, an elapsed time, a timestamp taken modulo (event time,
// not the clock), a source seeded once and kept, a seed in init.

func Deadline(ctx context.Context, timeout time.Duration) (context.Context, context.CancelFunc) {
	return context.WithDeadline(ctx, time.Now().Add(timeout))
}

func Elapsed(start time.Time) bool { return time.Since(start) > 5*time.Second }

func Bucket(event time.Time) int64 { return event.Unix() % 60 }

type Client struct{ rng *rand.Rand }

func NewClient() *Client {
	return &Client{rng: rand.New(rand.NewSource(time.Now().UnixNano()))}
}

func (c *Client) Jitter(d time.Duration) time.Duration { // want Jitter:"random\\(rand.Int63n, Uniform\\[0, 1\\*\\$0\\)\\)"
	return time.Duration(c.rng.Int63n(int64(d)))
}

func init() { rand.Seed(time.Now().UnixNano()) }

func Stamp() string { return time.Now().Format(time.RFC3339Nano) }

func Millis() int64 { return time.Now().UnixNano() / 1e6 }

// Not flagged either: whole seconds index a ring of per-second buckets; an hour window taken
// modulo n; the time left to the next boundary of an interval; a time rounded down to one.

type Window struct{ counts [60]int }

func (w *Window) Add() { w.counts[time.Now().Unix()%60]++ }

func HourShard(n int64) int64 { return time.Now().Unix() / 3600 % n }

func UntilNext(interval time.Duration) time.Duration {
	return interval - time.Duration(time.Now().UnixNano()%int64(interval))
}

func Floor(step int64) int64 {
	now := time.Now()
	return now.UnixNano() - now.UnixNano()%step
}

// Coin flips a fair coin from a seeded source: not flagged.
func (c *Client) Coin(p float64) bool { // want Coin:"random\\(rand.Float64\\)"
	return c.rng.Float64() < p
}
