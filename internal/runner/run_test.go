package runner

import (
	"slices"
	"testing"

	"github.com/spreadcheck/spreadcheck/internal/resultsfile"
	"github.com/spreadcheck/spreadcheck/internal/testbin"
)

// TestJobEnv: a job's own variables reach its run, and the runner's seed and run number
// still win over a job that sets them.
func TestJobEnv(t *testing.T) {
	env := runEnv(&Job{Run: 3, Env: []string{"SPREADCHECK_AUDIT_MUTANT=4:1", SeedEnv + "=1"}}, 9)
	if !slices.Contains(env, "SPREADCHECK_AUDIT_MUTANT=4:1") {
		t.Errorf("the job's variable is missing from the run's environment")
	}
	if i, j := slices.Index(env, SeedEnv+"=1"), slices.Index(env, SeedEnv+"=9"); j < i {
		t.Errorf("%s=9 at %d comes before the job's %s=1 at %d: the run's seed must come last and win", SeedEnv, j, SeedEnv, i)
	}
}

// TestLogNamesDistinct: packages whose paths differ only in their punctuation get different
// log files.
func TestLogNamesDistinct(t *testing.T) {
	names := map[string]bool{}
	for _, r := range []resultsfile.Record{
		{Package: testbin.Package{ImportPath: "x/a/b"}, Run: 1, Phase: resultsfile.Main},
		{Package: testbin.Package{ImportPath: "x/a_b"}, Run: 1, Phase: resultsfile.Main},
		{Package: testbin.Package{ImportPath: "x/a.b"}, Run: 1, Phase: resultsfile.Main},
		{Package: testbin.Package{ImportPath: "y/a/b"}, Run: 1, Phase: resultsfile.Main},
		{Package: testbin.Package{ImportPath: "x/a/b"}, Run: 1, Phase: resultsfile.Main, CPU: "4"},
		{Package: testbin.Package{ImportPath: "x/a/b"}, Run: 1, Phase: resultsfile.Main, Filter: "^(TestA)$"},
		{Package: testbin.Package{ImportPath: "x/a/b"}, Run: 1, Phase: resultsfile.Replay, Filter: "^TestA$", Seed: 1},
		{Package: testbin.Package{ImportPath: "x/a/b"}, Run: 1, Phase: resultsfile.Replay, Filter: "^TestA$", Seed: 2},
	} {
		n := logName(&r)
		if names[n] {
			t.Errorf("log name %s is taken twice", n)
		}
		names[n] = true
	}
}
