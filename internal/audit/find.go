package audit

import (
	"context"
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/spreadcheck/spreadcheck/internal/rewrite"
	"github.com/spreadcheck/spreadcheck/spread"
)

// A span is a byte range [start, end) of a file.
type span struct{ start, end int }

// A Site is one place where randomness enters the audited code.
type Site struct {
	ID      int
	Package string // import path
	Path    string // the file, absolute
	File    string // the file relative to the module root, slash-separated
	Line    int
	Expr    string // the source text of the draw
	Func    string // the enclosing function, such as "(*Backoff).Next"
	Draw    rewrite.Draw
	// Equivalent holds the classes that provably cannot change what the code does, and why.
	Equivalent map[string]string
	// Ignored holds the classes that a //spreadcheck:ignore comment on the line accepts, and
	// the reason it gives.
	Ignored map[string]string
	// NotViable, when set, says why no mutant of the site can be built.
	NotViable string
	// Dead, when set, says why the draw's value never reaches the code: every value it can
	// take comes out of the expression around it as one value (see clamped).
	Dead string
	// Range is the declared distribution of the draw's value, as a spread call ("" if unknown).
	Range  string
	Result string // the enclosing function's first result type, "" when none
	// number tells whether Result is a type that spread.Draw samples (a spread.Number):
	// a suggested line that samples any other would not compile.
	number bool
	Call   string // a call of the enclosing function, its parameters as arguments
	// Declared is the distribution of the enclosing function's result, as a spread call, when
	// it follows from the expression ("" when it does not).
	Declared string

	whole span
	parts []span // Draw.Func, Draw.Value and Draw.Args as spans, in that order
	bound string // a bounded draw's n, as source
	bits  int    // k when the draw's values are every pattern of k bits, equally likely (see drawBits)
	inst  string // the type arguments of a generic callee or default named without them, "[T]" (see instance)
	// A default's site (see wrapped.go): the functions that call through its variable, and
	// the variable's name.
	via     []caller
	through string
}

// randPkgs are the packages whose calls are draws.
var randPkgs = map[string]bool{"math/rand": true, "math/rand/v2": true, "crypto/rand": true}

// drawKinds maps a function or *rand.Rand method name to its kind of draw.
var drawKinds = map[string]rewrite.DrawKind{
	"Float64": rewrite.UnitDraw, "Float32": rewrite.UnitDraw,
	"Intn": rewrite.BoundedDraw, "IntN": rewrite.BoundedDraw, "Int31n": rewrite.BoundedDraw,
	"Int32N": rewrite.BoundedDraw, "Int63n": rewrite.BoundedDraw, "Int64N": rewrite.BoundedDraw,
	"Uint32N": rewrite.BoundedDraw, "Uint64N": rewrite.BoundedDraw, "UintN": rewrite.BoundedDraw,
	"N":   rewrite.BoundedDraw,
	"Int": rewrite.FullDraw, "Int31": rewrite.FullDraw, "Int32": rewrite.FullDraw, "Int63": rewrite.FullDraw,
	"Int64": rewrite.FullDraw, "Uint32": rewrite.FullDraw, "Uint64": rewrite.FullDraw, "Uint": rewrite.FullDraw,
	"NormFloat64": rewrite.NormalDraw, "ExpFloat64": rewrite.ExpDraw,
	"Perm": rewrite.PermDraw, "Shuffle": rewrite.ShuffleDraw, "Read": rewrite.BytesDraw,
}

// fullMax is the largest value of each full-range draw.
var fullMax = map[string]string{
	"Int": "math.MaxInt", "Int31": "math.MaxInt32", "Int32": "math.MaxInt32", "Int63": "math.MaxInt64",
	"Int64": "math.MaxInt64", "Uint32": "math.MaxUint32", "Uint64": "math.MaxUint64", "Uint": "math.MaxUint",
}

