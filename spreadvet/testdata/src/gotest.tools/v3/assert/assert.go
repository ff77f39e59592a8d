// Package assert is a stub of gotest.tools' assert.
package assert

type TestingT interface {
	FailNow()
	Fail()
	Log(args ...any)
}

func Assert(t TestingT, comparison any, msgAndArgs ...any)     {}
func Check(t TestingT, comparison any, msgAndArgs ...any) bool { return true }
