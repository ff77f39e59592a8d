package spread

import (
	crand "crypto/rand"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/spreadcheck/spreadcheck/internal/replay"
)

// seedEnv is the environment variable Rand reads its seed from. The spreadcheck command sets
// it to a recorded seed for every run; set it by hand to replay a run.
const seedEnv = replay.SeedEnv

// seeds holds what Rand knows of the running tests, under its lock: the record of each running
// test that drew from it, by name, and how many runs of each name drew from it so far in this
// process, so that the i-th run of a test under go test -count gets iteration i's seed.
//
// Records go by name, not by testing.TB: a test's body may run on another TB of the same name
// (synctest.Test and fakeclock.Test run it on a *testing.T of their own, a helper may wrap t),
// and it is still the same run. Two runs of one name are never live at once: go test -count
// runs its iterations one after the other, parallel tests included.
var seeds struct {
	sync.Mutex
	tests      map[string]*seedRecord
	iterations map[string]int
}

// seedRecord is what Rand remembers of a test: its seed, how often it called Rand, the command
// that replays it, and whether a failure message has already shown that command. Its fields
// are read and written under the lock of seeds.
type seedRecord struct {
	seed     uint64
	calls    int
	replay   string
	reported bool
}

// Rand returns a random generator for the test, seeded from the environment variable
// SPREADCHECK_SEED when it is set (a decimal uint64: the spreadcheck command sets it, and a
// failure prints it) and from a fresh random seed otherwise. Each test, and each call within a
// test, gets its own stream, so tests never share draws; the same seed replays them all.
//
// A process that runs a test several times (go test -count=N, as the spreadcheck command does)
// gives the i-th run of each test (from 0) the seed replay.IterationSeed(base, i) of the base
// seed in SPREADCHECK_SEED, records it with t.Attr("spreadcheck.seed", ...), and on failure
// prints a command that sets that seed and runs the test once: it replays that run alone.
//
// If the test fails, the seed is logged with the exact command that replays the test. Code
// that draws from the global math/rand source instead cannot be replayed: pass it the
// generator Rand returns.
//
// Rand itself may be called at once from parallel tests and from the goroutines of one test,
// but the generator it returns is, like every *rand.Rand, not safe for concurrent use: two
// goroutines that draw from one generator race (go test -race reports it) and, even when
// serialised, draw in an order that varies from run to run, so the seed no longer replays the
// test. Give each goroutine a generator of its own: each call of Rand in a test returns a
// stream of its own, and the same seed replays them all. A nil t panics with a message that
// says so.
func Rand(t testing.TB) *rand.Rand {
	needTest(t, "Rand(nil)")
	t.Helper()
	rec, stream, fresh, err := drawSeed(t)
	if err != nil {
		t.Fatalf("spread.Rand: %v", err)
	}
	if fresh {
		t.Attr("spreadcheck.seed", strconv.FormatUint(rec.seed, 10))
		t.Cleanup(func() { forget(t, rec) })
	}
	return rand.New(rand.NewPCG(rec.seed, streamOf(t.Name(), stream)))
}

// drawSeed returns the running test's record, creating it on the run's first call, and the
// number of the call, which picks its stream.
func drawSeed(t testing.TB) (rec *seedRecord, stream int, fresh bool, err error) {
	seeds.Lock()
	defer seeds.Unlock()
	name := t.Name()
	if rec, ok := seeds.tests[name]; ok {
		rec.calls++
		return rec, rec.calls, false, nil
	}
	base, err := baseSeed()
	if err != nil {
		return nil, 0, false, err
	}
	if seeds.tests == nil {
		seeds.tests, seeds.iterations = map[string]*seedRecord{}, map[string]int{}
	}
	i := seeds.iterations[name]
	seeds.iterations[name] = i + 1
	seed := replay.IterationSeed(base, i)
	rec = &seedRecord{seed: seed, replay: replayCommand(t, seed)}
	seeds.tests[name] = rec
	return rec, 0, true, nil
}

