package runner

import (
	"fmt"
	"hash/fnv"

	"github.com/spreadcheck/spreadcheck/internal/replay"
)

// Environment variables the runner sets for every run. Package spread seeds spread.Rand from
// SeedEnv; tests that do not use spread may read it too.
const (
	SeedEnv = replay.SeedEnv // the run's seed, a uint64 in decimal
	RunEnv  = replay.RunEnv  // the run's number, from 1
)

// RunSeed returns the seed of run number run under the base seed: distinct runs get
// unrelated seeds, and a run's seed depends only on the base and its number, so shards on
// different machines agree on it.
func RunSeed(base uint64, run int) uint64 {
	// SplitMix64: one step of a Weyl sequence through a bijective mixer.
	z := base + uint64(run)*0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// shortHash returns 8 hex digits that tell different strings apart in file names.
func shortHash(s string) string {
	h := fnv.New32a()
	h.Write([]byte(s))
	return fmt.Sprintf("%08x", h.Sum32())
}