// randFunc returns the kind of draw that a function or method is, and its name, or "" when it
// is no draw.
func randFunc(fn *types.Func) (rewrite.DrawKind, string) {
	if fn == nil || fn.Pkg() == nil {
		return "", ""
	}
	if !randPkgs[fn.Pkg().Path()] {
		if randInterface(fn) {
			return drawKinds[fn.Name()], fn.Name()
		}
		return "", ""
	}
	name := fn.Name()
	if fn.Pkg().Path() == "crypto/rand" {
		switch name {
		case "Int":
			return rewrite.BigDraw, name
		case "Read":
			return rewrite.BytesDraw, name
		}
		return "", ""
	}
	if recv := fn.Signature().Recv(); recv != nil {
		t := types.Unalias(recv.Type())
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		named, ok := t.(*types.Named)
		// *rand.Rand; the v2 generators whose Uint64 a caller may use directly; and a source
		// held as its interface (a field src rand.Source; rand.NewSource(seed).Int63()).
		if !ok || !(named.Obj().Name() == "Rand" || sourceMethods[named.Obj().Name()+"."+name]) {
			return "", ""
		}
	}
	return drawKinds[name], name
}

// randMethods are the draws of *rand.Rand (math/rand and math/rand/v2) and its Seed, by name,
// with their signatures as sigKey spells them. Read is left out: an interface of Read alone
// is io.Reader's shape, which files, buffers and connections satisfy, and a module's own
// reader is no draw.
var randMethods = map[string]string{
	"Float64": "()(float64)", "Float32": "()(float32)", "NormFloat64": "()(float64)", "ExpFloat64": "()(float64)",
	"Int": "()(int)", "Int31": "()(int32)", "Int32": "()(int32)", "Int63": "()(int64)", "Int64": "()(int64)",
	"Uint": "()(uint)", "Uint32": "()(uint32)", "Uint64": "()(uint64)",
	"Intn": "(int)(int)", "IntN": "(int)(int)", "Int31n": "(int32)(int32)", "Int32N": "(int32)(int32)",
	"Int63n": "(int64)(int64)", "Int64N": "(int64)(int64)", "UintN": "(uint)(uint)", "Uint32N": "(uint32)(uint32)",
	"Uint64N": "(uint64)(uint64)", "Perm": "(int)([]int)", "Shuffle": "(int,func(int,int)())()",
	"Seed": "(int64)()",
}

// randInterface reports whether fn is a method of an interface declared outside the random
// packages (the module's own, type Random interface{ Float64() float64 }) whose every method
// has the name and signature of a *rand.Rand draw or of Seed: what such an interface holds is
// a source of randomness (a *rand.Rand by default, or a test's fake), so a call of its draw is
// a draw, of the *rand.Rand method's kind. One method that is no draw (Now() time.Time, a
// Float64 that takes an argument) makes the interface something else, and its calls no sites.
func randInterface(fn *types.Func) bool {
	recv := fn.Signature().Recv()
	if recv == nil {
		return false
	}
	iface, ok := types.Unalias(recv.Type()).Underlying().(*types.Interface)
	if !ok || iface.NumMethods() == 0 || drawKinds[fn.Name()] == "" {
		return false
	}
	for i := range iface.NumMethods() {
		m := iface.Method(i)
		if want, ok := randMethods[m.Name()]; !ok || sigKey(m.Signature()) != want {
			return false
		}
	}
	return true
}

// sigKey spells a signature's parameter and result types without their names, so that
// Shuffle(n int, swap func(i, j int)) and Shuffle(int, func(int, int)) compare equal.
func sigKey(sig *types.Signature) string {
	var b strings.Builder
	tuple := func(t *types.Tuple, variadic bool) {
		b.WriteByte('(')
		for i := range t.Len() {
			if i > 0 {
				b.WriteByte(',')
			}
			if variadic && i == t.Len()-1 {
				b.WriteString("...")
			}
			ty := t.At(i).Type()
			if s, ok := ty.(*types.Signature); ok {
				b.WriteString("func" + sigKey(s))
			} else {
				b.WriteString(types.TypeString(ty, nil))
			}
		}
		b.WriteByte(')')
	}
	tuple(sig.Params(), sig.Variadic())
	tuple(sig.Results(), false)
	return b.String()
}

// sourceMethods are the draws of the generators and sources of math/rand and math/rand/v2
// that a caller may call directly, by type and method.
var sourceMethods = map[string]bool{"PCG.Uint64": true, "ChaCha8.Uint64": true,
	"Source.Int63": true, "Source.Uint64": true, "Source64.Int63": true, "Source64.Uint64": true}

// clockMethods are the time.Time methods whose result, used as a number, is a clock reading.
var clockMethods = map[string]bool{"UnixNano": true, "UnixMicro": true, "UnixMilli": true, "Unix": true, "Nanosecond": true}

// seedFuncs are the functions and methods whose arguments seed a random source.
var seedFuncs = map[string]bool{"NewSource": true, "Seed": true, "NewPCG": true}

