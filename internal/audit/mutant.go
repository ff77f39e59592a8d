package audit

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"sync"

	"github.com/spreadcheck/spreadcheck/internal/runner"
	"github.com/spreadcheck/spreadcheck/mutants"
)

// mutant is one mutant of one site, and what is known of it so far.
type mutant struct {
	site  *Site
	class mutants.Class
	index int // in the audit's order of all mutants, the same in every shard
	rep   MutantReport
	done  bool // the verdict is final
	tests map[testRef]*tally
	runs  int // runs made so far (of each binary that reaches the site)
}

// plan lists every mutant, settles those that need no run (equivalent, not viable, not
// covered), and keeps the shard's share. The family of comparisons that the false-kill rate
// is split over counts every runnable mutant of every shard, so that the shards' verdicts
// are those of one whole audit.
func (a *auditor) plan() []*mutant {
	var all []*mutant
	for _, s := range a.sites {
		for _, c := range s.Draw.Kind.Classes() {
			m := &mutant{site: s, class: c, index: len(all), rep: MutantReport{Class: c.Name}}
			all = append(all, m)
			switch {
			case s.NotViable != "":
				m.settle(NotViable, s.NotViable)
			case s.Equivalent[c.Name] != "":
				m.settle(Equivalent, s.Equivalent[c.Name])
			case len(a.compared(s)) == 0:
				why := "no test reaches the site"
				if len(a.reach[s.ID]) > 0 {
					why = "only tests that fail every baseline run reach the site"
				}
				m.settle(NotCovered, why)
			default:
				a.rep.Family += len(a.compared(s))
			}
		}
	}
	var mine []*mutant
	for _, m := range all {
		if a.cfg.Shard.Has(m.index + 1) {
			mine = append(mine, m)
		}
	}
	return mine
}

func (m *mutant) settle(v Verdict, reason string) {
	m.rep.Verdict, m.rep.Reason, m.done = v, reason, true
}

// compared returns the tests whose failure rates under a site's mutants are compared with
// their baseline: those that reach it and did not fail every baseline run, and the package
// pseudo-test of each of their binaries (a mutant that crashes the process outside a test).
func (a *auditor) compared(s *Site) []testRef {
	var out []testRef
	bins := map[int]bool{}
	for _, r := range a.reach[s.ID] {
		if a.baseline[r] != nil {
			out = append(out, r)
			bins[r.bin] = true
		}
	}
	for b := range bins {
		if ref := (testRef{b, runner.PackageTest}); a.baseline[ref] != nil {
			out = append(out, ref)
		}
	}
	return out
}

// level is the p-value at or below which a mutant is killed: the family's false-kill rate
// split over every comparison and every look (Bonferroni).
func (a *auditor) level() float64 {
	return a.cfg.Alpha / float64(max(a.rep.Family, 1)*len(looks(a.cfg.Runs)))
}

// runMutants runs the open mutants look by look: all of a look's runs at once, then the
// verdicts, so that a mutant killed early makes no more runs.
func (a *auditor) runMutants(ctx context.Context, muts []*mutant) {
	var open []*mutant
	for _, m := range muts {
		if !m.done {
			m.tests = map[testRef]*tally{}
			for _, r := range a.compared(m.site) {
				m.tests[r] = &tally{}
			}
			open = append(open, m)
		}
	}
	if a.cfg.PerMutant && !a.buildPerMutant(ctx, open) {
		return
	}
	for i, upTo := range looks(a.cfg.Runs) {
		if len(open) == 0 {
			return
		}
		var jobs []job
		var owner []*mutant
		for _, m := range open {
			for _, b := range a.binsOf(m) {
				for k := m.runs + 1; k <= upTo; k++ {
					jobs = append(jobs, a.mutantJob(m, b, k))
					owner = append(owner, m)
				}
			}
			m.runs = upTo
		}
		a.cfg.Log("audit: look %d: %d mutants open, %d runs", i+1, len(open), len(jobs))
		res, _ := a.eng.run(ctx, jobs, a.timeout())
		if ctx.Err() != nil {
			a.decide(open, res, jobs, owner, false)
			return
		}
		open = a.decide(open, res, jobs, owner, upTo == a.cfg.Runs)
		stage(fmt.Sprintf("look %d", i+1))
	}
}

