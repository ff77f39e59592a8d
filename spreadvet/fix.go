package spreadvet

import (
	"go/ast"
	"go/token"
	"strconv"

	"golang.org/x/tools/go/analysis"
)

// importName returns the name under which file imports path, or "".
func importName(file *ast.File, path string) string {
	for _, imp := range file.Imports {
		if p, err := strconv.Unquote(imp.Path.Value); err == nil && p == path {
			if imp.Name != nil {
				return imp.Name.Name
			}
			if path == "math/rand/v2" {
				return "rand"
			}
			return path[lastSlash(path)+1:]
		}
	}
	return ""
}

func lastSlash(s string) int {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '/' {
			return i
		}
	}
	return -1
}

// fileOf returns the file that holds pos.
func (c *checker) fileOf(pos token.Pos) *ast.File {
	for _, f := range c.pass.Files {
		if f.FileStart <= pos && pos < f.FileEnd {
			return f
		}
	}
	return nil
}

// replace is a suggested fix that replaces the source of n with text.
func replace(message string, n ast.Node, text string) []analysis.SuggestedFix {
	return []analysis.SuggestedFix{{
		Message:   message,
		TextEdits: []analysis.TextEdit{{Pos: n.Pos(), End: n.End(), NewText: []byte(text)}},
	}}
}

// addImport returns an edit that adds an import of path to file: inside its first import
// declaration's parentheses, or as a declaration of its own after the package clause.
func addImport(file *ast.File, path string) (analysis.TextEdit, bool) {
	for _, d := range file.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.IMPORT {
			continue
		}
		if g.Rparen.IsValid() {
			return analysis.TextEdit{Pos: g.Rparen, End: g.Rparen, NewText: []byte("\t" + strconv.Quote(path) + "\n")}, true
		}
		return analysis.TextEdit{Pos: g.End(), End: g.End(), NewText: []byte("\nimport " + strconv.Quote(path))}, true
	}
	if file.Name == nil {
		return analysis.TextEdit{}, false
	}
	return analysis.TextEdit{Pos: file.Name.End(), End: file.Name.End(), NewText: []byte("\n\nimport " + strconv.Quote(path))}, true
}
