package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/spreadcheck/spreadcheck/internal/audit"
	"github.com/spreadcheck/spreadcheck/internal/golden"
	"github.com/spreadcheck/spreadcheck/internal/longtest"
	"github.com/spreadcheck/spreadcheck/internal/resultsfile"
	"github.com/spreadcheck/spreadcheck/internal/runner"
	"github.com/spreadcheck/spreadcheck/internal/testbin"
	"github.com/spreadcheck/spreadcheck/internal/testreport"
)

// fixture returns the absolute path of one of internal/audit's fixture modules.
func fixture(t *testing.T, name string) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "internal", "audit", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestAuditUsage(t *testing.T) {
	for _, args := range [][]string{
		{"-runs", "1"}, {"-alpha", "0"}, {"-alpha", "NaN"}, {"-run", "("}, {"-shard", "3/2"},
		{"-nonsense"}, {"merge"}, {"merge", "no-such-file.json"},
	} {
		var out, errb bytes.Buffer
		if code := run(append([]string{"audit"}, args...), &out, &errb); code != testreport.ExitBuild {
			t.Errorf("audit %q: exit %d, want %d\n%s", args, code, testreport.ExitBuild, errb.String())
		}
		if errb.Len() == 0 {
			t.Errorf("audit %q: nothing on stderr", args)
		}
	}
}

// TestAuditSharedFlags: spreadcheck audit takes the session's flags that say which tests run
// and how, parsed by the same code, before and after the packages: each reaches the audit's
// configuration as the session's reaches the runner's.
func TestAuditSharedFlags(t *testing.T) {
	args := []string{"-cpu", "1,2", "-parallel", "3", "-shuffle", "on", "-short", "-runs", "8", "-batch", "2",
		"./a/...", "-race", "-tags", "x", "-vet", "all", "-run", "TestA", "-skip", "TestB", "-p", "3", "-seed", "7",
		"-shard", "2/3", "./b"}
	f, err := parseAuditFlags(append(args, "-json"), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	got := f.cfg
	got.Log = nil
	want := audit.Config{Patterns: []string{"./a/...", "./b"}, BuildFlags: []string{"-race", "-tags=x", "-vet=all"},
		Options: runner.Options{Run: "TestA", Skip: "TestB", TestFlags: []string{"-short", "-parallel=3", "-shuffle=on"},
			CPU: []string{"1", "2"}, Parallel: 3, Runs: 8, Batch: 2, Seed: 7, Shard: resultsfile.Shard{K: 2, N: 3}},
		Alpha: audit.DefaultAlpha}
	if uc, err := testbin.UserCache(); err == nil {
		want.CacheDir = uc.Binaries()
	}
	if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(audit.Config{}, "Log")); diff != "" {
		t.Errorf("audit configuration (-want +got):\n%s", diff)
	}
	if f, err := parseAuditFlags([]string{"-cache=false"}, io.Discard); err != nil {
		t.Errorf("-cache=false: %v", err)
	} else if f.cfg.CacheDir != "" {
		t.Errorf("-cache=false: CacheDir %q, want none", f.cfg.CacheDir)
	}
	if !f.out.json {
		t.Error("-json after the packages was not parsed")
	}
	for _, bad := range [][]string{{"-batch", "-1"}, {"-cpu", "0"}, {"-shuffle", "sometimes"}, {"-parallel", "-2"}} {
		if _, err := parseAuditFlags(bad, io.Discard); err == nil {
			t.Errorf("audit %q: no error", bad)
		}
	}
}

func TestAuditBadCode(t *testing.T) {
	if testing.Short() {
		t.Skip("audits fixture modules")
	}
	var out, errb bytes.Buffer
	broken, norand := fixture(t, "broken"), fixture(t, "norand")
	t.Chdir(broken)
	if code := run([]string{"audit", "-progress=false"}, &out, &errb); code != testreport.ExitBuild ||
		!strings.Contains(errb.String(), "broken.go:8") {
		t.Errorf("broken: exit %d, stderr %q; want 2 and the compiler's message", code, errb.String())
	}
	out.Reset()
	t.Chdir(norand)
	if code := run([]string{"audit", "-progress=false"}, &out, &errb); code != testreport.ExitClean ||
		!strings.Contains(out.String(), "no randomness found") {
		t.Errorf("norand: exit %d, stdout %q; want 0 and \"no randomness found\"", code, out.String())
	}
}

