package testout

import (
	"bufio"
	"bytes"
	"io"
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

// PackageTest is the name under which the runner reports what belongs to no single test: a
// crash in init or TestMain, a binary that exits with an error after its tests pass (a leak
// check), or a TestMain that skips the package. It has a result in every process, so its rate
// is per process.
const PackageTest = "(package)"

// The attribute keys that package spread records with t.Attr.
const (
	AttrAlpha = "spreadcheck.alpha" // the false-failure rate one check call was sized for
	AttrSeed  = "spreadcheck.seed"  // the seed the test drew its randomness from
)

// TestResult is one test's result in one run.
type TestResult struct {
	Name string `json:"name"` // the test's full name, or "(package)"
	Run  int    `json:"run"`  // the run number
	// Seed is the run's seed: the one the test recorded with t.Attr (Seeded), else the seed
	// its iteration of the process was given (see replay.IterationSeed).
	Seed    uint64    `json:"seed,string"`
	Outcome Outcome   `json:"outcome"`           // pass, fail, skip, crash or hang
	Seconds float64   `json:"seconds,omitempty"` // as package testing measured it, to 10 ms
	Alphas  []float64 `json:"alphas,omitempty"`  // the spreadcheck.alpha attributes, one per check call
	Seeded  bool      `json:"seeded,omitempty"`  // the test recorded a spreadcheck.seed attribute
	Output  string    `json:"output,omitempty"`  // kept for failed outcomes only: the first 4 KB and the last 12 KB

	Iter int `json:"-"` // the occurrence of the name in its process: the iteration of -test.count
}

// marker starts every framing line that a test binary prints under -test.v=test2json.
const marker = 0x16

type testState struct {
	Name                   string
	Iter                   int
	started, paused, ended bool
	cut                    bool // running when another test ended the process: it must run again
	outcome                Outcome
	seconds                float64
	alphas                 []float64
	seed                   uint64
	seeded                 bool
	out                    clip
}

func (t *testState) running() bool { return t.started && !t.ended }

// Parser reads the output of one test binary run with -test.v=test2json. It does in-process
// what cmd/test2json does, keeping only what the report needs, in bounded memory. A framing
// line that does not fit the state of the run (a test's own output that happens to hold the
// 0x16 marker) is output, so that no test can end or flip another's result by printing.
type Parser struct {
	live    map[string]*testState // the latest occurrence of each name
	Order   []*testState          // every occurrence, in the order it started
	current *testState            // the test that output lines belong to; nil for the package
	pkgOut  clip
	tail    clip       // output since the last framing line: a crash's panic and goroutine dump
	last    *testState // the test that ended most recently
	final   string     // "PASS" or "FAIL" once the binary printed its summary line
	Shuffle string     // the -test.shuffle seed the binary printed
	pkg     *testState // the PackageTest result, once there is one
	Early   bool       // the process died before it completed its runs

	// A process of many runs repeats its framing lines in every run: they are made strings
	// once (up to maxInterned of them), and the test states are allocated in blocks.
	interned map[string]string
	states   []testState
}

const (
	maxInterned = 4096
	stateBlock  = 256
)

// NewParser returns a Parser for one process's output.
func NewParser() *Parser {
	return &Parser{live: make(map[string]*testState), interned: make(map[string]string)}
}

// intern returns b as a string, the same one for the same bytes.
func (p *Parser) intern(b []byte) string {
	if s, ok := p.interned[string(b)]; ok {
		return s
	}
	s := string(b)
	if len(p.interned) < maxInterned {
		p.interned[s] = s
	}
	return s
}

// newState returns a zero testState from the current block.
func (p *Parser) newState() *testState {
	if len(p.states) == cap(p.states) {
		p.states = make([]testState, 0, stateBlock)
	}
	p.states = p.states[:len(p.states)+1]
	return &p.states[len(p.states)-1]
}

// Parse feeds a whole run's output to the parser.
func (p *Parser) Parse(r io.Reader) error {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		// A line longer than the buffer comes in pieces, each taken as output unless a marker
		// starts it.
		line, err := br.ReadSlice('\n')
		p.line(line)
		switch err {
		case nil, bufio.ErrBufferFull:
		case io.EOF:
			return nil
		default:
			return err
		}
	}
}

// line handles one line. A marker inside a line starts a framing line there: package testing
// prints its frames right after output that did not end in a newline.
func (p *Parser) line(b []byte) {
	for len(b) > 0 {
		seg := b
		if i := bytes.IndexByte(b[1:], marker); i >= 0 {
			seg, b = b[:i+1], b[i+1:]
		} else {
			b = nil
		}
		if seg[0] != marker || !p.frame(p.intern(bytes.TrimRight(seg[1:], "\r\n"))) {
			p.output(seg)
		}
	}
}

