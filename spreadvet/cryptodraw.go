package spreadvet

import (
	"go/ast"
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

// isCryptoReader reports whether e is the variable crypto/rand.Reader.
func (c *checker) isCryptoReader(e ast.Expr) bool {
	v, ok := c.objOf(ast.Unparen(e)).(*types.Var)
	return ok && v.Pkg() != nil && v.Pkg().Path() == "crypto/rand" && v.Name() == "Reader"
}
