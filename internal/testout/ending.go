package testout

import (
	"fmt"
	"strings"

	"github.com/spreadcheck/spreadcheck/internal/testbin"
)

// timeoutPanic is how package testing reports that -test.timeout expired.
const timeoutPanic = "panic: test timed out after "

// quitIgnoredNote explains a hang without a goroutine dump.
const quitIgnoredNote = "\n(spreadcheck: the process ignored SIGQUIT, which asks a Go program for a goroutine dump " +
	"(the test or its code handles or ignores the signal), so there is no dump; it was killed)\n"

// MaxRecordOutput bounds the output one record keeps over all its failed tests, so that a
// results line stays small whatever a run prints; past it, a failure keeps a note only.
const MaxRecordOutput = 256 << 10

const outputDropped = "(output not kept: this run's failures printed more than the results file keeps; -o keeps it all)\n"

// Finish settles every test's outcome from how the process ended and returns the results.
func (p *Parser) Finish(e testbin.Exit) []TestResult {
	timedOut := e.Hung || strings.Contains(p.tail.String(), timeoutPanic) ||
		strings.Contains(p.pkgOut.String(), timeoutPanic)
	switch {
	case e.Interrupted:
		// The session stopped the process: what had finished stands, what ran did not finish.
	case p.final != "" && (e.Code == 0 || e.Code == 1) && !timedOut:
		p.endPackage(p.packageOutcome(e.Code), "")
	case e.Code == 0 && p.final == "" && len(p.Order) == 0:
		p.endPackage(Skip, "") // TestMain returned before m.Run, which go test reports as ok
	default:
		p.Early = true
		p.blame(timedOut, endNote(e, timedOut))
	}
	return p.collect()
}

// endNote says how the process ended, for the output of the tests its end is blamed on.
func endNote(e testbin.Exit, timedOut bool) string {
	switch {
	case e.QuitIgnored:
		return quitIgnoredNote
	case timedOut:
		return ""
	case e.Code < 0:
		return "\n(spreadcheck: a signal killed the process while this ran)\n"
	}
	return fmt.Sprintf("\n(spreadcheck: the process exited with status %d while this ran)\n", e.Code)
}

// packageOutcome judges a process that completed: it failed as a whole only when no test did,
// so that a failing TestMain (a leak check) is not hidden and a failing test not counted twice.
func (p *Parser) packageOutcome(code int) Outcome {
	if code == 0 && p.final == "PASS" {
		return Pass
	}
	for _, t := range p.Order {
		if t.ended && t.outcome == Fail {
			return Pass
		}
	}
	return Fail
}

func (p *Parser) endPackage(o Outcome, note string) {
	p.pkg = &testState{Name: PackageTest, started: true, ended: true, outcome: o}
	if o.Failed() {
		p.pkg.out.Write([]byte(p.pkgOut.String() + note))
	}
}

// blame ends the process's running tests after it died: the tests the crash belongs to get
// its outcome, and the others, cut short by it, are left to run again.
func (p *Parser) blame(timedOut bool, note string) {
	bad := Crash
	if timedOut {
		bad = Hang
	}
	culprits := p.culprits(timedOut)
	if len(culprits) == 0 {
		p.endPackage(bad, note)
	} else {
		p.endPackage(Pass, "")
	}
	for _, t := range culprits {
		p.crash(t, bad, note)
	}
	for _, t := range p.Order {
		if t.running() {
			t.cut = true
		}
	}
}

// crash ends t and the tests above it, which end with it, with outcome bad.
func (p *Parser) crash(t *testState, bad Outcome, note string) {
	if t != p.current && !strings.Contains(t.out.String(), strings.TrimSpace(p.tail.String())) {
		t.out.Write([]byte(p.tail.String()))
	}
	t.out.Write([]byte(note))
	t.ended, t.outcome = true, bad
	for name := t.Name; strings.Contains(name, "/"); {
		name = name[:strings.LastIndex(name, "/")]
		if up := p.live[name]; up != nil && up.running() {
			up.ended, up.outcome = true, bad
		}
	}
}

// culprits returns the tests a crash or hang belongs to: those the timeout panic lists, else
// those whose functions are on the panicking goroutine's stack (or started it), else every
// test that was running, else the test whose failure was the last thing printed.
func (p *Parser) culprits(timedOut bool) []*testState {
	text := p.tail.String()
	if timedOut {
		if ts := p.named(listedRunning(text)); len(ts) > 0 {
			return ts
		}
	}
	for _, top := range stackTests(text) {
		if p.freshFailure() && TopName(p.last.Name) == top {
			return []*testState{p.last}
		}
		if ts := p.runningLeaves(top); len(ts) > 0 {
			return ts
		}
	}
	if ts := p.runningLeaves(""); len(ts) > 0 {
		return ts
	}
	if p.freshFailure() && p.final == "" {
		return []*testState{p.last} // package testing prints "--- FAIL" before re-panicking a test's panic
	}
	return nil
}

