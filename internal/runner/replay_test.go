package runner

import (
	"context"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spreadcheck/spreadcheck/internal/longtest"
	"github.com/spreadcheck/spreadcheck/internal/resultsfile"
	"github.com/spreadcheck/spreadcheck/internal/testbin"
	"github.com/spreadcheck/spreadcheck/internal/testout"
	"github.com/spreadcheck/spreadcheck/internal/testreport"
)

// TestReplaysCappedByTime: a failing test whose runs take 30s is replayed twice, not 12
// times (the budget is a minute of its run time), one whose runs take 5 minutes once, a fast
// one 12 times; and the report says when the budget cut the replays short.
func TestReplaysCappedByTime(t *testing.T) {
	p := testbin.Package{ImportPath: "x/p", Binary: "/bin/p"}
	records := func(secs float64) []resultsfile.Record {
		var recs []resultsfile.Record
		for run := 1; run <= 20; run++ {
			o := testout.Pass
			if run%4 == 0 {
				o = testout.Fail
			}
			recs = append(recs, resultsfile.Record{Package: p, Run: run, Seed: uint64(run), Phase: resultsfile.Main,
				Tests: []testout.TestResult{{Name: "TestSlow", Run: run, Seed: uint64(run), Outcome: o, Seconds: secs}}})
		}
		return recs
	}
	for _, c := range []struct {
		secs   float64
		want   int
		capped string
	}{
		{0.01, 12, ""},
		{30, 2, "2 replays, not 12: a run of this test takes 30.00s, and a test's replays are kept within 1m0s of run time"},
		{300, 1, "1 replay, not 12: a run of this test takes 300.00s"},
	} {
		recs := records(c.secs)
		jobs := ReplayJobs([]testbin.Package{p}, testreport.Summarize(recs, testreport.SummaryOptions{}), 10)
		if len(jobs) != c.want || jobs[0].Seed != 4 || c.want > 1 && jobs[1].Seed != 8 {
			t.Errorf("runs of %vs: %d replays %+v, want %d of the first failing seeds in turn", c.secs, len(jobs), jobs, c.want)
		}
		// The replays fail, as the seeds say.
		for _, j := range jobs {
			recs = append(recs, resultsfile.Record{Package: p, Run: j.Run, Seed: j.Seed, Phase: resultsfile.Replay, Filter: j.Filter,
				Tests: []testout.TestResult{{Name: "TestSlow", Run: j.Run, Seed: j.Seed, Outcome: testout.Fail, Seconds: c.secs}}})
		}
		rep := testreport.Summarize(recs, testreport.SummaryOptions{})
		ts := rep.Packages[0].Tests[0]
		var b strings.Builder
		rep.WriteText(&b)
		if ts.Replay == nil || ts.Replay.Replays != c.want || ts.Replay.Capped != (c.capped != "") || !strings.Contains(b.String(), c.capped) {
			t.Errorf("runs of %vs: replay check %+v; report:\n%s", c.secs, ts.Replay, b.String())
		}
	}
}

// TestReplayVerdicts replays real failing runs: a test whose failures follow from its seed
// depends on it; one that fails every other time it runs, whatever its seed, does not.
func TestReplayVerdicts(t *testing.T) {
	t.Setenv("FIXTURE_COUNTER", filepath.Join(t.TempDir(), "counter"))
	for _, c := range []struct {
		pkg, test string
		want      testreport.SeedVerdict
		note      string
	}{
		{"flaky", "TestFlaky", testreport.DependsOnSeed, "depends on the seed: 12 of 12 replays of failing seeds failed"},
		{"unseeded", "TestUnseeded", testreport.IndependentOfSeed, "independent of the seed (timing, load or global state): 6 of 12 replays"},
	} {
		pkg := fixture(t, c.pkg)
		recs := run(t, pkg, Options{Runs: 40, Seed: 7, Batch: 1})
		replays, err := Execute(context.Background(), ReplayJobs([]testbin.Package{pkg}, testreport.Summarize(recs, testreport.SummaryOptions{}), 10), Options{Parallel: 2})
		if err != nil {
			t.Fatal(err)
		}
		rep := testreport.Summarize(append(recs, replays...), testreport.SummaryOptions{})
		ts := summary(t, rep, c.pkg, c.test)
		if ts.Replay == nil || ts.Replay.Verdict != c.want {
			t.Errorf("%s: replay %+v, want %q", c.test, ts.Replay, c.want)
		}
		var b strings.Builder
		rep.WriteText(&b)
		if !strings.Contains(b.String(), c.note) {
			t.Errorf("%s: the report lacks %q:\n%s", c.test, c.note, b.String())
		}
	}
}

