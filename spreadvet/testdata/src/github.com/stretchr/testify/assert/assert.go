// Package assert is a stub of testify's assert, with the signatures the fixtures call.
package assert

import "time"

type TestingT interface {
	Errorf(format string, args ...any)
}

func True(t TestingT, value bool, msgAndArgs ...any) bool                             { return value }
func GreaterOrEqual(t TestingT, e1, e2 any, msgAndArgs ...any) bool                   { return true }
func LessOrEqual(t TestingT, e1, e2 any, msgAndArgs ...any) bool                      { return true }
func InDelta(t TestingT, expected, actual any, delta float64, msgAndArgs ...any) bool { return true }
func InEpsilon(t TestingT, expected, actual any, epsilon float64, msgAndArgs ...any) bool {
	return true
}
func WithinDuration(t TestingT, expected, actual time.Time, delta time.Duration, msgAndArgs ...any) bool {
	return true
}
func Equal(t TestingT, expected, actual any, msgAndArgs ...any) bool    { return true }
func NotEqual(t TestingT, expected, actual any, msgAndArgs ...any) bool { return true }

func Less(t TestingT, e1, e2 any, msgAndArgs ...any) bool    { return true }
func Greater(t TestingT, e1, e2 any, msgAndArgs ...any) bool { return true }

func Len(t TestingT, object any, length int, msgAndArgs ...any) bool { return true }

func Regexp(t TestingT, rx any, str any, msgAndArgs ...any) bool { return true }
func False(t TestingT, value bool, msgAndArgs ...any) bool       { return !value }
