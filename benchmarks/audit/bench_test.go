// Package audit benchmarks spreadcheck audit, side by side in one go test -bench run:
//
// BenchmarkRealModules (below) compares the audit with gremlins on real modules of the audit
// corpus.
//
// BenchmarkSideBySide compares it with gremlins (github.com/go-gremlins/gremlins), the most
// used Go mutation tester, on internal/audit/testdata/story, a bidder's retry backoff in four
// copies, each tested differently:
//
//   - gremlins unleash --workers 2: gathers coverage, then builds and runs go test once per
//     mutant (arithmetic and comparison operators), in a copy of the module;
//   - spreadcheck audit -p 2: finds the draws, builds one mutant schema, traces which tests
//     reach each draw, runs them R = 20 times at baseline, then each mutant up to R times,
//     several runs to a test process, then compares the survivors' binaries with the
//     original's;
//   - spreadcheck audit -p 2 -per-mutant: the same with one test binary built per mutant, to
//     measure what the schema saves;
//   - spreadcheck audit -p 2 -all-runs: every mutant run R = 20 times, no sequential stopping.
//
// BenchmarkRealModules compares the two on real modules of the audit corpus (corpus/), each
// fetched through the module proxy into a temporary folder: gremlins unleash --workers 2 and
// spreadcheck audit -p 2 on the same packages, one after another in an order that rotates:
// the audit as a first audit of the module (its binary cache empty), again (the cache holding
// the schema's binaries from an audit of the same copy before the timed ones), and with
// -all-runs (every mutant run R = 20 times, the cache empty). It reports per module each
// one's whole time, its time per mutant, the ratio of the audit's whole time to gremlins'
// within the iteration (the goal: at most 0.2), and the audit's phases (find, build, trace,
// baseline, mutants, identical) from its report. Beside them, go-test-c is one go test -c of
// the same packages with the audit's build flags, written nowhere (-o /dev/null: the go
// command links it all the same): the go command's loading and the link that any build of
// the module pays, the floor of a first audit, which builds its schema once.
//
// BenchmarkCorpusModules does the same, a first audit and gremlins alone, on six more small
// modules of the corpus, and BenchmarkLargeModules on the six whose suites take minutes, each
// audited with its corpus entry's flags: there gremlins is stopped at gremlinsLimit, its whole
// process group killed, and a stopped run's time is a lower bound of gremlins' (reported as
// gremlins-killed, the share of iterations stopped), the audit's ratio to it an upper bound.
//
// BenchmarkBatching audits the fixtures story, gaps and equiv and the real module
// github.com/cenkalti/backoff/v4 (fetched through the module proxy) with the runs of each
// test process chosen from measured times (the default) and with -batch 1 (a process per
// run), to measure what amortised runs save.
//
// Each iteration runs the commands one after another, in an order that rotates from one
// iteration to the next, so that the noise of a shared machine falls on all of them alike.
// Run it as
//
//	(uptime; go test -bench . -benchtime 1x -count 6 -timeout 1h; uptime) | tee raw.txt
//	go run ./cmd/medians < raw.txt > RESULTS.txt
package audit

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// commands builds spreadcheck and gremlins once, outside the timed part.
func commands(b *testing.B) (bin string) {
	bin = b.TempDir()
	for _, c := range [][]string{
		{"go", "build", "-o", filepath.Join(bin, "spreadcheck"), "github.com/spreadcheck/spreadcheck/cmd/spreadcheck"},
		{"go", "build", "-o", filepath.Join(bin, "gremlins"), "github.com/go-gremlins/gremlins/cmd/gremlins"},
	} {
		if out, err := exec.Command(c[0], c[1:]...).CombinedOutput(); err != nil {
			b.Fatalf("%v: %v\n%s", c, err, out)
		}
	}
	return bin
}

