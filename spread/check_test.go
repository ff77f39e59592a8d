package spread

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/spreadcheck/spreadcheck/internal/golden"
)

// recorder is a testing.TB that records what Check and Rand do to it instead of failing the
// test; it is safe for concurrent use, and runs its cleanups when done is called.
type recorder struct {
	testing.TB
	mu       sync.Mutex
	errors   []string
	attrs    map[string][]string
	cleanups []func()
}

func newRecorder(t testing.TB) *recorder { return &recorder{TB: t, attrs: map[string][]string{}} }

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, a ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errors = append(r.errors, fmt.Sprintf(format, a...))
}
func (r *recorder) Fatalf(format string, a ...any) { r.Errorf(format, a...); runtime.Goexit() }
func (r *recorder) Attr(key, value string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.attrs[key] = append(r.attrs[key], value)
}
func (r *recorder) Failed() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.errors) > 0
}
func (r *recorder) Cleanup(f func()) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.cleanups = append(r.cleanups, f)
}
func (r *recorder) Logf(string, ...any) {}

// done runs the cleanups, last first, as the end of a test does.
func (r *recorder) done() {
	for i := len(r.cleanups) - 1; i >= 0; i-- {
		r.cleanups[i]()
	}
}

func (r *recorder) String() string { return strings.Join(r.errors, "\n") }

func (r *recorder) firstError() string {
	if len(r.errors) == 0 {
		return ""
	}
	return r.errors[0]
}