// forget drops the test's record when the run ends, and logs the replay command of a failed
// test whose failure did not show it.
func forget(t testing.TB, rec *seedRecord) {
	seeds.Lock()
	if seeds.tests[t.Name()] == rec {
		delete(seeds.tests, t.Name())
	}
	reported := rec.reported
	seeds.Unlock()
	if t.Failed() && !reported {
		t.Logf("spread: this test drew from spread.Rand with seed %d; replay it with:\n    %s", rec.seed, rec.replay)
	}
}

// baseSeed returns the seed from SPREADCHECK_SEED, or a fresh one.
func baseSeed() (uint64, error) {
	if v, ok := os.LookupEnv(seedEnv); ok && v != "" {
		seed, err := strconv.ParseUint(strings.TrimSpace(v), 10, 64)
		if err != nil {
			return 0, fmt.Errorf("%s=%q is not a decimal uint64 seed", seedEnv, v)
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

// replayText tells how to replay the failing test, or why it cannot be replayed, and marks the
// command as shown. A subtest whose parent drew from Rand replays with the parent's seed and
// command.
func replayText(t testing.TB) string {
	seeds.Lock()
	rec, ok := (*seedRecord)(nil), false
	for name := t.Name(); !ok && name != ""; name = parentName(name) {
		rec, ok = seeds.tests[name]
	}
	if ok {
		rec.reported = true
	}
	seeds.Unlock()
	if !ok {
		return "\n  the sample was not drawn from spread.Rand(t): seed its randomness from spread.Rand so that a failure can be replayed"
	}
	return fmt.Sprintf("\n  seed %d; replay with:\n    %s", rec.seed, rec.replay)
}

// needTest panics with a message that names the call if t is nil, as an interface or as a
// nil pointer such as a (*testing.T)(nil): with no test, there is nothing to fail or to name,
// and the functions that take a testing.TB have no error to return.
func needTest(t testing.TB, call string) {
	if t == nil {
		panic("spread." + call + ": no test: pass the test's t")
	}
	if v := reflect.ValueOf(t); v.Kind() == reflect.Pointer && v.IsNil() {
		panic(fmt.Sprintf("spread.%s: a nil %T: pass the test's t", strings.Replace(call, "nil", "t", 1), t))
	}
}

// parentName returns the name of a subtest's parent, "" for a top-level test.
func parentName(name string) string {
	i := strings.LastIndex(name, "/")
	if i < 0 {
		return ""
	}
	return name[:i]
}

// Draw calls f n times and returns the values in order: the sample to check. A nil f, or
// n <= 0, gives an empty sample, which Check and Analyze report as an error: a sample that
// was never drawn never passes. n is at most 1<<26 (67,108,864), far past the samples a test
// needs; a larger n, which could exhaust memory, panics with a message that names the limit.
func Draw[T any](n int, f func() T) []T {
	if n > maxDraws {
		panic(fmt.Sprintf("spread.Draw(%d, f): n must be at most %d (1<<26); a sample that large would exhaust memory", n, maxDraws))
	}
	if f == nil {
		return nil
	}
	xs := make([]T, max(n, 0))
	for i := range xs {
		xs[i] = f()
	}
	return xs
}

// maxDraws is the largest sample Draw makes.
const maxDraws = 1 << 26

// replayCommand returns the shell command that reruns test t alone with the given seed, e.g.
//
//	SPREADCHECK_SEED=42 go test -run '^TestBackoff$' -count=1 example.com/retry
//
// The package comes from the test binary's build information, so the command names the
// package under test wherever the test body runs (a helper, a synctest bubble, a goroutine);
// every word is quoted for a POSIX shell, whatever the test's name. A nil t panics with a
// message that says so.
func replayCommand(t testing.TB, seed uint64) string {
	needTest(t, "replayCommand(nil, ...)")
	return replay.Command{
		Env:     []string{fmt.Sprintf("%s=%d", seedEnv, seed)},
		Test:    t.Name(),
		Package: replay.TestPackage(),
	}.String()
}