// finder finds the sites of one package.
type finder struct {
	warnings []string // what the package's //spreadcheck:ignore comments got wrong
	pkg      *packages.Package
	fset     *token.FileSet
	modDir   string
	defaults map[*types.Var]*types.Func // func-typed variables and fields of the module whose default is a draw
	// assigned holds, for each variable that is not a field, the expressions assigned to it
	// anywhere in the package (x := e, x = e, x op= e, var x = e): what a clock reading held
	// in a local follows to reach a seed.
	assigned map[*types.Var][]ast.Expr
	readVars map[*types.Var]bool // variables, fields and parameters whose bytes the module reads (see reader.go)
	wrappers map[string]wrapper  // the module's functions that return a draw (see wrapped.go)
	// defaultAt maps each default that is a draw to its variable; callers lists the calls
	// through the variables whose default is a site.
	defaultAt map[ast.Expr]*types.Var
	callers   map[*types.Var][]caller
	sites     []*Site
	imports   *importSet
	src       map[string][]byte
	// cgo maps each file of cgo's output to the file the user wrote, and lines holds the
	// lines of those (see offset).
	cgo   map[*token.File]string
	lines map[string]*token.File
}

// Find loads the packages that cfg names (Dir, Patterns, BuildFlags) and returns the sites
// of their non-test files as Run finds them, in file and line order, without building or
// running anything: what benchmarks/audit/reach measures against sites listed by hand.
func Find(ctx context.Context, cfg Config) ([]*Site, error) {
	if len(cfg.Patterns) == 0 {
		cfg.Patterns = []string{"./..."}
	}
	f, err := locate(ctx, cfg)
	return f.sites, err
}

// A found is what locate finds: the sites, the warnings of their //spreadcheck:ignore
// comments, the imports of each package with sites, and the module's path.
type found struct {
	sites    []*Site
	warnings []string
	imps     map[string]*importSet
	module   string
}

// locate loads the packages of cfg and finds their sites, the wrappers followed into the
// module's packages that they import.
func locate(ctx context.Context, cfg Config) (found, error) {
	pkgs, module, modDir, err := load(ctx, cfg)
	if err != nil {
		return found{}, err
	}
	imported, err := loadImported(ctx, cfg, pkgs, module)
	if err != nil {
		return found{}, err
	}
	f := found{imps: map[string]*importSet{}, module: module}
	f.sites, f.warnings = findSites(pkgs, imported, modDir, f.imps)
	return f, nil
}

// findSites returns the draws of the packages' non-test files, in file and line order, and
// the import paths of the packages that have any. The wrappers are those of the packages and
// of the module's packages they import (see loadImported).
func findSites(pkgs, imported []*packages.Package, modDir string, imps map[string]*importSet) ([]*Site, []string) {
	var all []*Site
	var warnings []string
	wrappers := collectWrappers(append(slices.Clip(pkgs), imported...))
	// The defaults and the calls through their variables are the module's: a variable of one
	// package (grpc's internal.RandShuffle) is called in another.
	defaults, callers := map[*types.Var]*types.Func{}, map[*types.Var][]caller{}
	fs := make([]*finder, len(pkgs))
	files := make([][]*ast.File, len(pkgs))
	paths := make([][]string, len(pkgs))
	for i, p := range pkgs {
		fs[i] = &finder{pkg: p, fset: p.Fset, modDir: modDir, defaults: defaults, assigned: map[*types.Var][]ast.Expr{},
			imports: newImportSet(p.Types), src: map[string][]byte{}, wrappers: wrappers, defaultAt: map[ast.Expr]*types.Var{},
			callers: callers, cgo: map[*token.File]string{}, lines: map[string]*token.File{}}
		for j, file := range p.Syntax {
			path := p.CompiledGoFiles[j]
			if !strings.HasSuffix(path, ".go") {
				path = fs[i].cgoSource(file)
			}
			if path != "" && !strings.HasSuffix(path, "_test.go") {
				files[i], paths[i] = append(files[i], file), append(paths[i], path)
			}
		}
	}
	collectReadVars(fs)
	for _, f := range fs {
		f.collectDefaults()
	}
	for i, f := range fs {
		f.collectCallers(files[i])
	}
	for i, f := range fs {
		for j, file := range files[i] {
			f.walk(file, paths[i][j])
		}
		if len(f.sites) > 0 {
			imps[f.pkg.PkgPath] = f.imports
		}
		all = append(all, f.sites...)
		warnings = append(warnings, f.warnings...)
	}
	sort.SliceStable(all, func(i, j int) bool {
		if all[i].File != all[j].File {
			return all[i].File < all[j].File
		}
		return all[i].whole.start < all[j].whole.start
	})
	for i, s := range all {
		s.ID = i
	}
	return all, warnings
}

