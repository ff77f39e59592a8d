package loops

import (
	"context"
	"math/rand/v2"
	"time"

	"github.com/spreadcheck/spreadcheck/fakeclock"
)

// JitterWindow, Reoffset and the wrong ways whose fleets the claims run as schedules join
// fleetShapes, so that TestSchedulesMatchLoops checks each schedule against its loop's code.
func init() {
	window := func(w time.Duration) fakeclock.Loop {
		return func(ctx context.Context, c fakeclock.Clock, r *rand.Rand, event func()) {
			JitterWindow(ctx, c, interval, w, r, event)
		}
	}
	fleetShapes = append(fleetShapes, []struct {
		name     string
		loop     fakeclock.Loop
		schedule fakeclock.Schedule
	}{
		{"JitterWindow/half", window(interval / 2), JitterWindowSchedule(interval, interval/2)},
		{"JitterWindow/100ms", window(100 * time.Millisecond), JitterWindowSchedule(interval, 100*time.Millisecond)},
		{"Reoffset", func(ctx context.Context, c fakeclock.Clock, r *rand.Rand, event func()) {
			Reoffset(ctx, c, interval, r, event)
		}, ReoffsetSchedule(interval)},
		{"jitterAfterWork", jitterAfterWork, TickerSchedule(interval)},
		{"reoffsetAfterBatch", reoffsetAfterBatch, reoffsetAfterBatchSchedule},
	}...)
}
