package readme

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

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
