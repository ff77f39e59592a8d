package mutants

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// seededFull returns a correct full jitter drawing from a fixed seed.
func seededFull(seed uint64) Jitter {
	var mu sync.Mutex
	r := rand.New(rand.NewPCG(seed, 0))
	return func(base time.Duration) time.Duration {
		mu.Lock()
		defer mu.Unlock()
		return time.Duration(r.Int64N(int64(base)))
	}
}

// strongSuite tests full jitter at 1s without package spread: bounds, at least half distinct,
// mean within 5%, and ascents inside their exact 1e-9 interval [444, 555] for n = 1000.
func strongSuite(t testing.TB, j Jitter) {
	const base, n = time.Second, 1000
	xs := draw(j, base, n)
	for _, x := range xs {
		if x < 0 || x >= base {
			t.Fatalf("bounds: %v outside [0, %v)", x, base)
		}
	}
	distinct := map[time.Duration]bool{}
	var sum float64
	ascents := 0
	for i, x := range xs {
		distinct[x] = true
		sum += float64(x)
		if i > 0 && x > xs[i-1] {
			ascents++
		}
	}
	if len(distinct) < n/2 {
		t.Errorf("distinct: %d of %d values, want >= %d", len(distinct), n, n/2)
	}
	if mean := time.Duration(sum / n); mean < 450*time.Millisecond || mean > 550*time.Millisecond {
		t.Errorf("mean: %v, want within 5%% of 500ms", mean)
	}
	if ascents < 444 || ascents > 555 {
		t.Errorf("ascents: %d, want [444, 555]", ascents)
	}
}

// weakSuite is the blind test that let a clock-derived jitter ship: ten draws into a set,
// then only "not negative".
func weakSuite(t testing.TB, j Jitter) {
	delays := map[time.Duration]bool{}
	for range 10 {
		delays[j(time.Second)] = true
	}
	for d := range delays {
		if d < 0 {
			t.Errorf("delay should not be negative, got %v", d)
		}
	}
}