// fixture copies one of internal/audit's fixture modules to a temporary module whose replace
// directive points at this repository, and warms the build cache with its tests.
func fixture(b *testing.B, name string) string {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		b.Fatal(err)
	}
	dir := copyTree(b, filepath.Join(root, "internal", "audit", "testdata", name))
	mod := filepath.Join(dir, "go.mod")
	data, err := os.ReadFile(mod)
	if err != nil {
		b.Fatal(err)
	}
	data = regexp.MustCompile(`=> \S+`).ReplaceAll(data, []byte("=> "+root))
	if err := os.WriteFile(mod, data, 0o644); err != nil {
		b.Fatal(err)
	}
	return warm(b, dir)
}

// module fetches a module through the module proxy and copies it to a temporary folder.
func module(b *testing.B, path string) string {
	out, err := exec.Command("go", "mod", "download", "-json", path).Output()
	if err != nil {
		b.Fatalf("go mod download %s: %v", path, err)
	}
	var m struct{ Dir string }
	if err := json.Unmarshal(out, &m); err != nil {
		b.Fatal(err)
	}
	dir := copyTree(b, m.Dir)
	if out, err := exec.Command("chmod", "-R", "u+w", dir).CombinedOutput(); err != nil {
		b.Fatalf("chmod: %v\n%s", err, out)
	}
	// A module served without go.mod (patrickmn/go-cache) is built as the go command builds
	// it: a module of its path with no go line, so Go 1.16.
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); os.IsNotExist(err) {
		mod, _, _ := strings.Cut(path, "@")
		if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module "+mod+"\n"), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return warm(b, dir)
}

func copyTree(b *testing.B, src string) string {
	dir := filepath.Join(b.TempDir(), filepath.Base(src))
	if out, err := exec.Command("cp", "-r", src, dir).CombinedOutput(); err != nil {
		b.Fatalf("cp: %v\n%s", err, out)
	}
	return dir
}

// warm builds the module's test binaries once, running no test, so that its packages are in
// the build cache for all. Running the tests would make a fixture with a flaky test by design
// (gaps' TestPickFlaky) stop the benchmark now and then.
func warm(b *testing.B, dir string) string {
	cmd := exec.Command("go", "test", "-count=1", "-vet=off", "-run", "^$", "./...")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("go test in %s: %v\n%s", dir, err, out)
	}
	return dir
}

// tool is one command under test, and how to count the mutants it ran.
type tool struct {
	name    string
	args    []string
	mutants func(out []byte, file string) (mutants, runs int)
	// env, when set, returns the variables the command gets beside the benchmark's own, for
	// one run of it.
	env func() []string
	// limit, when not zero, is the most a run of the command may take: a run still going then
	// is stopped, its whole process group killed, and its time is a lower bound of the
	// command's (reported as NAME-killed, the share of iterations so stopped).
	limit time.Duration
}

// round rotates the order of the tools across the -count invocations of the benchmark.
var round int

func BenchmarkSideBySide(b *testing.B) {
	bin, fixture := commands(b), fixture(b, "story")
	out := filepath.Join(b.TempDir(), "gremlins.json")
	tools := []tool{
		{"gremlins", []string{filepath.Join(bin, "gremlins"), "unleash", "--workers", "2", "-o", out, "."}, gremlinsMutants, nil, 0},
		{"spreadcheck", []string{filepath.Join(bin, "spreadcheck"), "audit", "-p", "2", "-seed", "1", "-json", "-progress=false"}, auditMutants, nil, 0},
		{"spreadcheck-per-mutant", []string{filepath.Join(bin, "spreadcheck"), "audit", "-p", "2", "-seed", "1", "-json",
			"-progress=false", "-per-mutant"}, auditMutants, nil, 0},
		{"spreadcheck-all-runs", []string{filepath.Join(bin, "spreadcheck"), "audit", "-p", "2", "-seed", "1", "-json",
			"-progress=false", "-all-runs"}, auditMutants, nil, 0},
	}
	wall := make([]time.Duration, len(tools))
	muts := make([]int, len(tools))
	runs := make([]int, len(tools))
	for b.Loop() {
		round++
		for j := range tools {
			k := (round + j) % len(tools)
			t := tools[k]
			cmd := exec.Command(t.args[0], t.args[1:]...)
			cmd.Dir = fixture
			start := time.Now()
			stdout, err := cmd.Output()
			wall[k] += time.Since(start)
			if _, exit := err.(*exec.ExitError); err != nil && !exit { // both exit 1 when a mutant lives
				b.Fatalf("%s: %v", t.name, err)
			}
			m, r := t.mutants(stdout, out)
			if m == 0 {
				b.Fatalf("%s ran no mutant:\n%s", t.name, stdout)
			}
			muts[k] += m
			runs[k] += r
		}
	}
	per := make([]float64, len(tools))
	for k, t := range tools {
		per[k] = wall[k].Seconds() / float64(muts[k])
		b.ReportMetric(wall[k].Seconds()/float64(b.N), t.name+"-s")
		b.ReportMetric(per[k], t.name+"-s/mutant")
		b.ReportMetric(float64(muts[k])/float64(b.N), t.name+"-mutants")
		if runs[k] > 0 {
			b.ReportMetric(float64(runs[k])/float64(muts[k]), t.name+"-runs/mutant")
		}
	}
	b.ReportMetric(per[0]/per[1], "gremlins/spreadcheck-per-mutant")
	b.ReportMetric(per[0]/per[3], "gremlins/spreadcheck-all-runs-per-mutant")
	b.ReportMetric(per[2]/per[1], "per-mutant/schemata")
	b.ReportMetric(0, "ns/op") // the metrics above say it all
}

