package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/spreadcheck/spreadcheck/fakeclock"
	"github.com/spreadcheck/spreadcheck/internal/golden"
	"github.com/spreadcheck/spreadcheck/internal/resultsfile"
	"github.com/spreadcheck/spreadcheck/internal/runner"
	"github.com/spreadcheck/spreadcheck/internal/testbin"
	"github.com/spreadcheck/spreadcheck/internal/testout"
	"github.com/spreadcheck/spreadcheck/internal/testreport"
)

// asCommand is the environment variable that makes the test binary the spreadcheck command,
// for the tests that need it in a process of its own (to signal it, or kill it).
const asCommand = "SPREADCHECK_TEST_AS_COMMAND"

// sharedCache is the user cache directory of the tests that do not look into theirs: their
// results files are their own, and their binary cache is the user's (testbin links to it), so
// that a package the tests build again, in this process or a later one, is up to date.
var sharedCache string

func TestMain(m *testing.M) {
	if os.Getenv(asCommand) != "" {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	var err error
	if sharedCache, err = os.MkdirTemp("", "spreadcheck-test-"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if c, err := testbin.UserCache(); err == nil && os.MkdirAll(c.Binaries(), 0o755) == nil {
		os.Mkdir(filepath.Join(sharedCache, "spreadcheck"), 0o755)
		os.Symlink(c.Binaries(), filepath.Join(sharedCache, "spreadcheck", "testbin"))
	}
	code := m.Run()
	os.RemoveAll(sharedCache)
	os.Exit(code)
}

// command returns the spreadcheck command, run in a process of its own: this test binary.
func command(t *testing.T, args ...string) *exec.Cmd {
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), asCommand+"=1")
	return cmd
}

// inFixtures runs the test in the runner's fixture module, as a user would run spreadcheck in
// their own module, with the tests' user cache directory.
func inFixtures(t *testing.T) {
	testsCache(t)
	t.Chdir("../../internal/runner/testdata/fixtures")
}

// testsCache gives the test the tests' user cache directory and a temporary directory of its
// own. The binary cache and results go under XDG_CACHE_HOME; the go command's build cache,
// which also defaults to it, stays where it is.
func testsCache(t *testing.T) {
	gocache, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOCACHE", strings.TrimSpace(string(gocache)))
	t.Setenv("XDG_CACHE_HOME", sharedCache)
	t.Setenv("TMPDIR", t.TempDir())
}

// ownCache gives the test a user cache directory of its own, empty, and returns its
// spreadcheck folder.
func ownCache(t *testing.T) string {
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	return filepath.Join(cache, "spreadcheck")
}

func spreadcheck(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var o, e bytes.Buffer
	code = run(args, &o, &e)
	return code, o.String(), e.String()
}