// TestReplayCommandsRunInShell runs printed replay commands through a shell, from the
// directory the runner ran in: each gives its run's outcome, under the run's build flags
// (-vet=off; -race and -tags in the long validations, since a binary with the race detector
// takes long to link), test flags and iteration seed.
func TestReplayCommandsRunInShell(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test")
	}
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no POSIX shell")
	}
	cases := []struct {
		name  string
		build func(t *testing.T) testbin.Package
		test  string
		opts  Options
		flags []string // that the commands must carry
		long  bool
	}{
		{"flaky", func(t *testing.T) testbin.Package { return fixture(t, "flaky") }, "TestSub/a_b/c.d",
			Options{Runs: 30, Seed: 7, Batch: 6, TestFlags: []string{"-short", "-parallel=3"}}, []string{"-short", "-parallel=3"}, false},
		{"race", func(t *testing.T) testbin.Package { return buildWith(t, "tagged", "-race", "-tags=special") }, "TestOnlyTagged",
			Options{Runs: 8, Seed: 1, Batch: 4}, []string{"-race", "-tags=special"}, true},
		{"vet", func(t *testing.T) testbin.Package { return buildWith(t, "vetfail", "-vet=off") }, "TestPrintf",
			Options{Runs: 1}, []string{"-vet=off"}, false},
		// spread.Rand itself: a later iteration of a process, replayed alone with its own seed.
		{"spreadrand", func(t *testing.T) testbin.Package { return fixture(t, "spreadrand") }, "TestDraw", Options{Runs: 20, Seed: 3, Batch: 5}, nil, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.long {
				longtest.Skip(t)
			}
			replayInShell(t, c.build(t), c.test, c.opts, c.flags)
		})
	}
}

// replayInShell runs the package's tests and then, in a shell, the replay commands of a
// failing and a passing run of the named test: each must carry the flags and give its run's
// outcome (a failure printing the same draw).
func replayInShell(t *testing.T, pkg testbin.Package, test string, opts Options, flags []string) {
	t.Helper()
	recs := run(t, pkg, opts)
	for _, want := range []testout.Outcome{testout.Fail, testout.Pass} {
		r, tr := find(recs, test, want)
		if r == nil {
			continue // vetfail never fails
		}
		if opts.Batch > 1 && tr.Run == r.Run {
			t.Errorf("%s: no %s in a later iteration of a process to replay", test, want)
		}
		cmd := resultsfile.ReplayCommand(r, tr)
		for _, f := range flags {
			if !strings.Contains(cmd, " "+f+" ") {
				t.Errorf("%s lacks %s", cmd, f)
			}
		}
		out, err := exec.Command("sh", "-c", cmd).CombinedOutput()
		if (err != nil) != (want == testout.Fail) || (want == testout.Fail && !strings.Contains(string(out), drawLine(tr.Output))) {
			t.Errorf("%s: the run was a %s; the command: %v\n%s", cmd, want, err, out)
		}
	}
}

// find returns a result of the named test with the given outcome, from a process that made
// more than one run when there is one.
func find(recs []resultsfile.Record, test string, o testout.Outcome) (*resultsfile.Record, *testout.TestResult) {
	var best *resultsfile.Record
	var found *testout.TestResult
	for i := range recs {
		for j := range recs[i].Tests {
			tr := &recs[i].Tests[j]
			if tr.Name == test && tr.Outcome == o && (found == nil || tr.Run > recs[i].Run) {
				best, found = &recs[i], tr
			}
		}
	}
	return best, found
}

var drawRE = regexp.MustCompile(`draw \d\.\d+`)

// drawLine returns the "draw 0.1234" a failing fixture printed: the replay must print it too.
func drawLine(out string) string { return drawRE.FindString(out) }
