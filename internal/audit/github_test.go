package audit

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/spreadcheck/spreadcheck/internal/annotate"
)

// TestAnnotations: the gaps fixture's pinned report has sites no test reaches (the first, and
// the default that tests replace with a fake), sites whose mutants survived, and sites whose
// mutants were all killed: one warning on the line of each of the first two kinds, none for
// the third, paths under the module's root.
func TestAnnotations(t *testing.T) {
	r := gapsReport(t)
	as := r.Annotations("mod")
	weak := map[string]bool{}
	for _, s := range r.Sites {
		for _, m := range s.Mutants {
			if m.Verdict == Survived || m.Verdict == NotCovered {
				weak[s.File+":"+s.Expr] = true
			}
		}
	}
	if len(as) != len(weak) || len(as) == 0 {
		t.Fatalf("%d annotations for %d weak sites:\n%+v", len(as), len(weak), as)
	}
	first := as[0]
	want := annotate.Annotation{Level: annotate.Warning, File: "mod/gaps.go", Line: 14,
		Title: "spreadcheck audit: constant, sign-flip, clock-derived, collapsed-range of rand.IntN(n) let through"}
	first.Message = ""
	if diff := cmp.Diff(want, first); diff != "" {
		t.Errorf("the unreached site's annotation (-want +got):\n%s", diff)
	}
	if !strings.Contains(as[0].Message, "constant: not covered (no test reaches the site)") {
		t.Errorf("its message: %q", as[0].Message)
	}
	for _, a := range as[1:] {
		survivor := strings.Contains(a.Message, "survived (closest: ") && strings.Contains(a.Message, "would kill it")
		if !survivor && !strings.Contains(a.Message, "not covered (no test reaches the site)") {
			t.Errorf("a survivor's message lacks its evidence or the check that kills it: %q", a.Message)
		}
	}
}

// TestAnnotationsDeadDraw: a draw that never reaches the code is an error, with the line that
// would catch it.
func TestAnnotationsDeadDraw(t *testing.T) {
	r := Report{Sites: []SiteReport{{File: "a.go", Line: 3, Expr: "rand.Float64()", Dead: "truncated to 0", Suggest: "spread.Check(...)"}}}
	as := r.Annotations("")
	if len(as) != 1 || as[0].Level != annotate.Error || as[0].File != "a.go" || !strings.Contains(as[0].Message, "add: spread.Check(...)") {
		t.Errorf("%+v", as)
	}
}
