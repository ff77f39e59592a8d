package spreadvet

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"
)

// Byte draws. Random bytes from crypto/rand (or math/rand's Read) have no distribution the
// numeric checks could read, but a function whose result is computed from them is as random
// as one that calls rand.IntN: a constant in place of the bytes is exactly what a test that
// checks only the length and the alphabet of an ID cannot see.

// byteDraw returns the name of the draw of random bytes (or of a crypto/rand number or text)
// that call makes, for messages, or "": a function of crypto/rand (Read, Int, Prime, Text),
// a call handed crypto/rand.Reader (io.ReadFull(rand.Reader, b)) or made on it
// (rand.Reader.Read(b)), or math/rand's Read and (*rand.Rand).Read.
func (c *checker) byteDraw(call *ast.CallExpr) string {
	fn, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	if !ok || fn.Pkg() == nil {
		return ""
	}
	switch path := fn.Pkg().Path(); {
	case path == "crypto/rand":
		return "crypto/rand." + fn.Name()
	case isRandPkg(path) && fn.Name() == "Read":
		return "rand.Read"
	}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && c.isCryptoReader(sel.X) {
		return "crypto/rand.Reader." + fn.Name()
	}
	for _, a := range call.Args {
		if c.isCryptoReader(a) {
			return fn.Pkg().Name() + "." + fn.Name() + "(crypto/rand.Reader)"
		}
	}
	return ""
}

// isByteDraw reports whether via, a randomFunc's Via, names a draw byteDraw found.
func isByteDraw(via string) bool {
	return strings.HasPrefix(via, "crypto/rand.") || via == "rand.Read" || strings.HasSuffix(via, "(crypto/rand.Reader)")
}

// isCryptoReader reports whether e is the variable crypto/rand.Reader, or a package-level
// variable of this package that holds it (see cryptoVars).
func (c *checker) isCryptoReader(e ast.Expr) bool {
	v, ok := c.objOf(ast.Unparen(e)).(*types.Var)
	return ok && (isRandReader(v) || c.cryptoVars()[v])
}

// isRandReader reports whether v is crypto/rand.Reader.
func isRandReader(v *types.Var) bool {
	return v.Pkg() != nil && v.Pkg().Path() == "crypto/rand" && v.Name() == "Reader"
}

// cryptoVars returns the package-level variables of this package that its non-test code gives
// crypto/rand.Reader and otherwise only a parameter of the function that gives it one (go-faker's
// crypto, set to crypto/rand.Reader in init and by SetCryptoSource(in)): by default they read
// crypto/rand, and a source a caller hands in is the caller's choice, as a func variable a test
// replaces is. They are found in one walk of the package.
func (c *checker) cryptoVars() map[*types.Var]bool {
	if c.cryptoVar != nil {
		return c.cryptoVar
	}
	c.cryptoVar = map[*types.Var]bool{}
	bad := map[*types.Var]bool{}
	give := func(v *types.Var, value ast.Expr, params *types.Tuple) {
		if v == nil || v.Pkg() != c.pass.Pkg || !v.IsField() && v.Parent() != v.Pkg().Scope() {
			return
		}
		switch w, _ := c.objOf(value).(*types.Var); {
		case w != nil && isRandReader(w):
			c.cryptoVar[v] = true
		case w == nil || params == nil || !tupleHas(params, w):
			bad[v] = true
		}
	}
	for _, file := range c.pass.Files {
		if c.isTestFile(file.Pos()) {
			continue
		}
		c.giveVars(file, give)
	}
	for v := range bad {
		delete(c.cryptoVar, v)
	}
	return c.cryptoVar
}

// giveVars calls give with every target and value of the file's assignments and declarations
// of one value each, and the parameters of the function they are in (nil at package level).
func (c *checker) giveVars(file *ast.File, give func(v *types.Var, value ast.Expr, params *types.Tuple)) {
	for _, decl := range file.Decls {
		var params *types.Tuple
		if fd, ok := decl.(*ast.FuncDecl); ok {
			if fn, ok := c.pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
				params = fn.Signature().Params()
			}
		}
		ast.Inspect(decl, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for i, l := range n.Lhs {
					if len(n.Lhs) == len(n.Rhs) {
						give(c.varOf(l), n.Rhs[i], params)
					} else {
						give(c.varOf(l), nil, nil)
					}
				}
			case *ast.ValueSpec:
				for i, id := range n.Names {
					if len(n.Values) == len(n.Names) {
						give(c.varOf(id), n.Values[i], params)
					}
				}
			case *ast.UnaryExpr:
				if n.Op == token.AND {
					give(c.varOf(n.X), nil, nil) // its address taken: any write is possible
				}
			case *ast.CompositeLit:
				c.giveFields(n, params, give)
			}
			return true
		})
	}
}

// giveFields calls give with each field a struct literal sets and its value: &Gen{rand:
// rand.Reader} gives Gen.rand crypto/rand's reader (gofrs/uuid's generator), as an
// assignment would.
func (c *checker) giveFields(lit *ast.CompositeLit, params *types.Tuple, give func(v *types.Var, value ast.Expr, params *types.Tuple)) {
	st, ok := typeOfLit(c, lit).(*types.Struct)
	if !ok {
		return
	}
	for i, e := range lit.Elts {
		if kv, ok := e.(*ast.KeyValueExpr); ok {
			give(c.varOf(kv.Key), kv.Value, params)
		} else if i < st.NumFields() {
			give(st.Field(i), nil, nil) // unkeyed: not read here, so no crypto reader
		}
	}
}

// varOf returns the variable or field e names, or nil.
func (c *checker) varOf(e ast.Expr) *types.Var {
	v, _ := c.objOf(e).(*types.Var)
	return v
}

// typeOfLit returns the underlying type of a composite literal, or nil.
func typeOfLit(c *checker, lit *ast.CompositeLit) types.Type {
	if t := c.typeOf(lit); t != nil {
		return t.Underlying()
	}
	return nil
}

// tupleHas reports whether v is one of the variables of t.
func tupleHas(t *types.Tuple, v *types.Var) bool {
	for i := range t.Len() {
		if t.At(i) == v {
			return true
		}
	}
	return false
}