// BenchmarkBatching audits each target with the default batches and with -batch 1, and
// reports each audit's wall time and the ratio of the two, within each iteration.
func BenchmarkBatching(b *testing.B) {
	bin := commands(b)
	targets := []struct{ name, dir string }{
		{"story", fixture(b, "story")}, {"gaps", fixture(b, "gaps")}, {"equiv", fixture(b, "equiv")},
		{"backoff-v4", module(b, "github.com/cenkalti/backoff/v4@v4.3.0")},
	}
	modes := []struct{ name, flag string }{{"batched", "-batch=0"}, {"isolated", "-batch=1"}}
	wall := map[string]time.Duration{}
	ratios := map[string][]float64{}
	for b.Loop() {
		round++
		for i := range targets {
			t := targets[(round+i)%len(targets)]
			took := map[string]time.Duration{}
			for j := range modes {
				m := modes[(round+j)%len(modes)]
				cmd := exec.Command(filepath.Join(bin, "spreadcheck"), "audit", "-p", "2", "-seed", "1", "-json",
					"-progress=false", m.flag)
				cmd.Dir = t.dir
				start := time.Now()
				out, err := cmd.Output()
				took[m.name] = time.Since(start)
				if _, exit := err.(*exec.ExitError); err != nil && !exit || !strings.Contains(string(out), `"sites"`) {
					b.Fatalf("%s %s: %v\n%s", t.name, m.name, err, out)
				}
				wall[t.name+"-"+m.name] += took[m.name]
			}
			ratios[t.name] = append(ratios[t.name], took["isolated"].Seconds()/took["batched"].Seconds())
		}
	}
	for k, w := range wall {
		b.ReportMetric(w.Seconds()/float64(b.N), k+"-s")
	}
	for k, rs := range ratios {
		sum := 0.0
		for _, r := range rs {
			sum += r
		}
		b.ReportMetric(sum/float64(len(rs)), k+"-isolated/batched")
	}
	b.ReportMetric(0, "ns/op")
}

// realModules are the corpus modules of BenchmarkRealModules: those whose test suites take
// seconds, so that gremlins' build and run per mutant ends within the hour, and the
// package each tool is given.
// gremlins is given the folder (".", the whole module), the audit the packages.
var realModules = []struct{ name, module, dir, pkg string }{
	{"hashicorp-go-uuid", "github.com/hashicorp/go-uuid@v1.0.4", ".", "./..."},
	{"grpc-backoffutils", "github.com/grpc-ecosystem/go-grpc-middleware/v2@v2.3.4", "./util/backoffutils", "./util/backoffutils"},
	{"google-uuid", "github.com/google/uuid@v1.6.0", ".", "./..."},
	{"groupcache", "github.com/golang/groupcache@v0.0.0-20241129210726-2c02b8208cf8", ".", "./..."},
}