// cgoSource returns the file of the package that the user wrote of a file of cgo's output,
// which the go command names without .go: the file its //line comments point at, when that
// is one of the package's, or "" (the types and calls cgo writes for the C names).
func (f *finder) cgoSource(file *ast.File) string {
	orig := f.fset.Position(file.Package).Filename
	if !slices.Contains(f.pkg.GoFiles, orig) {
		return ""
	}
	f.cgo[f.fset.File(file.Pos())] = orig
	return orig
}

// collectDefaults finds the func-typed package variables and struct fields that are given a
// draw as a value (var jitter = rand.Float64; b.rand = r.Float64; T{rand: rand.IntN}), and
// the func-typed parameters that a call passes one to (samber/lo's SampleBy(collection,
// xrand.IntN)): the argument is a default of the parameter, for that call.
func (f *finder) collectDefaults() {
	info := f.pkg.TypesInfo
	set := func(lhs ast.Expr, rhs ast.Expr) {
		fn := f.funcValue(rhs)
		if fn == nil {
			return
		}
		var obj types.Object
		switch l := lhs.(type) {
		case *ast.Ident:
			obj = info.ObjectOf(l)
		case *ast.SelectorExpr:
			obj = info.ObjectOf(l.Sel)
		}
		if v, ok := obj.(*types.Var); ok {
			f.defaults[v.Origin()] = fn // a field of a generic type: every instantiation's
			f.defaultAt[rhs] = v.Origin()
		}
	}
	hold := func(lhs, rhs ast.Expr) {
		if id, ok := lhs.(*ast.Ident); ok {
			if v, ok := info.ObjectOf(id).(*types.Var); ok && !v.IsField() {
				f.assigned[v] = append(f.assigned[v], rhs)
			}
		}
	}
	for _, file := range f.pkg.Syntax {
		ast.Inspect(file, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ValueSpec:
				for i := range min(len(n.Names), len(n.Values)) {
					set(n.Names[i], n.Values[i])
					if len(n.Names) == len(n.Values) {
						hold(n.Names[i], n.Values[i])
					}
				}
			case *ast.AssignStmt:
				if len(n.Lhs) == len(n.Rhs) {
					for i := range n.Lhs {
						set(n.Lhs[i], n.Rhs[i])
						hold(n.Lhs[i], n.Rhs[i])
					}
				}
			case *ast.KeyValueExpr:
				if k, ok := n.Key.(*ast.Ident); ok {
					set(k, n.Value)
				}
			case *ast.CallExpr:
				for i, a := range n.Args {
					if fn := f.funcValue(a); fn != nil {
						if p := f.paramOf(n, i)(); p != nil {
							f.defaults[p], f.defaultAt[a] = fn, p
						}
					}
				}
			}
			return true
		})
	}
}

// funcValue returns the draw function that an expression names without calling it, or nil.
func (f *finder) funcValue(e ast.Expr) *types.Func {
	e = ast.Unparen(e)
	if ix, ok := e.(*ast.IndexExpr); ok {
		e = ix.X
	}
	var obj types.Object
	switch e := e.(type) {
	case *ast.Ident:
		obj = f.pkg.TypesInfo.Uses[e]
	case *ast.SelectorExpr:
		obj = f.pkg.TypesInfo.Uses[e.Sel]
	}
	fn, _ := obj.(*types.Func)
	if k, _ := f.drawOf(fn); k == "" {
		return nil
	}
	return fn
}

// walk finds the sites of one file.
func (f *finder) walk(file *ast.File, path string) {
	ignored, warnings := ignores(f.fset, file)
	f.warnings = append(f.warnings, warnings...)
	var stack []ast.Node
	ast.Inspect(file, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		var s *Site
		switch n := n.(type) {
		case *ast.CallExpr:
			s = f.call(n, stack)
			f.seeds(n, stack, path, file, ignored)
		case *ast.BinaryExpr:
			s = f.clockMod(n)
		case *ast.SelectorExpr:
			s = f.reader(n, stack)
		}
		if e, ok := n.(ast.Expr); ok && s == nil && f.defaultAt[e] != nil {
			s = f.defaultSite(e, f.defaultAt[e])
		}
		if s != nil {
			f.add(s, n, stack, path, file, ignored)
		}
		return true
	})
}

