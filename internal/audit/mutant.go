package audit

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/spreadcheck/spreadcheck/internal/rewrite"
	"github.com/spreadcheck/spreadcheck/internal/testbin"
	"github.com/spreadcheck/spreadcheck/internal/testout"
	"github.com/spreadcheck/spreadcheck/spread"
)

// mutant is one mutant of one site, and what is known of it so far.
type mutant struct {
	site  *Site
	class spread.Suspect
	index int // in the audit's order of all mutants, the same in every shard
	rep   MutantReport
	done  bool // the verdict is final
	tests map[ref]*tally
	runs  int  // runs made so far in each of its groups
	cost  cost // its processes' wall and CPU time so far
}

// mutants lists every mutant of the audit, every shard's, and settles those that need no run:
// not viable, equivalent, not covered.
func (a *auditor) mutants() []*mutant {
	var all []*mutant
	for _, s := range a.sites {
		for _, c := range s.Draw.Kind.Classes() {
			m := &mutant{site: s, class: c, index: len(all), rep: MutantReport{Class: string(c)}}
			all = append(all, m)
			switch {
			case s.NotViable != "":
				m.settle(NotViable, s.NotViable)
			case s.Equivalent[string(c)] != "":
				m.settle(Equivalent, s.Equivalent[string(c)])
			case s.Ignored[string(c)] != "":
				m.settle(Ignored, s.Ignored[string(c)])
			case len(a.siteGroups[s.ID]) == 0:
				m.settle(NotCovered, "no test reaches the site")
			}
		}
	}
	a.total = len(all)
	return all
}

// family counts the comparisons of the mutants that are to run, in every shard: the
// false-kill rate is split over them (and over the looks). Tests that turn out to fail every
// baseline run are counted too, so that every shard splits the rate alike without running
// the baselines of the others.
func (a *auditor) family(all []*mutant) int {
	n := 0
	for _, m := range all {
		if !m.done {
			n += len(a.compared(m.site))
		}
	}
	return n
}

// shard keeps the shard's share of the mutants.
func (a *auditor) shard(all []*mutant) []*mutant {
	var mine []*mutant
	for _, m := range all {
		if a.cfg.Shard.Has(m.index + 1) {
			mine = append(mine, m)
		}
	}
	return mine
}

