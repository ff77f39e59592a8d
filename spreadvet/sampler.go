package spreadvet

import (
	"go/ast"
	"go/types"
)

// Methods of func types. A property-testing library's generator is a func type with methods
// (gopter's type Gen func(*GenParameters) *GenResult, whose Sample returns
// g(DefaultGenParameters()).Retrieve()): the method draws nothing itself, yet called on a
// random func value (timeGen := gen.Time()) it hands back what that value makes, a draw.

// sampler is the fact that a method of a func type returns what a call of its receiver
// makes: called on a random func value, it draws.
type sampler struct{}

func (*sampler) AFact() {}

func (*sampler) String() string { return "sampler" }

// findSamplers marks the methods of the package's non-test code whose receiver is a func
// type and whose every return computes its first result from a call of the receiver, and
// exports their facts. A method that returns a func literal calling the receiver (a
// generator's WithLabel, Map) makes another generator, no value: what it returns is the
// literal, which calls nothing until it is called.
func (c *checker) findSamplers() {
	c.samplers = map[*types.Func]*sampler{}
	for _, cur := range c.funcDecls(false) {
		fd := cur.Node().(*ast.FuncDecl)
		fn, ok := c.pass.TypesInfo.Defs[fd.Name].(*types.Func)
		if ok && c.returnsReceiverCall(fd, fn) {
			c.samplers[fn] = &sampler{}
			c.pass.ExportObjectFact(fn, c.samplers[fn])
		}
	}
}

// funcReceiver returns the receiver of a method whose receiver is a value of a func type, or
// nil.
func funcReceiver(fn *types.Func) *types.Var {
	recv := fn.Signature().Recv()
	if recv == nil {
		return nil
	}
	if _, ok := recv.Type().Underlying().(*types.Signature); !ok {
		return nil
	}
	return recv
}

// returnsReceiverCall reports whether the method fd has a func receiver and results, and
// each of its returns computes its first result from a call of the receiver.
func (c *checker) returnsReceiverCall(fd *ast.FuncDecl, fn *types.Func) bool {
	recv := funcReceiver(fn)
	if recv == nil || fn.Signature().Results().Len() == 0 {
		return false
	}
	returns, all := 0, true
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if r, ok := n.(*ast.ReturnStmt); ok {
			returns++
			all = len(r.Results) > 0 && c.callsVar(r.Results[0], recv)
		}
		return all
	})
	return returns > 0 && all
}

// callsVar reports whether e calls the func value v, outside the func literals it holds.
func (c *checker) callsVar(e ast.Expr, v *types.Var) bool {
	return anyNode(e, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		return ok && c.objOf(call.Fun) == v
	})
}

// samplerCall returns the fact of a call of a sampler method on a random func value
// (timeGen.Sample(), timeGen := gen.Time()), and whether that func value is a helper of the
// tests; nil when fn is no sampler or its receiver draws nothing.
func (c *checker) samplerCall(call *ast.CallExpr, fn *types.Func) (*randomFunc, bool) {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || funcReceiver(fn) == nil || funcFact(c, c.samplers, fn) == nil {
		return nil, false
	}
	f, inTest := c.dynamicFact(sel.X, 0)
	if f == nil {
		return nil, false
	}
	return &randomFunc{Via: fn.Name() + " of " + f.Via, Hops: f.Hops + 1, Bytes: f.Bytes}, inTest
}
