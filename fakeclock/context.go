package fakeclock

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// errDeadline is the cause of a context whose fake deadline passed; its
// Err is context.DeadlineExceeded itself.
var errDeadline = fmt.Errorf("fakeclock: %w", context.DeadlineExceeded)

// WithDeadline is context.WithDeadline on the Fake's time: the returned
// context is done once the Fake reaches deadline (at that instant, like
// an AfterFunc), when cancel is called, or when parent is done, whichever
// happens first. Its Err then returns context.DeadlineExceeded or
// context.Canceled without blocking, and context.Cause explains which.
// Like context.WithDeadline, it panics with a message if parent is nil.
func (f *Fake) WithDeadline(parent context.Context, deadline time.Time) (context.Context, context.CancelFunc) {
	return f.withDeadline(parent, deadline, f.callerPC())
}

func (f *Fake) withDeadline(parent context.Context, deadline time.Time, pc uintptr) (context.Context, context.CancelFunc) {
	if parent == nil {
		// What package context says, where a bare call would dereference nil.
		panic("fakeclock: cannot create context from nil parent")
	}
	if pd, ok := parent.Deadline(); ok && pd.Before(deadline) {
		return context.WithCancel(parent) // the parent ends first anyway
	}
	// inner carries the values, the cause and the parent's cancellation.
	// The context has a Done channel of its own, closed as soon as inner
	// is canceled, so that contexts derived from it see its Err (the
	// context package passes a parent's own Err only to children of a
	// Done channel it does not recognise).
	inner, cancelInner := context.WithCancelCause(parent)
	c := &deadlineCtx{Context: inner, deadline: deadline, done: make(chan struct{})}
	var once sync.Once
	end := func(cause error) {
		once.Do(func() {
			cancelInner(cause)
			close(c.done)
		})
	}
	d := deadline.Sub(f.Now())
	if d <= 0 {
		end(errDeadline)
		return c, func() {}
	}
	timer := f.newTimer(d, func() { end(errDeadline) }, kindAfterFunc, pc)
	context.AfterFunc(inner, func() { // the parent ended
		timer.Stop()
		end(nil)
	})
	return c, func() {
		timer.Stop()
		end(context.Canceled)
	}
}

type deadlineCtx struct {
	context.Context // inner
	deadline        time.Time
	done            chan struct{}
}

func (c *deadlineCtx) Deadline() (time.Time, bool) { return c.deadline, true }

func (c *deadlineCtx) Done() <-chan struct{} { return c.done }

func (c *deadlineCtx) Err() error {
	select {
	case <-c.done:
	default:
		return nil
	}
	if context.Cause(c.Context) == errDeadline {
		return context.DeadlineExceeded
	}
	return c.Context.Err()
}

func (c *deadlineCtx) String() string {
	return fmt.Sprintf("fakeclock.WithDeadline(%v)", c.deadline)
}
