package audit

import "github.com/spreadcheck/spreadcheck/internal/diff"

// Change restricts an audit to the sites on the lines that a change added or modified, as a
// pull request's audit wants: the sites it did not touch were audited when they changed.
type Change struct {
	Lines diff.Lines // the changed lines, by path relative to the module's root
	Since string     // what the change is against, for the report: "since main", "in pr.diff"
}

// ChangeReport says which change an audit was restricted to.
type ChangeReport struct {
	Since   string `json:"since"`
	Outside int    `json:"outside"` // the module's sites on lines the change did not touch, left out
}

// changedSites returns the sites on changed lines, numbered anew, and how many were left out.
func changedSites(sites []*Site, c *Change) ([]*Site, int) {
	var kept []*Site
	for _, s := range sites {
		if c.Lines.Has(s.File, s.Line) {
			s.ID = len(kept)
			kept = append(kept, s)
		}
	}
	return kept, len(sites) - len(kept)
}