func (r *recorder) attrKeys() (keys []string) {
	for k := range r.attrs {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// TestCheckPassesQuietly: a passing Check fails nothing and records only the call's rate, the
// one attribute the spreadcheck runner reads from it: go test -v shows one === ATTR line.
func TestCheckPassesQuietly(t *testing.T) {
	rec := newRecorder(t)
	xs := draws(3, 1000, func(r *rand.Rand) time.Duration { return time.Duration(r.Int64N(int64(base))) })
	Check(rec, xs, Uniform(0, base))
	if len(rec.errors) != 0 {
		t.Errorf("a correct sample failed Check:\n%s", rec)
	}
	if got := rec.attrKeys(); !cmp.Equal(got, []string{"spreadcheck.alpha"}) {
		t.Errorf("Check recorded the attrs %v, want only spreadcheck.alpha", got)
	}
	if got := rec.attrs["spreadcheck.alpha"]; !cmp.Equal(got, []string{"1e-09"}) {
		t.Errorf("spreadcheck.alpha attr = %v, want [1e-09]", got)
	}
}

// TestCheckFailsOnceWithEveryFailure: one report, with each failing statistic explained once
// (the report used to list every failure a second time among all the statistics).
func TestCheckFailsOnceWithEveryFailure(t *testing.T) {
	rec := newRecorder(t)
	xs := draws(3, 1000, func(r *rand.Rand) time.Duration { return base / 2 })
	Check(rec, xs, Uniform(0, base))
	if len(rec.errors) != 1 {
		t.Fatalf("Check reported %d errors, want one report", len(rec.errors))
	}
	msg := rec.firstError()
	for _, want := range []string{"most likely: constant", "FAIL distinct", "FAIL coverage/max", "FAIL fit", "not drawn from spread.Rand"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the report lacks %q:\n%s", want, msg)
		}
	}
	for _, name := range []string{"distinct", "coverage/min", "coverage/max", "coverage/range", "fit/ks", "fit/tails", "fit/spread"} {
		if got := strings.Count(msg, "FAIL "+name+":"); got != 1 {
			t.Errorf("the failure of %s is explained %d times, want once:\n%s", name, got, msg)
		}
	}
	if strings.Contains(msg, " FAIL  ") {
		t.Errorf("the report lists a failure a second time among the other statistics:\n%s", msg)
	}
}

func TestCheckBadInputFailsTheTest(t *testing.T) {
	rec := newRecorder(t)
	Check(rec, []float64{}, Uniform(0.0, 1.0))
	if len(rec.errors) != 1 || !strings.Contains(rec.firstError(), "empty") {
		t.Errorf("an empty sample: errors %q, want one that says empty", rec.errors)
	}
}

func TestReplayCommand(t *testing.T) {
	got := replayCommand(t, 42)
	want := "SPREADCHECK_SEED=42 go test -run '^TestReplayCommand$' -count=1 github.com/spreadcheck/spreadcheck/spread"
	if got != want {
		t.Errorf("replayCommand = %q, want %q", got, want)
	}
	t.Run("sub test (1)", func(t *testing.T) {
		got := replayCommand(t, 1)
		if !strings.Contains(got, `-run '^TestReplayCommand$/^sub_test_\(1\)$'`) {
			t.Errorf("replayCommand = %q", got)
		}
	})
}

// TestReplayCommandQuotesTheName: a test name is text the shell must not run.
func TestReplayCommandQuotesTheName(t *testing.T) {
	t.Run("x';id>PWNED;'", func(t *testing.T) {
		got := replayCommand(t, 1)
		want := `SPREADCHECK_SEED=1 go test -run '^TestReplayCommandQuotesTheName$/^x'\'';id>PWNED;'\''$' -count=1 github.com/spreadcheck/spreadcheck/spread`
		if got != want {
			t.Errorf("replayCommand = %s\nwant            %s", got, want)
		}
	})
}

// TestReplayCommandInABubble: a body run by a function whose name starts with Test (here
// synctest.Test, as in fakeclock.Test) still replays the package under test.
func TestReplayCommandInABubble(t *testing.T) {
	synctest.Test(t, replayInBubble)
}

func replayInBubble(t *testing.T) {
	got := replayCommand(t, 3)
	if want := " github.com/spreadcheck/spreadcheck/spread"; !strings.HasSuffix(got, want) {
		t.Errorf("replayCommand in a bubble = %q, want it to end in %q", got, want)
	}
}

// TestGoldenReports pins the failure messages. Run with -update to rewrite them.
func TestGoldenReports(t *testing.T) {
	clockAt := func(step time.Duration) func(*rand.Rand) time.Duration {
		var now time.Duration
		return func(*rand.Rand) time.Duration { now += step; return now % base }
	}
	cases := []struct {
		name string
		xs   []time.Duration
	}{
		{"constant", draws(1, 1000, func(*rand.Rand) time.Duration { return 137 * time.Millisecond })},
		{"collapsed", draws(1, 1000, func(r *rand.Rand) time.Duration { return time.Duration(r.Int64N(int64(base / 2))) })},
		{"fine-clock", draws(1, 1000, clockAt(57*time.Millisecond))},
		{"sign-flip", draws(1, 1000, func(r *rand.Rand) time.Duration { return -time.Duration(r.Int64N(int64(base))) })},
		{"correct", draws(1, 1000, func(r *rand.Rand) time.Duration { return time.Duration(r.Int64N(int64(base))) })},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := Analyze(c.xs, Uniform(0, base))
			if err != nil {
				t.Fatal(err)
			}
			golden.Check(t, filepath.Join("testdata", c.name+".golden"), r.String())
		})
	}
}

// TestReportsTheCallersLine runs a failing Check in a child test process and pins that the
// failure is reported at the line of the Check call, with the seed and the replay command.
func TestReportsTheCallersLine(t *testing.T) {
	if os.Getenv("SPREAD_CHILD") == "1" {
		t.Skip("the child runs only TestChildFailingCheck")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run", "^TestChildFailingCheck$", "-test.v")
	cmd.Env = append(os.Environ(), "SPREAD_CHILD=1", seedEnv+"=99")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("the child passed; want it to fail:\n%s", out)
	}
	want := fmt.Sprintf("child_test.go:%d:", childCheckLine)
	for _, w := range []string{want, "seed 99; replay with:", "SPREADCHECK_SEED=99 go test -run '^TestChildFailingCheck$' -count=1 github.com/spreadcheck/spreadcheck/spread"} {
		if !strings.Contains(string(out), w) {
			t.Errorf("the child's output lacks %q:\n%s", w, out)
		}
	}
	if regexp.MustCompile(`(?m)^\s+(check|analyze)\.go:\d+:`).Match(out) {
		t.Errorf("the failure is reported inside package spread, not at the caller:\n%s", out)
	}
}