func TestFlakyPackage(t *testing.T) {
	inFixtures(t)
	cache := ownCache(t)
	dir := t.TempDir()
	md := filepath.Join(dir, "summary.md")
	code, out, errOut := spreadcheck(t, "-runs", "30", "-seed", "1", "-batch", "3", "-p", "2", "-o", dir, "-summary", md, "./flaky", "./readsdata")
	if code != testreport.ExitFlaky {
		t.Errorf("exit %d, want %d; stderr:\n%s", code, testreport.ExitFlaky, errOut)
	}
	for _, want := range []string{
		"spreadcheck: 30 runs of 2 packages, seed 1,",
		"fixtures/flaky (30 runs in ",
		"TestFlaky: ",
		" go test -run '^TestFlaky$' -count=1 ./flaky",
		"depends on the seed: ",
		"fixtures/readsdata (30 runs in ",
		"FLAKY: ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	// Progress goes to stderr, as plain lines when stderr is not a terminal.
	if !strings.Contains(errOut, "60/60 runs") {
		t.Errorf("stderr lacks the progress lines:\n%s", errOut)
	}
	if b, err := os.ReadFile(md); err != nil || !strings.Contains(string(b), "| `fixtures/flaky.TestFlaky` | 30 |") {
		t.Errorf("summary %s: %v\n%s", md, err, b)
	}
	logs, _ := filepath.Glob(filepath.Join(dir, "flaky-*.log"))
	if _, err := os.Stat(filepath.Join(dir, "results.jsonl")); err != nil || len(logs) == 0 {
		t.Errorf("-o %s: results file %v, %d logs", dir, err, len(logs))
	}
	// The binaries are cached in the user cache directory, and nothing is left in TMPDIR.
	if bins, _ := filepath.Glob(filepath.Join(cache, "testbin", "*", "*.test")); len(bins) != 2 {
		t.Errorf("binary cache holds %v", bins)
	}
	if left, _ := os.ReadDir(os.Getenv("TMPDIR")); len(left) != 0 {
		t.Errorf("left in TMPDIR: %v", left)
	}
	// A threshold of 50% is above every interval.
	if code, out, _ := spreadcheck(t, "-runs", "30", "-seed", "1", "-batch", "3", "-max-flake", "0.5", "-progress=false", "./flaky"); code != testreport.ExitClean {
		t.Errorf("-max-flake 0.5: exit %d\n%s", code, out)
	}
}

func TestJSONAndResultsInCache(t *testing.T) {
	inFixtures(t)
	cache := ownCache(t)
	code, out, errOut := spreadcheck(t, "-runs", "5", "-seed", "2", "-json", "-progress=false", "./readsdata")
	if code != testreport.ExitClean {
		t.Fatalf("exit %d; stderr:\n%s", code, errOut)
	}
	var rep testreport.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("-json output does not decode: %v\n%s", err, out)
	}
	if rep.Runs != 5 || rep.Seed != 2 || len(rep.Packages) != 1 || rep.Packages[0].Tests[0].Runs != 5 {
		t.Errorf("decoded report: %+v", rep)
	}
	files, _ := filepath.Glob(filepath.Join(cache, "results", "*-seed2.jsonl"))
	if len(files) != 1 || !strings.Contains(errOut, "results in "+files[0]) {
		t.Errorf("results files %v; stderr:\n%s", files, errOut)
	}
}

