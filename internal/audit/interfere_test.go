package audit

import (
	"context"
	"testing"

	"github.com/spreadcheck/spreadcheck/internal/longtest"
)

// TestInterferingTests audits the interfere fixture, whose TestA fails half its runs unless
// TestB ran before it in the process, and whose mutants change nothing any test checks. Every
// mutant must survive: each is compared with a baseline of the same tests, run together as
// under the mutant. Compared with a baseline of every test that reaches any site, TestA alone
// under Near's mutants would fail more often than at baseline, and kill them.
func TestInterferingTests(t *testing.T) {
	longtest.Skip(t) // audits a fixture module; TestBaselineSameConditions checks the same with a fake engine
	rep, err := Run(context.Background(), fixtureConfig("interfere"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range rep.Sites {
		for _, m := range s.Mutants {
			if m.Verdict != Survived {
				t.Errorf("%s:%d %s: %s by %s (%d of %d runs failed, baseline %d of %d); want survived",
					s.File, s.Line, m.Class, m.Verdict, m.Test, m.Failures, m.Runs, m.BaselineFailures, m.BaselineRuns)
			}
		}
	}
	if len(rep.Sites) != 2 {
		t.Errorf("%d sites, want 2", len(rep.Sites))
	}
}
