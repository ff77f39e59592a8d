package spread

import (
	crand "crypto/rand"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/spreadcheck/spreadcheck/internal/replay"
)

// SeedEnv is the environment variable Rand reads its seed from. The spreadcheck command sets
// it to a recorded seed for every run; set it by hand to replay a run.
const SeedEnv = replay.SeedEnv

// seeds remembers the seed each running test drew from Rand, so that a failing Check can print it.
var seeds sync.Map // testing.TB -> uint64

// Rand returns a random generator for the test, seeded from the environment variable
// SPREADCHECK_SEED when it is set (a decimal uint64: the spreadcheck command sets it, and a
// failure prints it) and from a fresh random seed otherwise. Each test, and each call within a
// test, gets its own stream, so tests never share draws; the same seed replays them all.
//
// If the test fails, the seed is logged with the exact command that replays the test. Code
// that draws from the global math/rand source instead cannot be replayed: pass it the
// generator Rand returns.
func Rand(t testing.TB) *rand.Rand {
	t.Helper()
	seed, err := baseSeed()
	if err != nil {
		t.Fatalf("spread.Rand: %v", err)
	}
	rec, ok := seedOf(t)
	if ok {
		seed = rec.seed // a fresh seed is drawn once per test, so that one seed replays every call
		rec.calls++
	} else {
		rec = &seedRecord{seed: seed, replay: ReplayCommand(t, seed)}
		seeds.Store(t, rec)
		t.Attr("spreadcheck.seed", strconv.FormatUint(seed, 10))
		t.Cleanup(func() {
			seeds.Delete(t)
			if t.Failed() && !rec.reported.Load() {
				t.Logf("spread: this test drew from spread.Rand with seed %d; replay it with:\n    %s", seed, rec.replay)
			}
		})
	}
	calls := rec.calls
	return rand.New(rand.NewPCG(seed, streamOf(t.Name(), calls)))
}

// seedRecord is what Rand remembers of a test: its seed, how often it called Rand, the command
// that replays it, and whether a failure message has already shown that command.
type seedRecord struct {
	seed     uint64
	calls    int
	replay   string
	reported atomic.Bool
}

// baseSeed returns the seed from SPREADCHECK_SEED, or a fresh one.
func baseSeed() (uint64, error) {
	if v, ok := os.LookupEnv(SeedEnv); ok && v != "" {
		seed, err := strconv.ParseUint(strings.TrimSpace(v), 10, 64)
		if err != nil {
			return 0, fmt.Errorf("%s=%q is not a decimal uint64 seed", SeedEnv, v)
		}
		return seed, nil
	}
	var b [8]byte
	if _, err := crand.Read(b[:]); err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint64(b[:]), nil
}

// streamOf names the PCG stream of the calls-th Rand call of a test.
func streamOf(test string, calls int) uint64 {
	h := fnv.New64a()
	h.Write([]byte(test))
	return h.Sum64() + uint64(calls)*0x9e3779b97f4a7c15
}

// seedOf returns what Rand recorded of the test, if it drew from Rand.
func seedOf(t testing.TB) (*seedRecord, bool) {
	v, ok := seeds.Load(t)
	if !ok {
		return nil, false
	}
	return v.(*seedRecord), true
}

// Draw calls f n times and returns the values in order: the sample to check.
func Draw[T any](n int, f func() T) []T {
	xs := make([]T, max(n, 0))
	for i := range xs {
		xs[i] = f()
	}
	return xs
}

// ReplayCommand returns the shell command that reruns test t alone with the given seed, e.g.
//
//	SPREADCHECK_SEED=42 go test -run '^TestBackoff$' -count=1 example.com/retry
//
// The package comes from the test binary's build information, so the command names the
// package under test wherever the test body runs (a helper, a synctest bubble, a goroutine);
// every word is quoted for a POSIX shell, whatever the test's name.
func ReplayCommand(t testing.TB, seed uint64) string {
	return replay.Command{
		Env:     []string{fmt.Sprintf("%s=%d", SeedEnv, seed)},
		Test:    t.Name(),
		Package: replay.TestPackage(),
	}.String()
}
