package audit

import (
	"context"
	"fmt"
	"go/ast"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/spreadcheck/spreadcheck/internal/rewrite"
	"github.com/spreadcheck/spreadcheck/internal/testbin"
)

// Draws reach code through the module's own functions and through func-typed variables and
// fields, followed with types:
//
//   - A wrapper is a function of the module whose every return is a draw (return
//     rand.Float64(); res := r.Int63n(n); return res), or a call of another wrapper; a bounded
//     one passes its parameter on as the bound. Its draw is a site in its own package. In
//     another package of the module, a call of it is a site too, of the wrapper's kind: a
//     mutant there changes the caller alone, where the wrapper's own site changes every
//     caller in the module.
//   - A func-typed variable or field whose default is a draw (var jitter = rand.Float64;
//     T{pick: rand.IntN}; b.rand = randutil.Float64, a wrapper of another package) is a site
//     at the default: the helper wraps the function, so that the mutant changes the values
//     of the default alone. A mutant at the calls through the variable would change what a
//     test puts there instead (a fake returning 0.5), and a test of the arithmetic around a
//     fake would kill it without looking at any randomness. The report names the functions
//     that call through the variable, and suggests sampling the first.

// A wrapper is what a module function's result draws: the kind and the name of the draw
// (Float64, Int63n) at the bottom of the wrappers.
type wrapper struct {
	kind rewrite.DrawKind
	name string
}

// A caller is a function that calls through a variable whose default is a draw.
type caller struct {
	name, result, call string
	number             bool // result is a spread.Number (see enclosing)
}

// loadImported loads the packages of the module that the audited packages import, directly
// or through one another, and that the patterns did not name: collectWrappers reads them, so
// that a call of a wrapper of such a package is a site of the audited one (samber/lo audited
// as `.`, its wrappers in internal/xrand). Wrappers are known by their full names, which are
// the same in this load as in the audited packages' view of them. Nothing is loaded when the
// patterns name every package imported (./...) or the code is in no module.
func loadImported(ctx context.Context, cfg Config, pkgs []*packages.Package, module string) ([]*packages.Package, error) {
	if module == "" {
		return nil, nil
	}
	seen := map[string]bool{}
	for _, p := range pkgs {
		seen[p.PkgPath] = true
	}
	mode := packages.NeedName | packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo | packages.NeedModule
	flags := slices.DeleteFunc(slices.Clone(cfg.BuildFlags), isVet)
	var imported []*packages.Package
	for next := pkgs; len(next) > 0; {
		var paths []string
		for _, p := range next {
			if p.Types == nil {
				continue
			}
			for _, imp := range p.Types.Imports() {
				if path := imp.Path(); !seen[path] && (path == module || strings.HasPrefix(path, module+"/")) {
					seen[path] = true
					paths = append(paths, path)
				}
			}
		}
		if len(paths) == 0 {
			break
		}
		loaded, err := packages.Load(&packages.Config{Context: ctx, Mode: mode, Dir: cfg.Dir, BuildFlags: flags, Env: testbin.GoEnv()}, paths...)
		if err != nil {
			return nil, err
		}
		// A nested module's packages share the path's prefix but are not the module's.
		next = slices.DeleteFunc(loaded, func(p *packages.Package) bool { return p.Module == nil || p.Module.Path != module })
		imported = append(imported, next...)
	}
	return imported, nil
}

// collectWrappers returns the wrappers of the loaded packages, by the functions' full names
// (types.Func.FullName), to a fixed point.
func collectWrappers(pkgs []*packages.Package) map[string]wrapper {
	type decl struct {
		fd   *ast.FuncDecl
		info *types.Info
	}
	var decls []decl
	for _, p := range pkgs {
		for _, file := range p.Syntax {
			for _, d := range file.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil && fd.Type.Results.NumFields() <= 1 {
					decls = append(decls, decl{fd, p.TypesInfo})
				}
			}
		}
	}
	ws := map[string]wrapper{}
	for changed := true; changed; {
		changed = false
		for _, d := range decls {
			fn, _ := d.info.Defs[d.fd.Name].(*types.Func)
			if fn == nil {
				continue
			}
			if _, done := ws[fn.FullName()]; done {
				continue
			}
			w, ok := shuffles(d.fd, fn, d.info, ws)
			if !ok && d.fd.Type.Results.NumFields() == 1 {
				w, ok = wraps(d.fd, fn, d.info, ws)
			}
			if ok {
				ws[fn.FullName()], changed = w, true
			}
		}
	}
	return ws
}

