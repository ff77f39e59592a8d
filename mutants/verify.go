package mutants

import (
	"cmp"
	"errors"
	"fmt"
	"github.com/spreadcheck/spreadcheck/spread"
	"maps"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"testing"
	"text/tabwriter"
	"time"
)

// Timeout sets how long Verify waits for one run of the suite before it counts the run as
// failed by timeout (as go test would) and moves on, leaving the suite's goroutine behind.
// The default is one minute.
func Timeout(d time.Duration) Option {
	return func(c *config) {
		if d <= 0 {
			c.fail("Timeout(%v): the timeout must be positive", d)
		}
		c.timeout = d
	}
}

// Verify proves that suite tests the jitter: it runs suite once on correct, where it must
// pass, and once on each mutant of spec (see Of), where it must fail. A call to Fatal or
// FailNow inside the suite ends that run as a failure, a panic is recovered and counts as
// a failure with its value and stack, and neither stops Verify. Verify fails t if the suite
// fails the correct jitter or any mutant survives, and logs a table of every run: the
// verdict and the first failure message. A run that outlasts Timeout counts as a failure.
//
// t may be any testing.TB: a *testing.T, a *testing.B, a *testing.F or one of your own (a
// nil t, with no test to fail, panics with a message that says so; Run takes a nil t).
// Verify calls only Helper, Log, Error and Fatal on it, and passes it to Run; it never
// starts subtests (the runs are not subtests of t but recorded apart, and named
// t.Name()/correct, t.Name()/constant and so on), so a TB without a Run method works the same.
//
// The suite must do all its work on the testing.TB it is given; a goroutine of its own that
// panics still crashes the test binary.
func Verify(t testing.TB, correct Jitter, spec Spec, suite func(t testing.TB, j Jitter), opts ...Option) {
	if t == nil {
		panic("mutants.Verify(nil, ...): no test to fail: pass the test's t, or call Run, which takes a nil t")
	}
	t.Helper()
	rep, err := Run(t, correct, spec, suite, opts...)
	switch {
	case err != nil:
		t.Fatal(err)
	case rep.OK():
		t.Log(rep)
	default:
		t.Error(rep)
	}
}

// Run runs suite as Verify does and returns its Report instead of failing t. The runs use
// t only for what is harmless to share (Name, TempDir, Setenv, Context); their failures
// and logs are recorded in the Report. t may be nil, outside a test; a suite that then calls
// TempDir, Setenv, Chdir or ArtifactDir fails. The error reports a nil jitter or suite, an
// invalid Spec or Option, or a base the suite used at which the Spec has no range (see
// Spec.Range); the Report is then as far as it got.
func Run(t testing.TB, correct Jitter, spec Spec, suite func(t testing.TB, j Jitter), opts ...Option) (Report, error) {
	if correct == nil || suite == nil {
		return Report{}, errors.New("mutants: Run needs a non-nil correct jitter and suite")
	}
	ms, err := Of(spec, opts...)
	if err != nil {
		return Report{}, err
	}
	c, _ := newConfig(opts)
	rep := Report{Spec: spec}
	if rep.Correct, err = runOne(t, "correct", correct, suite, c.timeout); err != nil {
		return rep, err
	}
	for _, m := range ms {
		o, err := runOne(t, m.Name, m.Jitter, suite, c.timeout)
		if err != nil {
			return rep, err
		}
		o.Class = m.Class
		o.Equivalent = len(o.Bases) > 0 && !slices.ContainsFunc(o.Bases, func(b time.Duration) bool {
			return !m.EquivalentAt(b)
		})
		rep.Mutants = append(rep.Mutants, o)
	}
	return rep, rep.checkBases()
}

// checkBases returns the error of the first base a run used at which the Spec has no
// range: the mutants panicked there, and the suite's verdicts say nothing.
func (r Report) checkBases() error {
	for _, o := range append([]Outcome{r.Correct}, r.Mutants...) {
		for _, b := range o.Bases {
			if _, err := r.Spec.span(b); err != nil {
				return fmt.Errorf("mutants: the suite called the jitter at base %v: %w", b, err)
			}
		}
	}
	return nil
}