func TestBuildErrors(t *testing.T) {
	inFixtures(t)
	code, out, _ := spreadcheck(t, "-runs", "2", "-progress=false", "./broken", "./vetfail", "./nonexistent", "./readsdata")
	for _, want := range []string{"undefined: undefinedName", "fixtures/vetfail: fails go vet", "wrong type string",
		"cannot be loaded", "BUILD FAILED: 3 packages did not build"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	if code != testreport.ExitBuild {
		t.Errorf("exit %d, want %d", code, testreport.ExitBuild)
	}
	// -vet=off, as go test -vet=off: the package builds, and its replays say so.
	if code, out, _ := spreadcheck(t, "-runs", "2", "-vet=off", "-progress=false", "./vetfail"); code != testreport.ExitClean {
		t.Errorf("-vet=off: exit %d\n%s", code, out)
	}
}

func TestUsageErrors(t *testing.T) {
	inFixtures(t)
	for _, c := range []struct {
		args []string
		msg  string // in stderr: what names the mistake
	}{
		{[]string{"-runs", "0", "./readsdata"}, "-runs 0"},
		{[]string{"-p", "0", "./readsdata"}, "-p 0"},
		{[]string{"-batch", "-1", "./readsdata"}, "-batch -1"},
		{[]string{"-max-flake", "1.5", "./readsdata"}, "-max-flake 1.5"},
		{[]string{"-max-flake", "NaN", "./readsdata"}, "-max-flake NaN"},
		{[]string{"-detect", "0", "./readsdata"}, "-detect 0"},
		{[]string{"-precision", "2", "./readsdata"}, "-precision 2"},
		{[]string{"-shard", "3/2", "./readsdata"}, "-shard \"3/2\""},
		{[]string{"-shard", "auto", "./readsdata"}, "-shard auto: none of"},
		{[]string{"-cpu", "1,x", "./readsdata"}, "-cpu \"1,x\""},
		{[]string{"-shuffle", "sometimes", "./readsdata"}, "-shuffle \"sometimes\""},
		{[]string{"-run", "Test(", "./readsdata"}, "-run \"Test(\""},
		{[]string{"-skip", "TestA/[", "./readsdata"}, "-skip \"TestA/[\""},
		{[]string{"-summary", "/nonexistent/dir/s.md", "./readsdata"}, "-summary"},
		{[]string{"-results", "/nonexistent/dir/r.jsonl", "./readsdata"}, "-results"},
		{[]string{"-bogus"}, "-bogus"},
		{[]string{"./notests"}, "no packages with tests"},
		{[]string{"merge"}, "name the files to merge"},
		{[]string{"compare", "a.jsonl"}, "want two results files"},
		// -count was a second name of -runs: one way, go test's -count means something else.
		{[]string{"-count", "5", "./readsdata"}, "flag provided but not defined: -count"},
		// The reports of an audit's shards merge with spreadcheck merge, as results files do.
		{[]string{"audit", "merge", "a.json"}, "merge with spreadcheck merge"},
	} {
		code, out, errOut := spreadcheck(t, c.args...)
		if code != testreport.ExitBuild || !strings.Contains(errOut, c.msg) || out != "" {
			t.Errorf("spreadcheck %v: exit %d, want %d, and stderr naming %q; stderr:\n%s\nstdout:\n%s", c.args, code, testreport.ExitBuild, c.msg, errOut, out)
		}
	}
}

// TestUnreadableFile: a file that cannot be read is not a usage error: it exits 4 and says
// it cannot read the file (before, exit 2 like a mistyped flag).
func TestUnreadableFile(t *testing.T) {
	inFixtures(t)
	for _, args := range [][]string{
		{"merge", "nonexistent.jsonl"},
		{"compare", "nonexistent.jsonl", "other.jsonl"},
	} {
		code, out, errOut := spreadcheck(t, args...)
		if code != testreport.ExitUnreadable || !strings.Contains(errOut, "cannot read") || !strings.Contains(errOut, "nonexistent.jsonl") || out != "" {
			t.Errorf("spreadcheck %v: exit %d, want %d, and stderr saying it cannot read the file; stderr:\n%s", args, code, testreport.ExitUnreadable, errOut)
		}
	}
}

// TestRunMatchesNothing: a -run with a typo is no green ok.
func TestRunMatchesNothing(t *testing.T) {
	inFixtures(t)
	code, out, _ := spreadcheck(t, "-runs", "3", "-run", "TestFlakey", "-progress=false", "./flaky")
	if code != testreport.ExitBuild || !strings.Contains(out, "NO TESTS") || !strings.Contains(out, "(0 runs in 0 processes)") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}

// TestSummaryWriteFails: a summary that cannot be written costs the report nothing.
func TestSummaryWriteFails(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full")
	}
	inFixtures(t)
	code, out, errOut := spreadcheck(t, "-runs", "2", "-summary", "/dev/full", "-progress=false", "./readsdata")
	if !strings.Contains(out, "fixtures/readsdata (2 runs") || !strings.Contains(errOut, "-summary") || code != testreport.ExitBuild {
		t.Errorf("exit %d, stdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
}

// TestTestFlags: flags after the packages, test flags and -args reach the binaries and the
// replay commands.
func TestTestFlags(t *testing.T) {
	inFixtures(t)
	code, out, _ := spreadcheck(t, "./args", "-runs", "3", "-short", "-parallel", "2", "-shuffle", "on", "-cpu", "1,2", "-progress=false", "-args", "-mode=pass")
	if code != testreport.ExitClean || !strings.Contains(out, "fixtures/args (6 runs in ") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	code, out, _ = spreadcheck(t, "./args", "-runs", "3", "-batch", "1", "-short", "-progress=false", "-args", "-mode=fail")
	if code != testreport.ExitFlaky || !strings.Contains(out, "go test -short -run '^TestNeedsMode$' -count=1 ./args -args -mode=fail") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}

func TestShardMerge(t *testing.T) {
	inFixtures(t)
	dir := t.TempDir()
	var files []string
	for _, s := range []string{"1/2", "2/2"} {
		f := filepath.Join(dir, strings.ReplaceAll(s, "/", "of")+".jsonl")
		files = append(files, f)
		code, out, errOut := spreadcheck(t, "-runs", "20", "-seed", "3", "-batch", "2", "-shard", s, "-results", f, "-progress=false", "./flaky")
		if code != testreport.ExitFlaky || !strings.Contains(out, "(10 runs in ") {
			t.Errorf("shard %s: exit %d\n%s%s", s, code, out, errOut)
		}
	}
	code, out, errOut := spreadcheck(t, append([]string{"merge"}, files...)...)
	if code != testreport.ExitFlaky || !strings.Contains(out, "shards 1/2, 2/2") || !strings.Contains(out, "fixtures/flaky (20 runs in ") {
		t.Errorf("merge: exit %d\n%s%s", code, out, errOut)
	}
	code, out, _ = spreadcheck(t, "merge", files[1])
	if code != testreport.ExitInterrupted || !strings.Contains(out, "INCOMPLETE: shard 1/2 of the session is missing") {
		t.Errorf("merge of one shard: exit %d\n%s", code, out)
	}
	// A shard of a session with other flags is refused.
	other := filepath.Join(dir, "other.jsonl")
	spreadcheck(t, "-runs", "20", "-seed", "3", "-batch", "2", "-shard", "2/2", "-short", "-results", other, "-progress=false", "./flaky")
	if code, _, errOut := spreadcheck(t, "merge", files[0], other); code != testreport.ExitBuild || !strings.Contains(errOut, "different sessions") {
		t.Errorf("merge across sessions: exit %d\n%s", code, errOut)
	}
}

// TestShardAuto reads the shard from a CI system's environment (GitLab's is 1-based).
func TestShardAuto(t *testing.T) {
	inFixtures(t)
	t.Setenv("CI_NODE_INDEX", "2")
	t.Setenv("CI_NODE_TOTAL", "3")
	code, out, _ := spreadcheck(t, "-runs", "9", "-shard", "auto", "-progress=false", "./readsdata")
	if code != testreport.ExitClean || !strings.Contains(out, "shards 2/3") || !strings.Contains(out, "(3 runs in ") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}

func TestJUnit(t *testing.T) {
	inFixtures(t)
	path := filepath.Join(t.TempDir(), "junit.xml")
	code, _, errOut := spreadcheck(t, "-runs", "30", "-seed", "1", "-batch", "3", "-junitfile", path, "-progress=false", "./flaky", "./broken")
	if code != testreport.ExitBuild {
		t.Errorf("exit %d\n%s", code, errOut)
	}
	b, err := os.ReadFile(path)
	var doc junitDoc
	if err != nil || xml.Unmarshal(b, &doc) != nil {
		t.Fatalf("%s: %v\n%s", path, err, b)
	}
	cases := map[string]junitTestcase{}
	for _, s := range doc.Suites {
		for _, c := range s.Cases {
			cases[s.Name+"."+c.Name] = c
		}
	}
	flaky := cases["fixtures/flaky.TestFlaky"]
	if flaky.Failure == nil || !strings.Contains(flaky.Out, " of 30 runs failed") || !strings.Contains(flaky.Out, "failing seeds ") || len(flaky.Flaky) == 0 {
		t.Errorf("TestFlaky's testcase: %+v", flaky)
	}
	if steady := cases["fixtures/flaky.TestSteady"]; steady.Failure != nil || !strings.HasPrefix(steady.Out, "0 of 30 runs failed") {
		t.Errorf("TestSteady's testcase: %+v", steady)
	}
	if build := cases["fixtures/broken.build"]; build.Error == nil {
		t.Errorf("the build failure has no error element: %+v", build)
	}
}

type junitDoc struct {
	Suites []struct {
		Name  string          `xml:"name,attr"`
		Cases []junitTestcase `xml:"testcase"`
	} `xml:"testsuite"`
}

type junitTestcase struct {
	Name    string     `xml:"name,attr"`
	Out     string     `xml:"system-out"`
	Failure *struct{}  `xml:"failure"`
	Flaky   []struct{} `xml:"flakyFailure"`
	Error   *struct{}  `xml:"error"`
}

// TestCompare: before a fix a test fails 30 of 100 runs, after it 2 of 100: it fails less
// often; a test at 5 and 6 of 100 shows no evidence of a change.
func TestCompare(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, fails map[string]int) string {
		path := filepath.Join(dir, name)
		rf, err := resultsfile.CreateResults(path, resultsfile.Header{Seed: 1, Runs: 100})
		if err != nil {
			t.Fatal(err)
		}
		for i := 1; i <= 100; i++ {
			r := resultsfile.Record{Package: testbin.Package{ImportPath: "x/p"}, Run: i, Phase: resultsfile.Main}
			for test, k := range fails {
				o := testout.Pass
				if i <= k {
					o = testout.Fail
				}
				r.Tests = append(r.Tests, testout.TestResult{Name: test, Run: i, Outcome: o})
			}
			rf.Add(r)
		}
		rf.Close(resultsfile.End{})
		return path
	}
	before := write("before.jsonl", map[string]int{"TestFixed": 30, "TestSame": 5, "TestClean": 0})
	after := write("after.jsonl", map[string]int{"TestFixed": 2, "TestSame": 6, "TestClean": 0})
	code, out, errOut := spreadcheck(t, "compare", before, after)
	if code != testreport.ExitClean || !strings.Contains(out, "x/p.TestFixed: fails less often") ||
		!strings.Contains(out, "x/p.TestSame: no evidence of a change") || strings.Contains(out, "TestClean") {
		t.Errorf("exit %d:\n%s%s", code, out, errOut)
	}
	if code, out, _ := spreadcheck(t, "compare", after, before); code != testreport.ExitFlaky || !strings.Contains(out, "TestFixed: fails more often") {
		t.Errorf("reversed: exit %d:\n%s", code, out)
	}
}

// TestInterrupt sends the command a real signal while its runs hang: it must stop them, print
// the report of what finished and exit 3; SIGHUP (a closed terminal) does the same.
func TestInterrupt(t *testing.T) {
	inFixtures(t)
	for _, sig := range []os.Signal{os.Interrupt, syscall.SIGHUP} {
		results := filepath.Join(t.TempDir(), "r.jsonl")
		cmd := command(t, "-runs", "50", "-seed", "1", "-timeout", "1h", "-progress=false",
			"-results", results, "./flaky", "./hang")
		var out bytes.Buffer
		cmd.Stdout = &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		waitForRecord(t, cmd, results)
		cmd.Process.Signal(sig)
		err := cmd.Wait()
		if cmd.ProcessState.ExitCode() != testreport.ExitInterrupted {
			t.Errorf("%v: exit %v, want %d", sig, err, testreport.ExitInterrupted)
		}
		if s := out.String(); !strings.Contains(s, "INTERRUPTED") || !strings.Contains(s, "fixtures/hang (") {
			t.Errorf("%v: report:\n%s", sig, s)
		}
		m, err := resultsfile.MergeResults(results)
		if err != nil || !m.Incomplete || len(m.Records) == 0 {
			t.Errorf("%v: results file: %v, %d records, incomplete %v", sig, err, len(m.Records), m.Incomplete)
		}
	}
}

// TestTestsDieWithTheRunner: on Linux, a runner killed outright (SIGKILL: no chance to end
// its runs) takes its test processes with it, instead of leaving them to their -timeout.
func TestTestsDieWithTheRunner(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the parent death signal is Linux's")
	}
	inFixtures(t)
	pidfile := filepath.Join(t.TempDir(), "pid")
	cmd := command(t, "-runs", "1", "-timeout", "1h", "-progress=false", "-run", "TestHang", "./hang")
	cmd.Env = append(cmd.Env, "FIXTURE_PIDFILE="+pidfile)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var pid int
	for deadline := time.Now().Add(2 * time.Minute); pid == 0; time.Sleep(20 * time.Millisecond) {
		b, _ := os.ReadFile(pidfile)
		pid, _ = strconv.Atoi(string(b))
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("the hanging test did not start within two minutes")
		}
	}
	cmd.Process.Kill()
	cmd.Wait()
	for deadline := time.Now().Add(30 * time.Second); syscall.Kill(pid, 0) == nil; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("the test process %d outlived its runner", pid)
		}
	}
}

