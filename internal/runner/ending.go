package runner

import (
	"fmt"
	"strings"
)

// timeoutPanic is how package testing reports that -test.timeout expired.
const timeoutPanic = "panic: test timed out after "

// quitIgnoredNote explains a hang without a goroutine dump.
const quitIgnoredNote = "\n(spreadcheck: the process ignored SIGQUIT, which asks a Go program for a goroutine dump " +
	"(the test or its code handles or ignores the signal), so there is no dump; it was killed)\n"

// maxRecordOutput bounds the output one record keeps over all its failed tests, so that a
// results line stays small whatever a run prints; past it, a failure keeps a note only.
const maxRecordOutput = 256 << 10

const outputDropped = "(output not kept: this run's failures printed more than the results file keeps; -o keeps it all)\n"

// finish settles every test's outcome from how the process ended and returns the results.
func (p *parser) finish(e exited) []TestResult {
	timedOut := e.hung || strings.Contains(p.tail.String(), timeoutPanic) ||
		strings.Contains(p.pkgOut.String(), timeoutPanic)
	switch {
	case e.interrupted:
		// The session stopped the process: what had finished stands, what ran did not finish.
	case p.final != "" && (e.code == 0 || e.code == 1) && !timedOut:
		p.endPackage(p.packageOutcome(e.code), "")
	case e.code == 0 && p.final == "" && len(p.order) == 0:
		p.endPackage(Skip, "") // TestMain returned before m.Run, which go test reports as ok
	default:
		p.early = true
		p.blame(timedOut, endNote(e, timedOut))
	}
	return p.collect()
}

// endNote says how the process ended, for the output of the tests its end is blamed on.
func endNote(e exited, timedOut bool) string {
	switch {
	case e.quitIgnored:
		return quitIgnoredNote
	case timedOut:
		return ""
	case e.code < 0:
		return "\n(spreadcheck: a signal killed the process while this ran)\n"
	}
	return fmt.Sprintf("\n(spreadcheck: the process exited with status %d while this ran)\n", e.code)
}

// packageOutcome judges a process that completed: it failed as a whole only when no test did,
// so that a failing TestMain (a leak check) is not hidden and a failing test not counted twice.
func (p *parser) packageOutcome(code int) Outcome {
	if code == 0 && p.final == "PASS" {
		return Pass
	}
	for _, t := range p.order {
		if t.ended && t.outcome == Fail {
			return Pass
		}
	}
	return Fail
}

func (p *parser) endPackage(o Outcome, note string) {
	p.pkg = &testState{name: PackageTest, started: true, ended: true, outcome: o}
	if o.Failed() {
		p.pkg.out.Write([]byte(p.pkgOut.String() + note))
	}
}

// blame ends the process's running tests after it died: the tests the crash belongs to get
// its outcome, and the others, cut short by it, are left to run again.
func (p *parser) blame(timedOut bool, note string) {
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
	for _, t := range p.order {
		if t.running() {
			t.cut = true
		}
	}
}

// crash ends t and the tests above it, which end with it, with outcome bad.
func (p *parser) crash(t *testState, bad Outcome, note string) {
	if t != p.current && !strings.Contains(t.out.String(), strings.TrimSpace(p.tail.String())) {
		t.out.Write([]byte(p.tail.String()))
	}
	t.out.Write([]byte(note))
	t.ended, t.outcome = true, bad
	for name := t.name; strings.Contains(name, "/"); {
		name = name[:strings.LastIndex(name, "/")]
		if up := p.live[name]; up != nil && up.running() {
			up.ended, up.outcome = true, bad
		}
	}
}

// culprits returns the tests a crash or hang belongs to: those the timeout panic lists, else
// those whose functions are on the panicking goroutine's stack (or started it), else every
// test that was running, else the test whose failure was the last thing printed.
func (p *parser) culprits(timedOut bool) []*testState {
	text := p.tail.String()
	if timedOut {
		if ts := p.named(listedRunning(text)); len(ts) > 0 {
			return ts
		}
	}
	for _, top := range stackTests(text) {
		if p.freshFailure() && topName(p.last.name) == top {
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
func (p *parser) freshFailure() bool {
	return p.last != nil && p.last.outcome == Fail && p.tail.Len() > 0 && p.last == p.current
}

func (p *parser) named(names []string) []*testState {
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
func (p *parser) runningLeaves(top string) []*testState {
	var ts []*testState
	for _, t := range p.order {
		if !t.running() || t.paused || (top != "" && topName(t.name) != top) {
			continue
		}
		if !p.hasRunningChild(t.name) {
			ts = append(ts, t)
		}
	}
	return ts
}

func (p *parser) hasRunningChild(name string) bool {
	for _, t := range p.order {
		if t.running() && strings.HasPrefix(t.name, name+"/") {
			return true
		}
	}
	return false
}

// topName returns the top-level test of a test or subtest name.
func topName(name string) string {
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
func (p *parser) collect() []TestResult {
	rs := make([]TestResult, 0, len(p.order)+1)
	budget := maxRecordOutput
	for _, t := range append(p.order, p.pkg) {
		if t == nil || !t.ended {
			continue
		}
		r := TestResult{Name: t.name, Outcome: t.outcome, Seconds: t.seconds, Alphas: t.alphas,
			Seed: t.seed, Seeded: t.seeded, iter: t.iter}
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

// stopped says where a process that ended early stopped: the iteration under way, and the
// top-level tests of it that ended (or were blamed).
func (p *parser) stopped() (iter int, done map[string]bool) {
	done = map[string]bool{}
	for _, t := range p.order {
		if !strings.Contains(t.name, "/") && t.iter > iter {
			iter = t.iter
		}
	}
	for _, t := range p.order {
		if !strings.Contains(t.name, "/") && t.iter == iter && t.ended {
			done[t.name] = true
		}
	}
	return iter, done
}