// needed returns the groups that the open mutants run in, in order.
func (a *auditor) needed(muts []*mutant) []int {
	set := map[int]bool{}
	for _, m := range muts {
		if !m.done {
			for _, gi := range a.siteGroups[m.site.ID] {
				set[gi] = true
			}
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// uncovered settles the mutants whose every reaching test failed every baseline run: the
// package pseudo-test alone, one outcome per process, is no test of the site.
func (a *auditor) uncovered(muts []*mutant) {
	for _, m := range muts {
		if !m.done && !slices.ContainsFunc(a.compared(m.site), func(r ref) bool { return r.test != testout.PackageTest }) {
			m.settle(NotCovered, "only tests that fail every baseline run reach the site: "+strings.Join(a.excluded(m.site), ", "))
		}
	}
}

// excluded returns the tests that reach a site and failed every baseline run, sorted.
func (a *auditor) excluded(s *Site) []string {
	var out []string
	for _, gi := range a.siteGroups[s.ID] {
		for _, t := range a.groups[gi].tests {
			if a.groups[gi].excl[t] && !slices.Contains(out, t) {
				out = append(out, t)
			}
		}
	}
	sort.Strings(out)
	return out
}

func (m *mutant) settle(v Verdict, reason string) {
	m.rep.Verdict, m.rep.Reason, m.done = v, reason, true
}

// compared returns the comparisons of a site's mutants with their baseline: in each of the
// site's groups, the tests that did not fail every baseline run, and the package pseudo-test
// (a mutant that crashes the process outside a test) when it did not either.
func (a *auditor) compared(s *Site) []ref {
	var out []ref
	for _, gi := range a.siteGroups[s.ID] {
		g := a.groups[gi]
		for _, t := range append(slices.Clip(g.tests), testout.PackageTest) {
			if !g.excl[t] {
				out = append(out, ref{gi, t})
			}
		}
	}
	return out
}

// level is the p-value at or below which a mutant is killed: the family's false-kill rate
// split over every comparison and every look (Bonferroni). The looks counted are those of R
// runs one by one (looks), at least as many as any batch size makes, so that the level does
// not depend on the batch size that the machine's speed chose.
func (a *auditor) level() float64 {
	return a.cfg.Alpha / float64(max(a.rep.Family, 1)*len(looks(a.cfg.Runs)))
}

// open starts the tallies of the mutants that are to run, one for each comparison with the
// baseline that their site's groups make, and returns them.
func (a *auditor) open(muts []*mutant) []*mutant {
	var open []*mutant
	for _, m := range muts {
		if !m.done {
			m.tests = map[ref]*tally{}
			for _, r := range a.compared(m.site) {
				m.tests[r] = &tally{}
			}
			open = append(open, m)
		}
	}
	return open
}

// plan returns the looks' cumulative runs: those of planLooks, or with Config.AllRuns one
// look, after R runs. No look before the last could settle a mutant then: every process of
// every mutant goes to the engine in one call, so that a mutant whose runs are slow (a test
// printing megabytes of failures) has its processes spread over every worker from the start,
// instead of one or two a look while the others sit idle at the look's end. The processes,
// their run numbers and seeds are those of the looks (processes cuts at multiples of the
// batch), so the verdicts are the same.
func (a *auditor) plan() []int {
	plan := planLooks(a.cfg.Runs, a.batch)
	if a.cfg.AllRuns {
		plan = plan[len(plan)-1:]
	}
	return plan
}

// A look is the processes that take the open mutants' runs up to a number, each run in the
// same place as its baseline's, and whose each process is.
type look struct {
	upTo    int
	jobs    []job
	owner   []*mutant
	groupOf []int
	muts    []*mutant // the mutants with processes in it
}

// newLook returns the look that takes each mutant of open to upTo runs in every group of its
// site; a mutant already there has no process in it.
func (a *auditor) newLook(open []*mutant, upTo int) *look {
	l := &look{upTo: upTo}
	for _, m := range open {
		if m.runs >= upTo {
			continue
		}
		for _, gi := range a.siteGroups[m.site.ID] {
			for _, p := range processes(m.runs, upTo, a.batchOf(a.groups[gi])) {
				l.jobs = append(l.jobs, a.mutantJob(m, gi, p))
				l.owner, l.groupOf = append(l.owner, m), append(l.groupOf, gi)
			}
		}
		m.runs = upTo
		l.muts = append(l.muts, m)
	}
	return l
}

// count adds a finished process of the look (r.job its index in l.jobs) to its mutant.
func (l *look) count(r result) {
	m := l.owner[r.job]
	m.cost.add(r)
	m.add(l.groupOf[r.job], r)
}

// afterBaseline settles what the baseline decides of the open mutants and of the first look,
// made beside it (nil when it was not), and returns the mutants still open. A test that failed
// every baseline run is compared no more: its tallies go. A mutant of a group that runs a
// process per run since its baseline showed a leaking test (see leaks) made its first look in
// processes of several runs, which that test fails whatever the code: it makes the look again,
// a process per run, its tallies started anew. The others are judged on the first look,
// unless the audit was interrupted: then neither the baseline nor the look is known whole, and
// no mutant is judged.
func (a *auditor) afterBaseline(open []*mutant, first *look, interrupted bool) []*mutant {
	var still, judged []*mutant
	for _, m := range open {
		if m.done {
			continue // not covered: only tests that fail every baseline run reach it
		}
		keep := map[ref]bool{}
		for _, r := range a.compared(m.site) {
			keep[r] = true
		}
		maps.DeleteFunc(m.tests, func(r ref, _ *tally) bool { return !keep[r] })
		if first != nil && slices.ContainsFunc(a.siteGroups[m.site.ID], func(gi int) bool { return a.groups[gi].alone != "" }) {
			for r := range m.tests {
				m.tests[r] = &tally{}
			}
			m.runs = 0
		}
		if first != nil && m.runs > 0 {
			judged = append(judged, m)
		} else {
			still = append(still, m)
		}
	}
	if interrupted {
		return append(still, judged...)
	}
	if len(judged) > 0 {
		still = append(still, a.decide(judged, first.upTo == a.cfg.Runs)...)
		stage("look 1")
	}
	return still
}

// runMutants runs the open mutants look by look: all of a look's runs at once, then the
// verdicts, so that a mutant killed early makes no more runs. Each look's runs are whole
// processes of the audit's batch size, the runs of each in the same places as its baseline's.
// A mutant whose first look was made beside the baseline starts at the second.
func (a *auditor) runMutants(ctx context.Context, open []*mutant) {
	if a.cfg.PerMutant && !a.buildPerMutant(ctx, open) {
		return
	}
	for i, upTo := range a.plan() {
		if len(open) == 0 {
			return
		}
		l := a.newLook(open, upTo)
		if len(l.jobs) == 0 {
			continue
		}
		a.cfg.Log("audit: look %d: %s open, %s", i+1, plural(len(l.muts), "mutant"), plural(len(l.jobs), "process"))
		a.logAtOnce(l.jobs)
		res, _ := a.eng.run(ctx, l.jobs)
		for _, r := range res {
			l.count(r)
		}
		if ctx.Err() != nil {
			a.decide(open, false)
			return
		}
		open = a.decide(open, upTo == a.cfg.Runs)
		stage(fmt.Sprintf("look %d", i+1))
	}
}

// add counts one of the mutant's processes in a group.
func (m *mutant) add(gi int, r result) {
	tallies := map[string]*tally{}
	for k, t := range m.tests {
		if k.group == gi {
			tallies[k.test] = t
		}
	}
	count(tallies, r)
}

// mutantJob returns one process of a mutant in one group: the group's tests, the mutant
// switched on, runs p[0] to p[0]+p[1]-1 of the mutant's sequence.
func (a *auditor) mutantJob(m *mutant, gi int, p [2]int) job {
	g := a.groups[gi]
	pkg := a.bins[g.bin]
	if a.cfg.PerMutant {
		pkg = a.perBins[m.index][pkg.ImportPath]
	}
	// A mutant may make its tests busier than the baseline (a backoff of zero, retried at
	// once): once its own processes are measured, the busier of the two decides.
	return job{pkg: pkg, filter: g.filter, cpu: g.cpu, run: a.mutantFirst(m) + p[0], count: p[1], timeout: a.mutantLimit(g),
		cost: heavier(a.groupCost(g), m.cost), env: []string{rewrite.MutantEnv + "=" + strconv.Itoa(m.site.ID) + ":" + strconv.Itoa(rewrite.ClassCode(m.class))}}
}

// most is how many outcomes a comparison can reach: R runs of a test, one per process of the
// package pseudo-test.
func (a *auditor) most(r ref) int {
	if b := a.batchOf(a.groups[r.group]); r.test == testout.PackageTest {
		return (a.cfg.Runs + b - 1) / b
	}
	return a.cfg.Runs
}

// decide settles the mutants that are killed, or that survive (at the last look, or once no
// run left can kill them). It returns the mutants still open.
func (a *auditor) decide(open []*mutant, last bool) []*mutant {
	level := a.level()
	var still []*mutant
	for _, m := range open {
		best, bestP := ref{}, 2.0
		certain := true
		for r, t := range m.tests {
			b := a.groups[r.group].base[r.test]
			p := fisherGreater(t.fails, t.runs, b.fails, b.runs)
			if p < bestP || p == bestP && a.less(r, best) {
				best, bestP = r, p
			}
			// A test that fails at baseline runs on: all R runs may show that the mutant
			// makes it fail less often.
			certain = certain && b.fails == 0 && cannotKill(t.fails, t.runs, a.most(r), b.fails, b.runs, level)
		}
		a.evidence(m, best, bestP, level)
		switch {
		case a.cfg.AllRuns && !last:
			still = append(still, m)
			continue
		case bestP <= level:
			m.rep.Verdict, m.done = Killed, true
			m.rep.Timeout = m.tests[best].hangs > 0
		case last || certain:
			m.rep.Verdict, m.done = Survived, true
			m.rep.Check = checkFor[string(m.class)]
			if b := a.groups[best.group].base[best.test]; b.fails > 0 {
				if hint := runsNeeded(b, a.cfg.Runs, level); hint != "" {
					m.rep.Reason = fmt.Sprintf("%s fails %d of %d baseline runs: %s", best.test, b.fails, b.runs, hint)
				}
			}
		default:
			still = append(still, m)
			continue
		}
		m.rep.Fewer = a.fewer(m, level)
	}
	return still
}

// less orders comparisons for the evidence: by group, real tests before the package
// pseudo-test, then by name.
func (a *auditor) less(x, y ref) bool {
	if x.group != y.group {
		return x.group < y.group
	}
	if (x.test == testout.PackageTest) != (y.test == testout.PackageTest) {
		return y.test == testout.PackageTest
	}
	return x.test < y.test
}

// evidence records the comparison closest to killing the mutant.
func (a *auditor) evidence(m *mutant, r ref, p, level float64) {
	t := m.tests[r]
	if t == nil {
		return
	}
	base := a.groups[r.group].base[r.test]
	m.rep.Test, m.rep.CPU, m.rep.Runs, m.rep.Failures = r.test, a.groups[r.group].cpu, t.runs, t.fails
	m.rep.BaselineRuns, m.rep.BaselineFailures = base.runs, base.fails
	m.rep.PValue, m.rep.Level = &p, level
}

// fewer lists the tests that fail significantly less often under the mutant.
func (a *auditor) fewer(m *mutant, level float64) []Fewer {
	var out []Fewer
	for r, t := range m.tests {
		b := a.groups[r.group].base[r.test]
		if p := fisherLess(t.fails, t.runs, b.fails, b.runs); b.fails > 0 && p <= level {
			out = append(out, Fewer{Test: r.test, Runs: t.runs, Failures: t.fails, BaselineRuns: b.runs,
				BaselineFailures: b.fails, PValue: p})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Test < out[j].Test })
	return out
}

// buildPerMutant builds, for each open mutant, the binaries of the packages whose tests
// reach its site, with that one mutant compiled in, -p mutants at a time. It reports false
// when interrupted.
func (a *auditor) buildPerMutant(ctx context.Context, open []*mutant) bool {
	a.perBins = map[int]map[string]testbin.Package{}
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
			a.perBins[m.index] = map[string]testbin.Package{}
			for _, b := range bins {
				a.perBins[m.index][b.ImportPath] = b
			}
		})
	}
	wg.Wait()
	return ctx.Err() == nil
}

