package audit

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/spreadcheck/spreadcheck/internal/runner"
	"github.com/spreadcheck/spreadcheck/internal/testout"
)

// A group is the tests of one binary that reach a site, at one -cpu value: they run together,
// in processes of the same number of runs, under each of the site's mutants and at the
// baseline they are compared with. Sites reached by the same tests share a group, so that a
// baseline is made once for all of them.
type group struct {
	bin   int
	tests []string // sorted: the -run set
	cpu   string
	// examples says that the tests are examples, which package testing runs once per
	// process whatever -test.count says: they run in processes of one run each.
	examples bool
	filter   string            // the -test.run pattern that selects exactly the tests
	first    int               // the number of its first baseline run
	base     map[string]*tally // each test's baseline (and the package pseudo-test's, per process)
	excl     map[string]bool   // tests that failed every baseline run: not compared
	slowest  time.Duration     // its slowest baseline process
	cost     cost              // its baseline processes' wall and CPU time (see groupCost)
	// alone says why the group runs a process per run (see leaks): a test of it fails only
	// in the later runs of a process; "" when it runs in processes of the audit's batch size.
	alone string
}

// ref names one comparison: a test of a group (or its package pseudo-test).
type ref struct {
	group int
	test  string
}

// makeGroups forms the groups from what the trace found: for each site, the tests of each
// binary that reach it, once per -cpu value.
func (a *auditor) makeGroups() {
	a.groups, a.siteGroups = nil, map[int][]int{}
	index := map[string]int{}
	for _, s := range a.sites {
		byBin := map[int][]string{}
		for _, r := range a.reach[s.ID] {
			byBin[r.bin] = append(byBin[r.bin], r.test)
		}
		bins := make([]int, 0, len(byBin))
		for b := range byBin {
			bins = append(bins, b)
		}
		sort.Ints(bins)
		for _, b := range bins {
			examples, tests := splitExamples(byBin[b])
			for _, set := range [][]string{tests, examples} {
				for _, cpu := range cpus(a.cfg.CPU) {
					if len(set) == 0 {
						continue
					}
					key := fmt.Sprintf("%d\x00%s\x00%s", b, cpu, strings.Join(set, "\x00"))
					g, ok := index[key]
					if !ok {
						g = len(a.groups)
						index[key] = g
						a.groups = append(a.groups, &group{bin: b, tests: set, cpu: cpu, filter: runner.OnlyTests(a.cfg.Run, set),
							examples: strings.HasPrefix(set[0], "Example"), base: map[string]*tally{}, excl: map[string]bool{}})
					}
					a.siteGroups[s.ID] = append(a.siteGroups[s.ID], g)
				}
			}
		}
	}
}

// splitExamples returns the examples among the names, and the rest (tests and fuzz
// targets, which -test.count repeats), each sorted.
func splitExamples(names []string) (examples, rest []string) {
	for _, n := range slices.Sorted(slices.Values(names)) {
		if strings.HasPrefix(n, "Example") {
			examples = append(examples, n)
		} else {
			rest = append(rest, n)
		}
	}
	return examples, rest
}

// batchOf returns how many runs each process of a group makes.
func (a *auditor) batchOf(g *group) int {
	if g.examples || g.alone != "" {
		return 1
	}
	return a.batch
}

func cpus(list []string) []string {
	if len(list) == 0 {
		return []string{""}
	}
	return list
}

// Run numbers. Mutant i (in the audit's order of all mutants, the same in every shard) makes
// runs R(i+1)+1 to R(i+2); after all M mutants come the baselines, group g making runs
// R(M+g+1)+1 to R(M+g+2). A process's seed follows from the number of its first run, so every
// run of an audit with a given -seed and batch size has a seed of its own that a replay finds
// again.
func (a *auditor) mutantFirst(m *mutant) int { return a.cfg.Runs * (m.index + 1) }
func (a *auditor) groupFirst(g int) int      { return a.cfg.Runs * (a.total + g + 1) }