// Try runs suite once on j, as Verify runs it on each mutant, and returns what the suite
// did: use it to watch a suite fail on a broken version of your own, such as the code as it
// shipped. t is used as Run uses it and may be nil. The outcome's Name is "jitter". The
// error reports a nil jitter or suite, an invalid Option, or a broken Source that could not
// break a read of math/rand (v1)'s Int63n, Int31n or Intn, whose n it reads from the stack
// trace: the outcome is then no verdict.
func Try(t testing.TB, j Jitter, suite func(t testing.TB, j Jitter), opts ...Option) (Outcome, error) {
	if j == nil || suite == nil {
		return Outcome{}, errors.New("mutants: Try needs a non-nil jitter and suite")
	}
	c, err := newConfig(opts)
	if err != nil {
		return Outcome{}, err
	}
	return runOne(t, "jitter", j, suite, c.timeout)
}

// An Outcome is what one run of a suite did: on the correct jitter or on one mutant.
type Outcome struct {
	Name       string          // "correct" or the mutant's name
	Class      spread.Suspect  // the mutant's class; zero for the correct jitter
	Failed     bool            // the suite failed: Error, Fatal, Fail, a panic or a timeout
	Skipped    bool            // the suite called Skip and did not fail
	Message    string          // the first failure message, or the skip message
	Log        string          // all the suite logged, with the stack of a panic
	Bases      []time.Duration // the bases the suite called a mutant with, sorted
	Equivalent bool            // a mutant identical to the correct jitter at all its Bases
}

// Reason returns the line of Message that says why the run failed, as the table shows it:
// the first line that starts with "FAIL" (the first failing check of a spread report),
// else the first line, shortened to 100 characters.
func (o Outcome) Reason() string { return firstLine(o.Message) }

// A Report is the result of Run: the suite's outcome on the correct jitter and on every
// mutant.
type Report struct {
	Spec    Spec
	Correct Outcome
	Mutants []Outcome
}

// OK reports whether the suite passed the correct jitter and rejected every mutant. A
// Report that records no run, such as the zero Report, is not OK.
func (r Report) OK() bool {
	if r.Correct.Name == "" || len(r.Mutants) == 0 || r.Correct.Failed || r.Correct.Skipped {
		return false
	}
	for _, o := range r.Mutants {
		if !o.Failed {
			return false
		}
	}
	return true
}