// buildMutant builds one mutant's binaries, or says why it is not viable.
func (a *auditor) buildMutant(ctx context.Context, m *mutant) ([]testbin.Package, string) {
	dir := filepath.Join(a.tmp, fmt.Sprintf("mutant-%d", m.index))
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, err.Error()
	}
	fixed := strconv.Itoa(m.site.ID) + ":" + strconv.Itoa(rewrite.ClassCode(m.class))
	ov, err := writeOverlay(dir, []*Site{m.site}, a.imps, fixed)
	if err != nil {
		return nil, err.Error()
	}
	var pats []string
	for _, gi := range a.siteGroups[m.site.ID] {
		if p := a.bins[a.groups[gi].bin].ImportPath; !slices.Contains(pats, p) {
			pats = append(pats, p)
		}
	}
	bins, err := a.eng.build(ctx, pats, inAudit, "-overlay="+ov.File)
	if msgs := buildErrors(bins); err != nil || len(msgs) > 0 {
		return nil, notCompiled + firstLine(fmt.Sprint(err, msgs))
	}
	return bins, ""
}

// report fills in the report's sites from the mutants of this shard that reached a verdict,
// and counts the shard's mutants, finished or not.
func (a *auditor) report(muts []*mutant) {
	index := 0
	for _, s := range a.sites {
		for range s.Draw.Kind.Classes() {
			index++
			if a.cfg.Shard.Has(index) {
				a.rep.Mutants++
			}
		}
	}
	bySite := map[int][]MutantReport{}
	for _, m := range muts {
		if m.done {
			bySite[m.site.ID] = append(bySite[m.site.ID], m.rep)
		}
	}
	for _, s := range a.sites {
		sr := SiteReport{File: s.File, Line: s.Line, Expr: s.Expr, Package: s.Package, Func: s.Func,
			Kind: string(s.Draw.Kind), Mutants: bySite[s.ID], Dead: s.Dead}
		if sr.Mutants == nil {
			sr.Mutants = []MutantReport{}
		}
		sortMutants(sr.Mutants)
		if sr.survivors() || sr.Dead != "" {
			sr.Suggest = suggest(s)
		}
		a.rep.Sites = append(a.rep.Sites, sr)
	}
}