// firstAudits returns the commands' folder, the audit's command line (-p 2, seed 1, JSON), and
// the environment of an audit with its binary cache in dir: the audit's binary cache is in the
// user cache directory, which XDG_CACHE_HOME moves (on Linux, where this runs), GOCACHE
// keeping the go command's build cache in place.
func firstAudits(b *testing.B) (bin string, audit []string, userCache func(dir string) []string) {
	bin = commands(b)
	gocache, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		b.Fatal(err)
	}
	audit = []string{filepath.Join(bin, "spreadcheck"), "audit", "-p", "2", "-seed", "1", "-json", "-progress=false"}
	return bin, audit, func(dir string) []string {
		return []string{"XDG_CACHE_HOME=" + dir, "GOCACHE=" + strings.TrimSpace(string(gocache))}
	}
}

func BenchmarkRealModules(b *testing.B) {
	bin, audit, userCache := firstAudits(b)
	for _, m := range realModules {
		b.Run(m.name, func(b *testing.B) {
			dir, out := module(b, m.module), filepath.Join(b.TempDir(), "gremlins.json")
			empty := func() []string { return userCache(b.TempDir()) }
			kept := b.TempDir()
			again := func() []string { return userCache(kept) }
			warmAudit(b, dir, append(slices.Clip(audit), m.pkg), again())
			tools := []tool{
				{"gremlins", []string{filepath.Join(bin, "gremlins"), "unleash", "--workers", "2", "-o", out, m.dir}, gremlinsMutants, nil, 0},
				{"spreadcheck", append(slices.Clip(audit), m.pkg), auditMutants, empty, 0},
				{"spreadcheck-again", append(slices.Clip(audit), m.pkg), auditMutants, again, 0},
				{"spreadcheck-all-runs", append(slices.Clip(audit), "-all-runs", m.pkg), auditMutants, empty, 0},
				{"go-test-c", []string{"go", "test", "-c", "-vet=off", "-ldflags=-w", "-o", os.DevNull, m.pkg}, noMutants, nil, 0},
			}
			sideBySide(b, dir, out, tools)
		})
	}
}

// corpusModules are more modules of the audit corpus, for BenchmarkCorpusModules: small
// ones, where gremlins' build per mutant is cheap and the goal (the audit's whole time at most
// a fifth of gremlins') hardest to meet, each with the audit flags its corpus entry uses.
var corpusModules = []struct {
	name, module, dir, pkg string
	flags                  []string
}{
	{"segmentio-ksuid", "github.com/segmentio/ksuid@v1.0.4", ".", "./...", nil},
	{"serf-coordinate", "github.com/hashicorp/serf@v0.10.2", "./coordinate", "./coordinate", nil},
	{"go-cache", "github.com/patrickmn/go-cache@v2.1.0+incompatible", ".", "./...", nil},
	{"lestrrat-backoff", "github.com/lestrrat-go/backoff/v2@v2.0.8", ".", ".", []string{"-runs", "100", "-run", "^TestExponential$/^Jitter$"}},
	{"jpillora-backoff", "github.com/jpillora/backoff@v1.1.0", ".", "./...", nil},
	{"eapache-retrier", "github.com/eapache/go-resiliency@v1.7.0", "./retrier", "./retrier", nil},
}

// BenchmarkCorpusModules compares a first audit with gremlins on corpusModules, as
// BenchmarkRealModules does, with these two tools alone.
func BenchmarkCorpusModules(b *testing.B) {
	bin, audit, userCache := firstAudits(b)
	for _, m := range corpusModules {
		b.Run(m.name, func(b *testing.B) {
			dir, out := module(b, m.module), filepath.Join(b.TempDir(), "gremlins.json")
			empty := func() []string { return userCache(b.TempDir()) }
			sideBySide(b, dir, out, []tool{
				{"gremlins", []string{filepath.Join(bin, "gremlins"), "unleash", "--workers", "2", "-o", out, m.dir}, gremlinsMutants, nil, 0},
				{"spreadcheck", append(append(slices.Clip(audit), m.flags...), m.pkg), auditMutants, empty, 0},
			})
		})
	}
}

