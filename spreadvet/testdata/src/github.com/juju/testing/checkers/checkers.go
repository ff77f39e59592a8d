// Package checkers is a stub of github.com/juju/testing/checkers.
package checkers

import check "gopkg.in/check.v1"

type order struct{ less bool }

func (o order) Check(params []any, names []string) (bool, string) { return true, "" }

// GreaterThan checks that obtained is greater than the expected value.
var GreaterThan check.Checker = order{}

// LessThan checks that obtained is less than the expected value.
var LessThan check.Checker = order{less: true}