// suggest returns the spread.Check line that would kill the survivors of a site: sample the
// enclosing function and declare the range it promises. The range of the draw itself is
// known from the expression; what the function makes of it is the user's to state. When the
// function returns no number (a constructor's *Retrier), it returns a sentence naming what to
// sample instead, without code.
func suggest(s *Site) string {
	dist := "spread.Uniform(lo, hi)"
	note := fmt.Sprintf("lo, hi: the range %s promises", s.sampled())
	if s.Range != "" {
		note += fmt.Sprintf("; its draw %s follows %s", s.Expr, s.Range)
	}
	if s.Result != "" && s.Call != "" && !s.number {
		// spread.Draw samples numbers only: a line that samples a *Retrier would not compile,
		// so say in words what to sample instead.
		// The report prints it after "add: ".
		msg := fmt.Sprintf("a test that samples a number %s derives from %s and checks the range it promises (%s returns a %s, no number spread.Draw samples",
			s.sampled(), s.Expr, s.sampled(), s.Result)
		if s.Range != "" {
			msg += fmt.Sprintf("; the draw follows %s", s.Range)
		}
		return msg + ")"
	}
	if s.Declared != "" && s.Call != "" && s.Result != "" {
		return fmt.Sprintf("spread.Check(t, spread.Draw(1000, func() %s { return %s }), %s)", s.Result, s.Call, s.Declared)
	}
	if s.Result == "" || s.Call == "" {
		return fmt.Sprintf("xs := spread.Draw(1000, ...) // the values %s derives from %s; then spread.Check(t, xs, %s) // %s",
			s.sampled(), s.Expr, dist, note)
	}
	return fmt.Sprintf("spread.Check(t, spread.Draw(1000, func() %s { return %s }), %s) // %s", s.Result, s.Call, dist, note)
}

// runsNeeded says, for a test that fails some baseline runs, how many runs would let it kill
// a mutant that made it fail every run, if its baseline rate held; "" when the runs made are
// enough, so that a survival is no matter of too few runs.
func runsNeeded(b *tally, runs int, level float64) string {
	rate := float64(b.fails) / float64(b.runs)
	if p := fisherGreater(runs, runs, b.fails, b.runs); b.fails == b.runs || p <= level {
		return ""
	}
	for r := 2 * runs; r <= 1<<16; r *= 2 {
		k := int(rate*float64(r) + 0.5)
		if p := fisherGreater(r, r, k, r); p <= level {
			return fmt.Sprintf("with that rate it can tell a mutant that makes it fail every run from about -runs %d", r)
		}
	}
	return "too flaky to tell a mutant by"
}