func (p *Parser) output(b []byte) {
	p.tail.Write(b)
	if p.current != nil {
		p.current.out.Write(b)
	} else {
		p.pkgOut.Write(b)
	}
	if p.Shuffle == "" && bytes.HasPrefix(b, []byte("-test.shuffle ")) {
		p.Shuffle = strings.TrimSpace(string(b[len("-test.shuffle "):]))
	}
}

// frame handles one framing line, without its marker, and reports whether it was one.
func (p *Parser) frame(s string) bool {
	s = strings.TrimLeft(s, " ")
	var ok bool
	switch {
	case s == "PASS" || s == "FAIL":
		ok = p.summaryLine(s)
	case strings.HasPrefix(s, "=== "):
		ok = p.event(s[4:])
	case strings.HasPrefix(s, "--- "):
		ok = p.result(s[4:])
	}
	if ok {
		p.tail.Reset()
	}
	return ok
}

// summaryLine handles the binary's final PASS or FAIL, which comes after every test ended.
func (p *Parser) summaryLine(s string) bool {
	for _, t := range p.Order {
		if t.running() && !t.paused {
			return false
		}
	}
	p.final, p.current = s, nil // what follows comes from TestMain
	return true
}

// event handles "=== VERB name".
func (p *Parser) event(s string) bool {
	verb, name, _ := strings.Cut(s, " ")
	name = strings.TrimLeft(name, " ")
	t := p.live[name]
	switch verb {
	case "RUN":
		if name == "" || strings.Contains(name, " ") || (t != nil && t.running()) {
			return false
		}
		p.start(name)
	case "PAUSE", "CONT":
		if t == nil || !t.running() {
			return false
		}
		t.paused = verb == "PAUSE"
		p.current = t
	case "NAME":
		if name != "" && (t == nil || !t.running()) {
			return false
		}
		p.current = t
	case "ATTR":
		return p.attr(name)
	}
	// Other framing (=== ARTIFACTS and whatever later Go versions add) carries nothing the
	// report needs.
	return true
}

// start begins a new occurrence of the named test.
func (p *Parser) start(name string) {
	iter := 0
	if prev := p.live[name]; prev != nil {
		iter = prev.Iter + 1
	}
	t := p.newState()
	t.Name, t.Iter, t.started = name, iter, true
	p.live[name] = t
	p.Order = append(p.Order, t)
	p.current = t
}

// result handles "--- PASS: name (0.01s)" for a test that is running.
func (p *Parser) result(s string) bool {
	verb, rest, _ := strings.Cut(s, ": ")
	o := outcomeOf(verb)
	i := strings.LastIndex(rest, " (")
	if o == "" || i < 0 || !strings.HasSuffix(rest, "s)") {
		return false
	}
	secs, err := strconv.ParseFloat(rest[i+2:len(rest)-2], 64)
	t := p.live[rest[:i]]
	if err != nil || t == nil || !t.running() {
		return false
	}
	t.ended, t.paused, t.outcome, t.seconds = true, false, o, secs
	if !o.Failed() {
		// A record keeps output for failed outcomes only: let a passing or skipped test's go
		// now rather than hold it, up to 28 KB a test, until the whole process is parsed.
		t.out = clip{}
	}
	p.current, p.last = t, t
	return true
}

// outcomeOf returns the outcome a result line's verb names, or "".
func outcomeOf(verb string) Outcome {
	switch verb {
	case "PASS":
		return Pass
	case "FAIL":
		return Fail
	case "SKIP":
		return Skip
	}
	return ""
}

// attr records "Name key value" from an "=== ATTR" line. Test names contain no spaces (package
// testing rewrites them to underscores) and keys none either, so the value is the rest.
func (p *Parser) attr(s string) bool {
	name, kv, _ := strings.Cut(s, " ")
	key, value, _ := strings.Cut(kv, " ")
	t := p.live[name]
	if t == nil || !t.running() {
		return false
	}
	value = strings.TrimSpace(value)
	switch key {
	case AttrAlpha:
		if a, err := strconv.ParseFloat(value, 64); err == nil && a > 0 && a < 1 {
			t.alphas = append(t.alphas, a)
		}
	case AttrSeed:
		if seed, err := strconv.ParseUint(value, 10, 64); err == nil {
			t.seed, t.seeded = seed, true
		}
	}
	return true
}
