// Package quicktest is a stub of quicktest.
package quicktest

import "testing"

type Checker interface {
	Check(got any, args []any) error
}

type C struct{ testing.TB }

func New(t testing.TB) *C                                 { return &C{t} }
func (c *C) Assert(got any, checker Checker, args ...any) {}
func (c *C) Check(got any, checker Checker, args ...any) bool {
	return true
}

var IsTrue Checker
