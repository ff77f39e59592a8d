package audit

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/spreadcheck/spreadcheck/internal/longtest"
	"github.com/spreadcheck/spreadcheck/internal/testreport"
)

// hashTree returns the SHA-256 of every file under dir, with its mode.
func hashTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if d.IsDir() {
			out[path] = info.Mode().String()
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		out[path] = info.Mode().String() + " " + hex.EncodeToString(sum[:])
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestEndToEnd is the normal run's one audit of a fixture module with the go command: the
// story fixture (the bidder's backoff in four copies, each tested differently) audited to the
// end, its report compared with the golden file, every file of the audited tree byte-identical
// afterwards, no file added, the temporary folder gone.
func TestEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("audits a fixture module with the go command")
	}
	dir := filepath.Join("testdata", "story")
	before := hashTree(t, dir)
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	rep, err := Run(context.Background(), fixtureConfig("story"))
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "story", rep)
	checkUntouched(t, dir, before, tmp)
}

// TestTempDirPerProcess audits the tempfiles fixture, whose test leaves a folder in
// os.TempDir() every run and fails when its process starts with anything there: every test
// process gets a temporary directory of its own, inside the audit's session folder, removed
// with it. Nothing is left in the TMPDIR the audit was started with, and the test fails no
// baseline run.
func TestTempDirPerProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("audits a fixture module with the go command")
	}
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	rep, err := Run(context.Background(), fixtureConfig("tempfiles"))
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "tempfiles", rep)
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Errorf("left in the temporary folder: %v", left)
	}
}

// TestCachedSchema audits the tempfiles fixture twice with one binary cache: the second audit
// finds the mutant schema's test binary up to date in the cache (the go command leaves the
// file as it was: the same file, not linked again), though its overlay is a new temporary
// file, and both reports are the golden one.
func TestCachedSchema(t *testing.T) {
	if testing.Short() {
		t.Skip("audits a fixture module with the go command")
	}
	cfg := fixtureConfig("tempfiles")
	cfg.CacheDir = t.TempDir()
	var bins []os.FileInfo
	for range 2 {
		rep, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		checkGolden(t, "tempfiles", rep)
		paths, _ := filepath.Glob(filepath.Join(cfg.CacheDir, "*", "*.test*"))
		if len(paths) != 1 {
			t.Fatalf("binaries in the cache: %v, want the schema's one", paths)
		}
		st, err := os.Stat(paths[0])
		if err != nil {
			t.Fatal(err)
		}
		bins = append(bins, st)
	}
	if !os.SameFile(bins[0], bins[1]) {
		t.Error("the second audit linked the schema's binary again")
	}
}

// checkUntouched checks that the tree under dir hashes as before and that tmp is empty.
func checkUntouched(t *testing.T, dir string, before map[string]string, tmp string) {
	t.Helper()
	if diff := cmp.Diff(before, hashTree(t, dir)); diff != "" {
		t.Errorf("the audited tree changed (-before +after):\n%s", diff)
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Errorf("left in the temporary folder: %v", left)
	}
}

// TestNeverWritesTheTree audits a fixture interrupted after each stage, and checks that every
// file of the audited tree is byte-identical afterwards, that no file was added, and that the
// temporary folder is gone.
func TestNeverWritesTheTree(t *testing.T) {
	longtest.Skip(t) // audits a fixture module once per stage; TestEndToEnd audits it whole
	dir := filepath.Join("testdata", "story")
	before := hashTree(t, dir)
	for _, at := range []string{"find", "build", "trace", "baseline", "look 1", "look 2", "identical"} {
		t.Run("interrupted at "+at, func(t *testing.T) {
			tmp := t.TempDir()
			t.Setenv("TMPDIR", tmp)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			stageHook = func(s string) {
				if s == at {
					cancel()
				}
			}
			defer func() { stageHook = nil }()
			rep, err := Run(ctx, fixtureConfig("story"))
			if err != nil {
				t.Fatal(err)
			}
			if !rep.Interrupted || rep.ExitCode() != testreport.ExitInterrupted {
				t.Errorf("Interrupted = %v, exit code %d; want true, %d", rep.Interrupted, rep.ExitCode(), testreport.ExitInterrupted)
			}
			checkUntouched(t, dir, before, tmp)
		})
	}
}