// add completes a site found at node n and keeps it unless its line says to ignore it or a
// site with the same span is already kept.
func (f *finder) add(s *Site, n ast.Node, stack []ast.Node, path string, file *ast.File, ignored map[int]ignore) {
	pos := f.fset.Position(n.Pos())
	s.whole = f.span(n)
	if s.whole.start < 0 || s.whole.end < s.whole.start {
		return // a node of cgo's output that the file the user wrote does not hold
	}
	for _, o := range f.sites {
		if o.Path == path && o.whole == s.whole {
			return
		}
	}
	s.Package, s.Path, s.Line = f.pkg.PkgPath, path, pos.Line
	if rel, err := filepath.Rel(f.modDir, path); err == nil {
		s.File = filepath.ToSlash(rel)
	} else {
		s.File = filepath.ToSlash(path)
	}
	s.Func, s.Result, s.Call, s.number = enclosing(stack, f.pkg.TypesInfo, f.imports)
	if s.through != "" { // a default: what matters is where it is called
		s.Func, s.Result, s.Call, s.number = through(s.via, s.through), "", "", false
		if len(s.via) > 0 {
			s.Result, s.Call, s.number = s.via[0].result, s.via[0].call, s.via[0].number
		}
	}
	if s.Draw.Kind == rewrite.BytesDraw || s.Draw.Kind == rewrite.ReaderDraw {
		// Bytes are no number to sample, and the function may only name the reader: what
		// to draw from them is the user's to say.
		s.Result, s.Call = "", ""
	}
	s.Declared = f.declaredResult(s, stack)
	f.equivalent(s, stack)
	if ig, ok := ignored[pos.Line]; ok {
		ig.apply(s)
	}
	f.sites = append(f.sites, s)
}

// call returns the site of a call that draws, or nil.
func (f *finder) call(call *ast.CallExpr, stack []ast.Node) *Site {
	info := f.pkg.TypesInfo
	var fn *types.Func
	switch obj := typeutil.Callee(info, call).(type) {
	case *types.Func:
		fn = obj
	case *types.Var:
		if f.wrappedDefault(obj.Origin()) {
			return nil // the default is the site
		}
		fn = f.defaults[obj.Origin()]
	}
	kind, name := f.drawOf(fn)
	if kind == "" {
		return nil
	}
	s := &Site{Expr: f.text(call), Draw: rewrite.Draw{Kind: kind}}
	if t := info.TypeOf(call); t != nil {
		if _, tuple := t.(*types.Tuple); !tuple {
			f.setType(s, t)
		}
	}
	sp := func(e ast.Expr) span { return f.span(e) }
	switch kind {
	case rewrite.UnitDraw, rewrite.FullDraw, rewrite.NormalDraw, rewrite.ExpDraw:
		s.parts = []span{sp(call)}
		s.Draw.Max = fullMax[name]
	default:
		if len(call.Args) != arityOf(kind) || call.Ellipsis.IsValid() {
			return nil
		}
		s.parts = []span{sp(call.Fun)}
		s.inst = f.instance(call.Fun)
		for _, a := range call.Args {
			s.parts = append(s.parts, sp(a))
		}
	}
	s.Range = f.declaredRange(kind, name, call)
	s.bits = f.drawBits(s, call, name)
	if kind == rewrite.BoundedDraw && f.pure(call.Args[0]) {
		s.bound = f.text(call.Args[0])
	}
	if kind == rewrite.BoundedDraw || kind == rewrite.PermDraw {
		if n, ok := f.constInt(call.Args[0]); ok && n <= 1 {
			s.Equivalent = map[string]string{}
			for _, c := range kind.Classes() {
				s.Equivalent[string(c)] = fmt.Sprintf("the range holds one value at most (n = %d): nothing to change", n)
			}
		}
	}
	return s
}

func arityOf(k rewrite.DrawKind) int {
	switch k {
	case rewrite.BoundedDraw, rewrite.BytesDraw, rewrite.PermDraw:
		return 1
	}
	return 2
}

