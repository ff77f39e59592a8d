package spread

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spreadcheck/spreadcheck/internal/replay"
	"github.com/spreadcheck/spreadcheck/internal/sizing"
)

func TestRandReplaysFromTheEnvironment(t *testing.T) {
	t.Setenv(seedEnv, "12345")
	a := Rand(t).Uint64()
	b := Rand(t).Uint64()
	if a == b {
		t.Errorf("two Rand calls in one test share a stream")
	}
	t.Run("again", func(t *testing.T) {
		t.Setenv(seedEnv, "12345")
		if got := Rand(t).Uint64(); got == a {
			t.Errorf("a subtest shares its parent's stream")
		}
	})
	t.Run("bad seed", func(t *testing.T) {
		t.Setenv(seedEnv, "not a number")
		rec := newRecorder(t)
		done := make(chan struct{})
		go func() { defer close(done); Rand(rec) }()
		<-done
		if !strings.Contains(rec.firstError(), "not a decimal uint64 seed") {
			t.Errorf("a bad seed: errors %q", rec.errors)
		}
	})
}

// TestRandSameSeedSameDraws: the first call of a run draws from the run's seed on the stream
// of the test's name, so a run with the same seed draws the same values.
func TestRandSameSeedSameDraws(t *testing.T) {
	t.Setenv(seedEnv, "7")
	got := Rand(t).Uint64()
	seeds.Lock()
	seed := seeds.tests[t.Name()].seed
	seeds.Unlock()
	if want := rand.New(rand.NewPCG(seed, streamOf(t.Name(), 0))).Uint64(); got != want {
		t.Errorf("seed %d drew %d, want %d", seed, got, want)
	}
	iteration := -1
	for i := range 100 {
		if replay.IterationSeed(7, i) == seed {
			iteration = i
		}
	}
	if iteration < 0 {
		t.Errorf("seed %d is no iteration's seed of base 7", seed)
	}
}

// TestRandOneSeedUnderConcurrency: the goroutines of one test call Rand at once. The test gets
// one seed, recorded once (the record was read and stored without a lock, so two goroutines
// could each make one and the test end up with two seeds, only one logged), and every call its
// own stream. Run with -race.
func TestRandOneSeedUnderConcurrency(t *testing.T) {
	rec := newRecorder(t)
	const calls = 32
	firsts := make([]uint64, calls)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range calls {
		wg.Go(func() {
			<-start
			firsts[i] = Rand(rec).Uint64()
		})
	}
	close(start)
	wg.Wait()
	defer rec.done()
	if got := rec.attrs["spreadcheck.seed"]; len(got) != 1 {
		t.Errorf("the test recorded %d seeds %v, want one", len(got), got)
	}
	seen := map[uint64]bool{}
	for _, x := range firsts {
		if seen[x] {
			t.Errorf("two calls drew the same first value %d: they share a stream", x)
		}
		seen[x] = true
	}
}

// TestParallelStress runs checks, reports and Rand from parallel tests at once, as a suite
// with t.Parallel does: run with -race. Each test also changes what it was given (a report's
// results, a sizing error), which no other test may see.
func TestParallelStress(t *testing.T) {
	for i := range 16 {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			t.Parallel()
			r := Rand(t)
			xs := Draw(1000, func() time.Duration { return time.Duration(r.Int64N(int64(base))) })
			Check(t, xs, Uniform(0, base))
			rep, err := Analyze(Draw(1000, func() time.Duration { return base / 3 }), Uniform(0, base))
			if err != nil || !rep.Failed() || rep.Diagnosis()[0] != SuspectConstant {
				t.Errorf("a constant: %v\n%s", err, rep)
			}
			rep.Results[0].Statistic = "changed"
			_, err = Analyze(xs[:3], Uniform(0, base))
			var small *sizing.TooSmallError
			if !errorsAs(err, &small) || small.Check == "changed" {
				t.Fatalf("three values: %v", err)
			}
			small.Check = "changed"
		})
	}
}

// TestChildIterations is run by TestIterationsGetTheirOwnSeeds, three times in one process: it
// logs its first draw and fails, so that the replay command is printed.
func TestChildIterations(t *testing.T) {
	if os.Getenv("SPREAD_CHILD") != "iterations" {
		t.Skip("run by TestIterationsGetTheirOwnSeeds")
	}
	t.Logf("draw %d", Rand(t).Uint64())
	t.Error("failing on purpose, so that the replay command is printed")
}

// TestIterationsGetTheirOwnSeeds: the spreadcheck runner runs a test several times in one
// process (go test -count=3) with one SPREADCHECK_SEED. Run i gets the seed
// replay.IterationSeed(base, i), records it as spreadcheck.seed, and prints a replay command
// naming it; that command (run once, -count=1) replays run i's draws.
func TestIterationsGetTheirOwnSeeds(t *testing.T) {
	if os.Getenv("SPREAD_CHILD") != "" {
		t.Skip("the parent, not the child")
	}
	const base = 424242
	out := runChild(t, 3, base)
	attrs := regexp.MustCompile(`=== ATTR  TestChildIterations spreadcheck.seed (\d+)`).FindAllStringSubmatch(out, -1)
	draws := regexp.MustCompile(`draw (\d+)`).FindAllStringSubmatch(out, -1)
	if len(attrs) != 3 || len(draws) != 3 {
		t.Fatalf("the child's three runs recorded %d seeds and %d draws, want 3 each:\n%s", len(attrs), len(draws), out)
	}
	for i := range 3 {
		seed := replay.IterationSeed(base, i)
		if attrs[i][1] != strconv.FormatUint(seed, 10) {
			t.Errorf("run %d recorded seed %s, want IterationSeed(%d, %d) = %d", i, attrs[i][1], base, i, seed)
		}
		want := fmt.Sprintf("SPREADCHECK_SEED=%d go test -run '^TestChildIterations$' -count=1 github.com/spreadcheck/spreadcheck/spread", seed)
		if !strings.Contains(out, want) {
			t.Errorf("run %d does not print its replay command %s:\n%s", i, want, out)
		}
		again := regexp.MustCompile(`draw (\d+)`).FindStringSubmatch(runChild(t, 1, seed))
		if again == nil || again[1] != draws[i][1] {
			t.Errorf("run %d drew %s; replayed alone with its seed, %v", i, draws[i][1], again)
		}
	}
}

// runChild runs TestChildIterations count times in one process of this test binary, as go test
// -count does, with SPREADCHECK_SEED set to seed, and returns its output.
func runChild(t *testing.T, count int, seed uint64) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run", "^TestChildIterations$", "-test.count", strconv.Itoa(count), "-test.v")
	cmd.Env = append(os.Environ(), "SPREAD_CHILD=iterations", fmt.Sprintf("%s=%d", seedEnv, seed))
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("the child passed; it fails on purpose:\n%s", out)
	}
	return string(out)
}

// TestSubtestReplaysWithTheParentsSeed: a subtest whose parent drew from Rand (a test that
// draws once and checks each part of the sample in a subtest) fails with the parent's seed
// and command, which replays it.
func TestSubtestReplaysWithTheParentsSeed(t *testing.T) {
	t.Setenv(seedEnv, "99")
	Rand(t)
	t.Run("part", func(t *testing.T) {
		if got := replayText(t); !strings.Contains(got, "replay with:") || !strings.Contains(got, "-run '^TestSubtestReplaysWithTheParentsSeed$'") {
			t.Errorf("the subtest's replay text is %q, want the parent's command", got)
		}
	})
}
