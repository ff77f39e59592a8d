package gen_test

import (
	"math"
	"testing"
	"time"

	"github.com/spreadcheck/spreadcheck/spread"

	"propgen/gen"
)

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
