package spread

import (
	"errors"
	"testing"
	"time"
)

// FuzzCorrectLoop runs a correct loop of every Schedule at any interval, window, batch, span
// and seed the fuzzer picks, from the loops written from their descriptions (loop_test.go),
// and wants it to pass AnalyzeLoop: every check on event times is sized so that a correct
// loop fails with probability at most 1e-9, so a failure the fuzzer finds is a bug.
//
//	go test ./spread -run '^$' -fuzz '^FuzzCorrectLoop$' -fuzztime 30s
func FuzzCorrectLoop(f *testing.F) {
	f.Add(uint8(0), uint64(sec), uint64(sec), uint16(32), uint16(1000), uint64(1))
	f.Add(uint8(1), uint64(sec), uint64(sec/2), uint16(32), uint16(1000), uint64(2))
	f.Add(uint8(1), uint64(3), uint64(1), uint16(1), uint16(4000), uint64(3))
	f.Add(uint8(2), uint64(time.Millisecond), uint64(0), uint16(0), uint16(3000), uint64(4))
	f.Add(uint8(3), uint64(sec), uint64(0), uint16(32), uint16(2000), uint64(5))
	f.Add(uint8(4), uint64(7), uint64(0), uint16(1), uint16(500), uint64(6))
	f.Add(uint8(2), uint64(1), uint64(0), uint16(0), uint16(100), uint64(7))
	f.Fuzz(func(t *testing.T, shape uint8, interval, window uint64, batch, intervals uint16, seed uint64) {
		I := time.Duration(1 + interval%(1<<40))
		W := time.Duration(1 + window%uint64(I)) // in (0, I]
		b := 1 + int(batch%64)
		span := I * time.Duration(1+intervals%5000)
		draw := seeded(seed)
		var s Schedule
		var ev []time.Duration
		switch shape % 5 {
		case 0:
			s, ev = Ticker(I), tickerEvents(I, span)
		case 1:
			s, ev = JitterTicker(I, W), jitterTickerEvents(draw, I, W, span)
		case 2:
			s, ev = RandomSleep(I), randomSleepEvents(draw, 2*I, span)
		case 3:
			s, ev = Reoffset(I, b), reoffsetEvents(draw, I, b, false, span)
		case 4:
			s, ev = ReoffsetTicker(I, b), reoffsetEvents(draw, I, b, true, span)
		}
		r, err := AnalyzeLoop(ev, s, span)
		var few *tooFewError
		switch {
		case errors.As(err, &few):
		case err != nil:
			t.Fatalf("a correct %s loop over %v: %v", s, span, err)
		case r.Failed():
			t.Fatalf("a correct %s loop over %v failed:\n%s", s, span, r)
		}
	})
}
