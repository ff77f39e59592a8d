// Package gomega is a stub of gomega: Expect and its matchers.
package gomega

import "testing"

// Assertion is what Expect returns.
type Assertion interface {
	To(matcher Matcher, optionalDescription ...any) bool
	ToNot(matcher Matcher, optionalDescription ...any) bool
	NotTo(matcher Matcher, optionalDescription ...any) bool
	Should(matcher Matcher, optionalDescription ...any) bool
	ShouldNot(matcher Matcher, optionalDescription ...any) bool
}

// Matcher is a gomega matcher.
type Matcher interface {
	Match(actual any) (bool, error)
}

// WithT is the Gomega of one test.
type WithT struct{ t testing.TB }

func NewWithT(t testing.TB) *WithT                                            { return &WithT{t} }
func (g *WithT) Expect(actual any, extra ...any) Assertion                    { return nil }
func Expect(actual any, extra ...any) Assertion                               { return nil }
func Ω(actual any, extra ...any) Assertion                                    { return nil }
func BeNumerically(comparator string, compareTo ...any) Matcher               { return nil }
func BeTemporally(comparator string, compareTo any, threshold ...any) Matcher { return nil }
func BeTrue() Matcher                                                         { return nil }
func Equal(expected any) Matcher                                              { return nil }