// String returns the table of runs, followed by what went wrong if anything did.
func (r Report) String() string {
	if r.Correct.Name == "" {
		return "mutants: an empty Report: no suite was run"
	}
	var b strings.Builder
	survivors := 0
	for _, o := range r.Mutants {
		if !o.Failed {
			survivors++
		}
	}
	switch {
	case r.OK():
		fmt.Fprintf(&b, "mutants: the suite passes the correct %s jitter and rejects all %d mutants\n",
			r.Spec, len(r.Mutants))
	default:
		fmt.Fprintf(&b, "mutants: %s jitter: %s, %d of %d mutants survived\n",
			r.Spec, r.correctVerdict(), survivors, len(r.Mutants))
	}
	var table strings.Builder
	tw := tabwriter.NewWriter(&table, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  jitter\tverdict\tfirst failure")
	fmt.Fprintf(tw, "  %s\t%s\t%s\n", r.Correct.Name, r.correctVerdict(), r.Correct.Reason())
	for _, o := range r.Mutants {
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", o.Name, mutantVerdict(o), o.Reason())
	}
	tw.Flush()
	// tabwriter pads the empty last cells; trim them so that the lines end cleanly.
	lines := strings.Split(table.String(), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	b.WriteString(strings.Join(lines, "\n"))
	if r.Correct.Failed || r.Correct.Skipped {
		fmt.Fprintf(&b, "the suite must pass the correct jitter; its log:\n%s", indent(r.Correct.Log))
	}
	for _, o := range r.Mutants {
		if !o.Failed {
			fmt.Fprintf(&b, "%s survived: %s\n", o.Name, survivorHint(o))
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func (r Report) correctVerdict() string {
	switch {
	case r.Correct.Failed:
		return "FAILED"
	case r.Correct.Skipped:
		return "SKIPPED"
	}
	return "passed"
}

func mutantVerdict(o Outcome) string {
	switch {
	case o.Failed:
		return "rejected"
	case o.Skipped:
		return "SURVIVED (skipped)"
	case o.Equivalent:
		return "SURVIVED (equivalent)"
	}
	return "SURVIVED"
}

// survivorHint says why a mutant may have survived and what it does.
func survivorHint(o Outcome) string {
	switch {
	case o.Skipped:
		return "the suite skipped instead of failing; a skipped run proves nothing"
	case len(o.Bases) == 0:
		return "the suite never called the jitter"
	case o.Equivalent:
		return fmt.Sprintf("at the bases the suite used (%v) its range is too narrow for this mutant "+
			"to differ from the correct jitter; test a larger base", o.Bases)
	}
	return "it " + classDoc[o.Class]
}

// firstLine returns the line of a message that a table cell shows: the first line that
// starts with "FAIL" (the first failing check of a spread report), else the first line;
// shortened to fit.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	for l := range strings.Lines(s) {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(l), "FAIL "); ok {
			line = rest
			break
		}
	}
	const limit = 100
	if r := []rune(line); len(r) > limit {
		line = string(r[:limit-3]) + "..."
	}
	return line
}

func indent(s string) string {
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return "    (nothing logged)\n"
	}
	return "    " + strings.ReplaceAll(s, "\n", "\n    ") + "\n"
}

// runOne runs suite on j once under a recorder and returns its outcome, with the bases the
// suite called j with.
func runOne(parent testing.TB, name string, j Jitter, suite func(testing.TB, Jitter), timeout time.Duration) (Outcome, error) {
	r := newRecorder(parent, name)
	var mu sync.Mutex
	seen := map[time.Duration]bool{}
	watched := func(base time.Duration) time.Duration {
		mu.Lock()
		seen[base] = true
		mu.Unlock()
		return j(base)
	}
	deadline := time.Now().Add(timeout)
	if r.guard(func() { suite(r, watched) }, deadline, timeout) {
		// Cleanups run last-added first, each guarded like the suite. After a timeout they
		// do not run: the suite is still running and may still need what they release.
		r.mu.Lock()
		cleanups := slices.Clone(r.cleanups)
		r.mu.Unlock()
		for i := len(cleanups) - 1; i >= 0; i-- {
			r.guard(cleanups[i], deadline, timeout)
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closed = true
	o := Outcome{Name: name, Failed: r.failed, Skipped: r.skipped && !r.failed,
		Message: r.first, Log: r.log.String()}
	if o.Skipped {
		o.Message = "skipped: " + r.skip
	}
	if o.Failed && o.Message == "" {
		o.Message = "(failed without a message)"
	}
	mu.Lock()
	defer mu.Unlock()
	o.Bases = slices.Sorted(maps.Keys(seen))
	return o, r.err
}

// guard runs f on its own goroutine, as testing.T runs a test, so that FailNow (Goexit) ends
// only f; it records a panic as a failure with its value and stack, and a run past the
// deadline as a failure by timeout. It reports whether f finished.
func (r *recorder) guard(f func(), deadline time.Time, timeout time.Duration) bool {
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() {
			p := recover()
			if e, ok := p.(*unreadableModulus); ok { // no verdict: the mutant was not made
				r.mu.Lock()
				r.err = cmp.Or(r.err, error(e))
				r.mu.Unlock()
			} else if p != nil {
				r.record(true, fmt.Sprintf("panic: %v", p))
				r.record(false, string(debug.Stack()))
			}
		}()
		f()
	}()
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	select {
	case <-done:
		return true
	case <-timer.C:
		r.record(true, fmt.Sprintf("timed out after %v: the run is still going on its own goroutine", timeout))
		r.mu.Lock()
		r.closed = true
		r.mu.Unlock()
		return false
	}
}
