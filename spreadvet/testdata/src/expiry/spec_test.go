package expiry_test

import (
	"expiry"
	"time"

	"github.com/spreadcheck/spreadcheck/spread"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// Ginkgo specs are tests too: a func literal handed to It is read as a test function is.
var _ = Describe("expiry", func() {
	// One expiry checked only for falling in the jitter range, with BeTemporally (go-redis's
	// "returns value in jitter range when jitter is positive").
	It("returns a time in the jitter range", func() {
		before := time.Now()
		at := expiry.ExpiresAt(lifetime, jitter) // want `blind test: It\("returns a time in the jitter range"\) draws expiry.ExpiresAt once and checks only its bounds \(Expect\(at\).To\(BeTemporally\(">=", before.Add\(lifetime-jitter\)\)\), Expect\(at\).To\(BeTemporally\("<=", before.Add\(lifetime\+jitter\)\)\)\), so a constant or a collapsed range passes it; check the spread: xs := spread.Draw\(1000, func\(\) time.Duration \{ return time.Until\(expiry.ExpiresAt\(lifetime, jitter\)\) \}\); spread.Check\(GinkgoTB\(\), xs, spread.Uniform\(lo, hi\)\)`
		Expect(at).To(BeTemporally(">=", before.Add(lifetime-jitter)))
		Expect(at).To(BeTemporally("<=", before.Add(lifetime+jitter)))
	})

	Context("with decorators and the spec's context", func() {
		It("stays in range", Label("slow"), func(ctx SpecContext) {
			for range 100 {
				at := expiry.ExpiresAt(lifetime, jitter) // want `blind test: It\("stays in range"\) draws expiry.ExpiresAt 100 times and checks only their bounds`
				Expect(at).To(BeTemporally("<", time.Now().Add(lifetime+jitter)))
			}
		})
	})

	// The spans handed to spread.Check through GinkgoTB: not flagged.
	It("spreads the expiries", func() {
		xs := spread.Draw(1000, func() time.Duration { return time.Until(expiry.ExpiresAt(lifetime, jitter)) })
		spread.Check(GinkgoTB(), xs, spread.Uniform(lifetime-jitter, lifetime+jitter))
	})

	Describe("a pool's expiry", func() {
		// Reached through export_test.go's handle on an unexported method (go-redis's
		// CalcConnExpiresAt).
		It("is in the jitter range", func() {
			p := expiry.NewPool(lifetime, jitter)
			before := time.Now()
			at := p.ExpiresAt() // want `blind test: It\("is in the jitter range"\) draws p.ExpiresAt once and checks only its bounds`
			Expect(at).To(BeTemporally(">=", before.Add(lifetime-jitter)))
			Expect(at).To(BeTemporally("<=", before.Add(lifetime+jitter)))
		})

		// With no jitter the bounds are the lifetime from the clock's readings around the call:
		// an exact check, not flagged.
		It("is the lifetime when jitter is zero", func() {
			p := expiry.NewPool(lifetime, 0)
			before := time.Now()
			at := p.ExpiresAt()
			after := time.Now()
			Expect(at).To(BeTemporally(">=", before.Add(lifetime)))
			Expect(at).To(BeTemporally("<=", after.Add(lifetime)))
		})
	})

	// A draw in a setup node is no spec: not read as a test.
	BeforeEach(func() {
		at := expiry.ExpiresAt(lifetime, jitter)
		Expect(at).To(BeTemporally("<", time.Now().Add(lifetime+jitter)))
	})
})