func mustRun(t *testing.T, suite func(testing.TB, Jitter), opts ...Option) Report {
	t.Helper()
	rep, err := Run(t, seededFull(1), Full(), suite, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// verdicts returns "name=verdict" for every run, for compact comparisons.
func verdicts(r Report) []string {
	v := []string{"correct=" + r.correctVerdict()}
	for _, o := range r.Mutants {
		v = append(v, o.Name+"="+mutantVerdict(o))
	}
	return v
}

func wantVerdicts(t *testing.T, r Report, want ...string) {
	t.Helper()
	if got := verdicts(r); !slices.Equal(got, want) {
		t.Errorf("verdicts:\n got %q\nwant %q\nreport:\n%s", got, want, r)
	}
}

func TestRunStrongSuite(t *testing.T) {
	r := mustRun(t, strongSuite)
	wantVerdicts(t, r, "correct=passed", "constant=rejected", "sign-flip=rejected",
		"clock-derived/coarse=rejected", "clock-derived/fine=rejected", "collapsed-range=rejected")
	if !r.OK() || !strings.Contains(r.String(), "rejects all 5 mutants") {
		t.Errorf("OK() = %v, report:\n%s", r.OK(), r)
	}
	if m := r.Mutants[3].Message; m != "ascents: 788, want [444, 555]" {
		t.Errorf("fine clock rejected by %q, want the ascents", m)
	}
}

func TestRunSuiteRejectsNothing(t *testing.T) {
	r := mustRun(t, weakSuite)
	wantVerdicts(t, r, "correct=passed", "constant=SURVIVED", "sign-flip=rejected",
		"clock-derived/coarse=SURVIVED", "clock-derived/fine=SURVIVED", "collapsed-range=SURVIVED")
	s := r.String()
	for _, want := range []string{"4 of 5 mutants survived", "delay should not be negative, got -",
		"constant survived: it returns one value on every call"} {
		if !strings.Contains(s, want) {
			t.Errorf("report lacks %q:\n%s", want, s)
		}
	}
}

func TestRunSuiteRejectsEverything(t *testing.T) {
	r := mustRun(t, func(t testing.TB, j Jitter) { j(time.Second); t.Errorf("no jitter is good enough") })
	if r.OK() || !r.Correct.Failed || r.Correct.Message != "no jitter is good enough" {
		t.Errorf("correct outcome %+v, want failed with the suite's message", r.Correct)
	}
	if s := r.String(); !strings.Contains(s, "the suite must pass the correct jitter; its log:\n    no jitter is good enough") {
		t.Errorf("report does not show the correct jitter's failure:\n%s", s)
	}
}

func TestRunSuiteFatal(t *testing.T) {
	r := mustRun(t, func(t testing.TB, j Jitter) {
		if j(time.Second) != 500*time.Millisecond {
			return
		}
		t.Fatal("stop here")
		t.Error("unreachable") // Fatal ends the suite's goroutine
	})
	wantVerdicts(t, r, "correct=passed", "constant=rejected", "sign-flip=SURVIVED",
		"clock-derived/coarse=SURVIVED", "clock-derived/fine=SURVIVED", "collapsed-range=SURVIVED")
	if c := r.Mutants[0]; c.Message != "stop here" || strings.Contains(c.Log, "unreachable") {
		t.Errorf("constant: message %q log %q, want only %q", c.Message, c.Log, "stop here")
	}
}

func TestRunSuitePanics(t *testing.T) {
	r := mustRun(t, func(t testing.TB, j Jitter) { panic(fmt.Sprint("boom at ", j(time.Second) < 0)) })
	if !r.Correct.Failed || r.Correct.Message != "panic: boom at false" {
		t.Errorf("correct: %+v, want failed by the panic", r.Correct)
	}
	if !strings.Contains(r.Correct.Log, "verify_test.go") {
		t.Errorf("the log lacks the panic's stack:\n%s", r.Correct.Log)
	}
	wantVerdicts(t, r, "correct=FAILED", "constant=rejected", "sign-flip=rejected",
		"clock-derived/coarse=rejected", "clock-derived/fine=rejected", "collapsed-range=rejected")
}

func TestRunSuiteFailNowWithoutMessage(t *testing.T) {
	r := mustRun(t, func(t testing.TB, j Jitter) { t.FailNow() })
	if r.Correct.Message != "(failed without a message)" {
		t.Errorf("message %q", r.Correct.Message)
	}
}

func TestRunSuiteSkips(t *testing.T) {
	r := mustRun(t, func(t testing.TB, j Jitter) { j(time.Second); t.Skip("not today") })
	wantVerdicts(t, r, "correct=SKIPPED", "constant=SURVIVED (skipped)", "sign-flip=SURVIVED (skipped)",
		"clock-derived/coarse=SURVIVED (skipped)", "clock-derived/fine=SURVIVED (skipped)",
		"collapsed-range=SURVIVED (skipped)")
	if !strings.Contains(r.String(), "a skipped run proves nothing") {
		t.Errorf("report:\n%s", r)
	}
}

func TestRunSuiteNeverCallsJitter(t *testing.T) {
	r := mustRun(t, func(testing.TB, Jitter) {})
	if s := r.String(); !strings.Contains(s, "constant survived: the suite never called the jitter") {
		t.Errorf("report:\n%s", s)
	}
}

// TestRunEquivalentBase: at base 1ns full jitter is always 0, so no suite can reject any of
// the four; Run says so rather than blaming the suite's checks.
func TestRunEquivalentBase(t *testing.T) {
	r := mustRun(t, func(t testing.TB, j Jitter) {
		for range 100 {
			if x := j(1); x != 0 {
				t.Errorf("got %v, want 0", x)
			}
		}
	})
	if r.OK() || !slices.ContainsFunc(r.Mutants, func(o Outcome) bool { return o.Equivalent }) {
		t.Fatalf("report:\n%s", r)
	}
	if s := r.String(); !strings.Contains(s, "SURVIVED (equivalent)") || !strings.Contains(s, "test a larger base") {
		t.Errorf("report:\n%s", s)
	}
}

// TestRunTimeout: a suite that never returns on a mutant counts as rejected by timeout and
// does not stop Run. It runs in a synctest bubble, where the timeout's clock moves only
// when every goroutine is blocked: the verdict cannot depend on the machine's load.
func TestRunTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		defer close(release)
		r := mustRun(t, func(t testing.TB, j Jitter) {
			if j(time.Second) == 500*time.Millisecond {
				<-release // hangs on the constant mutant
			}
		}, Timeout(10*time.Millisecond))
		c := r.Mutants[0]
		if !c.Failed || !strings.HasPrefix(c.Message, "timed out after 10ms") {
			t.Errorf("constant: %+v, want failed by timeout", c)
		}
		if r.Correct.Failed || r.Mutants[1].Failed {
			t.Errorf("runs other than the hanging one failed:\n%s", r)
		}
	})
}

func TestRunCleanups(t *testing.T) {
	var mu sync.Mutex
	var order []string
	note := func(s string) { mu.Lock(); order = append(order, s); mu.Unlock() }
	r, err := Run(t, seededFull(1), Full(), func(t testing.TB, j Jitter) {
		t.Cleanup(func() { note("first") })
		t.Cleanup(func() { note("second"); panic("cleanup broke") })
		note(t.Name())
	}, withSeed(1))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{t.Name() + "/correct", "second", "first"}; !slices.Equal(order[:3], want) {
		t.Errorf("order %q, want %q first", order, want)
	}
	if r.Correct.Message != "panic: cleanup broke" {
		t.Errorf("a panicking cleanup gave %q", r.Correct.Message)
	}
}

func TestRunWithoutParent(t *testing.T) {
	r, err := Run(nil, seededFull(1), Full(), func(t testing.TB, j Jitter) { t.TempDir() })
	if err != nil {
		t.Fatal(err)
	}
	if want := "panic: mutants: the suite called TempDir, which needs Run to be given a testing.TB"; r.Correct.Message != want {
		t.Errorf("got %q, want %q", r.Correct.Message, want)
	}
	if r, _ = Run(nil, seededFull(1), Full(), strongSuite); !r.OK() {
		t.Errorf("strong suite without a parent:\n%s", r)
	}
}

