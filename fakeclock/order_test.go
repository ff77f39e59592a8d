package fakeclock

import (
	"math"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// fired is one callback run: which timer, at what offset from the start.
type fired struct {
	ID int
	At time.Duration
}

// model is the plain specification of the order of events: at each step,
// the earliest armed timer, ties broken by arming order, and an instant's
// timers all taken before any of its callbacks runs (so one that re-arms
// itself for the same instant is not among them). O(n) per event.
type model struct {
	now    time.Duration
	seq    int
	timers []modelTimer
}

type modelTimer struct {
	when, period time.Duration
	seq          int
	armed        bool
}

func (m *model) arm(i int, d time.Duration) {
	m.timers[i].when, m.timers[i].seq, m.timers[i].armed = m.now+d, m.seq, true
	m.seq++
}

func (m *model) advance(d time.Duration, log []fired) []fired {
	target := m.now + d
	for {
		at, any := time.Duration(0), false
		for _, t := range m.timers {
			if t.armed && t.when <= target && (!any || t.when < at) {
				at, any = t.when, true
			}
		}
		if !any {
			break
		}
		m.now = at
		var due []int
		for i, t := range m.timers {
			if t.armed && t.when == at {
				due = append(due, i)
			}
		}
		slices.SortFunc(due, func(a, b int) int { return m.timers[a].seq - m.timers[b].seq })
		for _, i := range due {
			m.timers[i].armed = false
		}
		for _, i := range due {
			log = append(log, fired{i, at})
			if p := m.timers[i].period; p > 0 {
				m.arm(i, p)
			}
		}
	}
	m.now = target
	return log
}

// Many timers due at the same instants, so that both ways of taking an
// instant's timers (one by one, or all at once and a rebuild) are used:
// the Fake fires callbacks in exactly the model's order.
func TestFireOrderMatchesModel(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		n := rapid.IntRange(1, 300).Draw(rt, "timers")
		c := NewFake(time.Unix(0, 0))
		m := &model{timers: make([]modelTimer, n)}
		var got []fired
		timers := make([]*Timer, n)
		for i := range n {
			d := time.Duration(rapid.IntRange(1, 4).Draw(rt, "d")) * time.Second
			if rapid.Bool().Draw(rt, "periodic") {
				m.timers[i].period = d
			}
			timers[i] = c.AfterFunc(d, func() {
				got = append(got, fired{i, c.Since(time.Unix(0, 0))})
				if m.timers[i].period > 0 {
					timers[i].Reset(m.timers[i].period)
				}
			})
			m.arm(i, d)
		}
		var want []fired
		for range rapid.IntRange(1, 10).Draw(rt, "steps") {
			if rapid.Bool().Draw(rt, "stop") {
				i := rapid.IntRange(0, n-1).Draw(rt, "victim")
				if stopped := timers[i].Stop(); stopped != m.timers[i].armed {
					rt.Fatalf("Stop(%d) = %v, model armed = %v", i, stopped, m.timers[i].armed)
				}
				m.timers[i].armed = false
				m.timers[i].period = 0
			}
			d := time.Duration(rapid.IntRange(0, 6).Draw(rt, "advance")) * time.Second
			if err := c.Advance(d); err != nil {
				rt.Fatal(err)
			}
			want = m.advance(d, want)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			rt.Fatalf("fire order (-model +fake):\n%s", diff)
		}
	})
}

// Time never moves backwards, however Advance and AdvanceNext are mixed;
// timers due past the largest time saturate instead of wrapping, and an
// Advance past it is refused and changes nothing.
func TestNowNeverDecreases(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		c := NewFake(time.Unix(0, 0))
		prev := c.Now()
		for range rapid.IntRange(1, 30).Draw(rt, "steps") {
			d := time.Duration(rapid.Int64Range(-1, 1<<62).Draw(rt, "d"))
			switch rapid.IntRange(0, 3).Draw(rt, "op") {
			case 0:
				before := c.Since(time.Unix(0, 0))
				err := c.Advance(d)
				refuse := d < 0 || d > math.MaxInt64-before
				if (err != nil) != refuse || refuse && c.Since(time.Unix(0, 0)) != before {
					rt.Fatalf("at start+%v, Advance(%v) = %v, and time is start+%v", before, d, err, c.Since(time.Unix(0, 0)))
				}
			case 1:
				c.AdvanceNext()
			case 2:
				c.NewTimer(d)
			case 3: // few ticks: Advance fires every one of them
				c.NewTicker(max(d, 1<<60))
			}
			if now := c.Now(); now.Before(prev) {
				rt.Fatalf("time went back from %v to %v", prev, now)
			} else {
				prev = now
			}
		}
	})
}