// TestAuditLoadErrors: what stops an audit before it builds says what it is, once: the
// compiler's message of code that does not build (once, without the "-: " that go/packages
// puts before a message with no position), a folder in no module, a pattern naming no
// package; none of them is "the code does not build" when the code was never found.
func TestAuditLoadErrors(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	broken, norand, nomod := fixture(t, "broken"), fixture(t, "norand"), t.TempDir()
	if err := os.WriteFile(filepath.Join(nomod, "x.go"), []byte("package x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		dir        string
		args       []string
		want, once string // in stderr; once: exactly once
	}{
		{broken, nil, "the code does not build", "broken.go:8:9: invalid operation"},
		{nomod, nil, "no go.mod", "is not in a Go module"},
		{norand, []string{"./nothing"}, "./nothing", "no such package"},
		{norand, []string{"./nothing/..."}, "./nothing/...", "no such package"},
		{norand, []string{"example.com/norand/sub"}, "example.com/norand/sub", "no such package"},
	} {
		t.Chdir(c.dir)
		var out, errb bytes.Buffer
		code := run(append([]string{"audit", "-progress=false"}, c.args...), &out, &errb)
		msg := errb.String()
		if code != testreport.ExitBuild || !strings.Contains(msg, c.want) || strings.Count(msg, c.once) != 1 ||
			strings.Contains(msg, "-: ") || c.dir != broken && strings.Contains(msg, "does not build") {
			t.Errorf("%s %q: exit %d, stderr:\n%s\nwant exit 2, %q, %q once, no \"-: \"", filepath.Base(c.dir), c.args, code, msg, c.want, c.once)
		}
	}
}

// TestAuditShardsMerge audits the story fixture whole and in two shards, merges the shards'
// JSON reports, and checks that the merged report has every mutant once with the verdict of
// the whole audit, and the same exit status.
func TestAuditShardsMerge(t *testing.T) {
	longtest.Skip(t) // audits a fixture module three times; TestMergeShards in internal/audit checks the merge itself
	t.Chdir(fixture(t, "story"))
	tmp := t.TempDir()
	whole := auditJSON(t, "-seed", "5")
	var paths []string
	for _, s := range []string{"1/2", "2/2"} {
		p := filepath.Join(tmp, strings.ReplaceAll(s, "/", "of")+".json")
		var out, errb bytes.Buffer
		run([]string{"audit", "-progress=false", "-json", "-seed", "5", "-shard", s}, &out, &errb)
		if err := os.WriteFile(p, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	var out, errb bytes.Buffer
	code := run(append([]string{"merge", "-json"}, paths...), &out, &errb)
	var merged audit.Report
	if err := json.Unmarshal(out.Bytes(), &merged); err != nil {
		t.Fatalf("merge: %v\n%s", err, errb.String())
	}
	if code != whole.ExitCode() {
		t.Errorf("merged exit %d, whole audit %d", code, whole.ExitCode())
	}
	if got, want := verdicts(&merged), verdicts(whole); got != want {
		t.Errorf("merged verdicts:\n%s\nwhole audit:\n%s", got, want)
	}
	if len(merged.Shards) != 2 {
		t.Errorf("merged shards %q, want both", merged.Shards)
	}
	if code := run([]string{"merge", paths[0], paths[0]}, &out, &errb); code != testreport.ExitBuild {
		t.Errorf("merging a shard with itself: exit %d, want 2 (the shards overlap)", code)
	}
}

func auditJSON(t *testing.T, args ...string) *audit.Report {
	t.Helper()
	var out, errb bytes.Buffer
	run(append([]string{"audit", "-progress=false", "-json"}, args...), &out, &errb)
	var r audit.Report
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	return &r
}

// verdicts lists every mutant's class and verdict, one per line.
func verdicts(r *audit.Report) string {
	var b strings.Builder
	for _, s := range r.Sites {
		for _, m := range s.Mutants {
			b.WriteString(s.File + ":" + s.Expr + " " + m.Class + " " + string(m.Verdict) + "\n")
		}
	}
	return b.String()
}

// TestAuditDiffFlags: -diff-file audits only the sites on the lines a unified diff adds, its
// paths relative to the working directory; a diff that touches no site audits nothing and
// exits 0. A diff that cannot be read or parsed, or -diff beside -diff-file, is an error.
func TestAuditDiffFlags(t *testing.T) {
	t.Chdir(fixture(t, "gaps"))
	tmp := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(tmp, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	comment := write("comment.diff", "--- a/gaps.go\n+++ b/gaps.go\n@@ -12 +12 @@\n-// Unreached draws, but no test calls it.\n+// Unreached draws; no test calls it.\n")
	var out, errb bytes.Buffer
	if code := run([]string{"audit", "-progress=false", "-diff-file", comment}, &out, &errb); code != testreport.ExitClean ||
		!strings.Contains(out.String(), "no site of example.com/gaps on a line changed in "+comment+" (6 sites elsewhere): nothing to audit") {
		t.Errorf("a diff of a comment: exit %d\n%s%s", code, out.String(), errb.String())
	}
	bad := write("bad.diff", "--- a/gaps.go\n+++ b/gaps.go\n@@ -12 +12,2 @@\n+x\n")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-diff-file", filepath.Join(tmp, "none.diff")}, "-diff-file: open"},
		{[]string{"-diff-file", bad}, "diff ends inside a hunk"},
		{[]string{"-diff", "main", "-diff-file", comment}, "-diff and -diff-file: give one"},
	} {
		out.Reset()
		errb.Reset()
		if code := run(append([]string{"audit", "-progress=false"}, c.args...), &out, &errb); code != testreport.ExitBuild || !strings.Contains(errb.String(), c.want) {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q", c.args, code, errb.String(), c.want)
		}
	}
}

// TestAuditBaseline merges the gaps fixture's pinned report with a baseline: -write-baseline
// records its survivors; with all of them accepted the report exits 0; with one dropped from
// the file (new), one more entry that matches nothing (stale) and the reasons given, the
// report shows each, pinned in testdata/baseline.golden, and exits 1 for the new survivor.
func TestAuditBaseline(t *testing.T) {
	report := filepath.Join(fixture(t, "."), "gaps.golden.json")
	path := filepath.Join(t.TempDir(), "baseline.json")
	var out, errb bytes.Buffer
	if code := run([]string{"merge", "-write-baseline", path, report}, &out, &errb); code != testreport.ExitFlaky {
		t.Fatalf("write: exit %d\n%s", code, errb.String())
	}
	b, err := audit.ReadBaselineFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Entries) < 3 || !strings.HasPrefix(b.Entries[0].Reason, "not reviewed yet") {
		t.Fatalf("the written baseline: %+v", b)
	}
	for i := range b.Entries {
		b.Entries[i].Reason = fmt.Sprintf("reason %d: reviewed", i+1)
	}
	save := func(b *audit.Baseline) {
		var buf bytes.Buffer
		if err := b.WriteJSON(&buf); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	save(b)
	out.Reset()
	if code := run([]string{"merge", "-baseline", path, report}, &out, &errb); code != testreport.ExitClean {
		t.Errorf("every survivor accepted: exit %d\n%s", code, out.String())
	}
	b.Entries = append(b.Entries[1:], audit.BaselineEntry{Package: "example.com/gaps", Func: "Gone", Expr: "rand.IntN(3)",
		Class: "constant", Verdict: audit.Survived, Reason: "a draw since removed"})
	save(b)
	out.Reset()
	code := run([]string{"merge", "-baseline", path, report}, &out, &errb)
	if code != testreport.ExitFlaky {
		t.Errorf("a new survivor: exit %d, want 1", code)
	}
	golden.Check(t, filepath.Join("testdata", "baseline.golden"), out.String())
	if code := run([]string{"merge", "-baseline", filepath.Join(t.TempDir(), "none.json"), report}, &out, &errb); code != testreport.ExitUnreadable {
		t.Errorf("a missing baseline: exit %d, want %d", code, testreport.ExitUnreadable)
	}
}

// TestAuditStryker: merge -stryker writes the audit report in the mutation-testing-report
// schema and -html as a page, their sources read from the working directory (the module's
// root); internal/audit's TestStrykerSchema validates the format against the schema, and
// TestHTMLInBrowser renders the page.
func TestAuditStryker(t *testing.T) {
	t.Chdir(fixture(t, "gaps"))
	path, page := filepath.Join(t.TempDir(), "mutation.json"), filepath.Join(t.TempDir(), "audit.html")
	var out, errb bytes.Buffer
	if code := run([]string{"merge", "-stryker", path, "-html", page, filepath.Join("..", "gaps.golden.json")}, &out, &errb); code != testreport.ExitFlaky {
		t.Fatalf("exit %d\n%s", code, errb.String())
	}
	if html, err := os.ReadFile(page); err != nil || !strings.Contains(string(html), "<h2 id=\"gaps.go\">") {
		t.Errorf("the -html page (%v): %.300s", err, html)
	}
	b, err := os.ReadFile(path)
	var doc struct {
		SchemaVersion string
		Files         map[string]struct{ Source string }
	}
	if err != nil || json.Unmarshal(b, &doc) != nil || doc.SchemaVersion != "2" || !strings.Contains(doc.Files["gaps.go"].Source, "func Delay(") {
		t.Errorf("the -stryker file (%v):\n%.500s", err, b)
	}
}