// waitForRecord waits until a run has finished (flaky's runs do; hang's never will).
func waitForRecord(t *testing.T, cmd *exec.Cmd, results string) {
	deadline := time.Now().Add(2 * time.Minute)
	for {
		b, _ := os.ReadFile(results)
		if bytes.Contains(b, []byte(`"record"`)) {
			return
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("no run finished within two minutes")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestProgress: on a terminal the line says what the session does from its first second and
// is redrawn every second, the elapsed time counts from the session's start (not from the
// runs': a 45 s build then reported "0s elapsed"), and an ETA is given only from a measured
// pace, counting down between reports. Deterministic: the progress runs on a Fake clock in a
// synctest bubble.
func TestProgress(t *testing.T) {
	fakeclock.Test(t, func(t *testing.T, c *fakeclock.Fake) {
		var b bytes.Buffer
		tty := &progress{w: &b, tty: true, clock: c}
		last := func() string {
			lines := strings.Split(b.String(), "\r\033[K")
			return lines[len(lines)-1]
		}
		want := func(line string) {
			t.Helper()
			if got := last(); got != line {
				t.Errorf("terminal shows %q, want %q", got, line)
			}
		}
		tty.begin()
		want("spreadcheck: listing and building the packages, 0s elapsed")
		c.Advance(time.Second)
		want("spreadcheck: listing and building the packages, 1s elapsed")
		tty.listed(12)
		want("spreadcheck: building 12 packages, 1s elapsed")
		c.Advance(44 * time.Second)
		want("spreadcheck: building 12 packages, 45s elapsed")
		tty.update(runner.Progress{Phase: resultsfile.Main, Total: 400})
		want("spreadcheck: 0/400 runs, 0 processes with failures, ETA once every package has run once, 45s elapsed")
		c.Advance(3 * time.Second)
		tty.update(runner.Progress{Phase: resultsfile.Main, Done: 100, Total: 400, Failed: 1, Elapsed: 3 * time.Second, Left: 30 * time.Second})
		want("spreadcheck: 100/400 runs, 1 process with failures, ETA 30s, 48s elapsed")
		c.Advance(10 * time.Second)
		want("spreadcheck: 100/400 runs, 1 process with failures, ETA 20s, 58s elapsed")
		tty.update(runner.Progress{Phase: resultsfile.Replay, Done: 2, Total: 12, Left: 5 * time.Second})
		want("spreadcheck: replaying failing seeds: 2/12 runs, 0 processes with failures, ETA 5s, 58s elapsed")
		tty.end()
		if !strings.HasSuffix(b.String(), "\n") {
			t.Errorf("the terminal line is not ended: %q", b.String())
		}
		n := strings.Count(b.String(), "\r")
		c.Advance(5 * time.Second)
		if strings.Count(b.String(), "\r") != n {
			t.Errorf("the line is redrawn after end")
		}
	})
}

// TestProgressLog: in a CI log, a line when the build starts, one when the packages are
// known, one when the runs start and one per tenth of them.
func TestProgressLog(t *testing.T) {
	fakeclock.Test(t, func(t *testing.T, c *fakeclock.Fake) {
		var b bytes.Buffer
		log := &progress{w: &b, clock: c}
		log.begin()
		c.Advance(2 * time.Second)
		log.listed(1)
		for i := 0; i <= 20; i++ {
			log.update(runner.Progress{Done: i, Total: 20})
		}
		log.end()
		lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
		if len(lines) != 13 || strings.Contains(b.String(), "\r") {
			t.Fatalf("CI progress: %d lines, want 13:\n%s", len(lines), b.String())
		}
		for i, want := range []string{"spreadcheck: listing and building the packages, 0s elapsed", "spreadcheck: building 1 package, 2s elapsed",
			"spreadcheck: 0/20 runs, 0 processes with failures, ETA once every package has run once, 2s elapsed"} {
			if lines[i] != want {
				t.Errorf("line %d: %q, want %q", i, lines[i], want)
			}
		}
	})
}

// TestGoWorkFoldersRemoved: the work folder that a go command leaves when it is stopped
// mid-build (here a stand-in for go that makes one and fails) is removed with the session,
// for a run and for an audit, rather than left in TMPDIR or the user cache.
func TestGoWorkFoldersRemoved(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the stand-in for the go command is a shell script")
	}
	inFixtures(t)
	tmp := os.Getenv("TMPDIR")
	fake := t.TempDir()
	script := "#!/bin/sh\nmkdir -p \"${GOTMPDIR:-$TMPDIR}/go-build-left\"\necho 'go: stopped' >&2\nexit 1\n"
	if err := os.WriteFile(filepath.Join(fake, "go"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"-runs", "1", "./flaky"}, {"audit", "./..."}} {
		cmd := command(t, args...)
		cmd.Env = append(cmd.Env, "PATH="+fake+string(os.PathListSeparator)+os.Getenv("PATH"))
		out, _ := cmd.CombinedOutput()
		if cmd.ProcessState.ExitCode() != testreport.ExitBuild {
			t.Errorf("spreadcheck %v with a go command that fails: exit %d, want %d\n%s", args, cmd.ProcessState.ExitCode(), testreport.ExitBuild, out)
		}
		if left, _ := os.ReadDir(tmp); len(left) > 0 {
			t.Errorf("spreadcheck %v left in TMPDIR: %v", args, left)
			os.RemoveAll(filepath.Join(tmp, left[0].Name()))
		}
		if left, _ := filepath.Glob(filepath.Join(sharedCache, "spreadcheck", "sessions", "*", "go-build-left")); len(left) > 0 {
			t.Errorf("spreadcheck %v left in its session folder: %v", args, left)
		}
	}
}

// TestGitHubAnnotations: in GitHub Actions the report is followed by a workflow command at
// the func line of each test that failed runs; -format text turns them off there, -format
// github turns them on anywhere; with -json they go to stderr, so that stdout stays JSON.
func TestGitHubAnnotations(t *testing.T) {
	inFixtures(t)
	t.Setenv("GITHUB_ACTIONS", "true")
	want := "::warning file=flaky/flaky_test.go,line=14,title=flaky.TestFlaky%3A "
	code, out, _ := spreadcheck(t, "-runs", "30", "-seed", "1", "-batch", "3", "-progress=false", "./flaky")
	if code != testreport.ExitFlaky || !strings.Contains(out, want) || !strings.Contains(out, "%2C flaky past -max-flake::") {
		t.Errorf("in Actions: exit %d, no %q in\n%s", code, want, out)
	}
	if !strings.Contains(out, "::warning file=flaky/flaky_test.go,line=23,title=flaky.TestSub/a_b/c.d%3A ") ||
		strings.Contains(out, "title=flaky.TestSub%3A") || strings.Count(out, "::warning") != 2 {
		t.Errorf("want two annotations, the subtest's at its parent's func line and none for the parent:\n%s", out)
	}
	if _, out, _ := spreadcheck(t, "-runs", "30", "-seed", "1", "-batch", "3", "-progress=false", "-format", "text", "./flaky"); strings.Contains(out, "::") {
		t.Errorf("-format text in Actions still annotates:\n%s", out)
	}
	_, out, errOut := spreadcheck(t, "-runs", "30", "-seed", "1", "-batch", "3", "-progress=false", "-json", "./flaky")
	if strings.Contains(out, "::warning") || !strings.Contains(errOut, want) {
		t.Errorf("with -json the annotations go to stderr:\nstdout %s\nstderr %s", out, errOut)
	}
	t.Setenv("GITHUB_ACTIONS", "")
	if _, out, _ := spreadcheck(t, "-runs", "30", "-seed", "1", "-batch", "3", "-progress=false", "-format", "github", "./flaky"); !strings.Contains(out, want) {
		t.Errorf("-format github outside Actions does not annotate:\n%s", out)
	}
	if code, _, errOut := spreadcheck(t, "-format", "xml", "./flaky"); code != testreport.ExitBuild || !strings.Contains(errOut, "-format") {
		t.Errorf("-format xml: exit %d, %s", code, errOut)
	}
}

// repoTools returns functions that write a file into dir, making its folders, and run git
// there as a fixed author, failing the test on an error.
func repoTools(t *testing.T, dir string) (write func(name, text string), git func(args ...string)) {
	t.Helper()
	write = func(name, text string) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git = func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return write, git
}

// prRepo makes a git repository holding a module of three packages, commits it on main, and
// on a branch changes the code of package a and the body of b's TestTwo (not TestOne), and
// adds a file outside every package. It returns the repository's directory.
func prRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":      "module example.com/pr\n\ngo 1.26\n",
		"a/a.go":      "package a\n\nfunc F() int { return 1 }\n",
		"a/a_test.go": "package a\n\nimport \"testing\"\n\nfunc TestF(t *testing.T) {\n\tif F() != 1 {\n\t\tt.Fatal(F())\n\t}\n}\n",
		"b/b.go":      "package b\n\nfunc G() int { return 2 }\n",
		"b/b_test.go": "package b\n\nimport \"testing\"\n\nfunc TestOne(t *testing.T) {}\n\nfunc TestTwo(t *testing.T) {\n\t_ = G()\n}\n",
		"c/c.go":      "package c\n",
		"c/c_test.go": "package c\n\nimport \"testing\"\n\nfunc TestC(t *testing.T) {}\n",
	}
	write, git := repoTools(t, dir)
	for name, text := range files {
		write(name, text)
	}
	git("init", "-q", "-b", "main")
	git("add", ".")
	git("commit", "-qm", "base")
	git("checkout", "-qb", "change")
	write("a/a.go", "package a\n\n// F is one.\nfunc F() int { return 1 }\n")
	write("b/b_test.go", "package b\n\nimport \"testing\"\n\nfunc TestOne(t *testing.T) {}\n\nfunc TestTwo(t *testing.T) {\n\tif G() != 2 {\n\t\tt.Fatal(G())\n\t}\n}\n")
	write("NOTES.md", "notes\n")
	git("add", "NOTES.md")
	git("commit", "-qam", "change")
	return dir
}