// wraps reports what a function's every return draws, when they all draw alike.
func wraps(fd *ast.FuncDecl, fn *types.Func, info *types.Info, ws map[string]wrapper) (wrapper, bool) {
	held := map[*types.Var][]ast.Expr{} // locals and what is assigned to them
	var rets []ast.Expr
	ok := true
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				if id, isID := l.(*ast.Ident); isID && len(n.Lhs) == len(n.Rhs) {
					if v, isVar := info.ObjectOf(id).(*types.Var); isVar {
						held[v] = append(held[v], n.Rhs[i])
					}
				}
			}
		case *ast.ReturnStmt:
			if len(n.Results) != 1 {
				ok = false
			} else {
				rets = append(rets, n.Results[0])
			}
		}
		return ok
	})
	if !ok || len(rets) == 0 {
		return wrapper{}, false
	}
	var w wrapper
	for i, r := range rets {
		r = ast.Unparen(r)
		if id, isID := r.(*ast.Ident); isID {
			if v, isVar := info.Uses[id].(*types.Var); isVar && len(held[v]) == 1 {
				r = ast.Unparen(held[v][0])
			}
		}
		call, isCall := r.(*ast.CallExpr)
		if !isCall {
			return wrapper{}, false
		}
		d, ok := drawOfCall(call, fn, info, ws)
		if !ok || i > 0 && d != w {
			return wrapper{}, false
		}
		w = d
	}
	return w, true
}

// shuffles reports whether a function of no result shuffles as rand.Shuffle does: it takes
// Shuffle's parameters (n int, swap func(i, j int)) and hands them, as they are, to a
// Shuffle draw or another such wrapper (under a lock, say).
func shuffles(fd *ast.FuncDecl, fn *types.Func, info *types.Info, ws map[string]wrapper) (wrapper, bool) {
	sig := fn.Signature()
	if !types.Identical(types.NewSignatureType(nil, nil, nil, sig.Params(), sig.Results(), false), shuffleSig) {
		return wrapper{}, false
	}
	found := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if _, lit := n.(*ast.FuncLit); lit || found {
			return false
		}
		stmt, ok := n.(*ast.ExprStmt)
		if !ok {
			return true
		}
		call, ok := ast.Unparen(stmt.X).(*ast.CallExpr)
		if !ok || len(call.Args) != 2 {
			return true
		}
		callee, _ := typeutil.Callee(info, call).(*types.Func)
		if callee == nil {
			return true
		}
		w, isW := ws[callee.FullName()]
		if k, _ := randFunc(callee); k == rewrite.ShuffleDraw || isW && w.kind == rewrite.ShuffleDraw {
			found = true
			for i, a := range call.Args {
				id, isID := ast.Unparen(a).(*ast.Ident)
				found = found && isID && info.Uses[id] == sig.Params().At(i)
			}
		}
		return !found
	})
	return wrapper{rewrite.ShuffleDraw, "Shuffle"}, found
}

// drawOfCall returns what a call in the body of fn draws, when it is a draw or a wrapper's
// call whose value the function can return as its own: a draw of a value kind, or a bounded
// draw or a permutation whose bound is fn's one parameter.
func drawOfCall(call *ast.CallExpr, fn *types.Func, info *types.Info, ws map[string]wrapper) (wrapper, bool) {
	callee, _ := typeutil.Callee(info, call).(*types.Func)
	if callee == nil {
		return wrapper{}, false
	}
	w, ok := ws[callee.FullName()]
	if !ok {
		k, name := randFunc(callee)
		w, ok = wrapper{k, name}, k != ""
	}
	switch {
	case !ok:
		return wrapper{}, false
	case w.kind == rewrite.BoundedDraw || w.kind == rewrite.PermDraw:
		params := fn.Signature().Params()
		if len(call.Args) != 1 || params.Len() != 1 {
			return wrapper{}, false
		}
		id, isID := ast.Unparen(call.Args[0]).(*ast.Ident)
		return w, isID && info.Uses[id] == params.At(0)
	}
	return w, callKinds[w.kind]
}

// callKinds are the kinds whose draw is the whole value of a call, which a wrapper may return.
var callKinds = map[rewrite.DrawKind]bool{rewrite.UnitDraw: true, rewrite.FullDraw: true,
	rewrite.NormalDraw: true, rewrite.ExpDraw: true}

// drawOf returns the kind of draw that a function is, and its name: a draw of a random
// package, or a wrapper of another package of the module.
func (f *finder) drawOf(fn *types.Func) (rewrite.DrawKind, string) {
	if k, name := randFunc(fn); k != "" || fn == nil {
		return k, name
	}
	if w, ok := f.wrappers[fn.FullName()]; ok && fn.Pkg() != f.pkg.Types {
		return w.kind, w.name
	}
	return "", ""
}

