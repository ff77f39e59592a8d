package spread

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"time"
)

// Number is the set of sample types the checks accept: every integer and floating-point type,
// including named ones such as time.Duration. Integer samples are discrete (time.Duration counts
// nanoseconds) and checked exactly, in integers, over the whole range of their type;
// floating-point samples are continuous.
type Number interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 |
		~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr |
		~float32 | ~float64
}

// numKind describes a sample type: whether it is an integer (and signed), whether it is a
// float32, and how to print its values.
type numKind struct {
	name    string // the type's name, e.g. "time.Duration"
	integer bool
	signed  bool // an integer type that holds negative values
	float32 bool
	// formatKey prints an integer value, given by its key (see intKey), exactly.
	formatKey func(key uint64) string
	// formatApprox prints a derived value (a mean, a limit) in the type's units, rounded for
	// reading: "499.8ms", "0.49871".
	formatApprox func(x float64) string
}

var durationType = reflect.TypeFor[time.Duration]()

func kindOf[T Number]() numKind {
	typ := reflect.TypeFor[T]()
	k := numKind{name: typ.String()}
	switch typ.Kind() {
	case reflect.Float32:
		k.float32 = true
	case reflect.Float64:
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		k.integer, k.signed = true, true
	default:
		k.integer = true
	}
	k.formatKey = func(key uint64) string { return fmt.Sprint(fromKey[T](key, k.signed)) }
	switch {
	case typ == durationType:
		k.formatApprox = func(x float64) string { return roundDuration(x).String() }
	case k.integer:
		k.formatApprox = func(x float64) string { return strconv.FormatFloat(math.Round(x), 'f', -1, 64) }
	default:
		k.formatApprox = func(x float64) string { return strconv.FormatFloat(x, 'g', 5, 64) }
	}
	return k
}

// intKey maps an integer value to a uint64 in the same order, over the whole range of every
// integer type: signed values have their sign bit flipped (MinInt64 -> 0, 0 -> 2^63), unsigned
// ones are themselves. The difference of two keys of one signedness is then the exact distance
// of the values, and every offset from a declared lower bound is exact.
func intKey[T Number](x T, signed bool) uint64 {
	if signed {
		return uint64(int64(x)) ^ 1<<63
	}
	return uint64(x)
}

// fromKey is the inverse of intKey.
func fromKey[T Number](key uint64, signed bool) T {
	if signed {
		return T(int64(key ^ 1<<63))
	}
	return T(key)
}

// floatKey maps a float64 to a uint64 in the same order, consecutive floats to consecutive
// keys; -0 maps with +0. NaN has no place and is refused before.
func floatKey(x float64) uint64 {
	if x == 0 {
		x = 0 // -0 to +0
	}
	b := math.Float64bits(x)
	if b>>63 == 1 {
		return ^b
	}
	return b | 1<<63
}

// roundDuration returns x nanoseconds as a Duration rounded to four significant digits, so that
// reports read "499.8ms" rather than "499.812345ms"; values past the Duration range are clamped
// to its ends.
func roundDuration(x float64) time.Duration {
	var d time.Duration
	switch {
	case x >= math.MaxInt64:
		d = math.MaxInt64
	case x <= math.MinInt64:
		d = math.MinInt64
	default:
		d = time.Duration(math.Round(x))
	}
	for unit := time.Duration(1); unit < time.Hour; unit *= 10 {
		if d.Abs() < unit*10000 {
			return d.Round(unit)
		}
	}
	return d.Round(time.Second)
}

// formatFloat prints a float sample value exactly: the shortest decimal that reads back as it.
func formatFloat(x float64, f32 bool) string {
	if f32 {
		return strconv.FormatFloat(x, 'g', -1, 32)
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// ulp returns the spacing of the floats at |x| in float64, or in float32 when f32 is set.
func ulp(x float64, f32 bool) float64 {
	x = math.Abs(x)
	if f32 {
		if x >= math.MaxFloat32 {
			return 0x1p104 // the spacing at the top of float32's range
		}
		f := float32(x)
		return float64(math.Nextafter32(f, float32(math.Inf(1))) - f)
	}
	if x == math.MaxFloat64 {
		return x - math.Nextafter(x, 0)
	}
	return math.Nextafter(x, math.Inf(1)) - x
}
