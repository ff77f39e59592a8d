// Command recall scores the sites that the audit found (cmd/sites's lists, each line prefixed
// with its module) against the sites listed by hand (reach/labels.tsv): per module, the sites
// listed, those found, recall (listed sites found / listed sites) and precision (found sites
// listed as sites / found sites), for each list given as NAME=FILE; then every listed site
// that the last list misses and every site it finds that is not listed as one. reach.sh
// writes its output to reach/table.md.
//
//	go run ./cmd/recall reach/labels.tsv before=reach/found-before.tsv after=reach/found.tsv
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// A key names a site: its module, file, line and draw.
type key struct{ module, file, line, expr string }

func (k key) String() string { return fmt.Sprintf("`%s` %s:%s `%s`", k.module, k.file, k.line, k.expr) }

// A list is the sites one run of cmd/sites found, under a name.
type list struct {
	name  string
	found map[key]bool
}

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// run prints the table, or an error with exit status 2 and no table.
func run(args []string, stdout, stderr io.Writer) int {
	labels, why, modules, lists, err := read(args)
	if err != nil {
		fmt.Fprintln(stderr, "recall:", err)
		return 2
	}
	table(stdout, labels, why, modules, lists)
	return 0
}

// read reads the labels and the lists that the arguments name.
func read(args []string) (map[key]bool, map[key]string, []string, []list, error) {
	if len(args) < 2 {
		return nil, nil, nil, nil, fmt.Errorf("usage: recall labels.tsv NAME=FILE [NAME=FILE]")
	}
	labels, why, modules, err := readLabels(args[0])
	if err != nil {
		return nil, nil, nil, nil, err
	}
	if len(modules) == 0 {
		return nil, nil, nil, nil, fmt.Errorf("%s: no label", args[0])
	}
	var lists []list
	for _, a := range args[1:] {
		name, path, ok := strings.Cut(a, "=")
		if !ok || name == "" {
			return nil, nil, nil, nil, fmt.Errorf("%q: want NAME=FILE", a)
		}
		found, err := readFound(path)
		if err != nil {
			return nil, nil, nil, nil, err
		}
		lists = append(lists, list{name, found})
	}
	return labels, why, modules, lists, nil
}

// table prints, per module and for all, the sites listed by hand and each list's found sites,
// recall and precision; then what the last list misses and what it finds that is no site.
func table(w io.Writer, labels map[key]bool, why map[key]string, modules []string, lists []list) {
	fmt.Fprint(w, "| module | sites by hand |")
	for _, l := range lists {
		fmt.Fprintf(w, " %s: found | recall | precision |", l.name)
	}
	fmt.Fprint(w, "\n|---|---|")
	fmt.Fprint(w, strings.Repeat("---|---|---|", len(lists))+"\n")
	for _, m := range append(modules, "all") {
		hand := count(labels, m, func(k key, site bool) bool { return site })
		fmt.Fprintf(w, "| %s | %d |", m, hand)
		for _, l := range lists {
			hit := count(labels, m, func(k key, site bool) bool { return site && l.found[k] })
			found, right := 0, 0
			for k := range l.found {
				if m == "all" || k.module == m {
					found++
					if labels[k] {
						right++
					}
				}
			}
			fmt.Fprintf(w, " %d | %s | %s |", found, ratio(hit, hand), ratio(right, found))
		}
		fmt.Fprintln(w)
	}
	last := lists[len(lists)-1]
	var missed, extra []string
	for k, site := range labels {
		if site && !last.found[k] {
			missed = append(missed, fmt.Sprintf("- %s: %s", k, why[k]))
		}
	}
	for k := range last.found {
		if !labels[k] {
			extra = append(extra, fmt.Sprintf("- %s: %s", k, orUnlisted(why[k])))
		}
	}
	sort.Strings(missed)
	sort.Strings(extra)
	fmt.Fprintf(w, "\nMissed (%s):\n\n%s\n", last.name, orNone(missed))
	fmt.Fprintf(w, "\nFound, not a site (%s):\n\n%s\n", last.name, orNone(extra))
}

// count counts the labels of module m (every module for "all") that keep holds.
func count(labels map[key]bool, m string, keep func(key, bool) bool) int {
	n := 0
	for k, site := range labels {
		if (m == "all" || k.module == m) && keep(k, site) {
			n++
		}
	}
	return n
}

func ratio(a, b int) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%d/%d = %.2f", a, b, float64(a)/float64(b))
}

func orNone(lines []string) string {
	if len(lines) == 0 {
		return "none"
	}
	return strings.Join(lines, "\n")
}

func orUnlisted(why string) string {
	if why == "" {
		return "not in labels.tsv: list it by hand"
	}
	return "listed as no site: " + why
}

// readLabels reads labels.tsv: whether each listed draw is a site, why, and the modules in
// the order they first appear.
func readLabels(path string) (map[key]bool, map[key]string, []string, error) {
	labels, why := map[key]bool{}, map[key]string{}
	var modules []string
	err := eachLine(path, 6, func(f []string) error {
		k := key{f[0], f[1], f[2], oneLine(f[3])}
		if _, dup := labels[k]; dup {
			return fmt.Errorf("%s listed twice", k)
		}
		if f[4] != "yes" && f[4] != "no" {
			return fmt.Errorf("%s: site %q, want yes or no", k, f[4])
		}
		labels[k], why[k] = f[4] == "yes", f[5]
		if len(modules) == 0 || modules[len(modules)-1] != f[0] {
			modules = append(modules, f[0])
		}
		return nil
	})
	return labels, why, modules, err
}

// readFound reads a list of found sites: module, file, line, draw, kind, function.
func readFound(path string) (map[key]bool, error) {
	found := map[key]bool{}
	err := eachLine(path, 6, func(f []string) error {
		found[key{f[0], f[1], f[2], oneLine(f[3])}] = true
		return nil
	})
	return found, err
}

// eachLine calls do with the n tab-separated fields of each line of a file that is neither
// blank nor a # comment.
func eachLine(path string, n int, do func([]string) error) error {
	file, err := os.Open(path)
	if err != nil {
		return err
	}
	defer file.Close()
	sc := bufio.NewScanner(file)
	sc.Buffer(nil, 1<<20)
	for line := 1; sc.Scan(); line++ {
		t := sc.Text()
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		f := strings.Split(t, "\t")
		if len(f) != n {
			return fmt.Errorf("%s:%d: %d fields, want %d", path, line, len(f), n)
		}
		if err := do(f); err != nil {
			return fmt.Errorf("%s:%d: %v", path, line, err)
		}
	}
	return sc.Err()
}

// oneLine joins a draw that spans lines into one, its runs of white space one space.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
