package runner

import (
	"bytes"
	"strconv"
	"strings"
)

// Outcome is how one test ended in one run.
type Outcome string

// The outcomes of a test in one run. Fail, Crash and Hang all count as failures of the run.
const (
	Pass  Outcome = "pass"
	Fail  Outcome = "fail"
	Skip  Outcome = "skip"
	Crash Outcome = "crash" // the process died while the test ran: a panic in a goroutine, os.Exit, a fatal error
	Hang  Outcome = "hang"  // the run hit its timeout while the test ran
)

// Failed reports whether the outcome counts against the test's flake rate.
func (o Outcome) Failed() bool { return o == Fail || o == Crash || o == Hang }

// PackageTest is the name under which the runner reports a failure that belongs to no single
// test: a crash in init or TestMain, or a binary that exits with an error after its tests pass.
const PackageTest = "(package)"

// The attribute keys that package spread records with t.Attr.
const (
	AttrAlpha = "spreadcheck.alpha" // the false-failure rate one check call was sized for
	AttrSeed  = "spreadcheck.seed"  // the seed the test drew its randomness from
)

// TestResult is one test's result in one run.
type TestResult struct {
	Name    string    `json:"name"`
	Outcome Outcome   `json:"outcome"`
	Alphas  []float64 `json:"alphas,omitempty"` // the spreadcheck.alpha attributes, one per check call
	Seeded  bool      `json:"seeded,omitempty"` // the test recorded a spreadcheck.seed attribute
	Output  string    `json:"output,omitempty"` // kept for failed outcomes only
}

// maxOutput caps the output kept per failed test; the -o log file keeps all of it.
const maxOutput = 16 << 10

// marker starts every framing line that a test binary prints under -test.v=test2json.
const marker = 0x16

type testState struct {
	name    string
	started bool
	paused  bool
	ended   bool
	outcome Outcome
	alphas  []float64
	seeded  bool
	out     bytes.Buffer
}

// parser reads the output of one test binary run with -test.v=test2json. It does in-process
// what cmd/test2json does, keeping only what the report needs.
type parser struct {
	tests   map[string]*testState
	order   []*testState
	current *testState // the test that output lines belong to; nil for the package
	pkgOut  bytes.Buffer
	tail    bytes.Buffer // output since the last framing line: a crash's panic and goroutine dump
	last    *testState   // the test that ended most recently
	final   string       // "PASS" or "FAIL" once the binary printed its summary line
}

func newParser() *parser { return &parser{tests: make(map[string]*testState)} }

// parse feeds a whole run's output to the parser.
func (p *parser) parse(out []byte) {
	for len(out) > 0 {
		line := out
		if i := bytes.IndexByte(out, '\n'); i >= 0 {
			line, out = out[:i+1], out[i+1:]
		} else {
			out = nil
		}
		// Output printed without a trailing newline runs into the next framing line.
		if i := bytes.IndexByte(line, marker); i > 0 {
			p.output(line[:i])
			line = line[i:]
		}
		if len(line) > 0 && line[0] == marker {
			p.frame(strings.TrimRight(string(line[1:]), "\r\n"))
		} else {
			p.output(line)
		}
	}
}

func (p *parser) test(name string) *testState {
	t := p.tests[name]
	if t == nil {
		t = &testState{name: name}
		p.tests[name] = t
		p.order = append(p.order, t)
	}
	return t
}

func (p *parser) output(b []byte) {
	p.tail.Write(b)
	w := &p.pkgOut
	if p.current != nil {
		w = &p.current.out
	}
	if w.Len() < maxOutput {
		w.Write(b)
	}
}

