package audit

import (
	"fmt"
	"strings"

	"github.com/spreadcheck/spreadcheck/internal/testout"
)

// A test that leaves something behind in its process (a name registered in a package-level
// map, a sync.Once, a port it keeps) can fail every run of a process but the first:
// groupcache's TestPeers registers its group by name and panics on the second registration.
// In processes of B runs such a test fails at baseline about (B-1)/B of its runs, whatever the
// code does, and a mutant under which it fails every run is no longer told from the baseline.
// The audit finds such tests in the baseline it has made: for each test of a group whose
// processes make more than one run, it counts the runs that were the first of their process
// (the first of a planned process, or the first of one that a crash or hang started again)
// and the later ones, and their failures. The test leaks when the later runs fail more often
// than the first by Fisher's exact test (one-sided), at Config.Alpha split over every test
// so examined (Bonferroni). Its group then makes its baseline again and all its mutants' runs
// a process per run, as -batch 1 would, and the report says so.
//
// A test whose failures do not depend on its place in the process (flaky at any rate p,
// independent of position) is mistaken for one that leaks with a chance of at most the level:
// given the number of failures, their places are a uniform draw among the runs, and Fisher's
// test conditions on that number. A failure that crashes the process moves the next run to
// the first place of a new one, which makes the places depend on the outcomes;
// TestLeakFalseTrigger enumerates every outcome of 20 runs, in processes of 2 and 5 runs,
// failures crashing or not, and finds the chance at most 0.0043 for every p at the level
// 0.01 (0.0040 at most without crashes).

// places counts one test's runs by their place in their process.
type places struct{ first, later tally }

// leaks reports whether the later runs failed more often than the first, at the level, and
// the p-value.
func (p places) leaks(level float64) (bool, float64) {
	if p.later.fails == 0 || p.first.runs == 0 {
		return false, 1
	}
	pv := fisherGreater(p.later.fails, p.later.runs, p.first.fails, p.first.runs)
	return pv <= level, pv
}

// addPlaces counts a process's outcomes of the named tests by their place in it.
func addPlaces(byTest map[string]*places, r result) {
	for _, t := range r.tests {
		c := byTest[t.Name]
		if c == nil || strings.Contains(t.Name, "/") || t.Outcome == testout.Skip {
			continue
		}
		at := &c.later
		if t.Run == r.first {
			at = &c.first
		}
		at.runs++
		if t.Outcome.Failed() {
			at.fails++
		}
	}
}

// leaking finds, in the baseline processes of the groups, the groups with a test that fails
// only in the later runs of a process (see leaks), marks each to run a process per run, says
// so in a warning, and returns them.
func (a *auditor) leaking(groups []int, res []result, owner []int) []int {
	byGroup := map[int]map[string]*places{}
	examined := 0
	for _, gi := range groups {
		if g := a.groups[gi]; a.batchOf(g) > 1 {
			byGroup[gi] = map[string]*places{}
			for _, t := range g.tests {
				byGroup[gi][t] = &places{}
			}
			examined += len(g.tests)
		}
	}
	for _, r := range res {
		if m := byGroup[owner[r.job]]; m != nil {
			addPlaces(m, r)
		}
	}
	level := a.cfg.Alpha / float64(max(examined, 1))
	var alone []int
	for _, gi := range groups {
		g := a.groups[gi]
		for _, t := range g.tests {
			p := byGroup[gi][t]
			if p == nil {
				continue
			}
			if ok, pv := p.leaks(level); ok {
				g.alone = fmt.Sprintf("%s %s fails in later runs of a test process, not in the first (%d of %d first runs failed, %d of %d later ones; "+
					"p = %.2g, level %.2g): a run leaves something behind that fails the next, so its tests run a process per run, at baseline and under every mutant",
					a.describeGroup(g), t, p.first.fails, p.first.runs, p.later.fails, p.later.runs, pv, level)
				a.rep.Warnings = appendNew(a.rep.Warnings, g.alone)
				alone = append(alone, gi)
				break
			}
		}
	}
	return alone
}