// TestRunnerDiff: -diff main runs every test of a package whose code changed and only the
// changed test of one whose tests alone changed, says which rule chose each, and leaves the
// untouched package out; a change that touches no package runs nothing and exits 0.
func TestRunnerDiff(t *testing.T) {
	dir := prRepo(t)
	goldenPath, err := filepath.Abs(filepath.Join("testdata", "diff-runner.golden"))
	if err != nil {
		t.Fatal(err)
	}
	testsCache(t)
	t.Chdir(dir)
	code, js, errOut := spreadcheck(t, "-runs", "3", "-seed", "1", "-progress=false", "-json", "-diff", "main", "./...")
	var rep testreport.Report
	if err := json.Unmarshal([]byte(js), &rep); err != nil {
		t.Fatalf("exit %d: %v\n%s", code, err, errOut)
	}
	var text strings.Builder
	rep.WriteText(&text)
	_, block, _ := strings.Cut(text.String(), "\n\n") // after the headline, whose seed and time vary
	block, _, _ = strings.Cut(block, "\n\n")
	if code != testreport.ExitClean {
		t.Errorf("exit %d\n%s", code, text.String())
	}
	golden.Check(t, goldenPath, block+"\n")
	ran := map[string]int{}
	for _, p := range rep.Packages {
		for _, ts := range p.Tests {
			if ts.Name != testout.PackageTest {
				ran[p.ImportPath+"."+ts.Name] = ts.Runs
			}
		}
	}
	if want := map[string]int{"example.com/pr/a.TestF": 3, "example.com/pr/b.TestTwo": 3}; !cmp.Equal(ran, want) {
		t.Errorf("tests run %v, want %v", ran, want)
	}
	if rep.Diff == nil || rep.Diff.Left != 1 || len(rep.Diff.Chosen) != 2 || rep.Diff.Chosen[1].Rule != testreport.TestsChanged {
		t.Errorf("the report's diff: %+v", rep.Diff)
	}

	// Against the branch itself, nothing changed.
	code, out, _ := spreadcheck(t, "-runs", "3", "-progress=false", "-diff", "HEAD", "./...")
	if code != testreport.ExitClean || !strings.Contains(out, "no package's code or tests changed since HEAD (3 packages left out): nothing to run") {
		t.Errorf("no change: exit %d\n%s", code, out)
	}
	if code, _, errOut := spreadcheck(t, "-runs", "3", "-progress=false", "-diff", "no-such-ref", "./..."); code != testreport.ExitBuild || !strings.Contains(errOut, "-diff no-such-ref: git merge-base") {
		t.Errorf("an unknown ref: exit %d, %s", code, errOut)
	}
}