// binsOf returns the binaries a mutant runs: those holding a test that reaches its site.
func (a *auditor) binsOf(m *mutant) []int {
	seen := map[int]bool{}
	var out []int
	for r := range m.tests {
		if !seen[r.bin] {
			seen[r.bin] = true
			out = append(out, r.bin)
		}
	}
	sort.Ints(out)
	return out
}

// mutantJob returns the k-th run of a mutant in one binary: its own seed, the tests that
// reach the site, the mutant switched on.
func (a *auditor) mutantJob(m *mutant, bin, k int) job {
	var names []string
	for r := range m.tests {
		if r.bin == bin && r.test != runner.PackageTest {
			names = append(names, r.test)
		}
	}
	sort.Strings(names)
	pkg := a.bins[bin]
	if a.cfg.PerMutant {
		pkg = a.perBins[m.index][pkg.ImportPath]
	}
	return job{pkg: pkg, filter: filter(names), seed: runner.RunSeed(a.cfg.Seed, a.cfg.Runs*(m.index+1)+k),
		env: []string{mutants.MutantEnv + "=" + strconv.Itoa(m.site.ID) + ":" + strconv.Itoa(mutants.ClassCode(m.class))}}
}

// decide counts a look's results and settles the mutants that are killed, or that survive
// (at the last look, or once no run left can kill them). It returns the mutants still open.
func (a *auditor) decide(open []*mutant, res []result, jobs []job, owner []*mutant, last bool) []*mutant {
	for _, r := range res {
		m := owner[r.job]
		count(m.tests, a.binIndex(jobs[r.job].pkg), r)
	}
	level := a.level()
	var still []*mutant
	for _, m := range open {
		best, bestP := testRef{}, 2.0
		certain := true
		for ref, t := range m.tests {
			b := a.baseline[ref]
			p := fisherGreater(t.fails, t.runs, b.fails, b.runs)
			if p < bestP || p == bestP && less(ref, best) {
				best, bestP = ref, p
			}
			// A test that fails at baseline runs on: all R runs may show that the mutant
			// makes it fail less often.
			certain = certain && b.fails == 0 && cannotKill(t.fails, t.runs, a.cfg.Runs, b.fails, b.runs, level)
		}
		m.evidence(best, bestP, a.baseline[best], level)
		switch {
		case a.cfg.AllRuns && !last:
			still = append(still, m)
			continue
		case bestP <= level:
			m.rep.Verdict, m.done = Killed, true
			m.rep.Timeout = m.tests[best].hangs > 0
		case last || certain:
			m.rep.Verdict, m.done = Survived, true
			m.rep.Check = checkFor[m.class.Name]
			if b := a.baseline[best]; b != nil && b.fails > 0 {
				m.rep.Reason = flakyHint(best.test, b, a.cfg.Runs, level)
			}
		default:
			still = append(still, m)
			continue
		}
		m.rep.Fewer = a.fewer(m, level)
	}
	return still
}

// less orders tests for the evidence: by binary, real tests before the package pseudo-test,
// then by name.
func less(x, y testRef) bool {
	if x.bin != y.bin {
		return x.bin < y.bin
	}
	if (x.test == runner.PackageTest) != (y.test == runner.PackageTest) {
		return y.test == runner.PackageTest
	}
	return x.test < y.test
}

// evidence records the test closest to killing the mutant.
func (m *mutant) evidence(ref testRef, p float64, base *tally, level float64) {
	t := m.tests[ref]
	if t == nil || base == nil {
		return
	}
	m.rep.Test, m.rep.Runs, m.rep.Failures = ref.test, t.runs, t.fails
	m.rep.BaselineRuns, m.rep.BaselineFailures = base.runs, base.fails
	m.rep.PValue, m.rep.Level = &p, level
}

// fewer lists the tests that fail significantly less often under the mutant.
func (a *auditor) fewer(m *mutant, level float64) []Fewer {
	var out []Fewer
	for ref, t := range m.tests {
		b := a.baseline[ref]
		if p := fisherLess(t.fails, t.runs, b.fails, b.runs); b.fails > 0 && p <= level {
			out = append(out, Fewer{Test: ref.test, Runs: t.runs, Failures: t.fails, BaselineRuns: b.runs,
				BaselineFailures: b.fails, PValue: p})
		}
	}
	return out
}

