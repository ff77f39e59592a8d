package readme

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "copy every golden file into its README block")

// block matches one golden block: the path, then the text up to the end marker.
var block = regexp.MustCompile(`(?s)<!-- golden: ([^ ]+) -->\n(.*?)<!-- end golden -->`)

const root = "../.."

// pages returns the Markdown pages whose golden blocks and links are checked: README.md and
// every page of docs/, as paths relative to the repository's root.
func pages(t *testing.T) []string {
	t.Helper()
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) == 0 {
		t.Fatal("no docs/*.md pages found")
	}
	out := []string{"README.md"}
	for _, d := range docs {
		rel, err := filepath.Rel(root, d)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, filepath.ToSlash(rel))
	}
	return out
}

func TestGoldenBlocksMatchTheirFiles(t *testing.T) {
	blocks := 0
	for _, page := range pages(t) {
		text, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(page)))
		if err != nil {
			t.Fatal(err)
		}
		blocks += len(block.FindAllString(string(text), -1))
		got, errs := fill(string(text), func(path string) (string, error) {
			b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(path)))
			return string(b), err
		})
		for _, err := range errs {
			t.Errorf("%s: %v", page, err)
		}
		if got == string(text) {
			continue
		}
		if *update {
			if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(page)), []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		t.Errorf("%s differs from its golden files (-page +files); go test ./internal/readme -update copies them in:\n%s", page, cmp.Diff(string(text), got))
	}
	if blocks == 0 {
		t.Error("no golden blocks found in README.md and docs/*.md")
	}
}

// fill returns text with every golden block replaced by its file, and an error for each block
// whose file cannot be read.
func fill(text string, read func(path string) (string, error)) (string, []error) {
	var errs []error
	out := block.ReplaceAllStringFunc(text, func(m string) string {
		sub := block.FindStringSubmatch(m)
		path, old := sub[1], sub[2]
		body, err := read(path)
		if err != nil {
			errs = append(errs, fmt.Errorf("golden block %s: %v", path, err))
			return m
		}
		if !strings.HasSuffix(body, "\n") {
			body += "\n"
		}
		if fence, _, ok := strings.Cut(old, "\n"); ok && strings.HasPrefix(fence, "```") {
			body = fence + "\n" + body + "```\n" // a code block keeps its fence
		}
		return "<!-- golden: " + path + " -->\n" + body + "<!-- end golden -->"
	})
	return out, errs
}

func TestFillReplacesOnlyItsBlocks(t *testing.T) {
	files := map[string]string{"a.md": "| x |\n", "b.txt": "new"}
	read := func(p string) (string, error) {
		if s, ok := files[p]; ok {
			return s, nil
		}
		return "", os.ErrNotExist
	}
	in := "intro\n<!-- golden: a.md -->\nold\n<!-- end golden -->\nmiddle\n<!-- golden: b.txt -->\n```text\nold\n```\n<!-- end golden -->\n<!-- golden: gone.md -->\nkept\n<!-- end golden -->\n"
	want := "intro\n<!-- golden: a.md -->\n| x |\n<!-- end golden -->\nmiddle\n<!-- golden: b.txt -->\n```text\nnew\n```\n<!-- end golden -->\n<!-- golden: gone.md -->\nkept\n<!-- end golden -->\n"
	got, errs := fill(in, read)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("fill (-want +got):\n%s", diff)
	}
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "gone.md") {
		t.Errorf("errors %v, want one naming gone.md", errs)
	}
}

// link matches a Markdown link or image target: (#anchor) or a relative path; code matches
// fenced blocks and code spans, whose text is no link.
var (
	link = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	code = regexp.MustCompile("(?s)```.*?```|`[^`\n]*`")
)

// TestLinksResolve checks that every in-page link of README.md and docs/*.md names a heading
// of its page, every relative link names a file of the repository (relative to the page), and
// a link to another page's heading (checks.md#power) names a heading there, so that a renamed
// section or file cannot leave a contents line or a picture pointing nowhere.
func TestLinksResolve(t *testing.T) {
	for _, page := range pages(t) {
		for _, err := range brokenLinks(root, page) {
			t.Error(err)
		}
	}
}

