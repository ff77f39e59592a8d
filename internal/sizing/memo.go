package sizing

import "sync"

// memo remembers the answers of a pure, costly function by its inputs: spread asks for the
// same limits (same n, same alpha) on every call of every test, and the first answer can take
// milliseconds. It is safe for concurrent use; two goroutines that miss at once both compute,
// and either answer is kept, as they are equal.
type memo[K comparable, V any] struct{ m sync.Map }

// get returns the answer for k, computing it with f the first time.
func (c *memo[K, V]) get(k K, f func() V) V {
	if v, ok := c.m.Load(k); ok {
		return v.(V)
	}
	v := f()
	c.m.Store(k, v)
	return v
}

// clear forgets every answer, so that benchmarks and tests can time or check a first call.
func (c *memo[K, V]) clear() { c.m.Clear() }

// lookup returns the remembered answer for k, if there is one.
func (c *memo[K, V]) lookup(k K) (V, bool) {
	v, ok := c.m.Load(k)
	if !ok {
		var zero V
		return zero, false
	}
	return v.(V), true
}
