// Package require is a stub of testify's require, with the signatures the fixtures call.
package require

type TestingT interface {
	Errorf(format string, args ...any)
	FailNow()
}

func InDelta(t TestingT, expected, actual any, delta float64, msgAndArgs ...any)     {}
func InEpsilon(t TestingT, expected, actual any, epsilon float64, msgAndArgs ...any) {}
func Equal(t TestingT, expected, actual any, msgAndArgs ...any)                      {}
func LessOrEqual(t TestingT, e1, e2 any, msgAndArgs ...any)                          {}
func False(t TestingT, value bool, msgAndArgs ...any)                                {}
