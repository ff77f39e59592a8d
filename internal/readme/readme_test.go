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

func TestREADMEBlocksMatchTheirFiles(t *testing.T) {
	readme := filepath.Join(root, "README.md")
	text, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	got, errs := fill(string(text), func(path string) (string, error) {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(path)))
		return string(b), err
	})
	for _, err := range errs {
		t.Error(err)
	}
	if got == string(text) {
		return
	}
	if *update {
		if err := os.WriteFile(readme, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("README.md differs from its golden files (-README +files); go test ./internal/readme -update copies them in:\n%s", cmp.Diff(string(text), got))
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
			errs = append(errs, fmt.Errorf("README golden block %s: %v", path, err))
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

// TestREADMELinksResolve checks that every in-page link names a heading of the README and every
// relative link names a file of the repository, so that a renamed section or file cannot leave
// the contents line or a picture pointing nowhere.
func TestREADMELinksResolve(t *testing.T) {
	text, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	anchors := headingAnchors(string(text))
	prose := code.ReplaceAllString(string(text), "")
	for _, m := range link.FindAllStringSubmatch(prose, -1) {
		target := m[1]
		switch {
		case strings.Contains(target, "://"):
		case strings.HasPrefix(target, "#"):
			if !anchors[target[1:]] {
				t.Errorf("README link %s names no heading", target)
			}
		default:
			if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(target))); err != nil {
				t.Errorf("README link %s: %v", target, err)
			}
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