// freshFailure reports whether the last framing line was a test's failure, and output (the
// panic) followed it.
func (p *Parser) freshFailure() bool {
	return p.last != nil && p.last.outcome == Fail && p.tail.Len() > 0 && p.last == p.current
}

func (p *Parser) named(names []string) []*testState {
	var ts []*testState
	for _, n := range names {
		if t := p.live[n]; t != nil && t.running() {
			ts = append(ts, t)
		}
	}
	return ts
}

// runningLeaves returns the running, unpaused tests under the top-level test top ("" for any)
// that have no running subtest.
func (p *Parser) runningLeaves(top string) []*testState {
	var ts []*testState
	for _, t := range p.Order {
		if !t.running() || t.paused || (top != "" && TopName(t.Name) != top) {
			continue
		}
		if !p.hasRunningChild(t.Name) {
			ts = append(ts, t)
		}
	}
	return ts
}

func (p *Parser) hasRunningChild(name string) bool {
	for _, t := range p.Order {
		if t.running() && strings.HasPrefix(t.Name, name+"/") {
			return true
		}
	}
	return false
}

// TopName returns the top-level test of a test or subtest name.
func TopName(name string) string {
	top, _, _ := strings.Cut(name, "/")
	return top
}

// listedRunning returns the tests that a timeout panic lists as running:
//
//	panic: test timed out after 2s
//		running tests:
//			TestHang (2s)
func listedRunning(text string) []string {
	_, after, ok := strings.Cut(text, "running tests:\n")
	if !ok {
		return nil
	}
	var names []string
	for _, l := range strings.Split(after, "\n") {
		if !strings.HasPrefix(l, "\t\t") {
			break
		}
		name, _, _ := strings.Cut(strings.TrimSpace(l), " (")
		names = append(names, name)
	}
	return names
}

// stackTests returns, innermost first, the top-level tests whose functions are on the stack
// of the goroutine that panicked or failed fatally (the first goroutine the runtime prints),
// or that created that goroutine.
func stackTests(text string) []string {
	i := strings.Index(text, "panic: ")
	if j := strings.Index(text, "fatal error: "); i < 0 || (j >= 0 && j < i) {
		i = j
	}
	if i < 0 {
		return nil
	}
	_, stack, ok := strings.Cut(text[i:], "\ngoroutine ")
	if !ok {
		return nil
	}
	stack, _, _ = strings.Cut(stack, "\n\n")
	var tops []string
	for _, l := range strings.Split(stack, "\n")[1:] {
		if top := frameTest(l); top != "" {
			tops = append(tops, top)
		}
	}
	return tops
}

// frameTest returns the top-level test a stack frame line belongs to, such as TestX for
// "example.com/p.TestX.func1(0xc000)" or "created by example.com/p.TestX in goroutine 7",
// or "" for a frame of another function or a file line.
func frameTest(l string) string {
	if strings.HasPrefix(l, "\t") {
		return ""
	}
	fn, created := strings.CutPrefix(l, "created by ")
	if created {
		fn, _, _ = strings.Cut(fn, " in goroutine ")
	} else if k := strings.LastIndex(fn, "("); k > 0 {
		fn = fn[:k]
	}
	fn = fn[strings.LastIndex(fn, "/")+1:]
	_, fn, _ = strings.Cut(fn, ".")
	fn, _, _ = strings.Cut(fn, ".")
	for _, prefix := range []string{"Test", "Fuzz", "Example"} {
		if strings.HasPrefix(fn, prefix) {
			return fn
		}
	}
	return ""
}

// collect returns the results of the tests that ended, the package's last, with their output
// within the record's budget.
func (p *Parser) collect() []TestResult {
	rs := make([]TestResult, 0, len(p.Order)+1)
	budget := MaxRecordOutput
	for _, t := range append(p.Order, p.pkg) {
		if t == nil || !t.ended {
			continue
		}
		r := TestResult{Name: t.Name, Outcome: t.outcome, Seconds: t.seconds, Alphas: t.alphas,
			Seed: t.seed, Seeded: t.seeded, Iter: t.Iter}
		if t.outcome.Failed() {
			r.Output = t.out.String()
			if len(r.Output) > budget {
				r.Output = outputDropped
			}
			budget -= len(r.Output)
		}
		rs = append(rs, r)
	}
	return rs
}

// Stopped says where a process that ended early stopped: the iteration under way, and the
// top-level tests of it that ended (or were blamed).
func (p *Parser) Stopped() (iter int, done map[string]bool) {
	done = map[string]bool{}
	for _, t := range p.Order {
		if !strings.Contains(t.Name, "/") && t.Iter > iter {
			iter = t.Iter
		}
	}
	for _, t := range p.Order {
		if !strings.Contains(t.Name, "/") && t.Iter == iter && t.ended {
			done[t.Name] = true
		}
	}
	return iter, done
}
