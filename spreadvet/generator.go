package spreadvet

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"
)

// Generators handed in. A function may take its randomness as a func parameter it calls
// (rehttp's ExpJitterDelayWithRand(base, max, generator) returns a func that calls
// generator), so that a caller chooses it: the caller that hands it a function of math/rand
// (ExpJitterDelay passes rand.Int63n) draws, and one that hands it a fixed func (a test's
// func(n int64) int64 { return 999_999_999 % n }) does not.

// generatorArg returns how a call draws when it hands a function of math/rand to a func
// parameter the callee calls (declared in this package), "rand.Int63n through
// ExpJitterDelayWithRand", or "".
func (c *checker) generatorArg(call *ast.CallExpr) string {
	fn := typeutil.StaticCallee(c.pass.TypesInfo, call)
	if fn == nil || fn.Pkg() != c.pass.Pkg {
		return ""
	}
	for _, i := range c.calledParams(fn) {
		if i < len(call.Args) {
			if r, ok := c.randDefault(call.Args[i]); ok {
				return "rand." + r.Name() + " through " + fn.Name()
			}
		}
	}
	return ""
}

// calledParams returns the indices of the func parameters of a function of this package that
// its body calls, in it or in a func literal it holds, decided once per function.
func (c *checker) calledParams(fn *types.Func) []int {
	if got, ok := c.paramCalls[fn]; ok {
		return got
	}
	if c.paramCalls == nil {
		c.paramCalls = map[*types.Func][]int{}
	}
	var out []int
	if fd := c.declOf(fn); fd != nil && fd.Body != nil {
		params := fn.Signature().Params()
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if v, ok := c.objOf(call.Fun).(*types.Var); ok {
				for i := range params.Len() {
					if params.At(i) == v {
						out = append(out, i)
					}
				}
			}
			return true
		})
	}
	c.paramCalls[fn] = out
	return out
}