// clockMod returns the site of a clock reading taken modulo n, or nil.
func (f *finder) clockMod(b *ast.BinaryExpr) *Site {
	if b.Op != token.REM || !f.hasClock(b.X) {
		return nil
	}
	t := f.pkg.TypesInfo.TypeOf(b)
	if t == nil || !isInteger(t) {
		return nil
	}
	s := &Site{Expr: f.text(b), Draw: rewrite.Draw{Kind: rewrite.ClockModDraw}}
	f.setType(s, t)
	s.parts = []span{f.span(b.X), f.span(b.Y)}
	s.Range = fmt.Sprintf("spread.Uniform(0, %s)", f.text(b.Y))
	s.Equivalent = map[string]string{string(spread.SuspectClockDerived): "the value is already read from a clock"}
	return s
}

// seeds adds a site for each argument of a seeding call that is read from a clock.
func (f *finder) seeds(call *ast.CallExpr, stack []ast.Node, path string, file *ast.File, ignored map[int]ignore) {
	fn, _ := typeutil.Callee(f.pkg.TypesInfo, call).(*types.Func)
	if fn == nil || fn.Pkg() == nil || !randPkgs[fn.Pkg().Path()] || !seedFuncs[fn.Name()] {
		return
	}
	for _, a := range call.Args {
		t := f.pkg.TypesInfo.TypeOf(a)
		if !f.hasClock(a) || t == nil || !isInteger(t) {
			continue
		}
		s := &Site{Expr: f.text(a), Draw: rewrite.Draw{Kind: rewrite.ClockSeed, Type: f.imports.spell(t)}}
		s.parts = []span{f.span(a)}
		f.add(s, a, append(stack, a), path, file, ignored)
	}
}

// hasClock reports whether an expression reads the wall clock as a number (t.UnixNano() and
// the like), outside any function literal, itself or through the variables it reads: a
// reading held in a local (seed := time.Now().UnixNano()) and passed on through assignments
// reaches the expression as surely as the call written in place.
func (f *finder) hasClock(e ast.Expr) bool {
	return f.clockIn(e, map[*types.Var]bool{})
}

// clockIn is hasClock, following each variable once.
func (f *finder) clockIn(e ast.Expr, seen map[*types.Var]bool) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if fn, ok := typeutil.Callee(f.pkg.TypesInfo, n).(*types.Func); ok && clockMethods[fn.Name()] &&
				fn.Pkg() != nil && fn.Pkg().Path() == "time" && fn.Signature().Recv() != nil {
				found = true
			}
		case *ast.Ident:
			if v, ok := f.pkg.TypesInfo.Uses[n].(*types.Var); ok && !seen[v] {
				seen[v] = true
				for _, rhs := range f.assigned[v] {
					if f.clockIn(rhs, seen) {
						found = true
						break
					}
				}
			}
		}
		return !found
	})
	return found
}

// instance returns the type arguments, as "[T1, T2]", of a generic function that an
// expression names without them (rand.N, whose type arguments the call infers), or "". The
// rewrite passes the function to a helper as a value, and Go before 1.21 infers no type
// arguments there ("implicitly instantiated function as argument requires go1.21"), so it
// passes rand.N[T]. A type argument made of type parameters is spelled as the enclosing
// function names them; any other by an alias that the package's schema file declares, since
// the rewritten file may not import the type's package (rand.N(b.Max) in a file that names
// no time.Duration).
func (f *finder) instance(e ast.Expr) string {
	var id *ast.Ident
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		id = e
	case *ast.SelectorExpr:
		id = e.Sel
	}
	inst, ok := f.pkg.TypesInfo.Instances[id]
	if id == nil || !ok {
		return ""
	}
	args := make([]string, inst.TypeArgs.Len())
	for i := range args {
		t := inst.TypeArgs.At(i)
		if hasTypeParam(t) {
			args[i] = types.TypeString(t, f.imports.userQualifier)
		} else {
			args[i] = f.imports.alias(t)
		}
	}
	return "[" + strings.Join(args, ", ") + "]"
}

// constInt returns the value of a constant integer expression.
func (f *finder) constInt(e ast.Expr) (int64, bool) {
	tv, ok := f.pkg.TypesInfo.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.Int {
		return 0, false
	}
	return constant.Int64Val(tv.Value)
}

func (f *finder) text(n ast.Node) string {
	sp := f.span(n)
	src := f.source(f.original(f.fset.File(n.Pos())))
	if sp.start < 0 || sp.end > len(src) || sp.start > sp.end {
		return "" // a position of cgo's output that maps to no byte of the file the user wrote
	}
	return string(src[sp.start:sp.end])
}

