package cgodraw

import "math/rand/v2"

// Pick returns one of the items, each as likely.
func Pick(items []string) string {
	return items[rand.IntN(len(items))]
}