// largeModules are the six corpus modules whose suites take minutes, for
// BenchmarkLargeModules, each with the audit flags its corpus entry uses (-run names the tests
// that reach the draws, -skip leaves out one that takes minutes) and the packages gremlins is
// given: one run of gremlins per package (it takes one path), with no test filter, as it has
// none. Where gremlins has not ended at gremlinsLimit it is stopped: its time is then a lower
// bound, and the ratio of the audit's time to it an upper bound.
//
// sameTests, when set, gives gremlins the audit's -run and -skip through GOFLAGS (gremlins
// passes its environment to the go test commands it runs, and go test reads test flags there;
// go build, go list and go mod ignore a flag they do not know), so that both tools run the same
// tests: for a module whose whole suite fails here, which fails gremlins' coverage run, after
// which it tests no mutant. gremlins then mutates only what those tests cover, and each of its
// runs is shorter: its time is less than with the whole suite, the audit's ratio to it larger.
var largeModules = []struct {
	name, module string
	dirs, pkgs   []string
	flags        []string
	sameTests    bool
}{
	{"etcd-raft", "go.etcd.io/raft/v3@v3.7.0", []string{"."}, []string{"."}, nil, false},
	// hashicorp/raft's whole suite fails here: TestFileSS_BadPerm expects a folder without
	// write permission to refuse a snapshot, which root (the benchmark's user on the shared
	// machine) writes all the same, and under load some of its cluster tests miss their fixed
	// waits, a different few each time (TestRaft_HasExistingState and
	// _ProtocolVersion_Upgrade_2_3 in one run; _ProtocolVersion_Upgrade_1_2,
	// _LeadershipTransferLeaderReplicationTimeout and _CacheLogWithStoreError in the next).
	{"hashicorp-raft", "github.com/hashicorp/raft@v1.8.0", []string{"."}, []string{"."},
		[]string{"-run", "^Test(RandomTimeout|RandomTimeout_NoTime|NewSeed|GenerateUUID|Backoff)$"}, true},
	{"memberlist", "github.com/hashicorp/memberlist@v0.7.0", []string{"."}, []string{"."},
		[]string{"-run", "^Test(RandomOffset|RandomOffset_Zero|ShuffleNodes|KRandomNodes|MoveDeadNodes)$"}, false},
	{"gocron", "github.com/go-co-op/gocron/v2@v2.21.2", []string{"."}, []string{"."},
		[]string{"-run", "^Test(DurationRandomJob_next|WithIntervalFromCompletion_DurationRandomJob)$"}, false},
	{"oklog-ulid", "github.com/oklog/ulid/v2@v2.1.2", []string{"."}, []string{"."},
		[]string{"-skip", "^TestLexicographicalOrder$"}, false},
	{"failsafe-go", "github.com/failsafe-go/failsafe-go@v0.9.8",
		[]string{"./circuitbreaker", "./internal/util", "./retrypolicy"},
		[]string{"./circuitbreaker", "./internal/util", "./retrypolicy"}, nil, false},
}

// testFlags returns the environment that gives every go test command the audit flags' -run
// and -skip through GOFLAGS, after the GOFLAGS of the benchmark's own environment. GOFLAGS
// separates its flags by spaces: a pattern must hold none.
func testFlags(flags []string) func() []string {
	var goflags []string
	for i := 0; i+1 < len(flags); i++ {
		if f := flags[i]; f == "-run" || f == "-skip" {
			goflags = append(goflags, f+"="+flags[i+1])
			i++
		}
	}
	return func() []string {
		return []string{"GOFLAGS=" + strings.TrimSpace(os.Getenv("GOFLAGS")+" "+strings.Join(goflags, " "))}
	}
}

// gremlinsLimit is how long BenchmarkLargeModules lets gremlins run on one module.
const gremlinsLimit = 5 * time.Minute

