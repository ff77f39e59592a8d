package testout

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/spreadcheck/spreadcheck/internal/testbin"
)

// frame writes test2json framing lines the way package testing does: each starts with the
// 0x16 marker. Lines starting with "|" are plain output.
func frame(lines ...string) []byte {
	var b strings.Builder
	for _, l := range lines {
		if o, ok := strings.CutPrefix(l, "|"); ok {
			b.WriteString(o + "\n")
		} else {
			b.WriteString("\x16" + l + "\n")
		}
	}
	return []byte(b.String())
}

// outcomes reduces results to name -> outcome; the package's row, which every process has, is
// left out when it passed.
func outcomes(rs []TestResult) map[string]Outcome {
	m := map[string]Outcome{}
	for _, r := range rs {
		if r.Name != PackageTest || r.Outcome != Pass {
			m[r.Name] = r.Outcome
		}
	}
	return m
}

func TestParse(t *testing.T) {
	tests := []struct {
		name   string
		out    []byte
		exit   int
		killed bool
		want   map[string]Outcome
	}{{
		name: "pass, fail, skip and subtests",
		out: frame("=== RUN   TestA", "--- PASS: TestA (0.00s)", "=== NAME  ",
			"=== RUN   TestSub", "=== RUN   TestSub/a_b/c", "|    x_test.go:4: bad",
			"--- FAIL: TestSub/a_b/c (0.00s)", "=== NAME  TestSub", "=== RUN   TestSub/ok",
			"--- PASS: TestSub/ok (0.00s)", "=== NAME  TestSub", "--- FAIL: TestSub (0.00s)",
			"=== RUN   TestSkip", "|    x_test.go:6: nah", "--- SKIP: TestSkip (0.00s)", "FAIL"),
		exit: 1,
		want: map[string]Outcome{"TestA": Pass, "TestSub": Fail, "TestSub/a_b/c": Fail, "TestSub/ok": Pass, "TestSkip": Skip},
	}, {
		name: "parallel subtests",
		out: frame("=== RUN   TestPar", "=== RUN   TestPar/0", "=== PAUSE TestPar/0", "=== NAME  TestPar",
			"=== RUN   TestPar/1", "=== PAUSE TestPar/1", "=== CONT  TestPar/0", "--- PASS: TestPar/0 (0.00s)",
			"=== CONT  TestPar/1", "--- FAIL: TestPar/1 (0.00s)", "--- FAIL: TestPar (0.00s)", "FAIL"),
		exit: 1,
		want: map[string]Outcome{"TestPar": Fail, "TestPar/0": Pass, "TestPar/1": Fail},
	}, {
		name: "panic in a goroutine: the running test crashed, later tests never ran",
		out: frame("=== RUN   TestBefore", "--- PASS: TestBefore (0.00s)", "=== RUN   TestGo",
			"|panic: boom", "|", "|goroutine 20 [running]:"),
		exit: 2,
		want: map[string]Outcome{"TestBefore": Pass, "TestGo": Crash},
	}, {
		name: "panic in the test itself: testing prints FAIL, then the process dies",
		out: frame("=== RUN   TestPanic", "--- FAIL: TestPanic (0.00s)",
			"|panic: boom2 [recovered, repanicked]", "|goroutine 20 [running]:"),
		exit: 2,
		want: map[string]Outcome{"TestPanic": Crash},
	}, {
		name: "a paused parallel test that never resumed did not run",
		out: frame("=== RUN   TestP", "=== RUN   TestP/x", "=== PAUSE TestP/x", "=== NAME  TestP",
			"=== RUN   TestP/y", "|panic: boom"),
		exit: 2,
		want: map[string]Outcome{"TestP": Crash, "TestP/y": Crash},
	}, {
		name: "timeout panic: the running tests hung",
		out: frame("=== RUN   TestQuick", "--- PASS: TestQuick (0.00s)", "=== RUN   TestHang",
			"|panic: test timed out after 1s", "|\trunning tests:", "|\t\tTestHang (1s)"),
		exit: 2,
		want: map[string]Outcome{"TestQuick": Pass, "TestHang": Hang},
	}, {
		name:   "killed by the watchdog before any test",
		out:    []byte("SIGQUIT: quit\n"),
		exit:   2,
		killed: true,
		want:   map[string]Outcome{PackageTest: Hang},
	}, {
		name: "TestMain fails after the tests pass",
		out:  frame("=== RUN   TestA", "--- PASS: TestA (0.00s)", "=== NAME  ", "PASS", "|leak found"),
		exit: 1,
		want: map[string]Outcome{"TestA": Pass, PackageTest: Fail},
	}, {
		name: "TestMain panics after the tests ended: the package crashed, not the failed test",
		out:  frame("=== RUN   TestA", "--- FAIL: TestA (0.00s)", "FAIL", "|panic: in TestMain"),
		exit: 2,
		want: map[string]Outcome{"TestA": Fail, PackageTest: Crash},
	}, {
		name: "init crashes before any test",
		out:  []byte("panic: bad init\n\ngoroutine 1 [running]:\n"),
		exit: 2,
		want: map[string]Outcome{PackageTest: Crash},
	}, {
		name: "no tests to run is clean",
		out:  []byte("testing: warning: no tests to run\n\x16PASS\n"),
		exit: 0,
		want: map[string]Outcome{},
	}, {
		name: "output without a newline runs into the framing line",
		out:  []byte("\x16=== RUN   TestA\nno newline\x16--- PASS: TestA (0.00s)\n\x16PASS\n"),
		exit: 0,
		want: map[string]Outcome{"TestA": Pass},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := outcomes(parseRun(tc.out, tc.exit, tc.killed))
			if diff := cmp.Diff(tc.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("outcomes (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseAttrsAndOutput(t *testing.T) {
	out := frame("=== RUN   TestA", "=== ATTR  TestA spreadcheck.alpha 1e-09", "=== ATTR  TestA spreadcheck.alpha 1e-09",
		"=== ATTR  TestA spreadcheck.seed 42", "=== ATTR  TestA other value with spaces",
		"=== ATTR  TestA spreadcheck.alpha nonsense", "|    a_test.go:3: first", "|        continued",
		"--- FAIL: TestA (0.00s)", "=== NAME  ", "=== RUN   TestB", "|noise", "--- PASS: TestB (0.00s)", "FAIL")
	got := parseRun(out, 1, false)
	want := []TestResult{
		{Name: "TestA", Outcome: Fail, Alphas: []float64{1e-9, 1e-9}, Seed: 42, Seeded: true,
			Output: "    a_test.go:3: first\n        continued\n"},
		{Name: "TestB", Outcome: Pass}, // output of passing tests is not kept
	}
	if diff := cmp.Diff(want, got[:2], cmpopts.IgnoreFields(TestResult{}, "Iter")); diff != "" {
		t.Errorf("results (-want +got):\n%s", diff)
	}
}

func TestParseTestMainOutput(t *testing.T) {
	out := frame("=== RUN   TestA", "--- PASS: TestA (0.00s)", "PASS", "|leak: 1 goroutine")
	got := parseRun(out, 1, false)
	if len(got) != 2 || got[1].Name != PackageTest || got[1].Outcome != Fail || got[1].Output != "leak: 1 goroutine\n" {
		t.Errorf("results %+v, want the package to fail with TestMain's output", got)
	}
}

func TestParseCrashOutput(t *testing.T) {
	out := frame("=== RUN   TestGo", "|    x_test.go:9: about to go", "|panic: boom", "|goroutine 7 [running]:")
	got := parseRun(out, 2, false)
	if len(got) != 2 || !strings.Contains(got[0].Output, "about to go") || !strings.Contains(got[0].Output, "panic: boom") {
		t.Errorf("crash output = %+v, want the test's log and the panic", got)
	}
}

func TestParseTruncatesOutput(t *testing.T) {
	big := strings.Repeat("x", 100) + "\n"
	lines := []string{"=== RUN   TestBig"}
	for range 1000 {
		lines = append(lines, "|"+big[:100])
	}
	lines = append(lines, "|    big_test.go:9: the reason", "--- FAIL: TestBig (0.00s)", "FAIL")
	got := parseRun(frame(lines...), 1, false)
	if !strings.HasSuffix(got[0].Output, "the reason\n") {
		t.Errorf("the tail, where the failure's reason is, was dropped:\n%s", got[0].Output[len(got[0].Output)-200:])
	}
	if n := len(got[0].Output); n > MaxOutput || !strings.Contains(got[0].Output, "bytes cut") {
		t.Errorf("output of %d bytes, want it cut near %d and marked", n, MaxOutput)
	}
}

// parseRun parses one process's output as the runner does once the process ended with the
// given exit status (killed: by the watchdog).
func parseRun(out []byte, exit int, killed bool) []TestResult {
	p := NewParser()
	p.Parse(bytes.NewReader(out))
	return p.Finish(testbin.Exit{Code: exit, Hung: killed})
}

// parTrace is what package testing and the runtime print when a parallel test panics while
// its neighbour still runs (trimmed from a real run).
var parTrace = frame("=== RUN   TestPar1", "=== PAUSE TestPar1", "=== NAME  ", "=== RUN   TestPar2",
	"=== PAUSE TestPar2", "=== NAME  ", "=== CONT  TestPar1", "=== CONT  TestPar2", "--- FAIL: TestPar2 (0.02s)",
	"|panic: boom [recovered, repanicked]", "|", "|goroutine 24 [running]:",
	"|testing.tRunner.func1.2({0x551fc0, 0x595700})", "|\t/usr/local/go/src/testing/testing.go:1974 +0x232",
	"|panic({0x551fc0?, 0x595700?})", "|\t/usr/local/go/src/runtime/panic.go:860 +0x13a",
	"|rx/p.TestPar2(0x2033cb7b0908?)", "|\t/tmp/rx/p/p_test.go:23 +0x68",
	"|testing.tRunner(0x2033cb7b0908, 0x593f48)", "|\t/usr/local/go/src/testing/testing.go:2036 +0xea",
	"|created by testing.(*T).Run in goroutine 1", "|", "|goroutine 1 [chan receive]:", "|rx/p.TestPar1(0xc0)")

func TestParseBlamesThePanickingTest(t *testing.T) {
	got := outcomes(parseRun(parTrace, 2, false))
	want := map[string]Outcome{"TestPar2": Crash} // TestPar1 was cut short: it runs again elsewhere
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("outcomes (-want +got):\n%s", diff)
	}
	// A panic in a goroutine that a subtest started is blamed on the running subtest of that
	// test, not on the other test running beside it.
	out := frame("=== RUN   TestA", "=== PAUSE TestA", "=== RUN   TestB", "=== RUN   TestB/x", "=== CONT  TestA",
		"|panic: in a goroutine", "|", "|goroutine 9 [running]:", "|example.com/p.helper()", "|\t/p.go:3",
		"|created by example.com/p.TestB.func1 in goroutine 8", "|\t/p_test.go:9 +0x1")
	got = outcomes(parseRun(out, 2, false))
	if diff := cmp.Diff(map[string]Outcome{"TestB": Crash, "TestB/x": Crash}, got); diff != "" {
		t.Errorf("outcomes (-want +got):\n%s", diff)
	}
}

func TestFrameTest(t *testing.T) {
	for line, want := range map[string]string{
		"example.com/p.TestX(0xc000)":                       "TestX",
		"example.com/a/b_test.TestY.func1.2(0xc000, 0x1)":   "TestY",
		"created by example.com/p.TestZ in goroutine 7":     "TestZ",
		"created by example.com/p.ExampleW.func3 in gor...": "ExampleW",
		"testing.tRunner(0xc0, 0x5)":                        "",
		"example.com/p.(*T).TestLike(0xc0)":                 "",
		"\t/src/p_test.go:9 +0x1":                           "",
		"main.main()":                                       "",
	} {
		if got := frameTest(line); got != want {
			t.Errorf("frameTest(%q) = %q, want %q", line, got, want)
		}
	}
}

// TestParseControlBytes: output holding the framing marker cannot end, start or flip a test.
func TestParseControlBytes(t *testing.T) {
	out := frame("=== RUN   TestVictim", "--- PASS: TestVictim (0.00s)", "=== RUN   TestPrinter",
		"--- FAIL: TestVictim (0.00s)", // printed by TestPrinter after TestVictim ended
		"PASS",                         // while TestPrinter runs
		"=== RUN   TestPrinter",        // TestPrinter is running already
		"--- PASS: TestGhost (0.00s)",  // never started
		"--- PASS: TestPrinter (soon)", // not a duration
		"|junk \x16\x16--- FAIL: TestPrinter", "|\x16\x16=== NAME  TestNobody",
		"--- PASS: TestPrinter (0.00s)", "PASS")
	got := parseRun(out, 0, false)
	if diff := cmp.Diff(map[string]Outcome{"TestVictim": Pass, "TestPrinter": Pass}, outcomes(got)); diff != "" {
		t.Errorf("outcomes (-want +got):\n%s", diff)
	}
}

// TestParseLongLine: a line longer than the reader's buffer is output, however it is cut.
func TestParseLongLine(t *testing.T) {
	long := strings.Repeat("y", 200<<10)
	out := frame("=== RUN   TestA", "|"+long+"\x16--- FAIL: TestA (0.00s)", "FAIL")
	got := parseRun(out, 1, false)
	if len(got) != 2 || got[0].Outcome != Fail || !strings.HasSuffix(got[0].Output, "yyy") {
		t.Errorf("results %+.200v", got)
	}
}

// TestParseSkipIdiom: TestMain exiting 0 before m.Run prints nothing and runs nothing: the
// package skipped itself.
func TestParseSkipIdiom(t *testing.T) {
	got := parseRun(nil, 0, false)
	if len(got) != 1 || got[0].Name != PackageTest || got[0].Outcome != Skip {
		t.Errorf("results %+v, want the package skipped", got)
	}
}

func TestClip(t *testing.T) {
	var c clip
	for i := range 10000 {
		fmt.Fprintf(&c, "line %d\n", i)
	}
	s := c.String()
	if !strings.HasPrefix(s, "line 0\n") || !strings.HasSuffix(s, "line 9999\n") || len(s) > MaxOutput || c.Len() < 80000 {
		t.Errorf("clip of %d bytes: %d kept, head %q, tail %q", c.Len(), len(s), s[:20], s[len(s)-20:])
	}
	var small clip
	small.Write([]byte("abc"))
	if small.String() != "abc" {
		t.Errorf("small clip %q", small.String())
	}
}

// TestParseManyRunsInterned: the framing lines that every run of a process repeats are made
// strings once, but no more than maxInterned distinct lines are kept however many a process
// prints (a test printing the marker before distinct text), and each run is still read on its
// own: 3,000 runs of a test that fails in every third, after twice maxInterned distinct
// marker lines of output.
func TestParseManyRunsInterned(t *testing.T) {
	var out []byte
	for i := range 2 * maxInterned {
		out = append(out, fmt.Sprintf("\x16 output line %d\n", i)...)
	}
	const runs = 3000
	for i := range runs {
		verb := "PASS"
		if i%3 == 2 {
			verb = "FAIL"
		}
		out = append(out, frame("=== RUN   TestA", "=== RUN   TestA/sub", "--- "+verb+": TestA/sub (0.00s)",
			"=== NAME  TestA", "--- "+verb+": TestA (0.00s)")...)
	}
	out = append(out, frame("FAIL")...)
	p := NewParser()
	if err := p.Parse(bytes.NewReader(out)); err != nil {
		t.Fatal(err)
	}
	if len(p.interned) > maxInterned {
		t.Errorf("%d lines interned, want at most %d", len(p.interned), maxInterned)
	}
	fails := map[string]int{}
	for _, r := range p.Finish(testbin.Exit{Code: 1}) {
		if r.Outcome == Fail {
			fails[r.Name]++
		}
		if r.Name != PackageTest && (r.Outcome == Fail) != (r.Iter%3 == 2) {
			t.Fatalf("%s run %d: %s", r.Name, r.Iter, r.Outcome)
		}
	}
	if fails["TestA"] != runs/3 || fails["TestA/sub"] != runs/3 {
		t.Errorf("failures %v, want %d of each test", fails, runs/3)
	}
}

// TestParsePassingOutputReleased: the output of a test that passed or was skipped is let go at
// its result line, since a record keeps output for failed outcomes only; a process of many
// chatty passing runs must not hold all their output until it is parsed. A failed test keeps
// its own.
func TestParsePassingOutputReleased(t *testing.T) {
	chatty := strings.Repeat("x", 100) + "\n"
	var out []byte
	for _, verb := range []string{"PASS", "SKIP", "FAIL"} {
		out = append(out, frame("=== RUN   Test"+verb)...)
		for range 200 {
			out = append(out, chatty...)
		}
		out = append(out, frame("--- "+verb+": Test"+verb+" (0.00s)")...)
	}
	out = append(out, frame("FAIL")...)
	p := NewParser()
	if err := p.Parse(bytes.NewReader(out)); err != nil {
		t.Fatal(err)
	}
	for _, s := range p.Order {
		held := s.out.Len() + int64(cap(s.out.head)+cap(s.out.tail))
		if failed := s.outcome.Failed(); failed != (held > 0) {
			t.Errorf("%s (%s): %d bytes of output held after its result; want them kept only when it failed", s.Name, s.outcome, held)
		}
	}
	for _, r := range p.Finish(testbin.Exit{Code: 1}) {
		if r.Name == "TestFAIL" && !strings.Contains(r.Output, chatty) {
			t.Errorf("TestFAIL's output was lost: %q", r.Output)
		}
	}
}

// TestParseUnknownFraming: framing a later Go may add (an event for a retried test, a result
// verb of its own) neither fails the parse nor changes a result: an unknown "=== VERB" is
// passed over, an unknown "--- VERB:" is the running test's output.
func TestParseUnknownFraming(t *testing.T) {
	out := frame("=== RUN   TestA", "=== RETRY TestA", "--- RETRIED: TestA (0.00s)", "|    a_test.go:3: again",
		"--- FAIL: TestA (0.00s)", "=== RUN   TestB", "=== ARTIFACTS TestB /tmp/x", "--- PASS: TestB (0.00s)", "FAIL")
	got := parseRun(out, 1, false)
	if want := map[string]Outcome{"TestA": Fail, "TestB": Pass}; !cmp.Equal(outcomes(got), want) {
		t.Errorf("outcomes %v, want %v", outcomes(got), want)
	}
	for _, r := range got {
		if r.Name == "TestA" && !strings.Contains(r.Output, "--- RETRIED: TestA") {
			t.Errorf("TestA's output %q lacks the unknown result line", r.Output)
		}
	}
}
