package runner

import (
	"slices"

	"github.com/spreadcheck/spreadcheck/internal/replay"
	"github.com/spreadcheck/spreadcheck/internal/resultsfile"
	"github.com/spreadcheck/spreadcheck/internal/testbin"
	"github.com/spreadcheck/spreadcheck/internal/testout"
	"github.com/spreadcheck/spreadcheck/internal/testreport"
)

// RerunJobs returns n more runs of each package with failed tests, limited to those tests,
// numbered after the main pass's runs so that their seeds are new. Under a shard the numbers
// interleave like the main pass's, so that the reruns of different shards do not collide.
func RerunJobs(pkgs []testbin.Package, r *testreport.Report, n int, opts Options) []Job {
	failed := r.FailedTests()
	first, stride := opts.Runs+1, 1
	if opts.Shard.N > 1 {
		first, stride = opts.Runs+opts.Shard.K, opts.Shard.N
	}
	var jobs []Job
	for _, p := range pkgs {
		names := failed[p.ImportPath]
		if len(names) == 0 || p.Binary == "" {
			continue
		}
		for _, cpu := range cpus(opts.CPU) {
			jobs = append(jobs, Job{Package: p, Run: first, Count: n, Stride: stride, Phase: resultsfile.Rerun, CPU: cpu,
				Filter: OnlyTests(opts.Run, names)})
		}
	}
	return jobs
}

// ReplayJobs returns the replays of up to limit failing tests: each of up to three failing seeds
// (not hangs: each would cost a whole timeout) run ReplaysPerSeed times, the test alone, in the
// conditions of the run that failed. Tests that failed in every run are not replayed: there
// is no rate to compare with.
func ReplayJobs(pkgs []testbin.Package, r *testreport.Report, limit int) []Job {
	built := map[string]bool{}
	for _, p := range pkgs {
		built[p.ImportPath] = p.Binary != ""
	}
	var jobs []Job
	tests := 0
	for _, ps := range r.Packages {
		for _, t := range ps.Tests {
			if tests == limit || !built[ps.ImportPath] || t.Name == testout.PackageTest || t.EveryRun() {
				continue
			}
			if js := replaysOf(&t); len(js) > 0 {
				jobs = append(jobs, js...)
				tests++
			}
		}
	}
	return jobs
}

// replaysOf returns the replays of a failing test: its first failing seeds in turn, as many
// replays as ReplaySeeds x ReplaysPerSeed allow and as fit in ReplayBudget, at least one.
func replaysOf(t *testreport.TestSummary) []Job {
	var chosen []testreport.Failure
	longest := t.Duration.Median // a crash's own time is not known
	for _, f := range t.Failing {
		if f.Outcome == testout.Hang || f.Process == nil || f.Process.Binary == "" || len(chosen) == testreport.ReplaySeeds ||
			slices.ContainsFunc(chosen, func(c testreport.Failure) bool { return c.Seed == f.Seed }) {
			continue
		}
		chosen = append(chosen, f)
		longest = max(longest, f.Seconds)
	}
	n := len(chosen) * testreport.ReplaysPerSeed
	if longest > 0 {
		n = max(min(n, int(testreport.ReplayBudget.Seconds()/longest)), min(n, 1))
	}
	jobs := make([]Job, n)
	for i := range jobs {
		f := chosen[i%len(chosen)]
		jobs[i] = replayJob(f.Process, t.Name, f.Seed)
	}
	return jobs
}

// replayJob returns the process that replays the run of test name with seed in record r: the
// seed, the test alone, and the run's conditions.
func replayJob(r *resultsfile.Record, name string, seed uint64) Job {
	return Job{Package: r.Package, Run: r.Run, Count: 1, Seed: seed, Phase: resultsfile.Replay,
		Filter: replay.RunPattern(name), CPU: r.CPU, Env: r.Env}
}