// BenchmarkLargeModules compares a first audit with gremlins on largeModules, as
// BenchmarkCorpusModules does, gremlins stopped at gremlinsLimit.
func BenchmarkLargeModules(b *testing.B) {
	bin, audit, userCache := firstAudits(b)
	for _, m := range largeModules {
		b.Run(m.name, func(b *testing.B) {
			dir, out := module(b, m.module), filepath.Join(b.TempDir(), "gremlins.json")
			empty := func() []string { return userCache(b.TempDir()) }
			gremlins := tool{"gremlins", nil, gremlinsMutants, nil, gremlinsLimit}
			if m.sameTests {
				gremlins.env = testFlags(m.flags)
			}
			if len(m.dirs) == 1 {
				gremlins.args = []string{filepath.Join(bin, "gremlins"), "unleash", "--workers", "2", "-o", out, m.dirs[0]}
			} else {
				// One gremlins a package, one after another, each writing out.N.
				var script []string
				for i, d := range m.dirs {
					script = append(script, fmt.Sprintf("%q unleash --workers 2 -o %q %q", filepath.Join(bin, "gremlins"),
						fmt.Sprintf("%s.%d", out, i), d))
				}
				gremlins.args = []string{"sh", "-c", strings.Join(script, "; ")}
				gremlins.mutants = func(stdout []byte, _ string) (n, runs int) {
					for i := range m.dirs {
						mi, ri := gremlinsMutants(stdout, fmt.Sprintf("%s.%d", out, i))
						n, runs = n+mi, runs+ri
					}
					return n, runs
				}
			}
			sideBySide(b, dir, out, []tool{
				gremlins,
				{"spreadcheck", append(append(slices.Clip(audit), m.flags...), m.pkgs...), auditMutants, empty, 0},
			})
		})
	}
}

// warmAudit audits the module once, untimed, with the user cache directory of env, so that
// the audits timed as "again" find the schema's binaries there.
func warmAudit(b *testing.B, dir string, args, env []string) {
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir, cmd.Env = dir, append(os.Environ(), env...)
	if out, err := cmd.Output(); !strings.Contains(string(out), `"sites"`) {
		b.Fatalf("%v: %v\n%s", args, err, out)
	}
}

// sideBySide runs the tools in dir one after another in each iteration, in an order that
// rotates, and reports each one's whole time, mutants, time per mutant and runs per mutant,
// and the ratio of each audit's whole time to gremlins' (tools[0]) within the iteration.
func sideBySide(b *testing.B, dir, out string, tools []tool) {
	wall := make([]time.Duration, len(tools))
	muts := make([]int, len(tools))
	runs := make([]int, len(tools))
	ratios := make([]float64, len(tools))
	phases := make([]map[string]float64, len(tools))
	killed := make([]int, len(tools))
	for b.Loop() {
		round++
		took := make([]time.Duration, len(tools))
		for j := range tools {
			k := (round + j) % len(tools)
			t := tools[k]
			stale, _ := filepath.Glob(out + "*") // out, and out.N of one run per package
			for _, f := range stale {
				os.Remove(f)
			}
			ctx, cancel := context.Background(), context.CancelFunc(func() {})
			if t.limit > 0 {
				ctx, cancel = context.WithTimeout(ctx, t.limit)
			}
			cmd := exec.CommandContext(ctx, t.args[0], t.args[1:]...)
			cmd.Dir = dir
			if t.env != nil {
				cmd.Env = append(os.Environ(), t.env()...)
			}
			// The command and all it starts (go test, the test binaries) are one process
			// group, killed together at the limit.
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
			cmd.WaitDelay = 10 * time.Second
			start := time.Now()
			stdout, err := cmd.Output()
			took[k] = time.Since(start)
			stopped := ctx.Err() != nil
			cancel()
			if stopped {
				killed[k]++
				b.Logf("%s stopped at its limit of %v: %.1f s, a lower bound", t.name, t.limit, took[k].Seconds())
			} else if _, exit := err.(*exec.ExitError); err != nil && !exit {
				b.Fatalf("%s: %v", t.name, err)
			}
			m, r := t.mutants(stdout, out)
			if m == 0 && err != nil && !stopped {
				// It failed before any mutant (gremlins when its coverage run fails): its time
				// is no measure of mutation testing.
				var stderr []byte
				if e, ok := err.(*exec.ExitError); ok {
					stderr = e.Stderr
				}
				all := append(stdout, stderr...)
				b.Logf("%s ran no mutant (%v) in %.1f s; the tests that failed:\n%s\nits output ends:\n%s", t.name, err, took[k].Seconds(),
					failures(all), tail(all, 2000))
			}
			for name, secs := range auditPhases(stdout) {
				if phases[k] == nil {
					phases[k] = map[string]float64{}
				}
				phases[k][name] += secs
			}
			wall[k] += took[k]
			muts[k] += m
			runs[k] += r
		}
		for k := range tools {
			ratios[k] += took[k].Seconds() / took[0].Seconds()
		}
	}
	for k, t := range tools {
		b.ReportMetric(wall[k].Seconds()/float64(b.N), t.name+"-s")
		b.ReportMetric(float64(muts[k])/float64(b.N), t.name+"-mutants")
		if muts[k] > 0 {
			b.ReportMetric(wall[k].Seconds()/float64(muts[k]), t.name+"-s/mutant")
			b.ReportMetric(float64(runs[k])/float64(muts[k]), t.name+"-runs/mutant")
		}
		if k > 0 {
			b.ReportMetric(ratios[k]/float64(b.N), t.name+"/gremlins")
		}
		if t.limit > 0 {
			b.ReportMetric(float64(killed[k])/float64(b.N), t.name+"-killed")
		}
		for name, secs := range phases[k] {
			b.ReportMetric(secs/float64(b.N), t.name+"-phase-"+name+"-s")
		}
	}
	b.ReportMetric(0, "ns/op")
}