// brokenLinks returns an error for each link of the page (a path relative to root) that names
// no heading or no file.
func brokenLinks(root, page string) []error {
	text, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(page)))
	if err != nil {
		return []error{err}
	}
	var errs []error
	dir := filepath.Dir(filepath.Join(root, filepath.FromSlash(page)))
	prose := code.ReplaceAllString(string(text), "")
	for _, m := range link.FindAllStringSubmatch(prose, -1) {
		target := m[1]
		if strings.Contains(target, "://") {
			continue
		}
		file, frag, _ := strings.Cut(target, "#")
		path := filepath.Join(root, filepath.FromSlash(page))
		if file != "" {
			path = filepath.Join(dir, filepath.FromSlash(file))
			if _, err := os.Stat(path); err != nil {
				errs = append(errs, fmt.Errorf("%s: link %s: %v", page, target, err))
				continue
			}
		}
		if frag == "" {
			continue
		}
		linked, err := os.ReadFile(path)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: link %s: %v", page, target, err))
			continue
		}
		if !headingAnchors(string(linked))[frag] {
			errs = append(errs, fmt.Errorf("%s: link %s names no heading", page, target))
		}
	}
	return errs
}

func TestBrokenLinksFindsEachKind(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "docs"), 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(name)), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("README.md", "# Top\n[a](#top) [b](docs/p.md) [c](docs/p.md#there) [d](#gone) [e](docs/q.md) [f](docs/p.md#gone)\n")
	write("docs/p.md", "## There\n[g](../README.md#top) [h](../missing.svg)\n")
	var got []string
	for _, page := range []string{"README.md", "docs/p.md"} {
		for _, err := range brokenLinks(dir, page) {
			got = append(got, err.Error())
		}
	}
	want := []string{"README.md: link #gone", "README.md: link docs/q.md", "README.md: link docs/p.md#gone", "docs/p.md: link ../missing.svg"}
	if len(got) != len(want) {
		t.Fatalf("broken links %q, want %d: %q", got, len(want), want)
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("broken link %d: %q, want it to start %q", i, got[i], want[i])
		}
	}
}

// headingAnchors returns the anchors GitHub gives the headings of a Markdown text: lower case,
// punctuation other than '-' and '_' dropped, spaces made '-'. Lines inside code fences are no
// headings.
func headingAnchors(text string) map[string]bool {
	out := map[string]bool{}
	fenced := false
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
		}
		title, ok := strings.CutPrefix(strings.TrimLeft(line, "#"), " ")
		if fenced || !strings.HasPrefix(line, "#") || !ok {
			continue
		}
		out[anchor(title)] = true
	}
	return out
}

func anchor(title string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(title) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

func TestAnchor(t *testing.T) {
	for title, want := range map[string]string{
		"spread: the checks":                            "spread-the-checks",
		"Checks on time: a loop's pace, a fleet's load": "checks-on-time-a-loops-pace-a-fleets-load",
		"Did the fix work? `spreadcheck compare`":       "did-the-fix-work-spreadcheck-compare",
		"Power at n = 1,000 (`go test ./spread`)":       "power-at-n--1000-go-test-spread",
	} {
		if got := anchor(title); got != want {
			t.Errorf("anchor(%q) = %q, want %q", title, got, want)
		}
	}
	if anchors := headingAnchors("# a\n```sh\n# not a heading\n```\n## B c\n"); !anchors["a"] || !anchors["b-c"] || anchors["not-a-heading"] {
		t.Errorf("headingAnchors = %v, want a and b-c only", anchors)
	}
}

// maxREADMELines is the length of the README as a front door: the detail belongs in docs/.
const maxREADMELines = 400

func TestREADMEIsAFrontDoor(t *testing.T) {
	text, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(text), "\n"); n > maxREADMELines {
		t.Errorf("README.md has %d lines, at most %d: move the detail to a docs/ page", n, maxREADMELines)
	}
}

// kitCommands are the two commands the README gives for the kit itself: the main job on its
// own examples, and all tests. CI runs exactly these.
var kitCommands = []string{"go run ./cmd/spreadcheck -runs 200 ./examples/...", "go test ./..."}

func TestCIRunsTheREADMEsCommands(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	ci, err := os.ReadFile(filepath.Join(root, ".ci", "run"))
	if err != nil {
		t.Fatal(err)
	}
	lines := func(text []byte) map[string]bool {
		out := map[string]bool{}
		for _, l := range strings.Split(string(text), "\n") {
			out[strings.TrimSpace(l)] = true
		}
		return out
	}
	inREADME, inCI := lines(readme), lines(ci)
	for _, c := range kitCommands {
		if !inREADME[c] {
			t.Errorf("README.md lacks the command line %q", c)
		}
		if !inCI[c] {
			t.Errorf(".ci/run does not run %q as a command line of its own", c)
		}
	}
}