// span returns the bytes of a node in the file the user wrote.
func (f *finder) span(n ast.Node) span { return span{f.offset(n.Pos()), f.offset(n.End())} }

// offset returns where a position stands in the file the user wrote. go/packages gives a
// package that imports "C" the cgo command's output, a file in the build cache whose //line
// comments (of lines, and of columns after each C name it replaced) point at the user's file:
// there the offset follows from the line and column they give.
func (f *finder) offset(pos token.Pos) int {
	tf := f.fset.File(pos)
	orig, ok := f.cgo[tf]
	if !ok {
		return tf.Offset(pos)
	}
	p := f.fset.Position(pos) // honours //line
	lines := f.lines[orig]
	if lines == nil {
		src := f.source(orig)
		lines = token.NewFileSet().AddFile(orig, -1, len(src))
		lines.SetLinesForContent(src)
		f.lines[orig] = lines
	}
	if p.Filename != orig || p.Line < 1 || p.Line > lines.LineCount() {
		return -1
	}
	return lines.Offset(lines.LineStart(p.Line)) + p.Column - 1
}

// original returns the file that the user wrote of a file the package was compiled from.
func (f *finder) original(tf *token.File) string {
	if orig, ok := f.cgo[tf]; ok {
		return orig
	}
	return tf.Name()
}

// source returns a file's bytes, read once.
func (f *finder) source(path string) []byte {
	if src, ok := f.src[path]; ok {
		return src
	}
	src, _ := os.ReadFile(path) // go/packages has just read it; an error leaves the text empty
	f.src[path] = src
	return src
}

// declaredRange returns the spread distribution a draw's value follows, as source text.
func (f *finder) declaredRange(kind rewrite.DrawKind, name string, call *ast.CallExpr) string {
	switch kind {
	case rewrite.UnitDraw:
		return "spread.Uniform(0.0, 1.0)"
	case rewrite.BoundedDraw:
		return fmt.Sprintf("spread.Uniform(0, %s)", f.text(call.Args[0]))
	case rewrite.BigDraw:
		return fmt.Sprintf("spread.Uniform(0, %s.Int64())", f.text(call.Args[1]))
	case rewrite.NormalDraw:
		return "spread.Continuous(distuv.Normal{Mu: 0, Sigma: 1})"
	case rewrite.ExpDraw:
		return "spread.Continuous(distuv.Exponential{Rate: 1})"
	case rewrite.FullDraw:
		return fmt.Sprintf("spread.Uniform(0, %s)", fullMax[name])
	case rewrite.BytesDraw:
		return byteRange
	}
	return ""
}

// byteRange is the distribution of each random byte.
const byteRange = "spread.UniformClosed[byte](0, 255), byte by byte"

// enclosing returns the name of the function that holds the innermost node of the stack, its
// first result type, a call of it with its parameters' names as arguments, and whether that
// result is a number spread.Draw samples.
func enclosing(stack []ast.Node, info *types.Info, imps *importSet) (name, result, call string, number bool) {
	closure := false
	for i := len(stack) - 1; i >= 0; i-- {
		if _, ok := stack[i].(*ast.FuncLit); ok {
			closure = true
		}
		fd, ok := stack[i].(*ast.FuncDecl)
		if !ok {
			continue
		}
		name, call = fd.Name.Name, fd.Name.Name
		if fd.Recv != nil && len(fd.Recv.List) == 1 {
			f := fd.Recv.List[0]
			recv := types.ExprString(f.Type)
			if strings.HasPrefix(recv, "*") {
				recv = "(" + recv + ")"
			}
			name = recv + "." + name
			if len(f.Names) == 1 && f.Names[0].Name != "_" {
				call = f.Names[0].Name + "." + call
			} else {
				call = "x." + call
			}
		}
		var params []string
		for _, f := range fd.Type.Params.List {
			for _, n := range f.Names {
				params = append(params, n.Name)
			}
			if len(f.Names) == 0 {
				params = append(params, "_")
			}
		}
		obj, _ := info.Defs[fd.Name].(*types.Func)
		for i, p := range params {
			if p == "_" && obj != nil && i < obj.Signature().Params().Len() {
				// A parameter the function ignores: any value of its type does.
				params[i] = zeroValue(obj.Signature().Params().At(i).Type(), imps.userQualifier)
			}
		}
		call += "(" + strings.Join(params, ", ") + ")"
		if closure {
			// The draw is in a function literal that fd returns or passes on: calling fd
			// samples nothing, so there is no call to suggest.
			return name, "", "", false
		}
		if obj != nil && obj.Signature().Results().Len() > 0 {
			t := concrete(obj.Signature().Results().At(0).Type())
			result, number = types.TypeString(t, imps.userQualifier), isNumber(t)
		}
		return name, result, call, number
	}
	return "package initialisation", "", "", false
}