// frame handles one framing line, without its marker.
func (p *parser) frame(s string) {
	s = strings.TrimLeft(s, " ")
	p.tail.Reset()
	switch {
	case s == "PASS" || s == "FAIL":
		p.final, p.current = s, nil // what follows comes from TestMain
	case strings.HasPrefix(s, "=== "):
		verb, rest, _ := strings.Cut(s[4:], " ")
		rest = strings.TrimLeft(rest, " ")
		switch verb {
		case "RUN":
			t := p.test(rest)
			t.started, t.paused = true, false
			p.current = t
		case "PAUSE":
			t := p.test(rest)
			t.paused = true
			p.current = t
		case "CONT":
			t := p.test(rest)
			t.paused = false
			p.current = t
		case "NAME":
			p.current = nil
			if rest != "" {
				p.current = p.test(rest)
			}
		case "ATTR":
			p.attr(rest)
		default:
			// Other framing (=== ARTIFACTS and whatever later Go versions add) carries nothing the
			// report needs.
		}
	case strings.HasPrefix(s, "--- "):
		verb, rest, _ := strings.Cut(s[4:], ": ")
		var o Outcome
		switch verb {
		case "PASS":
			o = Pass
		case "FAIL":
			o = Fail
		case "SKIP":
			o = Skip
		default:
			return
		}
		name := rest
		if i := strings.LastIndex(rest, " ("); i >= 0 {
			name = rest[:i]
		}
		t := p.test(name)
		t.ended, t.paused, t.outcome = true, false, o
		p.current, p.last = t, t
	}
}

// attr records "Name key value" from an "=== ATTR" line. Test names contain no spaces (package
// testing rewrites them to underscores) and keys none either, so the value is the rest.
func (p *parser) attr(s string) {
	name, kv, _ := strings.Cut(s, " ")
	key, value, _ := strings.Cut(kv, " ")
	t := p.test(name)
	switch key {
	case AttrAlpha:
		a, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
		if err == nil && a > 0 && a < 1 {
			t.alphas = append(t.alphas, a)
		}
	case AttrSeed:
		t.seeded = true
	}
}

// timeoutPanic is how package testing reports that -test.timeout expired.
const timeoutPanic = "panic: test timed out after "

// results turns what the parser saw into per-test results. exitCode is the binary's exit
// status (-1 when a signal killed it) and killed says whether the runner's own watchdog had to
// stop it.
func (p *parser) results(exitCode int, killed bool) []TestResult {
	timedOut := killed || strings.Contains(p.tail.String(), timeoutPanic) ||
		bytes.Contains(p.pkgOut.Bytes(), []byte(timeoutPanic))
	complete := p.final != "" && (exitCode == 0 || exitCode == 1) && !timedOut

	if !complete {
		// Every test still running when the process died is blamed; if none was, the test that
		// just failed is (package testing prints "--- FAIL" before re-panicking a test's own
		// panic), unless the tests had all ended; otherwise the package.
		bad := Crash
		if timedOut {
			bad = Hang
		}
		blamed := false
		for _, t := range p.order {
			if t.started && !t.ended && !t.paused {
				t.ended, t.outcome, blamed = true, bad, true
			}
		}
		if !blamed && p.final == "" && p.last != nil && p.last.outcome == Fail && p.tail.Len() > 0 {
			p.last.outcome, blamed = bad, true
		}
		if !blamed {
			pkg := p.test(PackageTest)
			pkg.started, pkg.ended, pkg.outcome = true, true, bad
			pkg.out.Write(p.pkgOut.Bytes())
		}
	} else if (exitCode != 0 || p.final == "FAIL") && !p.anyFailed() {
		// TestMain or a leak check failed the binary after every test passed.
		pkg := p.test(PackageTest)
		pkg.started, pkg.ended, pkg.outcome = true, true, Fail
		pkg.out.Write(p.pkgOut.Bytes())
	}

	var rs []TestResult
	for _, t := range p.order {
		if !t.ended {
			continue // paused and never resumed, or never started: it did not run
		}
		r := TestResult{Name: t.name, Outcome: t.outcome, Alphas: t.alphas, Seeded: t.seeded}
		if t.outcome.Failed() {
			r.Output = t.out.String()
			if t.outcome != Fail && !strings.Contains(r.Output, strings.TrimSpace(p.tail.String())) {
				r.Output += p.tail.String()
			}
			r.Output = truncate(r.Output)
		}
		rs = append(rs, r)
	}
	return rs
}

func (p *parser) anyFailed() bool {
	for _, t := range p.order {
		if t.ended && t.outcome == Fail {
			return true
		}
	}
	return false
}

func truncate(s string) string {
	if len(s) <= maxOutput {
		return s
	}
	return s[:maxOutput] + "\n... (output truncated; -o keeps the whole log)\n"
}

// parseRun parses one run's output; see parser.results.
func parseRun(out []byte, exitCode int, killed bool) []TestResult {
	p := newParser()
	p.parse(out)
	return p.results(exitCode, killed)
}
