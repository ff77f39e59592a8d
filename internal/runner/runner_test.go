package runner

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/spreadcheck/spreadcheck/internal/replay"
	"github.com/spreadcheck/spreadcheck/internal/resultsfile"
	"github.com/spreadcheck/spreadcheck/internal/sizing"
	"github.com/spreadcheck/spreadcheck/internal/testbin"
	"github.com/spreadcheck/spreadcheck/internal/testout"
	"github.com/spreadcheck/spreadcheck/internal/testreport"
)

// The fixture packages live in their own module under testdata/fixtures, so that the ones that
// do not compile or fail vet cannot break this module, and they need nothing downloaded.
const fixtureDir = "testdata/fixtures"

var (
	fixtureOnce sync.Once
	fixtureBin  string
	fixturePkgs []testbin.Package
	fixtureErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if fixtureBin != "" {
		os.RemoveAll(fixtureBin)
	}
	os.Exit(code)
}

// fixture returns the built fixture package with the given last path element, built as go test
// builds it (vet on). All fixtures are built once, together, by the first test that asks,
// through the binary cache in the user cache directory, as spreadcheck builds them: a later
// go test finds them up to date and links none again.
func fixture(t testing.TB, name string) testbin.Package {
	t.Helper()
	fixtureOnce.Do(func() {
		fixtureBin, fixtureErr = os.MkdirTemp("", "runner-test-")
		if fixtureErr == nil {
			fixturePkgs, fixtureErr = testbin.Build(context.Background(), testbin.BuildOptions{Dir: fixtureDir, Patterns: []string{"./..."},
				OutDir: fixtureBin, Parallel: 2, CacheDir: fixtureCache()})
		}
	})
	if fixtureErr != nil {
		t.Fatalf("building the fixtures: %v", fixtureErr)
	}
	for _, p := range fixturePkgs {
		if p.ImportPath == "fixtures/"+name {
			return p
		}
	}
	t.Fatalf("no fixture package %q", name)
	return testbin.Package{}
}

// fixtureCache returns the binary cache of the user's spreadcheck, or "" (no cache) when
// there is no user cache directory.
func fixtureCache() string {
	c, err := testbin.UserCache()
	if err != nil {
		return ""
	}
	return c.Binaries()
}

// buildWith builds one fixture package with the given build flags, into a folder of the test's.
func buildWith(t *testing.T, name string, flags ...string) testbin.Package {
	t.Helper()
	pkgs, err := testbin.Build(context.Background(), testbin.BuildOptions{Dir: fixtureDir, Patterns: []string{"./" + name},
		OutDir: t.TempDir(), BuildFlags: flags, CacheDir: fixtureCache()})
	if err != nil || len(pkgs) != 1 || pkgs[0].Binary == "" {
		t.Fatalf("building %s with %v: %v, %+v", name, flags, err, pkgs)
	}
	return pkgs[0]
}

func summary(t *testing.T, rep *testreport.Report, pkg, test string) testreport.TestSummary {
	t.Helper()
	for _, p := range rep.Packages {
		if p.ImportPath != "fixtures/"+pkg {
			continue
		}
		for _, ts := range p.Tests {
			if ts.Name == test {
				return ts
			}
		}
	}
	t.Fatalf("no test %s in package %s of the report", test, pkg)
	return testreport.TestSummary{}
}

func pkgSummary(t *testing.T, rep *testreport.Report, pkg string) testreport.PackageSummary {
	t.Helper()
	for _, p := range rep.Packages {
		if p.ImportPath == "fixtures/"+pkg {
			return p
		}
	}
	t.Fatalf("no package %s in the report", pkg)
	return testreport.PackageSummary{}
}