// TestBadInput: code that does not compile is a BuildError with the compiler's message, once;
// no randomness is no error and no site; patterns that match nothing, and a folder in no
// module, are BuildErrors that say so and name them. None of these builds a test binary.
func TestBadInput(t *testing.T) {
	_, err := Run(context.Background(), fixtureConfig("broken"))
	var be *BuildError
	if !errors.As(err, &be) || be.Stage != Compile || strings.Count(be.Msg, "broken.go:8") != 1 {
		t.Errorf("broken: error %v, want a BuildError of the compile stage naming broken.go:8 once", err)
	}

	rep, err := Run(context.Background(), fixtureConfig("norand"))
	if err != nil || len(rep.Sites) != 0 || rep.ExitCode() != testreport.ExitClean {
		t.Errorf("norand: %d sites, exit %d, error %v; want none, 0, nil", len(rep.Sites), rep.ExitCode(), err)
	}

	cfg := fixtureConfig("norand")
	cfg.Patterns = []string{"./nothing/..."}
	if _, err := Run(context.Background(), cfg); !errors.As(err, &be) || be.Stage != NoPackage || !strings.Contains(be.Msg, "./nothing/...") {
		t.Errorf("a pattern matching nothing: error %v, want a BuildError of no package that names it", err)
	}

	cfg.Dir, cfg.Patterns = t.TempDir(), nil
	if _, err := Run(context.Background(), cfg); !errors.As(err, &be) || be.Stage != NotAModule || be.Msg != cfg.Dir {
		t.Errorf("a folder in no module: error %v, want a BuildError of not a module that names it", err)
	}
}

// TestNoMutantCompiles: when no mutant of a package compiles, the audit stops with a
// BuildError that holds the compiler's message, its paths those of the files it rewrote,
// rather than report every mutant not viable and exit 0 having tested nothing: whether the
// message names the schema file (no site to blame) or each site's line. A package that keeps
// one viable site is audited.
func TestNoMutantCompiles(t *testing.T) {
	sites, imps := findFixture(t, "story")
	// copies returns the overlay's rewritten copies, by the file they stand for.
	copies := func(flags []string) map[string]string {
		var o struct{ Replace map[string]string }
		if data, err := os.ReadFile(flagValue(flags, "-overlay")); err == nil {
			json.Unmarshal(data, &o)
		}
		return o.Replace
	}
	schemaErr := func(flags []string) string {
		for orig, copy := range copies(flags) {
			if filepath.Base(orig) == schemaName {
				return "# example.com/story\n" + copy + ":38:85: 0o/0O-style octal literal requires go1.13 or later"
			}
		}
		return ""
	}
	// lineErr names the lines in the copies' paths, relative to the go command's folder, as
	// the compiler does when that is shorter.
	wd, _ := os.Getwd()
	lineErr := func(lines ...int) func([]string) string {
		return func(flags []string) string {
			var msgs []string
			for _, s := range sites {
				if copy := copies(flags)[s.Path]; copy != "" && slices.Contains(lines, s.Line) && s.NotViable == "" {
					rel, _ := filepath.Rel(wd, copy)
					msgs = append(msgs, fmt.Sprintf("%s:%d:9: cannot use the rewrite", rel, s.Line))
				}
			}
			if len(msgs) == 0 {
				return ""
			}
			return "# example.com/story\n" + strings.Join(msgs, "\n")
		}
	}
	var all []int
	for _, s := range sites {
		all = append(all, s.Line)
	}
	for _, c := range []struct {
		name   string
		errs   func([]string) string
		want   string // in the BuildError; "" for none
		viable int
	}{
		{"the schema file", schemaErr, filepath.Join(filepath.Dir(sites[0].Path), schemaName) + ":38:85: 0o/0O-style", 0},
		{"every site", lineErr(all...), fmt.Sprintf("story/backoff.go:%d:9: cannot use the rewrite", sites[0].Line), 0},
		{"all but one site", lineErr(all[1:]...), "", 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, s := range sites {
				s.NotViable = ""
			}
			a := &auditor{cfg: Config{Log: func(string, ...any) {}}, tmp: t.TempDir(), imps: imps, sites: sites,
				eng: &fakeEngine{buildErr: c.errs}, rep: &Report{}}
			err := a.buildSchemata(context.Background())
			var be *BuildError
			switch {
			case c.want == "" && err != nil:
				t.Errorf("error %v, want none", err)
			case c.want != "" && (!errors.As(err, &be) || be.Stage != MutantsCompile || !strings.Contains(be.Msg, c.want)):
				t.Errorf("error %v, want a BuildError of the mutants' compile holding %q", err, c.want)
			case err != nil && strings.Contains(err.Error(), a.tmp):
				t.Errorf("error %v names the audit's copies in %s", err, a.tmp)
			}
			viable := 0
			for _, s := range sites {
				if s.NotViable == "" {
					viable++
				}
			}
			if c.want == "" && viable != c.viable {
				t.Errorf("%d viable sites, want %d", viable, c.viable)
			}
		})
	}
}

