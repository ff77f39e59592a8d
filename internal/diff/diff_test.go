package diff

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const gitDiff = `diff --git a/backoff.go b/backoff.go
index 1111111..2222222 100644
--- a/backoff.go
+++ b/backoff.go
@@ -10,7 +10,8 @@ func Full(r *rand.Rand, d time.Duration) time.Duration {
 	if d <= 0 {
 		return 0
 	}
-	return time.Duration(r.Int64N(int64(d)))
+	j := r.Int64N(int64(d))
+	return time.Duration(j)
 }
 
 // Equal keeps half.
@@ -30,0 +32,2 @@ func Equal(r *rand.Rand, d time.Duration) time.Duration {
+// two lines added
+// after line 31
diff --git a/gone.go b/gone.go
deleted file mode 100644
--- a/gone.go
+++ /dev/null
@@ -1,2 +0,0 @@
-package x
-var y = 1
diff --git a/new.go b/sub/new.go
similarity 90%
rename from new.go
rename to sub/new.go
--- a/new.go
+++ b/sub/new.go
@@ -1 +1 @@
-package x
+package sub
\ No newline at end of file
diff --git "a/with space.go" "b/with space.go"
--- "a/with space.go"
+++ "b/with space.go"
@@ -0,0 +1,3 @@
+package x
+
+var z = 2
`

func TestParseGit(t *testing.T) {
	got, err := Parse(strings.NewReader(gitDiff))
	if err != nil {
		t.Fatal(err)
	}
	want := Lines{"backoff.go": {{13, 14}, {32, 33}}, "sub/new.go": {{1, 1}}, "with space.go": {{1, 3}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	for _, c := range []struct {
		file string
		line int
		want bool
	}{{"backoff.go", 12, false}, {"backoff.go", 13, true}, {"backoff.go", 14, true}, {"backoff.go", 15, false},
		{"backoff.go", 31, false}, {"backoff.go", 33, true}, {"gone.go", 1, false}, {"other.go", 1, false}} {
		if got.Has(c.file, c.line) != c.want {
			t.Errorf("Has(%s, %d) = %v", c.file, c.line, !c.want)
		}
	}
	if !got.Overlaps("backoff.go", 1, 13) || got.Overlaps("backoff.go", 15, 31) {
		t.Error("Overlaps")
	}
}

// TestParsePlain: diff -u's names carry a timestamp and no a/ b/ prefixes; a path that starts
// with b/ of its own is kept.
func TestParsePlain(t *testing.T) {
	d := "--- b/x.go\t2026-12-01 10:00:00\n+++ b/x.go\t2026-12-01 10:01:00\n@@ -1,2 +1,2 @@\n package x\n-var a = 1\n+var a = 2\n"
	got, err := Parse(strings.NewReader(d))
	if err != nil || !cmp.Equal(got, Lines{"b/x.go": {{2, 2}}}) {
		t.Errorf("%v, %v", got, err)
	}
}

func TestParseErrors(t *testing.T) {
	for _, d := range []string{
		"--- a/x\n+++ b/x\n@@ -1 +1 @@\n+a\n+b\n",              // longer than its header
		"--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n x\n",              // ends inside the hunk
		"--- a/x\n+++ b/x\n@@ -1,a +1 @@\n",                    // a count that is no number
		"--- a/x\n+++ b/x\n@@ -1 +1,99999999999999999999 @@\n", // out of range
		"--- a/x\n+++ b/x\n@@ -1 +1 @@\n?x\n",                  // a line no hunk has
	} {
		if _, err := Parse(strings.NewReader(d)); err == nil {
			t.Errorf("%q: no error", d)
		}
	}
}

func TestUnder(t *testing.T) {
	l := Lines{"mod/a.go": {{1, 2}}, "mod/sub/b.go": {{3, 3}}, "modx/c.go": {{1, 1}}, "d.go": {{1, 1}}}
	if got, want := l.Under("mod"), (Lines{"a.go": {{1, 2}}, "sub/b.go": {{3, 3}}}); !cmp.Equal(got, want) {
		t.Errorf("Under(mod) = %v, want %v", got, want)
	}
	if got := l.Under(""); !cmp.Equal(got, l) {
		t.Errorf("Under(\"\") = %v", got)
	}
}

// TestGit makes a repository, a branch with a change, and uncommitted work on top: Git
// returns both, against the merge base, with paths from the root and the module's prefix.
func TestGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	write := func(name, text string) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run("init", "-q", "-b", "main")
	write("mod/a.go", "package a\n\nvar x = 1\n")
	run("add", ".")
	run("commit", "-qm", "one")
	run("checkout", "-qb", "feature")
	write("mod/a.go", "package a\n\nvar x = 2\nvar y = 3\n")
	run("commit", "-qam", "two")
	write("mod/b.go", "package a\n")
	run("add", "mod/b.go")
	write("mod/a.go", "package a\n\nvar x = 2\nvar y = 3\nvar z = 4\n")
	got, root, err := Git(context.Background(), filepath.Join(dir, "mod"), "main")
	if err != nil {
		t.Fatal(err)
	}
	real, _ := filepath.EvalSymlinks(dir)
	if want := (Lines{"mod/a.go": {{3, 5}}, "mod/b.go": {{1, 1}}}); root != real || !cmp.Equal(got, want) {
		t.Errorf("Git: %v, root %q; want %v, %s", got, root, want, real)
	}
	if _, _, err := Git(context.Background(), dir, "no-such-ref"); err == nil || !strings.Contains(err.Error(), "merge-base") {
		t.Errorf("an unknown ref: %v", err)
	}
}

func FuzzParse(f *testing.F) {
	f.Add(gitDiff)
	f.Add("@@ -0,0 +1 @@\n+x\n")
	f.Fuzz(func(t *testing.T, d string) {
		l, err := Parse(strings.NewReader(d))
		if err != nil {
			return
		}
		for file, rs := range l {
			for i, r := range rs {
				if r.From > r.To || (i > 0 && rs[i-1].To >= r.From) || !l.Has(file, r.From) || !l.Has(file, r.To) {
					t.Fatalf("%s: ranges %v not sorted, disjoint and found", file, rs)
				}
			}
		}
	})
}
