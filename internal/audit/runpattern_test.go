package audit

import (
	"context"
	"strings"
	"testing"
)

// TestRunSubtests audits the subtests fixture with -run patterns that name subtests, as go
// test reads them. Before the audit split the pattern into levels it matched
// "TestJitter/Bounds" whole against the top-level names, picked no test, and called every
// mutant "not covered".
func TestRunSubtests(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		run  string
		want Verdict // the constant mutant's
	}{
		{"TestJitter/Bounds", Survived},        // only the bounds are checked
		{"TestJitter/Distinct", Killed},        // a constant gives one value
		{"^TestJitter$/^Nothing$", NotCovered}, // TestJitter runs, and no subtest of it
	} {
		t.Run(c.run, func(t *testing.T) {
			t.Parallel()
			cfg := fixtureConfig("subtests")
			cfg.Run = c.run
			rep, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Sites) != 1 {
				t.Fatalf("%d sites, want 1", len(rep.Sites))
			}
			for _, m := range rep.Sites[0].Mutants {
				if m.Class == "constant" && m.Verdict != c.want {
					t.Errorf("-run %q: the constant mutant is %s (%s), want %s", c.run, m.Verdict, evidence(m), c.want)
				}
			}
		})
	}
}

// TestRunPattern checks how a -run pattern is split, which top-level tests it selects and the
// -test.run each process gets.
func TestRunPattern(t *testing.T) {
	for _, c := range []struct {
		run    string
		names  []string // the top-level tests it selects, of TestA, TestB and TestAB
		filter string   // the -test.run of a process that runs them
	}{
		{"", []string{"TestA", "TestB", "TestAB"}, "^(TestA|TestB|TestAB)$"},
		{"TestA", []string{"TestA", "TestAB"}, "^(TestA|TestAB)$"},
		{"TestA|TestB", []string{"TestA", "TestB", "TestAB"}, "^(TestA|TestB|TestAB)$"},
		{"^TestA$/x", []string{"TestA"}, "^TestA$/x"},
		{"TestA/x/y", []string{"TestA", "TestAB"}, "^TestA$/x/y|^TestAB$/x/y"},
		{"^TestA$/x|^TestB$", []string{"TestA", "TestB"}, "^TestA$/x|^TestB$"},
		{"^TestA/x|^TestAB$", []string{"TestA", "TestAB"}, "^TestA$/x|^TestAB$"}, // TestAB: all its subtests
		{"Test(A|B)$/x", []string{"TestA", "TestB"}, "^TestA$/x|^TestB$/x"},      // '|' in parentheses
		{"TestA[/]", nil, "^()$"}, // '/' in brackets is a character
		{`TestA\/x`, nil, "^()$"}, // an escaped '/' too
	} {
		p, err := parseRun(c.run)
		if err != nil {
			t.Errorf("parseRun(%q): %v", c.run, err)
			continue
		}
		var got []string
		for _, n := range []string{"TestA", "TestB", "TestAB"} {
			if p.selects(n) {
				got = append(got, n)
			}
		}
		if strings.Join(got, " ") != strings.Join(c.names, " ") {
			t.Errorf("-run %q selects %q, want %q", c.run, got, c.names)
		}
		if f := p.filter(got); f != c.filter {
			t.Errorf("-run %q: filter(%q) = %q, want %q", c.run, got, f, c.filter)
		}
	}
	for _, bad := range []string{"TestA/(", "(/x", "TestA/x/[", "a|("} {
		if _, err := parseRun(bad); err == nil || !strings.Contains(err.Error(), "-run") {
			t.Errorf("parseRun(%q): %v, want an error naming -run", bad, err)
		}
	}
}