// flagValue returns the value of -name=value among the flags.
func flagValue(flags []string, name string) string {
	for _, f := range flags {
		if v, ok := strings.CutPrefix(f, name+"="); ok {
			return v
		}
	}
	return ""
}

// TestBadTests: a test that fails every baseline run is left out with a warning while the
// rest are audited; vet's findings in the tests stop nothing with vet off (the default), and
// are a BuildError naming the test file with -vet=all.
func TestBadTests(t *testing.T) {
	longtest.Skip(t) // audits fixture modules with the go command
	rep, err := Run(context.Background(), fixtureConfig("failing"))
	if err != nil {
		t.Fatal(err)
	}
	excluded := len(rep.Baseline) == 2 && rep.Baseline[1].Test == "TestBroken" && rep.Baseline[1].Excluded
	if !excluded || len(rep.Warnings) != 1 || !strings.Contains(rep.Warnings[0], "TestBroken fails every baseline run") {
		t.Errorf("failing: baseline %+v, warnings %q; want TestBroken excluded with a warning", rep.Baseline, rep.Warnings)
	}
	if v := rep.Sites[0].Mutants[1]; v.Class != "sign-flip" || v.Verdict != Killed || v.Test != "TestBounds" {
		t.Errorf("failing: sign-flip %+v, want killed by TestBounds", v)
	}

	if _, err := Run(context.Background(), fixtureConfig("vetfail")); err != nil {
		t.Errorf("vetfail with vet off (the default): %v", err)
	}
	cfg := fixtureConfig("vetfail")
	cfg.BuildFlags = []string{"-vet=all"}
	var be *BuildError
	if _, err := Run(context.Background(), cfg); !errors.As(err, &be) || !strings.Contains(be.Msg, "jitter_test.go:7") {
		t.Errorf("vetfail with -vet=all: error %v, want a BuildError naming jitter_test.go:7", err)
	}
}

// TestHangIsKill: a mutant under which a test blocks forever (the hang fixture waits for
// two replicas, of which constant, collapsed-range and sign-flip only ever pick one) is killed
// by timeout and says so; the limit is derived, not given: the floor, since the fixture's
// test takes microseconds. The hung mutants' verdicts hold whatever the clock does, since
// their test never ends; the report is the golden one.
func TestHangIsKill(t *testing.T) {
	longtest.Skip(t) // holds each hung mutant's processes till the limit, hangFloor
	rep, err := Run(context.Background(), fixtureConfig("hang"))
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "hang", rep)
	for _, m := range rep.Sites[0].Mutants {
		if hung := m.Class != "clock-derived"; hung && (m.Verdict != Killed || !m.Timeout) {
			t.Errorf("%s: %s, timeout %v; want killed by timeout", m.Class, m.Verdict, m.Timeout)
		}
	}
	var text strings.Builder
	rep.WriteText(&text)
	if !strings.Contains(text.String(), "(timeout: it hung)") {
		t.Errorf("the report does not say the kill was a hang:\n%s", text.String())
	}
}

// TestPerMutantAgrees: one build per mutant and the mutant schema give the same verdicts.
func TestPerMutantAgrees(t *testing.T) {
	longtest.Skip(t) // builds one test binary per mutant
	verdicts := func(perMutant bool) []string {
		cfg := fixtureConfig("failing")
		cfg.PerMutant = perMutant
		rep, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, m := range rep.Sites[0].Mutants {
			out = append(out, m.Class+" "+string(m.Verdict)+" "+m.Test)
		}
		return out
	}
	schema, per := verdicts(false), verdicts(true)
	if diff := cmp.Diff(schema, per); diff != "" {
		t.Errorf("verdicts (-schema +per-mutant):\n%s", diff)
	}
	if len(per) != 4 {
		t.Errorf("%d mutants, want 4", len(per))
	}
}

// TestRemoveAllReadOnly: a folder that tests left without write permission, as a module
// cache's, is removed with the rest.
func TestRemoveAllReadOnly(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "tmp-1")
	ro := filepath.Join(dir, "cache", "mod")
	if err := os.MkdirAll(ro, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ro, "go.mod"), []byte("module m\n"), 0o444); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(ro, 0o555); err != nil {
		t.Fatal(err)
	}
	removeAll(dir)
	if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%s still there after removeAll: %v", dir, err)
	}
}
