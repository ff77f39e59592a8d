package audit

import (
	"context"
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
