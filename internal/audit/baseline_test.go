package audit

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/spreadcheck/spreadcheck/internal/testreport"
)

// TestBaselineFile: a baseline written from a report accepts every survivor and not covered
// mutant of it, so that the same report exits 0; a survivor it does not hold still fails; an
// entry whose mutant is now killed is stale.
func TestBaselineFile(t *testing.T) {
	// The sample's draw that never reaches the code fails the audit whatever the baseline
	// says: leave it out here.
	sample := func() *Report {
		r := sample()
		for i := range r.Sites {
			r.Sites[i].Dead = ""
		}
		return r
	}
	r := sample()
	if r.ExitCode() != testreport.ExitFlaky {
		t.Fatalf("the sample has survivors: exit %d", r.ExitCode())
	}
	var file bytes.Buffer
	if err := r.NewBaseline("accepted when the baseline was written").WriteJSON(&file); err != nil {
		t.Fatal(err)
	}
	b, err := ReadBaseline(bytes.NewReader(file.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Entries) == 0 {
		t.Fatal("no entries")
	}

	same := sample()
	same.ApplyBaseline(b)
	if same.ExitCode() != testreport.ExitClean || len(same.Stale) != 0 {
		t.Errorf("the baseline of the same report: exit %d, stale %v; want 0 and none", same.ExitCode(), same.Stale)
	}

	// One accepted survivor is killed now; one entry is dropped from the baseline, so that its
	// survivor is new.
	changed := sample()
	var killed, fresh *MutantReport
	changed.eachWeak(func(s *SiteReport, occ int, m *MutantReport) {
		if m.Verdict == Survived && killed == nil {
			killed = m
		} else if fresh == nil {
			fresh = m
		}
	})
	if killed == nil || fresh == nil {
		t.Fatal("the sample needs two weak mutants")
	}
	killed.Verdict = Killed
	freshKey := ""
	changed.eachWeak(func(s *SiteReport, occ int, m *MutantReport) {
		if m == fresh {
			freshKey = (&BaselineEntry{Package: s.Package, Func: s.Func, Expr: s.Expr, Occurrence: occ, Class: m.Class}).key()
		}
	})
	short := &Baseline{Version: BaselineVersion}
	for _, e := range b.Entries {
		if e.key() != freshKey {
			short.Entries = append(short.Entries, e)
		}
	}
	changed.ApplyBaseline(short)
	if changed.ExitCode() != testreport.ExitFlaky || fresh.Accepted != "" || len(changed.Stale) != 1 {
		t.Errorf("a new survivor and a killed one: exit %d, new one accepted %q, stale %d; want 1, not accepted, 1 stale",
			changed.ExitCode(), fresh.Accepted, len(changed.Stale))
	}
	var text bytes.Buffer
	changed.WriteText(&text)
	for _, want := range []string{"accepted ", "the baseline accepts it: accepted when the baseline was written", "stale baseline entries"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the text lacks %q:\n%s", want, text.String())
		}
	}
	for _, a := range changed.Annotations("") {
		if strings.Contains(a.Message, "accepted") {
			t.Errorf("an accepted survivor is annotated: %+v", a)
		}
	}
}

func TestReadBaselineErrors(t *testing.T) {
	for in, want := range map[string]string{
		`{"version": 2, "entries": []}`: "baseline version 2",
		`{"version": 1, "entries": [{"package": "p", "func": "F", "expr": "rand.Float64()", "class": "constant", "reason": " "}]}`: "has no reason",
		`{"version": 1, "entries": [{"package": "p", "func": "F", "class": "constant", "reason": "x"}]}`:                           "lacks its package, expr or class",
		`{"version": 1, "entrys": []}`: "unknown field",
		`[]`:                           "reading the baseline",
	} {
		if _, err := ReadBaseline(strings.NewReader(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", in, err, want)
		}
	}
	b, err := ReadBaseline(strings.NewReader(`{"version": 1, "entries": []}`))
	if err != nil || !cmp.Equal(b, &Baseline{Version: 1, Entries: []BaselineEntry{}}) {
		t.Errorf("an empty baseline: %+v, %v", b, err)
	}
}
