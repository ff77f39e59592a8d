package spreadvet_test

import (
	"bytes"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/ast/astutil"

	"github.com/spreadcheck/spreadcheck/spreadvet"
)

// TestSuggestedDrawsCompile type-checks the spread.Draw call each diagnostic's message
// suggests (xs := spread.Draw(n, func() T { ... })), written as a statement after the one
// the diagnostic is on, where the test's own names are in scope: a suggestion a user pastes
// must compile (a closure that returned (T, error) to Draw would not). Suggestions with a
// placeholder ("..." or prose) or for one value of a loop variable (written outside the
// loop) are skipped.
func TestSuggestedDrawsCompile(t *testing.T) {
	testdata, err := filepath.Abs(analysistest.TestData())
	if err != nil {
		t.Fatal(err)
	}
	results := analysistest.Run(t, testdata, spreadvet.Analyzer, fixtures...)
	inserts := map[string][]suggestion{} // by file
	for _, r := range results {
		for _, d := range r.Diagnostics {
			draw, ok := suggestedDraw(d.Message)
			if !ok {
				continue
			}
			pos := r.Pass.Fset.Position(d.Pos)
			inserts[pos.Filename] = append(inserts[pos.Filename], suggestion{offset: pos.Offset, draw: draw})
		}
	}
	if len(inserts) == 0 {
		t.Fatal("no suggested spread.Draw in the fixtures' diagnostics")
	}
	overlay := map[string][]byte{}
	n := 0
	for file, ss := range inserts {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		fixed, err := insertDraws(file, src, ss)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		overlay[file] = fixed
		n += len(ss)
	}
	pkgs := loadFixtures(t, testdata, overlay)
	for _, p := range pkgs {
		for _, err := range p.Errors {
			t.Errorf("%s with the suggested draws written in: %v", p.ID, err)
		}
	}
	t.Logf("%d suggested draws in %d files type-check", n, len(overlay))
}

// A suggestion is the spread.Draw call a diagnostic at offset suggests.
type suggestion struct {
	offset int
	draw   string
}

// suggestedDraw returns the spread.Draw(...) call in a message, up to its closing
// parenthesis, when it can be written in place.
func suggestedDraw(msg string) (string, bool) {
	i := strings.Index(msg, "xs := spread.Draw(")
	if i < 0 || strings.Contains(msg, "...;") || strings.Contains(msg, "at one value of") {
		return "", false
	}
	s := msg[i+len("xs := "):]
	depth := 0
	for j, r := range s {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				_, err := parser.ParseExpr(s[:j+1]) // prose in place of code is a placeholder
				return s[:j+1], err == nil
			}
		}
	}
	return "", false
}

// insertDraws writes "_ = draw" after the statement of a block that holds each suggestion's
// offset, and imports spread and strings.
func insertDraws(name string, src []byte, ss []suggestion) ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	type at struct {
		end  int
		text string
	}
	var edits []at
	for _, s := range ss {
		var stmt ast.Stmt
		ast.Inspect(f, func(n ast.Node) bool {
			b, ok := n.(*ast.BlockStmt)
			if !ok {
				return true
			}
			for _, st := range b.List {
				if fset.Position(st.Pos()).Offset <= s.offset && s.offset < fset.Position(st.End()).Offset {
					stmt = st // the innermost block's statement wins: Inspect goes on inside
				}
			}
			return true
		})
		if stmt == nil {
			continue
		}
		edits = append(edits, at{fset.Position(stmt.End()).Offset, "; _ = " + s.draw})
	}
	sort.Slice(edits, func(i, j int) bool { return edits[i].end > edits[j].end })
	out := bytes.Clone(src)
	for _, e := range edits {
		out = append(out[:e.end], append([]byte(e.text), out[e.end:]...)...)
	}
	f, err = parser.ParseFile(fset, name, out, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	astutil.AddImport(fset, f, "github.com/spreadcheck/spreadcheck/spread")
	if bytes.Contains(out, []byte("strings.IndexRune(")) {
		astutil.AddImport(fset, f, "strings")
	}
	if bytes.Contains(out, []byte("slices.Index(")) {
		astutil.AddImport(fset, f, "slices") // the index of a pick in its list
	}
	var buf bytes.Buffer
	if err := format.Node(&buf, fset, f); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