// TestVerifyOnRecorder runs Verify on a recorder: a testing.TB that is not a *testing.T, and
// may fail without failing this test.
func TestVerifyOnRecorder(t *testing.T) {
	for _, tc := range []struct {
		name   string
		spec   Spec
		suite  func(testing.TB, Jitter)
		failed bool
		want   string
	}{
		{"strong", Full(), strongSuite, false, "rejects all 5 mutants"},
		{"weak", Full(), weakSuite, true, "4 of 5 mutants survived"},
		{"bad spec", Percent(2), weakSuite, true, "Percent(2): p must be in (0, 1]"},
	} {
		outer := newRecorder(t, "outer")
		outer.guard(func() { Verify(outer, seededFull(1), tc.spec, tc.suite) }, time.Now().Add(time.Minute), time.Minute)
		if outer.failed != tc.failed || !strings.Contains(outer.log.String(), tc.want) {
			t.Errorf("%s: failed %v, want %v; log lacks %q?\n%s", tc.name, outer.failed, tc.failed, tc.want, outer.log.String())
		}
	}
}

// TestVerifySubprocess is run by TestVerify in a child process, to watch a real *testing.T
// fail; on its own it does nothing.
func TestVerifySubprocess(t *testing.T) {
	suites := map[string]func(testing.TB, Jitter){
		"strong": strongSuite,
		"weak":   weakSuite,
		"panic":  func(testing.TB, Jitter) { panic("boom") },
		"fatal":  func(t testing.TB, _ Jitter) { t.Fatal("fatal in suite") },
	}
	suite, ok := suites[os.Getenv("MUTANTS_VERIFY_SUITE")]
	if !ok {
		t.Skip("run by TestVerify")
	}
	Verify(t, seededFull(1), Full(), suite)
}

func TestVerify(t *testing.T) {
	for _, tc := range []struct {
		suite string
		ok    bool
		want  []string
	}{
		{"strong", true, []string{"--- PASS: TestVerifySubprocess", "rejects all 5 mutants",
			"  jitter                verdict   first failure\n"}},
		{"weak", false, []string{"--- FAIL: TestVerifySubprocess", "constant              SURVIVED"}},
		{"panic", false, []string{"--- FAIL: TestVerifySubprocess", "correct               FAILED    panic: boom"}},
		{"fatal", false, []string{"--- FAIL: TestVerifySubprocess", "correct               FAILED    fatal in suite"}},
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestVerifySubprocess$", "-test.v")
		cmd.Env = append(os.Environ(), "MUTANTS_VERIFY_SUITE="+tc.suite)
		out, err := cmd.CombinedOutput()
		if (err == nil) != tc.ok {
			t.Errorf("%s: exit error %v, want success %v\n%s", tc.suite, err, tc.ok, out)
		}
		for _, w := range tc.want {
			if !strings.Contains(string(out), w) {
				t.Errorf("%s: output lacks %q:\n%s", tc.suite, w, out)
			}
		}
	}
}

func ExampleRun() {
	// A blind test: ten draws, then only "not negative".
	weak := func(t testing.TB, j Jitter) {
		for range 10 {
			d := j(time.Second)
			if d < 0 {
				t.Errorf("delay should not be negative, got %v", d)
			}
		}
	}
	fullJitter := func(base time.Duration) time.Duration { return rand.N(base) }
	report, err := Run(nil, fullJitter, Full(), weak)
	if err != nil {
		panic(err)
	}
	fmt.Println(report)
	// Output:
	// mutants: full [0, base) jitter: passed, 4 of 5 mutants survived
	//   jitter                verdict   first failure
	//   correct               passed
	//   constant              SURVIVED
	//   sign-flip             rejected  delay should not be negative, got -217.565923ms
	//   clock-derived/coarse  SURVIVED
	//   clock-derived/fine    SURVIVED
	//   collapsed-range       SURVIVED
	// constant survived: it returns one value on every call: the midpoint of the range, so that only the spread can tell
	// clock-derived/coarse survived: it reads its number from a clock instead of a random source: the fraction of the current second
	// clock-derived/fine survived: it reads its number from a clock instead of a random source: the fraction of the current second
	// collapsed-range survived: it draws a healthy random number over the range shrunk towards the anchor by a factor (default 1/2)
}

func TestTry(t *testing.T) {
	constant := func(time.Duration) time.Duration { return 250 * time.Millisecond }
	o, err := Try(t, constant, strongSuite)
	if err != nil || !o.Failed || o.Message != "distinct: 1 of 1000 values, want >= 500" || !slices.Equal(o.Bases, []time.Duration{time.Second}) {
		t.Errorf("Try = %+v, %v", o, err)
	}
	if o, err = Try(t, seededFull(3), strongSuite); err != nil || o.Failed {
		t.Errorf("Try on a correct jitter = %+v, %v", o, err)
	}
	if _, err := Try(t, nil, strongSuite); err == nil {
		t.Error("Try(nil jitter) gave no error")
	}
}
