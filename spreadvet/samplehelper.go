package spreadvet

import (
	"fmt"
	"go/ast"

	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"
)

// Generators sampled by a test helper. A property-testing library's tests hand a generator
// and a func literal that checks one value to a helper of their own, which samples the
// generator in a loop and fails when the check says no (gopter's commonGeneratorTest(t,
// "bool", gen.Bool(), func(value interface{}) bool { _, ok := value.(bool); return ok })):
// the draws are the helper's, the checks the test's literal. What the helper and the literal
// do with each value decides, as what a test does with a draw of its own does.

// A helperFinding is a generator a test hands to a helper that checks its samples only for
// their form.
type helperFinding struct {
	arg  ast.Expr      // the generator, in the test
	call *ast.CallExpr // the call of the helper
	site cursor        // the helper's first sample of it
	use  *formUse
}

// helperSamples reports the calls of the test at fd that hand a random func value to a helper
// of the package's test files which samples it (a sampler method called on the parameter),
// when every value the helper samples meets only checks of form, in the helper or in the
// test's func literals it calls on the value. Each generator is reported once per test, at
// its first such call, and none in a test that hands anything to package spread or checks
// the same generator more sharply in another call.
func (c *checker) helperSamples(fd cursor, tb string) {
	var found []helperFinding
	sharp := map[string]bool{}
	for cur := range fd.Preorder((*ast.CallExpr)(nil)) {
		call := cur.Node().(*ast.CallExpr)
		if c.isSpreadCheck(call) {
			return
		}
		helper, sig := c.testHelper(call)
		if sig == nil {
			continue
		}
		for i, arg := range call.Args {
			param := sig.Params().At(i)
			if _, isFunc := param.Type().Underlying().(*types.Signature); !isFunc {
				continue
			}
			if f, inTest := c.dynamicFact(arg, 0); f == nil || inTest {
				continue
			}
			site, u := c.helperSampled(helper, param, checkFuncs(sig, call))
			switch {
			case u == nil:
			case u.breaker != "":
				sharp[text(arg)] = true
			case len(u.checks) > 0:
				found = append(found, helperFinding{arg, call, site, u})
			}
		}
	}
	reported := map[string]bool{}
	for _, f := range found {
		name := generatorName(c, f.arg)
		if !sharp[text(f.arg)] && !reported[name] {
			reported[name] = true
			c.reportHelperSamples(fd, f)
		}
	}
}

// testHelper returns the declaration of the function of the package's test files that call
// calls, with one argument for each parameter, and its signature; nil when it calls none.
func (c *checker) testHelper(call *ast.CallExpr) (cursor, *types.Signature) {
	fn := typeutil.StaticCallee(c.pass.TypesInfo, call)
	if fn == nil {
		return cursor{}, nil
	}
	decl := c.declOf(fn)
	sig := fn.Signature()
	if decl == nil || decl.Body == nil || !c.isTestFile(decl.Pos()) || sig.Variadic() || len(call.Args) != sig.Params().Len() {
		return cursor{}, nil
	}
	at, ok := c.insp.Root().FindNode(decl)
	if !ok {
		return cursor{}, nil
	}
	return at, sig
}

// checkFuncs binds the helper's parameters that call passes a func literal to that literal.
func checkFuncs(sig *types.Signature, call *ast.CallExpr) map[types.Object]*ast.FuncLit {
	out := map[types.Object]*ast.FuncLit{}
	for i, arg := range call.Args {
		if lit, ok := ast.Unparen(arg).(*ast.FuncLit); ok {
			out[sig.Params().At(i)] = lit
		}
	}
	return out
}

// helperSampled follows every value that the helper at helper samples from its func
// parameter param (gen.Sample()), with the helper's check parameters bound to the test's
// literals, and returns the first such call and what the values meet; nil when the helper
// samples none.
func (c *checker) helperSampled(helper cursor, param *types.Var, checks map[types.Object]*ast.FuncLit) (cursor, *formUse) {
	var first cursor
	var u *formUse
	for cur := range helper.Preorder((*ast.CallExpr)(nil)) {
		call := cur.Node().(*ast.CallExpr)
		if !c.samplesVar(call, param) {
			continue
		}
		if u == nil {
			_, _, loop := c.repeatingLoop(cur, call)
			first, u = cur, &formUse{made: map[types.Object]bool{}, loop: loop, checkFuncs: checks}
		}
		c.formResult(cur, nil, u)
	}
	return first, u
}

// samplesVar reports whether call calls a sampler method on the func value v (gen.Sample()).
func (c *checker) samplesVar(call *ast.CallExpr, v *types.Var) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || c.objOf(sel.X) != v {
		return false
	}
	fn := typeutil.StaticCallee(c.pass.TypesInfo, call)
	return fn != nil && funcReceiver(fn) != nil && funcFact(c, c.samplers, fn) != nil
}

// checkFuncUse follows a sampled value that a helper hands to the test's func literal bound to
// the parameter it calls (valueCheck(value)): the literal's parameter is classified as the
// value. The verdict it returns must only fail the test (if !valueCheck(value) {
// t.Errorf(...) }); one used another way (counted) is a statistic of the draws.
func (c *checker) checkFuncUse(p cursor, call *ast.CallExpr, arg cursor, u *formUse) {
	lit := u.checkFuncs[c.objOf(call.Fun)]
	sig, _ := c.typeOf(lit).(*types.Signature)
	i := slices.IndexFunc(call.Args, func(a ast.Expr) bool { return a == arg.Node() })
	if sig == nil || i < 0 || i >= sig.Params().Len() || !c.failsWhenFalse(p) {
		u.breaks("checked by " + c.src(call))
		return
	}
	c.formVar(c.funcLits()[lit], sig.Params().At(i), u)
}

// failsWhenFalse reports whether the verdict at cur is, through !, && and ||, the condition of
// an if statement whose body reports a failure.
func (c *checker) failsWhenFalse(cur cursor) bool {
	whole := conditionRoot(cur)
	ifs, ok := whole.Parent().Node().(*ast.IfStmt)
	return ok && ifs.Cond == whole.Node() && c.reportsIn(ifs.Body)
}

// reportsIn reports whether n holds a call that reports (t.Errorf).
func (c *checker) reportsIn(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && c.reports(call) {
			found = true
		}
		return !found
	})
	return found
}

// generatorName names a generator for the one report per test: the function that makes it
// (gen.Int64Range of gen.Int64Range(1, 10)), or the expression.
func generatorName(c *checker, arg ast.Expr) string {
	if call, ok := ast.Unparen(arg).(*ast.CallExpr); ok {
		return c.src(call.Fun)
	}
	return c.src(arg)
}

// reportHelperSamples reports a generator whose samples a helper checks only for their form.
func (c *checker) reportHelperSamples(fd cursor, f helperFinding) {
	times, _, _ := c.drawTimes(f.site, f.site.Node().(*ast.CallExpr), 1)
	what, checks := c.formSummary(f.use)
	if what == "" {
		what = "conditions that hold or fail whatever it draws"
	}
	c.pass.Report(analysis.Diagnostic{
		Pos: f.arg.Pos(), End: f.arg.End(),
		Message: fmt.Sprintf("blind test: %s draws %s %s through %s, which samples it (%s), and checks only %s (%s), so a constant of the right form passes it; %s",
			c.testName(fd), c.src(f.arg), times, c.src(f.call.Fun), c.src(f.site.Node()), what, checks, formFix),
	})
}
