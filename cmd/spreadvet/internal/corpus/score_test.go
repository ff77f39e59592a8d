package main

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const mod = "example.com/m@v1.0.0"

// funcsAt is an Enclosing with one function of lines [10, 30] in a_test.go.
func funcsAt(_, file string, line int) int {
	if file == "a_test.go" && 10 <= line && line <= 30 {
		return 10
	}
	return 0
}

func label(file string, line int, kinds ...Kind) Label {
	return Label{Module: mod, File: file, Line: line, Kinds: kinds, Confirm: "c", Why: "w"}
}

func finding(file string, line int, k Kind) Finding {
	return Finding{Module: mod, File: file, Line: line, Kind: k, Message: "m; fix"}
}

func TestMatchesByFileAndFunctionOrNearbyLine(t *testing.T) {
	l := label("a_test.go", 12, "blind test")
	for _, tc := range []struct {
		f    Finding
		want bool
	}{
		{finding("a_test.go", 12, "blind test"), true},
		{finding("a_test.go", 29, "blind test"), true},  // same function, 17 lines on
		{finding("a_test.go", 31, "blind test"), false}, // past the function's end
		{finding("b_test.go", 12, "blind test"), false}, // another file, same line
		{finding("a_test.go", 9, "blind test"), true},   // before the function, within 3 lines
		{finding("a_test.go", 8, "blind test"), false},
		{Finding{Module: "other@v1", File: "a_test.go", Line: 12, Kind: "blind test"}, false},
	} {
		if got := matches(l, tc.f, funcsAt); got != tc.want {
			t.Errorf("matches(%s:%d, %s:%d) = %v, want %v", l.File, l.Line, tc.f.File, tc.f.Line, got, tc.want)
		}
	}
	// Outside any function only nearby lines match: 0 is no function, not a shared one.
	far := label("c.go", 100, "clock-derived randomness")
	if matches(far, finding("c.go", 200, "clock-derived randomness"), funcsAt) {
		t.Error("two lines outside any function matched as if in one function")
	}
}

func TestMeasureCountsCasesFindingsAndNegatives(t *testing.T) {
	mods := []Module{{Path: mod, Packages: []string{"./..."}, What: "retry"}}
	labels := []Label{
		label("a_test.go", 12, "blind test"),
		label("a_test.go", 40, "flaky test", "blind test"),
		label("b_test.go", 5, "hand-sized tolerance"),
		label("c.go", 50, None),
	}
	findings := []Finding{
		finding("a_test.go", 20, "blind test"),         // case 1, in its function
		finding("a_test.go", 14, "blind test"),         // case 1 again: true, counted once in found
		finding("a_test.go", 41, "blind test"),         // case 2 by its second kind
		finding("b_test.go", 5, "blind test"),          // at case 3, but the wrong kind
		finding("c.go", 51, "random sleep loop"),       // on a true negative
		finding("d.go", 1, "clock-derived randomness"), // on nothing labelled
	}
	s := Measure(mods, labels, findings, funcsAt)
	want := Row{Cases: 3, Found: 2, Negatives: 1, Findings: 6, True: 3}
	if diff := cmp.Diff(want, s.Total); diff != "" {
		t.Errorf("total (-want +got):\n%s", diff)
	}
	if len(s.Misses) != 1 || s.Misses[0].File != "b_test.go" {
		t.Errorf("misses = %v, want b_test.go:5", s.Misses)
	}
	if len(s.False) != 3 || s.False[1].Negative == nil || s.False[0].Negative != nil {
		t.Fatalf("false findings = %+v, want b_test.go:5, c.go:51 on the negative, d.go:1", s.False)
	}
	if p, _ := s.Total.Precision(); p != 0.5 {
		t.Errorf("precision = %v, want 3/6", p)
	}
	if r, _ := s.Total.Recall(); r != 2.0/3 {
		t.Errorf("recall = %v, want 2/3", r)
	}
}

