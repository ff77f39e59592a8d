package audit

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/spreadcheck/spreadcheck/internal/golden"
	"github.com/spreadcheck/spreadcheck/internal/longtest"
	"github.com/spreadcheck/spreadcheck/internal/runner"
	"github.com/spreadcheck/spreadcheck/spread"
)

// fixtureConfig is the configuration every fixture is audited with: a fixed seed and batch
// size, so that the runs' seeds (and the verdicts of tests that draw from them) are the same
// every time; the batch size that timings would choose could vary.
func fixtureConfig(name string) Config {
	return Config{Dir: filepath.Join("testdata", name), Options: runner.Options{Runs: DefaultRuns, Seed: 42, Parallel: 2, Batch: 5}}
}

// readsTheClock stands for the verdict of a clock-derived mutant that ran, in a normalized
// report.
const readsTheClock Verdict = "killed or survived: it reads the real clock"

// normalized returns the report without what varies between audits of the same code: the
// time taken (and its phases), and what clock-derived mutants that ran showed. They read the real clock, so
// that a test's failures under them depend on when it ran (TestFixed's mean of 1,000 values
// read within a millisecond lands within 5% of 0.5 in about one run of ten): their counts
// and verdicts, and what follows from them (the suggestion when no other class survived, the
// package's score), are left out.
func normalized(r *Report) *Report {
	c := *r
	c.Seconds, c.Phases = 0, nil
	c.Sites = append([]SiteReport(nil), r.Sites...)
	for i := range c.Sites {
		s := &c.Sites[i]
		s.Mutants = append([]MutantReport(nil), s.Mutants...)
		for j := range s.Mutants {
			if m := &s.Mutants[j]; m.Class == string(spread.SuspectClockDerived) && (m.Verdict == Killed || m.Verdict == Survived) {
				*m = MutantReport{Class: m.Class, Verdict: readsTheClock}
			}
		}
		if !s.survivors() && s.Dead == "" {
			s.Suggest = ""
		}
	}
	c.score()
	return &c
}

// TestGolden audits the other fixture modules and compares each report with its golden
// file: gaps (randomness tests miss in five ways), equiv (a draw for each way a mutant
// is equivalent), clockseed (clock readings that reach a seed through locals), reduced (draws
// of uniform bits reduced to some of them), reader (crypto/rand's Reader read as an
// io.Reader), crossreader (crypto/rand's Reader handed to another package of the module that
// reads it), shufflevar (shuffles and permutations through variables and fields), wrapped
// (draws through the module's own wrappers and the defaults of a field and
// a variable), funcarg (draws passed as arguments for func-typed parameters), randiface (draws
// through the module's own interface of *rand.Rand draws), onlyfailing (a draw only a failing test reaches, one a flaky test does) and cgodraw (draws in a file
// that imports "C", mutated through an overlay of that file, and in one that does not).
// TestEndToEnd does the story fixture in the normal run.
func TestGolden(t *testing.T) {
	longtest.Skip(t) // audits fixture modules with the go command
	for _, name := range []string{"gaps", "equiv", "clockseed", "reduced", "reader", "crossreader", "shufflevar", "wrapped", "funcarg", "randiface", "onlyfailing", "cgodraw"} {
		t.Run(name, func(t *testing.T) {
			if name == "cgodraw" {
				skipWithoutCC(t)
			}
			rep, err := Run(context.Background(), fixtureConfig(name))
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, name, rep)
		})
	}
}

// TestGoldenLaterRuns audits the laterruns fixture, whose one checking test panics on the
// second run in its process (a name registered twice, as groupcache's TestPeers does), in
// processes of 2 runs, the batch the audit chose for groupcache. The baseline finds it failing
// in later runs only, runs its group a process per run again (0 of 20 failed), and the
// mutants, a process per run too, are killed (20 of 20); in processes of 2 it failed 10 of 20
// baseline runs, and no mutant was killed.
func TestGoldenLaterRuns(t *testing.T) {
	longtest.Skip(t) // audits a fixture module with the go command
	cfg := fixtureConfig("laterruns")
	cfg.Batch = 2
	rep, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "laterruns", rep)
}

// TestOldGoLines audits the oldgo fixture (a draw of each kind that code before generics
// holds) under the go lines of long-lived modules: its own go 1.11, go 1.16, go 1.17, and none
// (which the go command reads as 1.16), each a copy of it whose go.mod says so. The go command
// compiles the rewrites at that version; every report is the one golden report, with no
// mutant not viable.
func TestOldGoLines(t *testing.T) {
	longtest.Skip(t) // audits a fixture module four times with the go command
	auditAtLines(t, "oldgo", "go 1.11", "go 1.16", "go 1.17", "")
}

// TestOldGenericLines audits the oldgeneric fixture (math/rand/v2's generic N, called in
// generic and plain functions, one package's only draw) under go 1.18, its own line, and go
// 1.20: Go before 1.21 infers no type arguments of a generic function passed as a value, so
// each rewrite instantiates N itself. Every report is the one golden report, with no mutant
// not viable; before, every mutant of these sites was, and the package whose only site it
// was stopped the audit.
func TestOldGenericLines(t *testing.T) {
	longtest.Skip(t) // audits a fixture module twice with the go command
	auditAtLines(t, "oldgeneric", "go 1.18", "go 1.20")
}

// auditAtLines audits a copy of a fixture module (example.com/NAME) per go line, its go.mod
// saying that line ("" for none), each against the fixture's one golden report.
func auditAtLines(t *testing.T, name string, lines ...string) {
	t.Helper()
	for _, line := range lines {
		t.Run(cmp.Or(line, "no go line"), func(t *testing.T) {
			dir := copyFixture(t, name)
			if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/"+name+"\n\n"+line+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			cfg := fixtureConfig(name)
			cfg.Dir = dir
			rep, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, name, rep)
		})
	}
}

// copyFixture copies a fixture module into a temporary folder and returns the folder.
func copyFixture(t *testing.T, name string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", name))); err != nil {
		t.Fatal(err)
	}
	return dir
}

// checkGolden compares a fixture's report, normalized, with its golden file (-update
// rewrites it).
func checkGolden(t *testing.T, name string, rep *Report) {
	t.Helper()
	got := normalized(rep)
	var text bytes.Buffer
	got.WriteText(&text)
	path := filepath.Join("testdata", name+".golden.json")
	if golden.Updating() {
		var b bytes.Buffer
		got.WriteJSON(&b)
		os.WriteFile(path, b.Bytes(), 0o644)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var want Report
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatal(err)
	}
	if diff := gocmp.Diff(&want, got); diff != "" {
		t.Errorf("report differs from %s (-want +got):\n%s\ngot:\n%s", path, diff, text.String())
	}
}
