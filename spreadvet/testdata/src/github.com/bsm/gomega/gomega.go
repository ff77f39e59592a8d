// Package gomega is a stub of bsm's fork of gomega: Expect and an order matcher.
package gomega

// Assertion is what Expect returns.
type Assertion interface {
	To(matcher Matcher, optionalDescription ...any) bool
}

// Matcher is a gomega matcher.
type Matcher interface {
	Match(actual any) (bool, error)
}

func Expect(actual any, extra ...any) Assertion                               { return nil }
func BeTemporally(comparator string, compareTo any, threshold ...any) Matcher { return nil }
