// Package check is a stub of gopkg.in/check.v1 (gocheck), with the names the fixtures use.
package check

import "testing"

// C is a test's context, as a *testing.T is.
type C struct{}

// A Checker compares an obtained value with expected ones.
type Checker interface {
	Check(params []any, names []string) (bool, string)
}

// CommentInterface is an extra argument that describes an assertion.
type CommentInterface interface{ CheckCommentString() string }

type comment string

func (c comment) CheckCommentString() string { return string(c) }

// Commentf formats a comment.
func Commentf(format string, args ...any) CommentInterface { return comment(format) }

// Assert checks obtained with checker and stops the test when it fails.
func (c *C) Assert(obtained any, checker Checker, args ...any) {}

// Check checks obtained with checker.
func (c *C) Check(obtained any, checker Checker, args ...any) bool { return true }

// Logf logs.
func (c *C) Logf(format string, args ...any) {}

type equals struct{}

func (equals) Check(params []any, names []string) (bool, string) { return params[0] == params[1], "" }

// Equals checks that obtained equals the expected value.
var Equals Checker = equals{}

// Suite registers a suite.
func Suite(s any) any { return s }

// TestingT runs the registered suites.
func TestingT(t *testing.T) {}
