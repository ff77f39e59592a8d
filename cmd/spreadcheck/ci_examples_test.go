package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spreadcheck/spreadcheck/internal/longtest"
)

// ciCommands returns the shell commands of each YAML example of docs/pull-requests.md, in
// order: a GitHub Actions step's "- run: ..." and the items of a GitLab job's "script:".
func ciCommands(t *testing.T) [][]string {
	t.Helper()
	text, err := os.ReadFile(filepath.Join("..", "..", "docs", "pull-requests.md"))
	if err != nil {
		t.Fatal(err)
	}
	var examples [][]string
	var cmds []string
	inYAML, inScript, scriptIndent := false, false, 0
	run := regexp.MustCompile(`^\s*- run: (.+)$`)
	item := regexp.MustCompile(`^(\s*)- (.+)$`)
	sc := bufio.NewScanner(strings.NewReader(string(text)))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "```yaml":
			inYAML, cmds = true, nil
			continue
		case inYAML && line == "```":
			inYAML, inScript = false, false
			examples = append(examples, cmds)
			continue
		case !inYAML:
			continue
		}
		indent := len(line) - len(strings.TrimLeft(line, " "))
		if m := run.FindStringSubmatch(line); m != nil {
			cmds = append(cmds, m[1])
		} else if strings.TrimSpace(line) == "script:" {
			inScript, scriptIndent = true, indent
		} else if m := item.FindStringSubmatch(line); inScript && m != nil && len(m[1]) >= scriptIndent {
			cmds = append(cmds, m[2])
		} else if inScript && indent <= scriptIndent {
			inScript = false
		}
	}
	return examples
}

// TestCIExamples runs the commands of the workflow examples of docs/pull-requests.md in a git
// repository it makes (a module whose change touches a draw and a test), with the CI system's
// variables set and the spreadcheck this test built on PATH in place of the install line:
// each command reaches a verdict (exit 0, or 1 for a survivor) and writes its files.
func TestCIExamples(t *testing.T) {
	longtest.Skip(t) // two audits and two sessions of a module
	examples := ciCommands(t)
	if len(examples) != 2 || len(examples[0]) < 3 || len(examples[1]) < 3 {
		t.Fatalf("want the GitHub and the GitLab example, each with its commands: %q", examples)
	}
	bin := t.TempDir()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	script := "#!/bin/sh\n" + asCommand + "=1 exec '" + self + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "spreadcheck"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	testsCache(t)
	for i, cmds := range examples {
		dir := jitterRepo(t)
		base, err := exec.Command("git", "-C", dir, "rev-parse", "main").Output()
		if err != nil {
			t.Fatal(err)
		}
		env := append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
			"GITHUB_ACTIONS=", "GITHUB_BASE_REF=main", "CI_MERGE_REQUEST_DIFF_BASE_SHA="+strings.TrimSpace(string(base)))
		for _, c := range cmds {
			if strings.HasPrefix(c, "go install github.com/spreadcheck/spreadcheck/") {
				continue // the install: this test's own build stands in for it
			}
			cmd := exec.Command("sh", "-c", c)
			cmd.Dir, cmd.Env = dir, env
			out, err := cmd.CombinedOutput()
			if code := cmd.ProcessState.ExitCode(); code > runnerExitFlaky {
				t.Errorf("example %d: %s: exit %d (%v)\n%s", i+1, c, code, err, out)
			}
		}
		for _, f := range []string{"junit.xml", "mutation.json", "audit.html"} {
			if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
				t.Errorf("example %d wrote no %s: %v", i+1, f, err)
			}
		}
	}
}

// runnerExitFlaky is the highest exit status that is a verdict: 1, a flaky test or a survivor.
const runnerExitFlaky = 1

// jitterRepo makes a git repository of a module with a full-jitter function and a test that
// checks only its bounds, commits it on main, and on a branch changes the jitter's line, with
// origin/main standing for the main branch as a CI checkout has it.
func jitterRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":                "module example.com/jitter\n\ngo 1.26\n",
		"jitter/jitter.go":      "package jitter\n\nimport (\n\t\"math/rand/v2\"\n\t\"time\"\n)\n\n// Full returns a wait in [0, d).\nfunc Full(d time.Duration) time.Duration {\n\treturn time.Duration(rand.Int64N(int64(d)))\n}\n",
		"jitter/jitter_test.go": "package jitter\n\nimport (\n\t\"testing\"\n\t\"time\"\n)\n\nfunc TestFull(t *testing.T) {\n\tfor range 100 {\n\t\tif d := Full(time.Second); d < 0 || d >= time.Second {\n\t\t\tt.Fatal(d)\n\t\t}\n\t}\n}\n",
	}
	write, git := repoTools(t, dir)
	for name, text := range files {
		write(name, text)
	}
	git("init", "-q", "-b", "main")
	git("add", ".")
	git("commit", "-qm", "jitter")
	git("update-ref", "refs/remotes/origin/main", "main")
	git("checkout", "-qb", "change")
	write("jitter/jitter.go", strings.Replace(files["jitter/jitter.go"], "return time.Duration(rand.Int64N(int64(d)))",
		"return time.Duration(rand.Int64N(int64(d))) // full jitter", 1))
	git("commit", "-qam", "change")
	return dir
}