// buildPerMutant builds, for each open mutant, the binaries of the packages whose tests
// reach its site, with that one mutant compiled in, -p mutants at a time. It reports false
// when interrupted.
func (a *auditor) buildPerMutant(ctx context.Context, open []*mutant) bool {
	a.perBins = map[int]map[string]runner.Package{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	sem := make(chan struct{}, max(a.cfg.Parallel, 1))
	for _, m := range open {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			bins, why := a.buildMutant(ctx, m)
			mu.Lock()
			defer mu.Unlock()
			if why != "" {
				m.settle(NotViable, why)
				return
			}
			a.perBins[m.index] = map[string]runner.Package{}
			for _, b := range bins {
				a.perBins[m.index][b.ImportPath] = b
			}
		})
	}
	wg.Wait()
	return ctx.Err() == nil
}

// buildMutant builds one mutant's binaries, or says why it is not viable.
func (a *auditor) buildMutant(ctx context.Context, m *mutant) ([]runner.Package, string) {
	dir := filepath.Join(a.tmp, fmt.Sprintf("mutant-%d", m.index))
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, err.Error()
	}
	fixed := strconv.Itoa(m.site.ID) + ":" + strconv.Itoa(mutants.ClassCode(m.class))
	ov, err := writeOverlay(dir, []*Site{m.site}, a.imps, fixed)
	if err != nil {
		return nil, err.Error()
	}
	var pats []string
	for _, b := range a.binsOf(m) {
		pats = append(pats, a.bins[b].ImportPath)
	}
	bins, err := a.eng.build(ctx, pats, ov.File)
	if msgs := buildErrors(bins); err != nil || len(msgs) > 0 {
		return nil, "does not compile: " + firstLine(fmt.Sprint(err, msgs))
	}
	return bins, ""
}

// report fills in the report's sites from the mutants of this shard that reached a verdict.
func (a *auditor) report(muts []*mutant) {
	bySite := map[int][]MutantReport{}
	for _, m := range muts {
		if m.done {
			bySite[m.site.ID] = append(bySite[m.site.ID], m.rep)
		}
	}
	for _, s := range a.sites {
		sr := SiteReport{File: s.File, Line: s.Line, Expr: s.Expr, Package: s.Package, Func: s.Func,
			Kind: string(s.Draw.Kind), Mutants: bySite[s.ID]}
		if sr.Mutants == nil {
			sr.Mutants = []MutantReport{}
		}
		sortMutants(sr.Mutants)
		if sr.survivors() {
			sr.Suggest = suggest(s)
		}
		a.rep.Sites = append(a.rep.Sites, sr)
	}
}

// suggest returns the spread.Check line that would kill the survivors of a site: sample the
// enclosing function and declare the range it promises. The range of the draw itself is
// known from the expression; what the function makes of it is the user's to state.
func suggest(s *Site) string {
	dist := "spread.Uniform(lo, hi)"
	note := fmt.Sprintf("lo, hi: the range %s promises", s.Func)
	if s.Range != "" {
		note += fmt.Sprintf("; its draw %s follows %s", s.Expr, s.Range)
	}
	if s.Declared != "" && s.Call != "" && s.Result != "" {
		return fmt.Sprintf("spread.Check(t, spread.Draw(1000, func() %s { return %s }), %s)", s.Result, s.Call, s.Declared)
	}
	if s.Result == "" || s.Call == "" {
		return fmt.Sprintf("xs := spread.Draw(1000, ...) // the values %s derives from %s; then spread.Check(t, xs, %s) // %s",
			s.Func, s.Expr, dist, note)
	}
	return fmt.Sprintf("spread.Check(t, spread.Draw(1000, func() %s { return %s }), %s) // %s", s.Result, s.Call, dist, note)
}

// flakyHint says, for a survivor whose closest test fails at baseline, how many runs would
// let that test kill a mutant that made it fail every run, if its baseline rate held; ""
// when the runs made were enough, so that the survival is no matter of too few runs.
func flakyHint(test string, b *tally, runs int, level float64) string {
	rate := float64(b.fails) / float64(b.runs)
	if b.fails == b.runs || fisherGreater(runs, runs, b.fails, b.runs) <= level {
		return ""
	}
	for r := 2 * runs; r <= 1<<16; r *= 2 {
		k := int(rate*float64(r) + 0.5)
		if fisherGreater(r, r, k, r) <= level {
			return fmt.Sprintf("%s fails %d of %d baseline runs: with that rate it can tell a mutant that makes it fail every run from about -runs %d", test, b.fails, b.runs, r)
		}
	}
	return fmt.Sprintf("%s fails %d of %d baseline runs: too flaky to tell a mutant by", test, b.fails, b.runs)
}
