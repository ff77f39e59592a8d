package pick

import "testing"

// spread fails unless 200 picks of 8 elements reach at least 6 of them.
func spread(t *testing.T, pick func([]int) int) {
	t.Helper()
	xs := []int{0, 1, 2, 3, 4, 5, 6, 7}
	seen := map[int]bool{}
	for range 200 {
		seen[pick(xs)] = true
	}
	if len(seen) < 6 {
		t.Errorf("%d distinct picks of 8", len(seen))
	}
}

func TestSample(t *testing.T) { spread(t, Sample[int]) }

func TestAny(t *testing.T) { spread(t, Any) }

// TestSampleByFake passes a picker of its own and checks the result exactly: it says nothing
// of any randomness, and kills no mutant of the arguments in Sample and Any.
func TestSampleByFake(t *testing.T) {
	if got := SampleBy([]int{4, 5, 6}, func(n int) int { return n - 1 }); got != 6 {
		t.Errorf("SampleBy with the last index: %d, want 6", got)
	}
}

func TestJittered(t *testing.T) {
	for range 100 {
		if d := Jittered(10); d < 5 || d >= 15 {
			t.Fatalf("Jittered(10) = %v, want [5, 15)", d)
		}
	}
}

func TestFirst(t *testing.T) {
	if First([]int{3, 4}) != 3 {
		t.Error("First")
	}
}

func TestLocal(t *testing.T) { spread(t, Local) }
