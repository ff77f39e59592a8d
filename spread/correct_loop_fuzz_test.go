package spread

import (
	"errors"
	"testing"
	"time"
)

// FuzzCorrectLoop runs a correct loop of every Schedule at any interval, window, batch, span
// and seed the fuzzer picks, from the loops written from their descriptions (loop_test.go),
// and wants it to pass AnalyzeLoop: every check on event times is sized so that a correct
// loop fails with probability at most 1e-9, so a false failure over the n inputs of a run has
// probability at most n x 1e-9 (FuzzCorrect says what that means for a run's length).
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
		s, ev := loopOf(int(shape%5), seeded(seed), I, W, b, span)
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

// FuzzCorrectFleet runs a correct fleet started in lockstep, of the schedules that spread a
// fleet (JitterTicker over the whole interval, Reoffset, ReoffsetTicker), at any interval,
// batch, size, span and seed the fuzzer picks, and wants AnalyzeFleet to pass it.
//
//	go test ./spread -run '^$' -fuzz '^FuzzCorrectFleet$' -fuzztime 30s
func FuzzCorrectFleet(f *testing.F) {
	f.Add(uint8(0), uint64(sec), uint16(32), uint16(200), uint16(30), uint64(1))
	f.Add(uint8(1), uint64(sec), uint16(32), uint16(100), uint16(66), uint64(2))
	f.Add(uint8(2), uint64(100), uint16(3), uint16(50), uint16(10), uint64(3))
	f.Fuzz(func(t *testing.T, shape uint8, interval uint64, batch, loops, intervals uint16, seed uint64) {
		I := time.Duration(32 + interval%(1<<40)) // at least one nanosecond per bucket
		b := 1 + int(batch%64)
		n := 2 + int(loops%300)
		span := I * time.Duration(1+intervals%60)
		var s Schedule
		var loop func(draw drawFunc) []time.Duration
		switch shape % 3 {
		case 0:
			s, loop = JitterTicker(I, I), func(d drawFunc) []time.Duration { return jitterTickerEvents(d, I, I, span) }
		case 1:
			s, loop = ReoffsetTicker(I, b), func(d drawFunc) []time.Duration { return reoffsetEvents(d, I, b, true, span) }
		case 2:
			s, loop = Reoffset(I, b), func(d drawFunc) []time.Duration { return reoffsetEvents(d, I, b, false, span) }
		}
		fleet := fleetOf(n, seed, loop)
		for _, ev := range fleet {
			if len(ev) == 0 {
				return // a loop whose first event lies past the span: AnalyzeFleet's documented error
			}
		}
		r, err := AnalyzeFleet(fleet, s, span)
		var few *tooFewError
		switch {
		case errors.As(err, &few):
		case err != nil:
			t.Fatalf("a correct fleet of %d %s loops over %v: %v", n, s, span, err)
		case r.Failed():
			t.Fatalf("a correct fleet of %d %s loops over %v failed:\n%s", n, s, span, r)
		}
	})
}