func run(t *testing.T, pkg testbin.Package, opts Options) []resultsfile.Record {
	t.Helper()
	if opts.Parallel == 0 {
		opts.Parallel = 2
	}
	recs, err := Execute(context.Background(), MainJobs([]testbin.Package{pkg}, opts), opts)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// results returns every result of the named test over the records, in run order.
func results(recs []resultsfile.Record, name string) []testout.TestResult {
	var rs []testout.TestResult
	for _, r := range recs {
		for _, tr := range r.Tests {
			if tr.Name == name {
				rs = append(rs, tr)
			}
		}
	}
	slices.SortFunc(rs, func(a, b testout.TestResult) int { return a.Run - b.Run })
	return rs
}

// drawOf mirrors the fixtures' draw (fixtures/internal/seed.Draw).
func drawOf(seed uint64, name string) float64 {
	var h uint64
	for _, c := range name {
		h = h*31 + uint64(c)
	}
	return rand.New(rand.NewPCG(seed, h)).Float64()
}

func TestBuild(t *testing.T) {
	fixture(t, "flaky")
	stages := map[string]testbin.BuildStage{}
	for _, p := range fixturePkgs {
		name := strings.TrimPrefix(p.ImportPath, "fixtures/")
		if p.BuildError != "" {
			stages[name] = p.Stage
		} else if p.Binary == "" {
			t.Errorf("%s: no binary and no error", name)
		}
		if name == "notests" || name == "internal/seed" {
			t.Errorf("%s has no tests and must be left out", name)
		}
	}
	if diff := cmp.Diff(map[string]testbin.BuildStage{"broken": testbin.Compile, "vetfail": testbin.Vet}, stages); diff != "" {
		t.Errorf("build failures by stage (-want +got):\n%s", diff)
	}
	if p := fixture(t, "vetfail"); !strings.Contains(p.BuildError, "wrong type string") {
		t.Errorf("vetfail: the error does not quote vet: %q", p.BuildError)
	}
	// The fixtures are another module than the test's working directory: replays cd there.
	p := fixture(t, "flaky")
	if p.Target != "." || p.CdDir != filepath.Join(fixtureDir, "flaky") {
		t.Errorf("flaky: replay target %q in %q, want . in %s/flaky", p.Target, p.CdDir, fixtureDir)
	}
	// With vet off, as the user may ask, the package builds and its runs pass.
	vetOff := buildWith(t, "vetfail", "-vet=off")
	if recs := run(t, vetOff, Options{Runs: 1}); recs[0].Failed() {
		t.Errorf("vetfail built with -vet=off: %+v", recs[0])
	}
}

// TestBuildSets: packages whose binaries would share a name (two util packages, a module's
// root and its /v2) are built in separate sets, each binary of its own package; a package
// whose dependency stops compiling fails, though the cache holds the binary it had before;
// the others still build.
func TestBuildSets(t *testing.T) {
	dir := writeModule(t, map[string]string{
		"go.mod":             "module m\n\ngo 1.26\n",
		"m_test.go":          testFile("m", "TestRoot"),
		"v2/v2_test.go":      testFile("v2", "TestV2"),
		"util/u_test.go":     testFile("util", "TestUtil"),
		"sub/util/u_test.go": testFile("util", "TestSubUtil"),
		"dep/dep.go":         "package dep\n\nconst X = 1\n",
		"a/a_test.go":        "package a\n\nimport (\n\t\"testing\"\n\n\t\"m/dep\"\n)\n\nfunc TestA(t *testing.T) { _ = dep.X }\n",
	})
	cache := t.TempDir()
	build := func() map[string]testbin.Package {
		pkgs, err := testbin.Build(context.Background(), testbin.BuildOptions{Dir: dir, Patterns: []string{"./..."}, OutDir: t.TempDir(), CacheDir: cache})
		if err != nil {
			t.Fatal(err)
		}
		byPath := map[string]testbin.Package{}
		for _, p := range pkgs {
			byPath[p.ImportPath] = p
		}
		return byPath
	}
	want := map[string]string{"m": "TestRoot", "m/v2": "TestV2", "m/util": "TestUtil", "m/sub/util": "TestSubUtil", "m/a": "TestA"}
	for path, p := range build() {
		if tests := listTests(context.Background(), &p, time.Minute); p.BuildError != "" || len(tests) != 1 || tests[0] != want[path] {
			t.Errorf("%s: binary %s lists %v, want %s (build error %q)", path, p.Binary, tests, want[path], p.BuildError)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "dep", "dep.go"), []byte("package dep\n\nconst X = undefinedY\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for path, p := range build() {
		if failed := p.BuildError != ""; failed != (path == "m/a") || p.Binary != "" && failed {
			t.Errorf("after dep broke: %s built %q, error %q", path, p.Binary, p.BuildError)
		}
		if path == "m/a" && (p.Stage != testbin.Compile || !strings.Contains(p.BuildError, "undefined: undefinedY")) {
			t.Errorf("m/a: stage %q, error %q", p.Stage, p.BuildError)
		}
	}
}

// testFile returns the text of a test file of package pkg holding one empty test.
func testFile(pkg, test string) string {
	return "package " + pkg + "\n\nimport \"testing\"\n\nfunc " + test + "(t *testing.T) {}\n"
}

// writeModule writes the files (by their slash-separated paths) into a new folder.
func writeModule(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestBuildBesideList: the go test -c of the patterns that starts beside go list is the build
// when they name one set of packages that all load: one go test -c, whose binaries are those
// of the listed packages, also where the cache's folder holds another package's binary of
// the same name. When they name packages whose binaries share a name, the go command refuses
// it at once, and the sets are built from the list.
func TestBuildBesideList(t *testing.T) {
	dir := writeModule(t, map[string]string{
		"go.mod":             "module m\n\ngo 1.26\n",
		"util/u_test.go":     testFile("util", "TestUtil"),
		"sub/util/u_test.go": testFile("util", "TestSubUtil"),
		"lib/lib.go":         "package lib\n",
	})
	var builds [][]string
	goCmd := testbin.GoCmd
	defer func() { testbin.GoCmd = goCmd }()
	testbin.GoCmd = func(ctx context.Context, dir string, args ...string) (string, error) {
		builds = append(builds, args)
		return goCmd(ctx, dir, args...)
	}
	cache := t.TempDir()
	for _, c := range []struct {
		pattern string
		builds  int
		want    map[string]string // package -> its one test
	}{
		{"./util", 1, map[string]string{"m/util": "TestUtil"}},
		{"./sub/...", 1, map[string]string{"m/sub/util": "TestSubUtil"}}, // util.test was m/util's
		{"./lib", 1, nil},
		{"./...", 3, map[string]string{"m/util": "TestUtil", "m/sub/util": "TestSubUtil"}},
	} {
		builds = nil
		pkgs, err := testbin.Build(context.Background(), testbin.BuildOptions{Dir: dir, Patterns: []string{c.pattern}, OutDir: t.TempDir(), CacheDir: cache})
		if c.want == nil {
			if err != testbin.ErrNoPackages {
				t.Errorf("%s: %v, want ErrNoPackages", c.pattern, err)
			}
			continue
		}
		if err != nil || len(pkgs) != len(c.want) {
			t.Fatalf("%s: %v, %+v", c.pattern, err, pkgs)
		}
		for _, p := range pkgs {
			if tests := listTests(context.Background(), &p, time.Minute); p.BuildError != "" || len(tests) != 1 || tests[0] != c.want[p.ImportPath] {
				t.Errorf("%s: %s's binary lists %v, want %s (build error %q)", c.pattern, p.ImportPath, tests, c.want[p.ImportPath], p.BuildError)
			}
		}
		if len(builds) != c.builds || builds[0][len(builds[0])-1] != c.pattern {
			t.Errorf("%s: %d go commands built, want %d, the first of the pattern: %q", c.pattern, len(builds), c.builds, builds)
		}
	}
}

func TestBuildBadPattern(t *testing.T) {
	pkgs, err := testbin.Build(context.Background(), testbin.BuildOptions{Dir: fixtureDir, Patterns: []string{"./nonexistent"}, OutDir: t.TempDir()})
	if err != nil || len(pkgs) != 1 || pkgs[0].Stage != testbin.Load {
		t.Errorf("Build of a pattern naming no package: %v, %+v; want one package failing at load", err, pkgs)
	}
	_, err = testbin.Build(context.Background(), testbin.BuildOptions{Dir: fixtureDir, Patterns: []string{"./notests"}, OutDir: t.TempDir()})
	if err != testbin.ErrNoPackages {
		t.Errorf("Build of a package without tests: %v, want ErrNoPackages", err)
	}
}

// TestIterationSeedAgrees: the fixtures' copy of IterationSeed and spread.Rand agree with
// internal/replay: a seeded test's recorded seed is the one the runner computes for its
// iteration.
func TestIterationSeedAgrees(t *testing.T) {
	recs := append(run(t, fixture(t, "flaky"), Options{Runs: 12, Seed: 3, Batch: 4}),
		run(t, fixture(t, "spreadrand"), Options{Runs: 12, Seed: 3, Batch: 4})...)
	for _, r := range recs {
		for _, tr := range r.Tests {
			if tr.Name != "TestFlaky" && tr.Name != "TestDraw" {
				continue
			}
			iter := (tr.Run - r.Run) / r.Step()
			if want := replay.IterationSeed(r.Seed, iter); !tr.Seeded || tr.Seed != want {
				t.Errorf("run %d (iteration %d of a process seeded %d): seed %d (recorded %v), want %d",
					tr.Run, iter, r.Seed, tr.Seed, tr.Seeded, want)
			}
		}
	}
}

// TestFlakyRate runs a package whose tests fail at known rates, one run per process, ten, and
// as many as the scheduler chooses: each run fails exactly when its seed says so, each run is
// made once, every seed is new, and the intervals cover the true rates.
func TestFlakyRate(t *testing.T) {
	const runs = 300
	for _, batch := range []int{1, 10, 0} {
		recs := run(t, fixture(t, "flaky"), Options{Runs: runs, Seed: 1, Batch: batch})
		rep := testreport.Summarize(recs, testreport.SummaryOptions{})
		for _, c := range []struct {
			name string
			rate float64
		}{{"TestFlaky", 0.10}, {"TestSub/a_b/c.d", 0.20}} {
			rs := results(recs, c.name)
			seeds := map[uint64]bool{}
			for i, tr := range rs {
				if tr.Run != i+1 || seeds[tr.Seed] || (tr.Outcome == testout.Fail) != (drawOf(tr.Seed, c.name) < c.rate) {
					t.Fatalf("batch %d: %s result %d: %+v (seed seen before: %v)", batch, c.name, i, tr, seeds[tr.Seed])
				}
				seeds[tr.Seed] = true
			}
			ts := summary(t, rep, "flaky", c.name)
			if len(rs) != runs || ts.Runs != runs {
				t.Errorf("batch %d: %s: %d results, %d runs; want %d", batch, c.name, len(rs), ts.Runs, runs)
			}
			if batch != 0 {
				// A fixed batch fixes every run's seed, so these counts are the same every time.
				if !(ts.Lower <= c.rate && c.rate <= ts.Upper) {
					t.Errorf("batch %d: %s: %d/%d failed, interval [%v, %v] misses the true rate %v", batch, c.name, ts.Bad(), ts.Runs, ts.Lower, ts.Upper, c.rate)
				}
				continue
			}
			// Batches chosen from measured times make the runs' seeds, and so the count of
			// failures, differ from one session to the next: whether a 95% interval covers the
			// true rate is then a chance of 1 in 20. The count is checked against its binomial
			// law at 1e-9 each side instead, and the interval against the one it must be.
			above, _ := sizing.BinomialTail(ts.Bad(), runs, c.rate)
			atMost, _ := sizing.BinomialTail(ts.Bad()+1, runs, c.rate)
			lo, hi, err := sizing.ClopperPearson(ts.Bad(), runs, 0.05)
			if above < 1e-9 || 1-atMost < 1e-9 || err != nil || ts.Lower != lo || ts.Upper != hi {
				t.Errorf("batch 0: %s: %d/%d failed (P(X >= k) = %.3g, P(X <= k) = %.3g at the true rate %v), interval [%v, %v], want [%v, %v]",
					c.name, ts.Bad(), runs, above, 1-atMost, c.rate, ts.Lower, ts.Upper, lo, hi)
			}
		}
		if ts := summary(t, rep, "flaky", "TestSkipped"); ts.Runs != 0 || ts.Skips != runs {
			t.Errorf("batch %d: TestSkipped: %+v, want %d skips and no runs", batch, ts.Counts, runs)
		}
		if p := pkgSummary(t, rep, "flaky"); p.Runs != runs || (batch == 10 && p.Processes > runs/5) {
			t.Errorf("batch %d: %d runs in %d processes", batch, p.Runs, p.Processes)
		}
		if got, want := rep.ExitCode(), testreport.ExitFlaky; got != want {
			t.Errorf("exit code %d, want %d", got, want)
		}
	}
}

// TestFlakyListsLeaves: a parent that fails only through its subtest is not counted again in
// FLAKY, and a test that fails in every run is FAILING, not FLAKY.
func TestFlakyListsLeaves(t *testing.T) {
	p := testbin.Package{ImportPath: "x/p"}
	var recs []resultsfile.Record
	for i := 1; i <= 40; i++ {
		sub := testout.Pass
		if i%2 == 0 {
			sub = testout.Fail
		}
		recs = append(recs, resultsfile.Record{Package: p, Run: i, Phase: resultsfile.Main, Tests: []testout.TestResult{
			{Name: "TestParent/case", Run: i, Outcome: sub}, {Name: "TestParent", Run: i, Outcome: sub},
			{Name: "TestBroken", Run: i, Outcome: testout.Fail}, {Name: testout.PackageTest, Run: i, Outcome: testout.Pass},
		}})
	}
	rep := testreport.Summarize(recs, testreport.SummaryOptions{})
	if diff := cmp.Diff([]string{"x/p.TestParent/case"}, rep.Flaky); diff != "" {
		t.Errorf("FLAKY (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"x/p.TestBroken"}, rep.Failing); diff != "" {
		t.Errorf("FAILING (-want +got):\n%s", diff)
	}
	var b strings.Builder
	rep.WriteText(&b)
	for _, want := range []string{"FAILING: 1 test failed in every run: x/p.TestBroken", "FLAKY: 1 test fails",
		"TestBroken: failed in every one of its 40 runs: a failure, not a flake"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}
	if rep.ExitCode() != testreport.ExitFlaky {
		t.Errorf("exit code %d", rep.ExitCode())
	}
	// The Markdown summary has a row for the subtest, none for its parent.
	b.Reset()
	rep.WriteMarkdown(&b)
	if md := b.String(); !strings.Contains(md, "`x/p.TestParent/case`") || strings.Contains(md, "`x/p.TestParent`") ||
		!strings.Contains(md, "2 with failures") {
		t.Errorf("Markdown summary:\n%s", md)
	}
}
