package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// run is the command: it prints the score on stdout and progress and errors on stderr, and
// returns 0, or 1 on an error.
func run(args []string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("corpus", flag.ContinueOnError)
	flags.SetOutput(stderr)
	corpus := flags.String("corpus", "", "the corpus folder (default: cmd/spreadvet/testdata/corpus of this repository)")
	only := flags.String("module", "", "measure only the modules whose path contains this")
	tool := flags.String("tool", "", "a spreadvet binary to measure (default: built from this repository)")
	mutants := flags.Bool("confirm", false, "instead of measuring spreadvet, run each label's constant mutant and check its tests still pass")
	if err := flags.Parse(args); err != nil {
		return 1
	}
	if flags.NArg() > 0 {
		fmt.Fprintf(stderr, "corpus: unexpected arguments %q\n", flags.Args())
		return 1
	}
	if err := measure(*corpus, *only, *tool, *mutants, stdout, stderr); err != nil {
		fmt.Fprintf(stderr, "corpus: %v\n", err)
		return 1
	}
	return 0
}

// measure reads the corpus, fetches and analyzes each module and writes the score; with
// mutants, it confirms the labels' mutants instead.
func measure(corpus, only, tool string, mutants bool, stdout, stderr io.Writer) error {
	tmp, err := os.MkdirTemp("", "spreadvet-corpus")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if corpus == "" || (tool == "" && !mutants) {
		root, err := repoRoot()
		if err != nil {
			return err
		}
		if corpus == "" {
			corpus = filepath.Join(root, "cmd", "spreadvet", "testdata", "corpus")
		}
		if tool == "" && !mutants {
			if tool, err = build(root, tmp); err != nil {
				return err
			}
		}
	}
	mods, labels, err := readCorpus(corpus, only)
	if err != nil {
		return err
	}
	if mutants {
		return confirm(mods, labels, tmp, stdout, stderr)
	}
	fns := &functions{dirs: map[string]string{}, spans: map[string][][2]int{}}
	var findings []Finding
	var failed []Failure
	for _, m := range mods {
		fmt.Fprintf(stderr, "%s: fetching and analyzing %s\n", m.Path, strings.Join(m.Packages, " "))
		dir, err := fetch(m.Path, tmp)
		if err != nil {
			return err
		}
		fns.dirs[m.Path] = dir
		if err := checkLines(dir, inModule(labels, m.Path)); err != nil {
			return err
		}
		fs, err := analyze(tool, dir, m)
		if err != nil {
			fmt.Fprintln(stderr, err)
			failed = append(failed, Failure{m.Path, summary(err)})
			continue
		}
		findings = append(findings, fs...)
	}
	s := Measure(mods, labels, findings, fns.enclosing)
	s.Failed = failed
	if err := s.Write(stdout); err != nil {
		return err
	}
	if len(failed) > 0 {
		return fmt.Errorf("spreadvet failed on %d modules", len(failed))
	}
	return nil
}

// frameArgs is the argument words at the end of a frame of a goroutine's trace.
var frameArgs = regexp.MustCompile(`\([^()]*\)$`)

// summary is the first line of err and, from a panic's trace, the panic and the first
// spreadvet frame: enough to tell one crash from another in the table.
func summary(err error) string {
	lines := strings.Split(err.Error(), "\n")
	out := []string{lines[0]}
	for i, l := range lines {
		if strings.HasPrefix(l, "panic: ") {
			out = append(out, l)
		}
		if strings.Contains(l, "/spreadvet.") && i+1 < len(lines) && len(out) < 3 {
			out = append(out, frameArgs.ReplaceAllString(strings.TrimSpace(l), "()"))
		}
	}
	return strings.Join(out, "; ")
}

// readCorpus reads modules.tsv and labels.tsv and keeps the modules whose path contains
// only; every label must be on a listed module.
func readCorpus(dir, only string) ([]Module, []Label, error) {
	var mods []Module
	var labels []Label
	for name, parse := range map[string]func(io.Reader) error{
		"modules.tsv": func(r io.Reader) (err error) { mods, err = ParseModules(r); return err },
		"labels.tsv":  func(r io.Reader) (err error) { labels, err = ParseLabels(r); return err },
	} {
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			return nil, nil, err
		}
		err = parse(f)
		f.Close()
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %v", name, err)
		}
	}
	listed := map[string]bool{}
	for _, m := range mods {
		listed[m.Path] = true
	}
	for _, l := range labels {
		if !listed[l.Module] {
			return nil, nil, fmt.Errorf("labels.tsv: %s is not in modules.tsv", l.Module)
		}
	}
	var kept []Module
	for _, m := range mods {
		if strings.Contains(m.Path, only) {
			kept = append(kept, m)
		}
	}
	if len(kept) == 0 {
		return nil, nil, fmt.Errorf("no module of the corpus contains %q", only)
	}
	return kept, labels, nil
}

// checkLines fails when a label points past the end of its file, or at a file the module
// does not have: a label must name the code it is about.
func checkLines(dir string, labels []Label) error {
	for _, l := range labels {
		f, err := os.Open(filepath.Join(dir, filepath.FromSlash(l.File)))
		if err != nil {
			return fmt.Errorf("label %s %s:%d: %v", l.Module, l.File, l.Line, err)
		}
		n := 0
		for sc := bufio.NewScanner(f); sc.Scan(); {
			n++
		}
		f.Close()
		if l.Line > n {
			return fmt.Errorf("label %s %s:%d: the file has %d lines", l.Module, l.File, l.Line, n)
		}
	}
	return nil
}

// repoRoot is the folder of the go.mod that the go command finds from here.
func repoRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	gomod := strings.TrimSpace(string(out))
	if err != nil || gomod == "" || gomod == os.DevNull {
		return "", fmt.Errorf("run it inside the spreadcheck repository (go env GOMOD: %q, %v)", gomod, err)
	}
	return filepath.Dir(gomod), nil
}

// build compiles cmd/spreadvet of the repository at root into tmp.
func build(root, tmp string) (string, error) {
	tool := filepath.Join(tmp, "spreadvet")
	cmd := exec.Command("go", "build", "-o", tool, "./cmd/spreadvet")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./cmd/spreadvet: %v\n%s", err, out)
	}
	return tool, nil
}
