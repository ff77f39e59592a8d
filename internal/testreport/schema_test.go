package testreport

import (
	"fmt"
	"go/ast"
	goparser "go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/spreadcheck/spreadcheck/internal/golden"
	"github.com/spreadcheck/spreadcheck/internal/resultsfile"
)

// TestJSONSchema writes the schema of the -json report and of the results file's lines
// (testdata/schema.md, which the README quotes) from the types themselves: each field's JSON
// name, type and doc comment. So the documented schema is the one the code writes.
func TestJSONSchema(t *testing.T) {
	docs := fieldDocs(t)
	var b strings.Builder
	for _, root := range []struct {
		title string
		typ   reflect.Type
	}{
		{"The report (`spreadcheck -json`, `spreadcheck merge -json`)", reflect.TypeFor[Report]()},
		{"A line of the results file: one of `header`, `record` or `end` is set", reflect.TypeFor[resultsfile.Line]()},
	} {
		fmt.Fprintf(&b, "%s:\n\n| field | type | meaning |\n|---|---|---|\n", root.title)
		writeFields(&b, docs, root.typ, "", map[reflect.Type]bool{})
		b.WriteString("\n")
	}
	got := strings.TrimSuffix(b.String(), "\n")
	golden.Check(t, filepath.Join("testdata", "schema.md"), got)
}

// writeFields writes one row per JSON field of struct type st, nested structs after their
// field with a dotted path, embedded structs flattened as encoding/json does.
func writeFields(b *strings.Builder, docs map[string]string, st reflect.Type, prefix string, seen map[reflect.Type]bool) {
	for i := range st.NumField() {
		f := st.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		if f.Anonymous && name == "" {
			writeFields(b, docs, f.Type, prefix, seen)
			continue
		}
		elem, typ := jsonType(f.Type, opts)
		fmt.Fprintf(b, "| `%s%s` | %s | %s |\n", prefix, name, typ, docs[st.Name()+"."+f.Name])
		if elem.Kind() == reflect.Struct && elem != reflect.TypeFor[Counts]() && !seen[elem] {
			seen[elem] = true
			sub := prefix + name
			if f.Type.Kind() == reflect.Slice {
				sub += "[]"
			}
			writeFields(b, docs, elem, sub+".", seen)
		}
	}
}

// jsonType names a field's JSON type, and returns the struct type under pointers and slices.
func jsonType(t reflect.Type, opts string) (reflect.Type, string) {
	switch t.Kind() {
	case reflect.Pointer:
		e, s := jsonType(t.Elem(), opts)
		return e, s + " or absent"
	case reflect.Slice:
		e, s := jsonType(t.Elem(), opts)
		return e, "array of " + s
	case reflect.Struct:
		if t == reflect.TypeFor[Counts]() {
			return t, "object: runs, failures, crashes, hangs, skips"
		}
		if t.PkgPath() == "time" {
			return t, "string (RFC 3339 time)"
		}
		return t, "object"
	case reflect.Uint64:
		if strings.Contains(opts, "string") {
			return t, "string (a uint64 in decimal)"
		}
	case reflect.Float64:
		return t, "number"
	case reflect.Int:
		return t, "integer"
	}
	return t, t.Kind().String()
}

// fieldDocs returns the doc or line comment of every struct field of the package, keyed
// "Type.Field", as one line.
func fieldDocs(t *testing.T) map[string]string {
	fset := token.NewFileSet()
	// The report's types embed those of the packages below it, whose doc comments count too.
	var names []string
	for _, dir := range []string{".", "../resultsfile", "../testout", "../testbin"} {
		in, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		names = append(names, in...)
	}
	docs := map[string]string{}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := goparser.ParseFile(fset, name, nil, goparser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if st, isStruct := typeStruct(ts, ok); isStruct {
				for _, fl := range st.Fields.List {
					for _, id := range fl.Names {
						docs[ts.Name.Name+"."+id.Name] = comment(fl)
					}
				}
			}
			return true
		})
	}
	return docs
}

func typeStruct(ts *ast.TypeSpec, ok bool) (*ast.StructType, bool) {
	if !ok {
		return nil, false
	}
	st, ok := ts.Type.(*ast.StructType)
	return st, ok
}

func comment(f *ast.Field) string {
	text := f.Doc.Text()
	if text == "" {
		text = f.Comment.Text()
	}
	return strings.ReplaceAll(strings.Join(strings.Fields(text), " "), "|", `\|`)
}
