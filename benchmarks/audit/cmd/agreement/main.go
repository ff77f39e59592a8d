// Command agreement compares the verdicts of spreadcheck audit on real modules with verdicts
// confirmed by hand, and prints one Markdown table: per labelled (site, class) cell, the
// verdict measured by hand, the audit's, and whether they agree; then the agreement, and
// every disagreement with its cause.
//
//	go run ./cmd/agreement corpus/labels.tsv corpus/causes.tsv corpus/*.json
//
// labels.tsv has one cell a line, tab-separated, after a header line: module, version,
// site (file:line, relative to the module root), class, hand (killed, survived, equivalent
// or not covered), package and run (the go test package and -run pattern of the hand
// measurement), from and to (the hand-written mutant: the text of the line replaced, and
// what replaced it), and measured (what the 20 runs showed). causes.tsv says why the audit
// differs where it does: module, site, class, the audit's verdict, and the cause. The
// reports are spreadcheck audit -json output, one per module. real.sh runs it.
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// The hand verdicts a label may hold; a cell whose site the audit did not report has the
// audit verdict notFound.
var handVerdicts = map[string]bool{"killed": true, "survived": true, "equivalent": true, "not covered": true}

const notFound = "site not found"

// A label is one cell confirmed by hand.
type label struct {
	module, version, site, class, hand, pkg, run, from, to, measured string
}

// A cell names one mutant: a site of a module and a class.
type cell struct{ module, site, class string }

// report is the part of an audit's JSON report this command reads.
type report struct {
	Module string `json:"module"`
	Sites  []struct {
		File    string `json:"file"`
		Line    int    `json:"line"`
		Mutants []struct {
			Class   string `json:"class"`
			Verdict string `json:"verdict"`
		} `json:"mutants"`
	} `json:"sites"`
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) < 3 {
		fmt.Fprintln(stderr, "usage: agreement labels.tsv causes.tsv report.json...")
		return 2
	}
	labels, err := readLabels(args[0])
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	causes, err := readCauses(args[1])
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	audited := map[cell]string{}
	modules := map[string]bool{}
	for _, path := range args[2:] {
		if err := readReport(path, audited, modules); err != nil {
			fmt.Fprintln(stderr, err)
			return 2
		}
	}
	if err := write(stdout, labels, causes, audited, modules); err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	return 0
}

// fields reads a tab-separated file with a header line: each line's fields, and its line
// number.
func fields(path string, n int) ([][]string, []int, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	var rows [][]string
	var lines []int
	for i, line := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
		if i == 0 || line == "" {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != n {
			return nil, nil, fmt.Errorf("%s:%d: %d fields, want %d (tab-separated)", path, i+1, len(f), n)
		}
		rows = append(rows, f)
		lines = append(lines, i+1)
	}
	return rows, lines, nil
}

func readLabels(path string) ([]label, error) {
	rows, lines, err := fields(path, 10)
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("%s: no label after the header", path)
	}
	seen := map[cell]bool{}
	var ls []label
	for i, f := range rows {
		l := label{f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8], f[9]}
		c := cell{l.module, l.site, l.class}
		switch {
		case !handVerdicts[l.hand]:
			return nil, fmt.Errorf("%s:%d: hand verdict %q is none of killed, survived, equivalent, not covered", path, lines[i], l.hand)
		case seen[c]:
			return nil, fmt.Errorf("%s:%d: %s %s %s is labelled twice", path, lines[i], l.module, l.site, l.class)
		case !validSite(l.site):
			return nil, fmt.Errorf("%s:%d: site %q is not file:line", path, lines[i], l.site)
		}
		seen[c] = true
		ls = append(ls, l)
	}
	return ls, nil
}

func validSite(s string) bool {
	file, line, ok := strings.Cut(s, ":")
	n, err := strconv.Atoi(line)
	return ok && file != "" && err == nil && n > 0
}

// readCauses returns the cause of each disagreement, by cell and the audit's verdict; a
// corpus on which the audit agrees everywhere has none.
func readCauses(path string) (map[cell]map[string]string, error) {
	rows, _, err := fields(path, 5)
	if err != nil {
		return nil, err
	}
	causes := map[cell]map[string]string{}
	for _, f := range rows {
		c := cell{f[0], f[1], f[2]}
		if causes[c] == nil {
			causes[c] = map[string]string{}
		}
		causes[c][f[3]] = f[4]
	}
	return causes, nil
}

func readReport(path string, audited map[cell]string, modules map[string]bool) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var r report
	if err := json.Unmarshal(data, &r); err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	if r.Module == "" {
		return fmt.Errorf("%s: not a spreadcheck audit -json report (no module)", path)
	}
	if modules[r.Module] {
		return fmt.Errorf("%s: a second report of %s", path, r.Module)
	}
	modules[r.Module] = true
	for _, s := range r.Sites {
		for _, m := range s.Mutants {
			audited[cell{r.Module, fmt.Sprintf("%s:%d", s.File, s.Line), m.Class}] = m.Verdict
		}
	}
	return nil
}

// write prints the table, the agreement and the disagreements with their causes. A label
// of a module that has no report is an error: its cells would count as disagreements.
func write(w io.Writer, labels []label, causes map[cell]map[string]string, audited map[cell]string, modules map[string]bool) error {
	var b strings.Builder
	b.WriteString("| module | site | class | by hand | audit | |\n|---|---|---|---|---|---|\n")
	agree, mods := 0, map[string]bool{}
	var diffs []string
	for _, l := range labels {
		if !modules[l.module] {
			return errors.New("no report of " + l.module + ", which labels.tsv labels")
		}
		mods[l.module] = true
		c := cell{l.module, l.site, l.class}
		got, ok := audited[c]
		if !ok {
			got = notFound
		}
		mark := "agrees"
		if got == l.hand {
			agree++
		} else {
			mark = "**differs**"
			cause := causes[c][got]
			if cause == "" {
				cause = "not yet diagnosed"
			}
			diffs = append(diffs, fmt.Sprintf("- `%s` `%s` %s: %s by hand, %s by the audit: %s", l.module, l.site, l.class, l.hand, got, cause))
		}
		fmt.Fprintf(&b, "| `%s` %s | `%s` | %s | %s: %s | %s | %s |\n", l.module, l.version, l.site, l.class, l.hand, l.measured, got, mark)
	}
	fmt.Fprintf(&b, "\n%d of %d cells agree, on %d modules.\n", agree, len(labels), len(mods))
	if len(diffs) > 0 {
		b.WriteString("\nEach disagreement and its cause:\n\n" + strings.Join(diffs, "\n") + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}
