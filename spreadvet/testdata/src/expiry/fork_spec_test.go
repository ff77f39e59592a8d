package expiry_test

import (
	"expiry"
	"time"

	ginkgo "github.com/bsm/ginkgo/v2"
	. "github.com/bsm/gomega"
)

// A spec of bsm's forks of Ginkgo and gomega (go-redis's): that Ginkgo has no GinkgoTB, so the
// check is suggested for a Go test function, and no fix is offered.
var _ = ginkgo.Describe("expiry under the fork", func() {
	ginkgo.It("stays under the longest lifetime", func() {
		for range 100 {
			at := expiry.ExpiresAt(lifetime, jitter) // want `blind test: ginkgo.It\("stays under the longest lifetime"\) draws expiry.ExpiresAt 100 times and checks only their bounds \(Expect\(at\).To\(BeTemporally\("<", time.Now\(\).Add\(lifetime\+jitter\)\)\)\), so a constant or a collapsed range passes it; check the spread: xs := spread.Draw\(100, func\(\) time.Duration \{ return time.Until\(expiry.ExpiresAt\(lifetime, jitter\)\) \}\); spread.Check\(t, xs, spread.Uniform\(lo, hi\)\), in a Go test function \(this Ginkgo has no GinkgoTB\)`
			Expect(at).To(BeTemporally("<", time.Now().Add(lifetime+jitter)))
		}
	})
})
