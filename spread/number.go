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
// nanoseconds); floating-point samples are continuous.
type Number interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 |
		~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr |
		~float32 | ~float64
}

// numKind describes a sample type: whether it is an integer, how many bits of resolution a
// random float of it has, and how to print one of its values.
type numKind struct {
	name    string // the type's name, e.g. "time.Duration"
	integer bool
	float32 bool
	format  func(float64) string
}

var durationType = reflect.TypeFor[time.Duration]()

func kindOf[T Number]() numKind {
	typ := reflect.TypeFor[T]()
	k := numKind{name: typ.String()}
	switch typ.Kind() {
	case reflect.Float32:
		k.float32 = true
	case reflect.Float64:
	default:
		k.integer = true
	}
	switch {
	case typ == durationType:
		k.format = func(x float64) string { return roundDuration(x).String() }
	case k.integer:
		k.format = func(x float64) string { return strconv.FormatFloat(math.Round(x), 'f', -1, 64) }
	default:
		k.format = func(x float64) string { return strconv.FormatFloat(x, 'g', 5, 64) }
	}
	return k
}

// roundDuration returns x nanoseconds as a Duration rounded to four significant digits, so that
// reports read "499.8ms" rather than "499.812345ms".
func roundDuration(x float64) time.Duration {
	d := time.Duration(math.Round(x))
	for unit := time.Duration(1); unit < time.Hour; unit *= 10 {
		if d.Abs() < unit*10000 {
			return d.Round(unit)
		}
	}
	return d.Round(time.Second)
}

// toInt64 converts an integer sample value exactly; it reports false for a uint64 value that
// does not fit in an int64.
func toInt64[T Number](x T) (int64, bool) {
	i := int64(x)
	if i < 0 && x > 0 {
		return 0, false
	}
	return i, true
}

// describeValue prints the i-th value of a sample in its own type for an error message.
func describeValue[T Number](xs []T, i int) string {
	return fmt.Sprintf("xs[%d] = %v", i, xs[i])
}
