package gen_test

import (
	"math"
	"testing"
	"time"

	"github.com/spreadcheck/spreadcheck/spread"

	"propgen/gen"
)

// A check func literal the helper calls on each sample is the test's check: the type alone.
func TestBool(t *testing.T) {
	commonGeneratorTest(t, "bool", gen.Bool(), func(value any) bool { // want `blind test: TestBool draws gen.Bool\(\) 100 times through commonGeneratorTest, which samples it \(g.Sample\(\)\), and checks only its type and that it is not empty \(value.\(bool\), value == nil\), so a constant of the right form passes it; check what it draws: seed the source and compare the result exactly, or draw many and check the spread of what it is made from with spread.Check`
		_, ok := value.(bool)
		return ok
	})
}

// The type and the bounds, twice: one finding for the generator.
func TestInt64Range(t *testing.T) {
	commonGeneratorTest(t, "range", gen.Int64Range(-10, 10), func(value any) bool { // want `blind test: TestInt64Range draws gen.Int64Range\(-10, 10\) 100 times through commonGeneratorTest, which samples it \(g.Sample\(\)\), and checks only its type, its bounds and that it is not empty \(value.\(int64\), v >= -10, v <= 10, value == nil\)`
		v, ok := value.(int64)
		return ok && v >= -10 && v <= 10
	})
	commonGeneratorTest(t, "positive", gen.Int64Range(1, 5), func(value any) bool {
		v, ok := value.(int64)
		return ok && v > 0
	})
}

// Finite and within bounds: the midpoint passes.
func TestFloat64Range(t *testing.T) {
	commonGeneratorTest(t, "float", gen.Float64Range(-1.5, 2.5), func(value any) bool { // want `blind test: TestFloat64Range draws gen.Float64Range\(-1.5, 2.5\) 100 times through commonGeneratorTest, which samples it \(g.Sample\(\)\), and checks only its type, that it is finite, its bounds and that it is not empty \(value.\(float64\), math.IsNaN\(v\), math.IsInf\(v, 0\), v >= -1.5, v < 2.5, value == nil\)`
		v, ok := value.(float64)
		return ok && !math.IsNaN(v) && !math.IsInf(v, 0) && v >= -1.5 && v < 2.5
	})
}

// Sampled by the test itself: the year of each time held to bounds.
func TestTime(t *testing.T) {
	timeGen := gen.Time()
	for i := 0; i < 100; i++ {
		value, ok := timeGen.Sample() // want `blind test: TestTime draws timeGen.Sample 100 times and checks only its type, its bounds and that it is not empty \(value == nil, value.\(time.Time\), v.String\(\) == "", v.Year\(\) < 0, v.Year\(\) > 9999\)`
		if !ok || value == nil {
			t.Errorf("invalid time: %#v", value)
		}
		v, ok := value.(time.Time)
		if !ok || v.String() == "" {
			t.Errorf("invalid time: %#v", value)
		}
		if v.Year() < 0 || v.Year() > 9999 {
			t.Errorf("year out of range: %v", v)
		}
	}
}

// Sampled by the test: finite and within bounds, which the midpoint is.
func TestFloat64Finite(t *testing.T) {
	g := gen.Float64Range(0, 10)
	for i := 0; i < 50; i++ {
		value, _ := g.Sample() // want `blind test: TestFloat64Finite draws g.Sample 50 times and checks only that it is finite and its bounds \(math.IsNaN\(v\), math.IsInf\(v, 0\), v < 0, v >= 10\)`
		if v := value.(float64); math.IsNaN(v) || math.IsInf(v, 0) || v < 0 || v >= 10 {
			t.Errorf("invalid value: %v", v)
		}
	}
}

// Each time within [from, until].
func TestTimeRange(t *testing.T) {
	from := time.Unix(1000, 0)
	until := from.Add(time.Hour)
	timeRange := gen.TimeRange(from, time.Hour)
	for i := 0; i < 100; i++ {
		value, ok := timeRange.Sample() // want `blind test: TestTimeRange draws timeRange.Sample 100 times and checks only its type and its bounds \(value.\(time.Time\), v.Before\(from\), v.After\(until\)\)`
		v, isTime := value.(time.Time)
		if !ok || !isTime || v.Before(from) || v.After(until) {
			t.Errorf("invalid time: %#v", value)
		}
	}
}

// A generator that draws nothing checked for its type: no draw to be blind to.
func TestConst(t *testing.T) {
	commonGeneratorTest(t, "const", gen.Const(int64(3)), func(value any) bool {
		v, ok := value.(int64)
		return ok && v >= 0
	})
}

// The empty result checked exactly (t.Fail fails the test as t.Error does).
func TestEmptyRange(t *testing.T) {
	fail := gen.Float64Range(2, 1)
	if value, ok := fail.Sample(); value != nil || ok {
		t.Fail()
	}
}

// Constants that take the path with no draw: the generator draws nothing.
func TestEmptyRangeType(t *testing.T) {
	value, _ := gen.Int64Range(10, 1).Sample()
	if _, isInt := value.(int64); isInt {
		t.Errorf("empty range made %v", value)
	}
}

// The helper counts the verdicts: a proportion, no check of form.
func TestHalfBelow(t *testing.T) {
	n := hits(gen.Float64Range(0, 1), func(value any) bool {
		v, _ := value.(float64)
		return v < 0.5
	})
	if n < 400 || n > 600 {
		t.Errorf("%d of 1000 below one half", n)
	}
}

// The check literal tallies the values: each outcome counted.
func TestBoolTally(t *testing.T) {
	counts := map[bool]int{}
	commonGeneratorTest(t, "bool", gen.Bool(), func(value any) bool {
		counts[value.(bool)]++
		return true
	})
	t.Log(counts)
}

// The samples handed to package spread.
func TestFloat64Spread(t *testing.T) {
	g := gen.Float64Range(0, 1)
	var xs []float64
	for i := 0; i < 1000; i++ {
		value, _ := g.Sample()
		xs = append(xs, value.(float64))
	}
	spread.Check(t, xs, spread.Uniform(0.0, 1.0))
}