func TestWriteListsMissesAndFalseFindings(t *testing.T) {
	mods := []Module{{Path: mod, Packages: []string{"."}, What: "gossip"}, {Path: "example.com/empty@v1", Packages: []string{"."}, What: "cache"}}
	labels := []Label{label("a_test.go", 12, "blind test"), label("c.go", 50, None)}
	findings := []Finding{finding("c.go", 50, "random sleep loop")}
	var b strings.Builder
	if err := Measure(mods, labels, findings, funcsAt).Write(&b); err != nil {
		t.Fatal(err)
	}
	want := `| module | what | cases | found | recall | findings | false | precision | true negatives |
|---|---|--:|--:|--:|--:|--:|--:|--:|
| example.com/m@v1.0.0 | gossip | 1 | 0 | 0.0% | 1 | 1 | 0.0% | 1 |
| example.com/empty@v1 | cache | 0 | 0 | - | 0 | 0 | - | 0 |
| **total** | 2 modules | 1 | 0 | 0.0% | 1 | 1 | 0.0% | 1 |

Misses (1):

- example.com/m@v1.0.0 a_test.go:12 blind test: w

False findings (1):

- example.com/m@v1.0.0 c.go:50 random sleep loop: m
  (on code labelled none at line 50: w)
`
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("Write (-want +got):\n%s", diff)
	}
}

func TestWriteListsFailedRuns(t *testing.T) {
	s := Measure([]Module{{Path: mod, Packages: []string{"."}, What: "gossip"}}, []Label{label("a_test.go", 12, "blind test")}, nil, funcsAt)
	s.Failed = []Failure{{mod, "exit status 2; panic: boom"}}
	var b strings.Builder
	if err := s.Write(&b); err != nil {
		t.Fatal(err)
	}
	if want := "\nFailed runs (1), whose cases count as missed:\n\n- example.com/m@v1.0.0: exit status 2; panic: boom\n"; !strings.HasSuffix(b.String(), want) {
		t.Errorf("Write ends\n%s\nwant it to end\n%s", b.String(), want)
	}
}

// Cases labelled after spreadvet reported them are found by construction: the score says how
// many, and the recall on the others.
func TestWriteSaysCasesLabelledAfter(t *testing.T) {
	after := label("b_test.go", 30, "blind test")
	after.Why = "[labelled after spreadvet reported it; confirmed by the mutant] w"
	labels := []Label{label("a_test.go", 12, "blind test"), label("c_test.go", 40, "blind test"), after}
	findings := []Finding{finding("a_test.go", 12, "blind test"), finding("b_test.go", 30, "blind test")}
	s := Measure([]Module{{Path: mod, Packages: []string{"."}, What: "gossip"}}, labels, findings, funcsAt)
	if r, _ := s.Total.BeforeRecall(); r != 0.5 {
		t.Errorf("recall on the cases labelled before = %v, want 1/2", r)
	}
	var b strings.Builder
	if err := s.Write(&b); err != nil {
		t.Fatal(err)
	}
	want := "\n1 of the cases were labelled after spreadvet reported them (a finding no one had labelled, its mutant confirming it), so found by construction; of the 2 labelled before it ran, 1 are found (50.0%).\n"
	if !strings.Contains(b.String(), want) {
		t.Errorf("Write gave\n%s\nwant it to hold\n%s", b.String(), want)
	}
}

// The summary keeps the header, the total row and the recall of the cases labelled before,
// and nothing else; a score without them gives none.
func TestSummaryOf(t *testing.T) {
	score := "| module | what |\n|---|---|\n| a@v1 | x |\n| **total** | 1 modules |\n\n" +
		"0 of the cases were labelled after spreadvet reported them; of the 3 labelled before it ran, 2 are found (66.7%).\n\nMisses (1):\n\n- a@v1 a_test.go:3 blind test\n"
	want := "| module | what |\n|---|---|\n| **total** | 1 modules |\n\n" +
		"0 of the cases were labelled after spreadvet reported them; of the 3 labelled before it ran, 2 are found (66.7%).\n"
	if diff := cmp.Diff(want, summaryOf(score)); diff != "" {
		t.Errorf("summary (-want +got):\n%s", diff)
	}
	if got := summaryOf("| module | what |\n|---|---|\n| a@v1 | x |\n"); got != "" {
		t.Errorf("a score with no total gave a summary:\n%s", got)
	}
}