// processes splits runs from+1 to upTo, counted from a first run number, into processes of
// batch runs, cut at multiples of batch: every process of a mutant holds the same runs, by
// their place in the sequence, as a process of its baseline.
func processes(from, upTo, batch int) [][2]int {
	var out [][2]int
	for k := from; k < upTo; {
		end := min(upTo, (k/batch+1)*batch)
		out = append(out, [2]int{k + 1, end - k})
		k = end
	}
	return out
}

// planLooks returns the cumulative runs after which a mutant's results are examined: the
// looks of R/8, R/4, R/2 and R (see looks) rounded up to whole processes.
func planLooks(runs, batch int) []int {
	var out []int
	for _, l := range looks(runs) {
		n := min(runs, (l+batch-1)/batch*batch)
		if len(out) == 0 || n > out[len(out)-1] {
			out = append(out, n)
		}
	}
	return out
}

// chooseBatch returns how many runs each process makes: Config.Batch when set; otherwise the
// runner's choice from the start-up and test times the trace measured (runner.BatchFor), at
// most the runs that kill a mutant under which a test fails every run (so that such a mutant,
// or one that hangs, is settled by its first process), and a divisor of R (so that every
// process of the audit makes the same number of runs).
func (a *auditor) chooseBatch() int {
	r := a.cfg.Runs
	a.perRun = a.slowestRun()
	if a.cfg.Batch > 0 {
		return min(a.cfg.Batch, r)
	}
	b := min(runner.BatchFor(a.startup, a.perRun), killRuns(r, a.level()))
	for r%b != 0 {
		b--
	}
	return b
}

// killRuns returns the fewest runs, all failing, that kill a mutant against a baseline of r
// runs without a failure at the level; r when even r do not.
func killRuns(r int, level float64) int {
	for k := 1; k < r; k++ {
		if p := fisherGreater(k, k, 0, r); p <= level {
			return k
		}
	}
	return r
}

// measure learns from the trace's processes (each one test, once) what starting a process
// costs (the median of wall time less test time) and what each test takes.
func (a *auditor) measure(res []result, refs []testRef) {
	var startups []time.Duration
	a.testSecs, a.traceCost = map[testRef]float64{}, map[testRef]cost{}
	for _, r := range res {
		c := a.traceCost[refs[r.job]]
		c.add(r)
		a.traceCost[refs[r.job]] = c
		var testing float64
		for _, t := range r.tests {
			if !strings.Contains(t.Name, "/") && t.Name != testout.PackageTest {
				testing += t.Seconds
				a.testSecs[testRef{refs[r.job].bin, t.Name}] += t.Seconds
			}
		}
		startups = append(startups, max(0, r.elapsed-time.Duration(testing*float64(time.Second))))
	}
	if len(startups) > 0 {
		slices.Sort(startups)
		a.startup = startups[len(startups)/2]
	}
}

// slowestRun returns how long the slowest group's run takes, as the trace measured its tests.
func (a *auditor) slowestRun() time.Duration {
	var out time.Duration
	for _, g := range a.groups {
		out = max(out, a.groupRun(g))
	}
	return out
}

// groupRun returns how long one run of a group's tests takes, as the trace measured them.
func (a *auditor) groupRun(g *group) time.Duration {
	var sum float64
	for _, t := range g.tests {
		sum += a.testSecs[testRef{g.bin, t}]
	}
	return time.Duration(sum * float64(time.Second))
}

// groupCost returns what the processes of a group's tests took, for the processes at once
// (processesOf): its baseline processes once one has finished, else its tests' trace
// processes, each of which ran one test alone.
func (a *auditor) groupCost(g *group) cost {
	if g.cost.wall > 0 {
		return g.cost
	}
	var c cost
	for _, t := range g.tests {
		c = c.plus(a.traceCost[testRef{g.bin, t}])
	}
	return c
}

// describeGroup names a group's tests for a warning: the package, and the -cpu value if any.
func (a *auditor) describeGroup(g *group) string {
	s := a.bins[g.bin].ImportPath
	if g.cpu != "" {
		s += " (-cpu " + g.cpu + ")"
	}
	return s
}
