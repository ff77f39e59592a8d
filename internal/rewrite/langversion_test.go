package rewrite

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"
)

// oldCases are a draw of each kind that code written before generics can hold, spelled as a
// module of that time calls math/rand and crypto/rand.
var oldCases = []Draw{
	{Kind: UnitDraw, Type: "float64", Value: "rand.Float64()"},
	{Kind: UnitDraw, Type: "float32", Value: "rand.Float32()"},
	{Kind: BoundedDraw, Type: "int", Func: "rand.Intn", Args: []string{"10"}},
	{Kind: BoundedDraw, Type: "int64", Func: "rand.Int63n", Args: []string{"77"}},
	{Kind: FullDraw, Type: "int64", Value: "rand.Int63()", Max: "math.MaxInt64"},
	{Kind: FullDraw, Type: "uint32", Value: "rand.Uint32()", Max: "math.MaxUint32", Unsigned: true},
	{Kind: NormalDraw, Type: "float64", Value: "rand.NormFloat64()"},
	{Kind: ExpDraw, Type: "float64", Value: "rand.ExpFloat64()"},
	{Kind: ClockModDraw, Type: "int64", Args: []string{"time.Now().UnixNano()", "1000"}},
	{Kind: ClockSeed, Type: "int64", Value: "time.Now().UnixNano()"},
	{Kind: BigDraw, Func: "crand.Int", Args: []string{"crand.Reader", "big.NewInt(1000)"}},
	{Kind: BytesDraw, Func: "crand.Read", Args: []string{"b"}},
	{Kind: PermDraw, Func: "rand.Perm", Args: []string{"5"}},
	{Kind: ShuffleDraw, Func: "rand.Shuffle", Args: []string{"3", "func(i, j int) {}"}},
	{Kind: UnitDraw, Type: "float64", Value: "rand.Float64", FuncValue: true},
	{Kind: BoundedDraw, Type: "int", Value: "rand.Intn", FuncValue: true},
	{Kind: PermDraw, Value: "rand.Perm", FuncValue: true},
	{Kind: ShuffleDraw, Value: "rand.Shuffle", FuncValue: true},
}

// TestSchemaOldLanguage type-checks a schema holding a helper of every kind, and a file that
// calls each one as a rewritten site does, at the language versions that go.mod files of
// long-lived modules still name (go/types refuses what a version does not allow, as the
// compiler does: the go command compiles an overlay file at its module's version), and at
// go1.0. Go 1.11 has no generics, no 0o literals and no signed shift counts.
func TestSchemaOldLanguage(t *testing.T) {
	var helpers []string
	var calls strings.Builder
	for site, d := range oldCases {
		h, err := d.Helper(site)
		if err != nil {
			t.Fatal(err)
		}
		helpers = append(helpers, h)
		call, err := d.Rewrite(site)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case d.FuncValue:
			fmt.Fprintf(&calls, "\t_ = %s\n", call)
		case d.Kind == ShuffleDraw:
			fmt.Fprintf(&calls, "\t%s\n", call)
		case d.Kind == BigDraw || d.Kind == BytesDraw:
			fmt.Fprintf(&calls, "\t_, _ = %s\n", call)
		default:
			fmt.Fprintf(&calls, "\t_ = %s\n", call)
		}
	}
	schema, err := Schema{Package: "p", Helpers: helpers, Sites: len(oldCases)}.Source()
	if err != nil {
		t.Fatal(err)
	}
	caller := `package p

import (
	crand "crypto/rand"
	"math/big"
	"math/rand"
	"time"
)

func calls(b []byte) {
` + calls.String() + "}\n"
	fset := token.NewFileSet()
	var files []*ast.File
	for name, src := range map[string]string{"schema.go": string(schema), "calls.go": caller} {
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, src)
		}
		files = append(files, f)
	}
	imp := importer.ForCompiler(fset, "source", nil)
	for _, v := range []string{"go1.0", "go1.11", "go1.16", "go1.17"} {
		var errs []string
		conf := types.Config{GoVersion: v, Importer: imp, Error: func(err error) { errs = append(errs, err.Error()) }}
		conf.Check("p", fset, files, nil)
		if len(errs) > 0 {
			t.Errorf("at %s:\n%s\n\nschema:\n%s", v, strings.Join(errs, "\n"), schema)
		}
	}
}
