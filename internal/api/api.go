package api

import (
	"fmt"
	"go/types"
	"sort"
	"strings"
)

// Public are the import paths, relative to the module, of the packages that users import.
var Public = []string{"spread", "sizing", "mutants", "fakeclock"}

// Limit is the most exported names (see Count) the public packages may have together: a
// name added must pay for itself with one taken away.
const Limit = 150

// Lines returns one line per exported name of pkg: each package-level constant, variable,
// type and function, each exported method of an exported type (or of the interface it
// declares), and each exported field of an exported struct type. Each line is the name
// with its signature or type, qualified by package name, and the lines are sorted.
func Lines(pkg *types.Package) []string {
	lines, _ := list(pkg)
	return lines
}

// Count returns how many names pkg exports that a user must learn: its package-level
// constants, variables, types and functions and the exported methods of its types. A
// struct's fields and an interface's methods are part of their type's declaration, listed
// by Lines but not counted (as the issue that set Limit counted them).
func Count(pkg *types.Package) int {
	_, n := list(pkg)
	return n
}

func list(pkg *types.Package) (lines []string, count int) {
	qual := func(p *types.Package) string {
		if p == pkg {
			return ""
		}
		return p.Name()
	}
	add := func(format string, args ...any) { lines = append(lines, fmt.Sprintf(format, args...)) }
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		obj := scope.Lookup(name)
		if !obj.Exported() {
			continue
		}
		switch obj := obj.(type) {
		case *types.Const:
			add("const %s %s", name, types.TypeString(obj.Type(), qual))
		case *types.Var:
			add("var %s %s", name, types.TypeString(obj.Type(), qual))
		case *types.Func:
			add("func %s%s", name, strings.TrimPrefix(types.TypeString(obj.Type(), qual), "func"))
		case *types.TypeName:
			tl, n := typeLines(obj, qual)
			lines = append(lines, tl...)
			count += n - 1
		}
		count++
	}
	sort.Strings(lines)
	return lines, count
}

// typeLines are the lines of an exported type: its declaration, its exported fields or
// interface methods, and its exported methods; and how many of them count (the declaration
// and the methods).
func typeLines(obj *types.TypeName, qual types.Qualifier) (lines []string, count int) {
	name := obj.Name()
	var tparams string
	if named, ok := obj.Type().(*types.Named); ok && !obj.IsAlias() && named.TypeParams().Len() > 0 {
		var ps []string
		for i := range named.TypeParams().Len() {
			p := named.TypeParams().At(i)
			ps = append(ps, p.Obj().Name()+" "+types.TypeString(p.Constraint(), qual))
		}
		tparams = "[" + strings.Join(ps, ", ") + "]"
	}
	under := obj.Type().Underlying()
	count = 1
	switch u := under.(type) {
	case *types.Struct:
		lines = append(lines, fmt.Sprintf("type %s%s struct", name, tparams))
		for i := range u.NumFields() {
			if f := u.Field(i); f.Exported() {
				lines = append(lines, fmt.Sprintf("type %s struct, %s %s", name, f.Name(), types.TypeString(f.Type(), qual)))
			}
		}
	case *types.Interface:
		lines = append(lines, fmt.Sprintf("type %s%s interface", name, tparams))
		for i := range u.NumExplicitMethods() {
			if m := u.ExplicitMethod(i); m.Exported() {
				lines = append(lines, fmt.Sprintf("type %s interface, %s%s", name, m.Name(), signature(m, qual)))
			}
		}
	default:
		alias := ""
		if obj.IsAlias() {
			alias = "= "
		}
		lines = append(lines, fmt.Sprintf("type %s%s %s%s", name, tparams, alias, types.TypeString(under, qual)))
	}
	// An alias of a type declared elsewhere (an internal package) exports its methods too.
	if named, ok := types.Unalias(obj.Type()).(*types.Named); ok {
		for i := range named.NumMethods() {
			m := named.Method(i)
			if !m.Exported() {
				continue
			}
			recv := name
			if _, ptr := m.Type().(*types.Signature).Recv().Type().(*types.Pointer); ptr {
				recv = "*" + name
			}
			lines = append(lines, fmt.Sprintf("method (%s) %s%s", recv, m.Name(), signature(m, qual)))
			count++
		}
	}
	return lines, count
}

func signature(f *types.Func, qual types.Qualifier) string {
	return strings.TrimPrefix(types.TypeString(f.Type(), qual), "func")
}