// failures returns the lines of go test's output that name a failed test, one each.
func failures(out []byte) string {
	var lines []string
	for _, l := range strings.Split(string(out), "\n") {
		if l = strings.TrimSpace(l); strings.HasPrefix(l, "--- FAIL") && !slices.Contains(lines, l) {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "\n")
}

// tail returns the last n bytes of out at most.
func tail(out []byte, n int) []byte {
	return out[max(0, len(out)-n):]
}

// noMutants is the count of a command that runs no mutant: its whole time is reported, and
// its ratio to gremlins'.
func noMutants([]byte, string) (int, int) { return 0, 0 }

// gremlinsMutants counts the mutants gremlins ran (killed, lived, timed out), once each.
func gremlinsMutants(_ []byte, file string) (int, int) {
	data, err := os.ReadFile(file)
	if err != nil {
		return 0, 0
	}
	var r struct {
		Files []struct {
			Mutations []struct{ Status string } `json:"mutations"`
		} `json:"files"`
	}
	if json.Unmarshal(data, &r) != nil {
		return 0, 0
	}
	n := 0
	for _, f := range r.Files {
		for _, m := range f.Mutations {
			if s := strings.ToUpper(m.Status); s == "KILLED" || s == "LIVED" || s == "TIMED OUT" {
				n++
			}
		}
	}
	return n, n
}

// auditPhases returns the wall time of each phase of an audit, from its report.
func auditPhases(out []byte) map[string]float64 {
	var r struct {
		Phases []struct {
			Name    string
			Seconds float64
		}
	}
	if json.Unmarshal(out, &r) != nil {
		return nil
	}
	secs := map[string]float64{}
	for _, p := range r.Phases {
		secs[p.Name] += p.Seconds
	}
	return secs
}

// auditMutants counts the mutants spreadcheck audit ran (killed or survived) and their runs.
func auditMutants(out []byte, _ string) (int, int) {
	var r struct {
		Sites []struct {
			Mutants []struct {
				Verdict string
				Runs    int
			}
		}
	}
	if json.Unmarshal(out, &r) != nil {
		return 0, 0
	}
	n, runs := 0, 0
	for _, s := range r.Sites {
		for _, m := range s.Mutants {
			if m.Verdict == "killed" || m.Verdict == "survived" {
				n++
				runs += m.Runs
			}
		}
	}
	return n, runs
}