// wrappedDefault reports whether the default of a variable is a site of its own (see
// defaultSite), which the calls through the variable are not.
func (f *finder) wrappedDefault(v *types.Var) bool {
	k, _ := f.drawOf(f.defaults[v])
	return callKinds[k] || k == rewrite.BoundedDraw || k == rewrite.PermDraw || k == rewrite.ShuffleDraw
}

// defaultSite returns the site of the default of a func-typed variable or field, e, or nil.
func (f *finder) defaultSite(e ast.Expr, v *types.Var) *Site {
	kind, name := f.drawOf(f.defaults[v])
	sig, _ := types.Unalias(f.pkg.TypesInfo.TypeOf(e)).Underlying().(*types.Signature)
	if sig == nil || !f.wrappedDefault(v) || !defaultSignature(kind, sig) {
		return nil
	}
	s := &Site{Expr: f.text(e), Draw: rewrite.Draw{Kind: kind, FuncValue: true, Max: fullMax[name]},
		parts: []span{f.span(e)}, inst: f.instance(e)}
	if v.IsField() || v.Parent() == v.Pkg().Scope() {
		// A parameter's default is one call's argument: the function that passes it is the
		// one to sample, not every function that calls through the parameter.
		s.via, s.through = f.callers[v], v.Name()
	}
	if sig.Results().Len() == 1 {
		f.setType(s, sig.Results().At(0).Type())
	}
	if kind == rewrite.BoundedDraw {
		s.Range = "spread.Uniform(0, n)"
	} else {
		s.Range = f.declaredRange(kind, name, nil)
	}
	return s
}

// defaultSignature reports whether a default's function type is the one its kind's helper
// wraps (rewrite.Draw.FuncValue): func() T, a bounded draw's func(T) T, Perm's func(int)
// []int, Shuffle's func(int, func(int, int)).
func defaultSignature(kind rewrite.DrawKind, sig *types.Signature) bool {
	params, results := sig.Params(), sig.Results()
	switch kind {
	case rewrite.BoundedDraw:
		return params.Len() == 1 && results.Len() == 1 && types.Identical(params.At(0).Type(), results.At(0).Type())
	case rewrite.PermDraw:
		return types.Identical(sig, permSig)
	case rewrite.ShuffleDraw:
		return types.Identical(sig, shuffleSig)
	}
	return params.Len() == 0 && results.Len() == 1
}

// permSig and shuffleSig are the signatures of rand.Perm and rand.Shuffle.
var (
	intVar     = types.NewParam(0, nil, "", types.Typ[types.Int])
	permSig    = types.NewSignatureType(nil, nil, nil, types.NewTuple(intVar), types.NewTuple(types.NewParam(0, nil, "", types.NewSlice(types.Typ[types.Int]))), false)
	swapSig    = types.NewSignatureType(nil, nil, nil, types.NewTuple(intVar, intVar), nil, false)
	shuffleSig = types.NewSignatureType(nil, nil, nil, types.NewTuple(intVar, types.NewParam(0, nil, "", swapSig)), nil, false)
)

// collectCallers adds, for each variable whose default is a site, the functions of the
// package's non-test files that call through it, in file order.
func (f *finder) collectCallers(files []*ast.File) {
	for _, file := range files {
		var stack []ast.Node
		ast.Inspect(file, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return true
			}
			stack = append(stack, n)
			if call, ok := n.(*ast.CallExpr); ok {
				if v, ok := typeutil.Callee(f.pkg.TypesInfo, call).(*types.Var); ok && f.wrappedDefault(v.Origin()) {
					name, result, c, number := enclosing(stack, f.pkg.TypesInfo, f.imports)
					f.callers[v.Origin()] = append(f.callers[v.Origin()], caller{name, result, c, number})
				}
			}
			return true
		})
	}
}

// sampled returns the function whose values a test should sample to check the site: the
// first that calls through a default's variable, the enclosing function otherwise.
func (s *Site) sampled() string {
	if len(s.via) > 0 {
		return s.via[0].name
	}
	return s.Func
}

// through names, for a default's site, the functions that call through its variable.
func through(via []caller, name string) string {
	if len(via) == 0 {
		return fmt.Sprintf("none: nothing calls through %s", name)
	}
	seen := map[string]bool{}
	for _, c := range via {
		seen[c.name] = true
	}
	more := ""
	if len(seen) > 1 {
		more = fmt.Sprintf(" and %d more", len(seen)-1)
	}
	return fmt.Sprintf("%s%s, through %s", via[0].name, more, name)
}
