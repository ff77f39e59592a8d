package audit

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// A Baseline records the survivors a team has accepted, each with its reason, so that a pull
// request's audit fails on new survivors only (spreadcheck audit -baseline). An entry names
// its site by package, function and the draw's source text, not by line, so that edits
// elsewhere in the file do not unmatch it; Occurrence tells apart the same draw written twice
// in one function.
type Baseline struct {
	Version int             `json:"version"` // 1
	Entries []BaselineEntry `json:"entries"`
}

// BaselineEntry is one accepted mutant.
type BaselineEntry struct {
	Package    string  `json:"package"`
	Func       string  `json:"func"`
	Expr       string  `json:"expr"`
	Occurrence int     `json:"occurrence,omitempty"` // 0 for the first such draw in the function
	Class      string  `json:"class"`
	Verdict    Verdict `json:"verdict"` // survived or not covered, when it was accepted
	Reason     string  `json:"reason"`
}

// BaselineVersion is the version of the baseline file's format.
const BaselineVersion = 1

// key identifies the entry's mutant.
func (e *BaselineEntry) key() string {
	return fmt.Sprintf("%s\x00%s\x00%s\x00%d\x00%s", e.Package, e.Func, e.Expr, e.Occurrence, e.Class)
}

// ReadBaseline reads a baseline file. An entry without a reason, or a file of another
// version, is an error: the file exists to say why each survivor is accepted.
func ReadBaseline(r io.Reader) (*Baseline, error) {
	var b Baseline
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&b); err != nil {
		return nil, fmt.Errorf("reading the baseline: %v", err)
	}
	if b.Version != BaselineVersion {
		return nil, fmt.Errorf("baseline version %d: this spreadcheck reads version %d", b.Version, BaselineVersion)
	}
	var errs []error
	for i, e := range b.Entries {
		if strings.TrimSpace(e.Reason) == "" {
			errs = append(errs, fmt.Errorf("baseline entry %d (%s %s in %s) has no reason: say why it is accepted", i+1, e.Class, e.Expr, e.Func))
		}
		if e.Package == "" || e.Expr == "" || e.Class == "" {
			errs = append(errs, fmt.Errorf("baseline entry %d lacks its package, expr or class", i+1))
		}
	}
	return &b, errors.Join(errs...)
}

// NewBaseline returns the baseline that accepts every survivor and not covered mutant of the
// report: each with the reason a baseline applied to the report gave it, or else with reason
// (for the user to make precise).
func (r *Report) NewBaseline(reason string) *Baseline {
	b := &Baseline{Version: BaselineVersion, Entries: []BaselineEntry{}}
	r.eachWeak(func(s *SiteReport, occ int, m *MutantReport) {
		why := reason
		if m.Accepted != "" {
			why = m.Accepted
		}
		b.Entries = append(b.Entries, BaselineEntry{Package: s.Package, Func: s.Func, Expr: s.Expr, Occurrence: occ,
			Class: m.Class, Verdict: m.Verdict, Reason: why})
	})
	return b
}

// WriteJSON writes the baseline file.
func (b *Baseline) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(b)
}

// ApplyBaseline marks each survivor and not covered mutant that the baseline accepts with the
// baseline's reason (Accepted), so that it no longer fails the audit, and lists the entries
// that match none of them as stale: their mutant is killed now, or their draw is gone.
func (r *Report) ApplyBaseline(b *Baseline) {
	accepted := map[string]*BaselineEntry{}
	for i := range b.Entries {
		accepted[b.Entries[i].key()] = &b.Entries[i]
	}
	used := map[string]bool{}
	r.eachWeak(func(s *SiteReport, occ int, m *MutantReport) {
		e := BaselineEntry{Package: s.Package, Func: s.Func, Expr: s.Expr, Occurrence: occ, Class: m.Class}
		if a, ok := accepted[e.key()]; ok {
			m.Accepted, used[e.key()] = a.Reason, true
		}
	})
	r.Stale = []BaselineEntry{}
	for _, e := range b.Entries {
		if !used[e.key()] {
			r.Stale = append(r.Stale, e)
		}
	}
	r.score()
}

// eachWeak calls f with each survivor and not covered mutant, its site, and which occurrence
// of its draw's text in its function the site is.
func (r *Report) eachWeak(f func(s *SiteReport, occ int, m *MutantReport)) {
	seen := map[string]int{}
	for i := range r.Sites {
		s := &r.Sites[i]
		k := s.Package + "\x00" + s.Func + "\x00" + s.Expr
		occ := seen[k]
		seen[k]++
		for j := range s.Mutants {
			if m := &s.Mutants[j]; m.Verdict == Survived || m.Verdict == NotCovered {
				f(s, occ, m)
			}
		}
	}
}

// ReadBaselineFile reads the baseline file at path.
func ReadBaselineFile(path string) (*Baseline, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := ReadBaseline(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return b, nil
}