// isNumber reports whether t satisfies spread.Number: its underlying type is an integer or a
// float (complex numbers, strings and pointers are not).
func isNumber(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&(types.IsInteger|types.IsFloat) != 0 && b.Info()&types.IsUntyped == 0
}

// concrete returns, for a type parameter whose constraint is one type (~int64), that type: a
// test that samples a generic function names a type it instantiates the function with.
// Any other type is returned as it is.
func concrete(t types.Type) types.Type {
	tp, ok := types.Unalias(t).(*types.TypeParam)
	if !ok {
		return t
	}
	iface, _ := tp.Constraint().Underlying().(*types.Interface)
	if iface == nil || iface.NumEmbeddeds() != 1 {
		return t
	}
	switch e := iface.EmbeddedType(0).(type) {
	case *types.Union:
		if e.Len() == 1 {
			return e.Term(0).Type()
		}
	case *types.Basic:
		return e
	}
	return t
}

// isInteger reports whether t is an integer type, or made of type parameters that admit
// integer types only.
func isInteger(t types.Type) bool {
	if hasTypeParam(t) {
		return types.Satisfies(t, integerConstraint)
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

// setType records the type of a site's draw. A type made of the enclosing function's type
// parameters cannot be named by a package-level helper; when every type it admits is an
// integer type, the helper is generic (rewrite.Draw.Generic) and its own type parameter has
// every operation the rewrite needs. Otherwise the site is not viable, and says why.
func (f *finder) setType(s *Site, t types.Type) {
	s.Draw.Type = f.imports.spell(t)
	if b, ok := t.Underlying().(*types.Basic); ok {
		s.Draw.Unsigned = b.Info()&types.IsUnsigned != 0
	}
	if !hasTypeParam(t) {
		return
	}
	integer := s.Draw.Kind == rewrite.BoundedDraw || s.Draw.Kind == rewrite.ClockModDraw
	if integer && types.Satisfies(t, integerConstraint) {
		s.Draw.Generic = true
		return
	}
	s.NotViable = fmt.Sprintf("the draw's type %s is made of type parameters and admits more than integer types: "+
		"a package-level helper cannot name it, and a generic one could not do the rewrite's arithmetic (n/2, -x, x%%n) on all of them", t)
}

// integerConstraint is rewrite.IntegerConstraint as a type: every integer type.
var integerConstraint = func() *types.Interface {
	var terms []*types.Term
	for _, k := range []types.BasicKind{types.Int, types.Int8, types.Int16, types.Int32, types.Int64,
		types.Uint, types.Uint8, types.Uint16, types.Uint32, types.Uint64, types.Uintptr} {
		terms = append(terms, types.NewTerm(true, types.Typ[k]))
	}
	iface := types.NewInterfaceType(nil, []types.Type{types.NewUnion(terms)})
	iface.Complete()
	return iface
}()

// hasTypeParam reports whether a type mentions a type parameter.
func hasTypeParam(t types.Type) bool {
	switch t := types.Unalias(t).(type) {
	case *types.TypeParam:
		return true
	case *types.Named:
		args := t.TypeArgs()
		for i := range args.Len() {
			if hasTypeParam(args.At(i)) {
				return true
			}
		}
	case *types.Pointer:
		return hasTypeParam(t.Elem())
	case *types.Slice:
		return hasTypeParam(t.Elem())
	}
	return false
}

// zeroValue returns the zero value of a type as Go source.
func zeroValue(t types.Type, q types.Qualifier) string {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch {
		case u.Info()&types.IsNumeric != 0:
			return "0"
		case u.Info()&types.IsString != 0:
			return `""`
		case u.Info()&types.IsBoolean != 0:
			return "false"
		}
	case *types.Struct, *types.Array:
		return types.TypeString(t, q) + "{}"
	}
	return "nil"
}
