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

// collectReadVars finds the variables, fields and parameters whose bytes the package reads:
// those read directly, and, to a fixed point, those passed as an argument for a parameter of
// the package's own functions that is read.
func (f *finder) collectReadVars() {
	f.readVars = map[*types.Var]bool{}
	var calls []*ast.CallExpr
	for _, file := range f.pkg.Syntax {
		ast.Inspect(file, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				calls = append(calls, call)
				if v := f.varOf(f.readSource(call)); v != nil {
					f.readVars[v] = true
				}
			}
			return true
		})
	}
	for changed := true; changed; {
		changed = false
		for _, call := range calls {
			for i, a := range call.Args {
				if v := f.varOf(a); v != nil && !f.readVars[v] && f.readParam(call, i) {
					f.readVars[v], changed = true, true
				}
			}
		}
	}
}

// readParam reports whether argument i of a call goes to a parameter, of one of the package's
// own functions, whose bytes the package reads.
func (f *finder) readParam(call *ast.CallExpr, i int) bool {
	fn, ok := typeutil.Callee(f.pkg.TypesInfo, call).(*types.Func)
	if !ok || fn.Pkg() != f.pkg.Types {
		return false
	}
	params := fn.Origin().Signature().Params()
	if i >= params.Len() || fn.Signature().Variadic() && i >= params.Len()-1 {
		return false
	}
	return f.readVars[params.At(i).Origin()]
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
	tf := f.fset.File(sel.Pos())
	s := &Site{Expr: f.text(sel), Draw: rewrite.Draw{Kind: rewrite.ReaderDraw}, Range: byteRange}
	s.parts = []span{{tf.Offset(sel.Pos()), tf.Offset(sel.End())}}
	return s
}

// readHere reports whether the value at the top of the stack is read where it goes: as the
// source of a read, into a read variable, field or parameter.
func (f *finder) readHere(stack []ast.Node) bool {
	child := stack[len(stack)-1]
	for i := len(stack) - 2; i >= 0; i-- {
		switch p := stack[i].(type) {
		case *ast.ParenExpr:
			child = p
			continue
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
	return false
}
