// Package laterruns registers groups by name, once per process, as groupcache does, and picks
// a shard at random: its one test that checks the shards registers a group, and so fails
// (panics) every run of a test process but the first.
package laterruns

import "math/rand/v2"

var groups = map[string]bool{}

// Register records a group's name; a name registered twice panics.
func Register(name string) {
	if groups[name] {
		panic("duplicate registration of group " + name)
	}
	groups[name] = true
}

// Pick returns a shard in [0, 10).
func Pick() int {
	return rand.IntN(10)
}
