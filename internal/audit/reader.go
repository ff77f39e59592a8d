package audit

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/spreadcheck/spreadcheck/internal/rewrite"
)

// crypto/rand's Reader is read as an io.Reader for nonces, tokens and keys: io.ReadFull(
// rand.Reader, nonce), io.CopyN(w, rand.Reader, n), rand.Reader.Read(b). Such a reference is
// a site (rewrite.ReaderDraw) whose helper wraps the reader, so that the class active at the
// site mutates the bytes read through it. The site is the reference itself wherever the
// reader then goes, followed with types: straight into a read; into a variable or field
// that the package reads (a default, r.rand = rand.Reader, that tests may replace with a
// fake of their own, whose bytes no mutant touches); into a parameter of the package's own
// functions that they read, or pass on to one that does. A reference that goes anywhere
// else (crypto/rand.Int's argument, a key generator's) is no site: no read of its bytes is
// the package's.

// readerFuncs are the functions of package io, and of bufio, that read their argument number
// i, or wrap it in a reader that does.
var readerFuncs = map[string]int{
	"io.ReadFull": 0, "io.ReadAtLeast": 0, "io.ReadAll": 0, "io.LimitReader": 0, "io.TeeReader": 0,
	"io.Copy": 1, "io.CopyN": 1, "io.CopyBuffer": 1, "bufio.NewReader": 0, "bufio.NewReaderSize": 0,
}

// readSource returns the expression whose bytes a call reads, or nil: an argument of the
// functions of readerFuncs, or the receiver of a Read([]byte) (int, error) method.
func (f *finder) readSource(call *ast.CallExpr) ast.Expr {
	fn, ok := typeutil.Callee(f.pkg.TypesInfo, call).(*types.Func)
	if !ok || fn.Pkg() == nil {
		return nil
	}
	if fn.Signature().Recv() == nil {
		if i, ok := readerFuncs[fn.Pkg().Path()+"."+fn.Name()]; ok && i < len(call.Args) {
			return ast.Unparen(call.Args[i])
		}
		return nil
	}
	sig := fn.Signature()
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && fn.Name() == "Read" && sig.Params().Len() == 1 &&
		sig.Results().Len() == 2 && types.Identical(sig.Params().At(0).Type(), types.NewSlice(types.Typ[types.Byte])) {
		return ast.Unparen(sel.X)
	}
	return nil
}

// varOf returns the variable (or field, through its origin) that an expression names.
func (f *finder) varOf(e ast.Expr) *types.Var {
	var obj types.Object
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		obj = f.pkg.TypesInfo.ObjectOf(e)
	case *ast.SelectorExpr:
		obj = f.pkg.TypesInfo.ObjectOf(e.Sel)
	}
	if v, ok := obj.(*types.Var); ok {
		return v.Origin()
	}
	return nil
}

// collectReadVars returns the variables, fields and parameters whose bytes the module's
// packages read: those read directly, and, to a fixed point, those whose value goes to one
// that is read, in any package of the module: an argument for a parameter of a function
// that is read (nonce.Fill(r, b) reads r), and a variable assigned or given as a field's
// value to one that is read (s.rand = r in a constructor or an option). A package is a
// finder's view of its files (readSource, varOf), and the variables are those of one
// go/packages load, shared by every package that imports another.
func collectReadVars(fs []*finder) map[*types.Var]bool {
	read := map[*types.Var]bool{}
	type flow struct {
		to   func() *types.Var // where the value goes, once known to be read
		from *types.Var
	}
	var flows []flow
	for _, f := range fs {
		f.readVars = read
		for _, file := range f.pkg.Syntax {
			ast.Inspect(file, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.CallExpr:
					if v := f.varOf(f.readSource(n)); v != nil {
						read[v] = true
					}
					for i, a := range n.Args {
						if v := f.varOf(a); v != nil {
							flows = append(flows, flow{f.paramOf(n, i), v})
						}
					}
				case *ast.AssignStmt:
					if len(n.Lhs) == len(n.Rhs) {
						for i, r := range n.Rhs {
							if v := f.varOf(r); v != nil {
								flows = append(flows, flow{constVar(f.varOf(n.Lhs[i])), v})
							}
						}
					}
				case *ast.KeyValueExpr:
					if v := f.varOf(n.Value); v != nil {
						if _, ok := n.Key.(*ast.Ident); ok {
							flows = append(flows, flow{constVar(f.varOf(n.Key)), v})
						}
					}
				}
				return true
			})
		}
	}
	for changed := true; changed; {
		changed = false
		for _, fl := range flows {
			if to := fl.to(); to != nil && read[to] && !read[fl.from] {
				read[fl.from], changed = true, true
			}
		}
	}
	return read
}

func constVar(v *types.Var) func() *types.Var { return func() *types.Var { return v } }

// paramOf returns, for argument i of a call, the parameter of the callee it goes to, when
// the callee is a function with that parameter (not the variadic one).
func (f *finder) paramOf(call *ast.CallExpr, i int) func() *types.Var {
	return func() *types.Var {
		fn, ok := typeutil.Callee(f.pkg.TypesInfo, call).(*types.Func)
		if !ok {
			return nil
		}
		params := fn.Origin().Signature().Params()
		if i >= params.Len() || fn.Signature().Variadic() && i >= params.Len()-1 {
			return nil
		}
		return params.At(i).Origin()
	}
}

// readParam reports whether argument i of a call goes to a parameter whose bytes the
// module reads.
func (f *finder) readParam(call *ast.CallExpr, i int) bool {
	v := f.paramOf(call, i)()
	return v != nil && f.readVars[v]
}

// isCryptoReader reports whether an expression is crypto/rand's Reader.
func (f *finder) isCryptoReader(e ast.Expr) bool {
	v := f.varOf(e)
	return v != nil && v.Pkg() != nil && v.Pkg().Path() == "crypto/rand" && v.Name() == "Reader"
}

// reader returns the site of a reference to crypto/rand's Reader at the top of the stack
// whose bytes the package reads, or nil.
func (f *finder) reader(sel *ast.SelectorExpr, stack []ast.Node) *Site {
	if !f.isCryptoReader(sel) || !f.readHere(stack) {
		return nil
	}
	s := &Site{Expr: f.text(sel), Draw: rewrite.Draw{Kind: rewrite.ReaderDraw}, Range: byteRange}
	s.parts = []span{f.span(sel)}
	return s
}

// readHere reports whether the value at the top of the stack is read where it goes: as the
// source of a read, into a read variable, field or parameter.
func (f *finder) readHere(stack []ast.Node) bool {
	n, i, child := around(stack)
	switch p := n.(type) {
	case *ast.SelectorExpr: // r.Read, the method value of a call
		call, ok := stack[max(i-1, 0)].(*ast.CallExpr)
		return ok && call.Fun == p && f.readSource(call) == child
	case *ast.CallExpr:
		if f.readSource(p) == child {
			return true
		}
		for j, a := range p.Args {
			if a == child {
				return f.readParam(p, j)
			}
		}
	case *ast.AssignStmt:
		for j, r := range p.Rhs {
			if r == child && len(p.Lhs) == len(p.Rhs) {
				return f.readVars[f.varOf(p.Lhs[j])]
			}
		}
	case *ast.ValueSpec:
		for j, v := range p.Values {
			if v == child && len(p.Names) == len(p.Values) {
				return f.readVars[f.varOf(p.Names[j])]
			}
		}
	case *ast.KeyValueExpr:
		return p.Value == child && f.readVars[f.varOf(p.Key)]
	}
	return false
}
