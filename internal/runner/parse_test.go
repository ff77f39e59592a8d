package runner

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
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

// outcomes reduces results to name -> outcome.
func outcomes(rs []TestResult) map[string]Outcome {
	m := map[string]Outcome{}
	for _, r := range rs {
		m[r.Name] = r.Outcome
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
		{Name: "TestA", Outcome: Fail, Alphas: []float64{1e-9, 1e-9}, Seeded: true,
			Output: "    a_test.go:3: first\n        continued\n"},
		{Name: "TestB", Outcome: Pass}, // output of passing tests is not kept
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("results (-want +got):\n%s", diff)
	}
}

func TestParseTestMainOutput(t *testing.T) {
	out := frame("=== RUN   TestA", "--- PASS: TestA (0.00s)", "PASS", "|leak: 1 goroutine")
	got := parseRun(out, 1, false)
	if len(got) != 2 || got[1].Name != PackageTest || got[1].Output != "leak: 1 goroutine\n" {
		t.Errorf("results %+v, want the package to fail with TestMain's output", got)
	}
}

func TestParseCrashOutput(t *testing.T) {
	out := frame("=== RUN   TestGo", "|    x_test.go:9: about to go", "|panic: boom", "|goroutine 7 [running]:")
	got := parseRun(out, 2, false)
	if len(got) != 1 || !strings.Contains(got[0].Output, "about to go") || !strings.Contains(got[0].Output, "panic: boom") {
		t.Errorf("crash output = %+v, want the test's log and the panic", got)
	}
}

func TestParseTruncatesOutput(t *testing.T) {
	big := strings.Repeat("x", 100) + "\n"
	lines := []string{"=== RUN   TestBig"}
	for range 1000 {
		lines = append(lines, "|"+big[:100])
	}
	lines = append(lines, "--- FAIL: TestBig (0.00s)", "FAIL")
	got := parseRun(frame(lines...), 1, false)
	if n := len(got[0].Output); n > maxOutput+200 || !strings.Contains(got[0].Output, "truncated") {
		t.Errorf("output of %d bytes, want it cut near %d and marked", n, maxOutput)
	}
}
