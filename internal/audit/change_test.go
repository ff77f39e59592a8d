package audit

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/spreadcheck/spreadcheck/internal/diff"
	"github.com/spreadcheck/spreadcheck/internal/golden"
	"github.com/spreadcheck/spreadcheck/internal/testreport"
)

// gitFixture copies a fixture module into a new git repository, under mod/, commits it on
// main, and applies edit (file name -> function of its text) on a branch, uncommitted. It
// returns the module's directory.
func gitFixture(t *testing.T, name string, edits map[string]func(string) string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	repo := t.TempDir()
	mod := filepath.Join(repo, "mod")
	if err := os.CopyFS(mod, os.DirFS(filepath.Join("testdata", name))); err != nil {
		t.Fatal(err)
	}
	// The fixture's replace points at this repository by a relative path: make it absolute.
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	edit := exec.Command("go", "mod", "edit", "-replace", "github.com/spreadcheck/spreadcheck="+root)
	edit.Dir = mod
	if out, err := edit.CombinedOutput(); err != nil {
		t.Fatalf("go mod edit: %v\n%s", err, out)
	}
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q", "-b", "main")
	git("add", ".")
	git("commit", "-qm", "fixture")
	git("checkout", "-qb", "change")
	for file, f := range edits {
		p := filepath.Join(mod, file)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(f(string(b))), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return mod
}

func gitChange(t *testing.T, mod string) *Change {
	t.Helper()
	lines, root, err := diff.Git(context.Background(), mod, "main")
	if err != nil {
		t.Fatal(err)
	}
	below, err := diff.Below(root, mod)
	if err != nil {
		t.Fatal(err)
	}
	return &Change{Lines: lines.Under(below), Since: "since main"}
}

// TestChangeNoSite: a change that touches no site's line (a comment, a helper without a draw)
// audits nothing, says how many sites it left out, and exits 0.
func TestChangeNoSite(t *testing.T) {
	mod := gitFixture(t, "gaps", map[string]func(string) string{"gaps.go": func(s string) string {
		return strings.Replace(s, "// Unreached draws, but no test calls it.", "// Unreached draws; no test calls it.", 1)
	}})
	cfg := fixtureConfig("gaps")
	cfg.Dir, cfg.Change = mod, gitChange(t, mod)
	rep, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	var text bytes.Buffer
	rep.WriteText(&text)
	golden.Check(t, filepath.Join("testdata", "diff-nosite.golden"), text.String())
	if rep.ExitCode() != testreport.ExitClean || len(rep.Sites) != 0 || rep.Change.Outside == 0 {
		t.Errorf("exit %d, %d sites, %d outside", rep.ExitCode(), len(rep.Sites), rep.Change.Outside)
	}
}

// TestChangeOneSite: a change to the line of Delay's draw, and to lines without a draw,
// audits that site alone; the same change handed over as a diff file audits the same.
func TestChangeOneSite(t *testing.T) {
	mod := gitFixture(t, "gaps", map[string]func(string) string{"gaps.go": func(s string) string {
		s = strings.Replace(s, "return Scale(d, rand.Float64())", "return Scale(d, rand.Float64()) // the draw, changed", 1)
		return strings.Replace(s, "// Scale maps a draw", "// Scale maps the draw", 1)
	}})
	cfg := fixtureConfig("gaps")
	cfg.Dir, cfg.Change = mod, gitChange(t, mod)
	rep, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	got := normalized(rep)
	var text bytes.Buffer
	got.WriteText(&text)
	golden.Check(t, filepath.Join("testdata", "diff-onesite.golden"), text.String())
	if len(rep.Sites) != 1 || rep.Sites[0].Func != "Delay" || rep.Change.Outside < 4 {
		t.Fatalf("want Delay's site alone: %d sites, %d outside\n%s", len(rep.Sites), rep.Change.Outside, text.String())
	}

	// The same change as the unified diff a CI system hands over, paths from the repository's root.
	cmd := exec.Command("git", "diff", "main")
	cmd.Dir = mod
	d, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	lines, err := diff.Parse(bytes.NewReader(d))
	if err != nil {
		t.Fatal(err)
	}
	if want := cfg.Change.Lines; !cmp.Equal(lines.Under("mod"), want) {
		t.Errorf("the diff file's lines %v, git's %v", lines.Under("mod"), want)
	}
}
