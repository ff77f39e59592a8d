package fakeclock

// timerHeap is a binary min-heap of armed timers ordered by (when, seq):
// time order, and arming order within an instant, so that equal-time
// events fire in a reproducible order. Each timer knows its index, which
// makes Stop and Reset O(log n) without a search.
type timerHeap []*timer

func (h timerHeap) less(i, j int) bool {
	a, b := h[i], h[j]
	return a.when < b.when || (a.when == b.when && a.seq < b.seq)
}

func (h timerHeap) swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].idx = i
	h[j].idx = j
}

func (h *timerHeap) push(t *timer) {
	t.idx = len(*h)
	*h = append(*h, t)
	h.up(t.idx)
}

// remove takes out the timer at index i and returns it, marked unarmed.
func (h *timerHeap) remove(i int) *timer {
	old := *h
	n := len(old) - 1
	t := old[i]
	if i != n {
		old.swap(i, n)
	}
	old[n] = nil // let the collector have it once the caller is done
	*h = old[:n]
	if i != n {
		h.fix(i)
	}
	t.idx = -1
	return t
}

// fix restores the order after the timer at index i changed its key.
func (h timerHeap) fix(i int) {
	if !h.down(i) {
		h.up(i)
	}
}

func (h timerHeap) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !h.less(i, p) {
			return
		}
		h.swap(i, p)
		i = p
	}
}

// down sifts the timer at index i towards the leaves and reports whether
// it moved.
func (h timerHeap) down(i int) bool {
	start := i
	n := len(h)
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		c := l
		if r := l + 1; r < n && h.less(r, l) {
			c = r
		}
		if !h.less(c, i) {
			break
		}
		h.swap(i, c)
		i = c
	}
	return i > start
}

// due appends to buf the timers due at the root's time, at, in index
// order, by a breadth-first walk of the subtree they form at the top of
// the heap: O(k) for k due timers. queue is scratch space, returned for
// reuse.
func (h timerHeap) due(at int64, buf []*timer, queue []int) ([]*timer, []int) {
	queue = append(queue[:0], 0)
	for q := 0; q < len(queue); q++ {
		i := queue[q]
		if i >= len(h) || h[i].when != at {
			continue
		}
		buf = append(buf, h[i])
		queue = append(queue, 2*i+1, 2*i+2)
	}
	return buf, queue
}

// rebuild drops the timers marked unarmed (idx < 0) and restores the heap
// order in O(n), for when many keys changed at once.
func (h *timerHeap) rebuild() {
	old := *h
	n := 0
	for _, t := range old {
		if t.idx < 0 {
			continue
		}
		t.idx = n
		old[n] = t
		n++
	}
	clear(old[n:])
	*h = old[:n]
	for i := n/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}
