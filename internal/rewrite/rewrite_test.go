package rewrite

import (
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/spreadcheck/spreadcheck/spread"
)

// rewriteCase is one draw of the program that TestRewriteClasses compiles: its Draw, and
// the range [lo, hi) its correct values lie in.
type rewriteCase struct {
	name   string
	draw   Draw
	lo, hi float64
}

var rewriteCases = []rewriteCase{
	{"unit", Draw{Kind: UnitDraw, Type: "float64", Value: "r.Float64()"}, 0, 1},
	{"unit32", Draw{Kind: UnitDraw, Type: "float32", Value: "r.Float32()"}, 0, 1},
	{"bounded", Draw{Kind: BoundedDraw, Type: "int", Func: "r.IntN", Args: []string{"1000"}}, 0, 1000},
	{"generic", Draw{Kind: BoundedDraw, Type: "time.Duration", Func: "rand.N", Args: []string{"10 * time.Second"}}, 0, 1e10},
	{"unsigned", Draw{Kind: BoundedDraw, Type: "uint64", Func: "r.Uint64N", Args: []string{"1 << 40"}, Unsigned: true}, 0, 1 << 40},
	{"v1", Draw{Kind: BoundedDraw, Type: "int64", Func: "v1.Int63n", Args: []string{"77"}}, 0, 77},
	{"full", Draw{Kind: FullDraw, Type: "int64", Value: "r.Int64()", Max: "math.MaxInt64"}, 0, math.MaxInt64},
	{"full32", Draw{Kind: FullDraw, Type: "uint32", Value: "r.Uint32()", Max: "math.MaxUint32", Unsigned: true}, 0, math.MaxUint32 + 1},
	{"normal", Draw{Kind: NormalDraw, Type: "float64", Value: "r.NormFloat64()"}, math.Inf(-1), math.Inf(1)},
	{"exp", Draw{Kind: ExpDraw, Type: "float64", Value: "r.ExpFloat64()"}, 0, math.Inf(1)},
	{"clockmod", Draw{Kind: ClockModDraw, Type: "int64", Args: []string{"time.Now().UnixNano()", "1000"}}, 0, 1000},
	{"big", Draw{Kind: BigDraw, Func: "crand.Int", Args: []string{"crand.Reader", "big.NewInt(1000)"}}, 0, 1000},
	{"bytes", Draw{Kind: BytesDraw, Func: "crand.Read", Args: []string{"buf"}}, 0, 256},
	{"reader", Draw{Kind: ReaderDraw, Value: "crand.Reader"}, 0, 256},
	{"unitfunc", Draw{Kind: UnitDraw, Type: "float64", Value: "r.Float64", FuncValue: true}, 0, 1},
	{"boundedfunc", Draw{Kind: BoundedDraw, Type: "int64", Value: "v1.Int63n", FuncValue: true}, 0, 1000},
	{"typeparamfunc", Draw{Kind: BoundedDraw, Type: "D", Generic: true, Value: "rand.N[dur]", FuncValue: true}, 0, 1000},
	{"typeparam", Draw{Kind: BoundedDraw, Type: "D", Generic: true, Func: "rand.N", Args: []string{"dur(1000)"}}, 0, 1000},
	{"typeparamclock", Draw{Kind: ClockModDraw, Type: "D", Generic: true, Args: []string{"dur(time.Now().UnixNano())", "dur(1000)"}}, 0, 1000},
}

// TestRewriteClasses compiles one program in which every kind of draw is rewritten, runs it
// with each class active at each site in turn, and checks what each class promises: the
// unmutated draw is random and in range, constant gives one value, sign-flip a value at or
// below zero, clock-derived an in-range value, collapsed-range values under half the range.
func TestRewriteClasses(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program with the go command")
	}
	bin := buildRewriteProgram(t)
	for site, c := range rewriteCases {
		for _, class := range append([]spread.Suspect{"none"}, c.draw.Kind.Classes()...) {
			t.Run(c.name+"/"+string(class), func(t *testing.T) {
				xs := runRewriteProgram(t, bin, fmt.Sprintf("%d:%d", site, ClassCode(class)))[c.name]
				checkClass(t, class, c, xs)
			})
		}
	}
}

func checkClass(t *testing.T, class spread.Suspect, c rewriteCase, xs []float64) {
	t.Helper()
	if len(xs) != 200 {
		t.Fatalf("%d values, want 200", len(xs))
	}
	lo, hi, distinct := xs[0], xs[0], map[float64]bool{}
	for _, x := range xs {
		lo, hi, distinct[x] = min(lo, x), max(hi, x), true
	}
	vc := class
	if string(vc) == "none" {
		vc = spread.Suspect("")
	}
	if iv, ok := c.draw.Values(vc, int64(c.hi)); ok && (lo < iv.Lo || hi > iv.Hi) {
		t.Errorf("%s: values in [%v, %v], outside the interval Values states, [%v, %v]", string(class), lo, hi, iv.Lo, iv.Hi)
	}
	inRange := lo >= c.lo && hi < c.hi
	switch class {
	case spread.SuspectConstant:
		if len(distinct) != 1 || !inRange {
			t.Errorf("constant: %d distinct values in [%v, %v], want one value in [%v, %v)", len(distinct), lo, hi, c.lo, c.hi)
		}
	case spread.SuspectSignFlip:
		switch c.name {
		case "unsigned": // -v wraps round: far above the range
			if lo < c.hi {
				t.Errorf("sign-flip of an unsigned draw: values in [%v, %v], want all wrapped past %v", lo, hi, c.hi)
			}
		case "full32", "bytes", "reader": // the whole type is the range: -v is a reflection, no mutant (audit says "equivalent")
		default:
			if hi > 0 || lo == 0 {
				t.Errorf("sign-flip: values in [%v, %v], want all <= 0 and some < 0", lo, hi)
			}
		}
	case spread.SuspectClockDerived, spread.Suspect("none"):
		if !inRange || len(distinct) < 2 {
			t.Errorf("%s: %d distinct values in [%v, %v], want several in [%v, %v)", string(class), len(distinct), lo, hi, c.lo, c.hi)
		}
	case spread.SuspectCollapsedRange:
		if !inRange || hi >= c.lo+(c.hi-c.lo)/2 && !math.IsInf(c.hi, 1) || len(distinct) < 2 {
			t.Errorf("collapsed-range: %d distinct values in [%v, %v], want several under half of [%v, %v)", len(distinct), lo, hi, c.lo, c.hi)
		}
	}
}

// buildRewriteProgram writes and builds a program that prints 200 values of each case,
// each draw rewritten through its site's helper.
func buildRewriteProgram(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	var body, helpers strings.Builder
	for site, c := range rewriteCases {
		call, err := c.draw.Rewrite(site)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case c.draw.FuncValue && c.draw.Kind == BoundedDraw:
			call += "(1000)" // the wrapped function, called
		case c.draw.FuncValue:
			call += "()"
		}
		switch c.draw.Kind {
		case BigDraw:
			call = "must(" + call + ")"
		case BytesDraw:
			call = "firstByte(" + call + ")"
		case ReaderDraw:
			call = "readByte(" + call + ")"
		}
		fmt.Fprintf(&body, "\t\tfmt.Println(%q, %s)\n", c.name, call)
		h, err := c.draw.Helper(site)
		if err != nil {
			t.Fatal(err)
		}
		helpers.WriteString(h + "\n")
	}
	main := `package main

import (
	crand "crypto/rand"
	"fmt"
	"io"
	"math"
	"math/big"
	v1 "math/rand"
	"math/rand/v2"
	"time"
)

var _ = math.Pi

// dur is the type argument of the generic helpers: any integer type.
type dur int64

func must(v *big.Int, err error) *big.Int {
	if err != nil {
		panic(err)
	}
	return v
}

// buf holds the byte that the bytes and reader cases read.
var buf = make([]byte, 1)

func firstByte(n int, err error) byte {
	if n != 1 || err != nil {
		panic(fmt.Sprint(n, err))
	}
	return buf[0]
}

func readByte(r io.Reader) byte {
	return firstByte(io.ReadFull(r, buf))
}

func main() {
	r := rand.New(rand.NewPCG(1, 2))
	for range 200 {
` + body.String() + `	}
}
`
	schema, err := Schema{Package: "main", Helpers: []string{helpers.String()}, Sites: len(rewriteCases)}.Source()
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{"go.mod": "module rewrite\n\ngo 1.22\n", "main.go": main, "schema.go": string(schema)}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(dir, "prog")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s\n%s", err, out, schema)
	}
	return bin
}

// runRewriteProgram runs the program with a mutant active and returns the values per case.
func runRewriteProgram(t *testing.T, bin, active string) map[string][]float64 {
	t.Helper()
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), MutantEnv+"="+active)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s=%s: %v", MutantEnv, active, err)
	}
	vals := map[string][]float64{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		name, v, _ := strings.Cut(line, " ")
		if d, err := parseValue(v); err == nil {
			vals[name] = append(vals[name], d)
		} else {
			t.Fatalf("line %q: %v", line, err)
		}
	}
	return vals
}

// parseValue reads a printed number or time.Duration.
func parseValue(s string) (float64, error) {
	if x, err := strconv.ParseFloat(s, 64); err == nil {
		return x, nil
	}
	if x, err := strconv.ParseUint(s, 10, 64); err == nil {
		return float64(x), nil
	}
	d, err := time.ParseDuration(s)
	return float64(d), err
}

// TestValuesEdges: the ends of the intervals that Values states hold the extreme values of the
// draws and of the helpers' expressions, computed as the helpers compute them: the largest
// Float64 and Float32, the clock-derived value of the last nanosecond of a second (which
// float32 rounds to 1), half of the largest draw; and no class of an unsigned or unknown
// draw has an interval.
func TestValuesEdges(t *testing.T) {
	last := int64(999_999_999)
	for _, c := range []struct {
		name string
		typ  string
		c    spread.Suspect
		x    float64
	}{
		{"Float64's largest", "float64", spread.Suspect(""), float64((1<<53)-1) / (1 << 53)},
		{"Float32's largest", "float32", spread.Suspect(""), float64(float32((1<<24)-1) / (1 << 24))},
		{"float64 clock", "float64", spread.SuspectClockDerived, float64(last%1e9) / 1e9},
		{"float32 clock", "float32", spread.SuspectClockDerived, float64(float32(last%1e9) / 1e9)},
		{"float64 half", "float64", spread.SuspectCollapsedRange, (float64((1<<53)-1) / (1 << 53)) / 2},
		{"float64 flip", "float64", spread.SuspectSignFlip, -float64((1<<53)-1) / (1 << 53)},
	} {
		iv, ok := Draw{Kind: UnitDraw, Type: c.typ}.Values(c.c, 0)
		if !ok || c.x < iv.Lo || c.x > iv.Hi {
			t.Errorf("%s: %v outside [%v, %v] (ok %v)", c.name, c.x, iv.Lo, iv.Hi, ok)
		}
	}
	if iv, _ := (Draw{Kind: UnitDraw, Type: "float32"}).Values(spread.SuspectClockDerived, 0); iv.Hi != 1 {
		t.Errorf("float32 clock: Hi = %v, want 1 (float32(999999999) is 1e9)", iv.Hi)
	}
	for _, d := range []Draw{{Kind: BoundedDraw, Type: "uint64", Unsigned: true}, {Kind: FullDraw, Type: "int64"},
		{Kind: UnitDraw, Type: "MyFloat"}} {
		if _, ok := d.Values(spread.SuspectSignFlip, 10); ok {
			t.Errorf("%+v: an interval for sign-flip, want none", d)
		}
	}
	if _, ok := (Draw{Kind: BoundedDraw, Type: "int"}).Values(spread.SuspectConstant, 0); ok {
		t.Error("a bound of 0: an interval, want none")
	}
}

func TestDrawCheck(t *testing.T) {
	bad := []Draw{
		{Kind: "nonsense", Value: "x"},
		{Kind: UnitDraw, Type: "float64"},
		{Kind: BoundedDraw, Type: "int", Args: []string{"n"}},
		{Kind: BoundedDraw, Type: "int", Func: "f"},
		{Kind: FullDraw, Type: "int", Value: "r.Int()"},
		{Kind: UnitDraw, Value: "r.Float64()"},
		{Kind: UnitDraw, Type: "F", Value: "f()", Generic: true},                                   // only integer draws are generic
		{Kind: BigDraw, Value: "crand.Int", FuncValue: true},                                       // no function-value rewrite
		{Kind: BoundedDraw, Type: "int", Value: "rand.IntN", Args: []string{"n"}, FuncValue: true}, // the function is all
		{Kind: BoundedDraw, Type: "int", FuncValue: true},                                          // no function
	}
	for _, d := range bad {
		if _, err := d.Rewrite(1); err == nil {
			t.Errorf("Rewrite(%+v): no error", d)
		}
		if _, err := d.Helper(1); err == nil {
			t.Errorf("Helper(%+v): no error", d)
		}
	}
	got, err := Draw{Kind: BoundedDraw, Type: "int", Func: "r.IntN", Args: []string{"n + 1"}}.Rewrite(7)
	if want := "spreadcheckAudit7(r.IntN, n + 1)"; err != nil || got != want {
		t.Errorf("Rewrite = %q, %v; want %q", got, err, want)
	}
	got, err = Draw{Kind: BoundedDraw, Type: "int", Value: "rand.IntN", FuncValue: true}.Rewrite(7)
	if want := "spreadcheckAudit7(rand.IntN)"; err != nil || got != want {
		t.Errorf("Rewrite of a function value = %q, %v; want %q", got, err, want)
	}
}

func TestKindClasses(t *testing.T) {
	if got := ClockModDraw.Classes(); len(got) != 3 || got[2] != spread.SuspectCollapsedRange {
		t.Errorf("clock-mod classes %v: want constant, sign-flip, collapsed-range (it is already a clock)", got)
	}
	if got := ShuffleDraw.Classes(); len(got) != 1 || got[0] != spread.SuspectConstant {
		t.Errorf("shuffle classes %v: want constant only", got)
	}
	if ClassCode(spread.SuspectOvershoot) != 0 || ClassCode(spread.SuspectCollapsedRange) != 4 {
		t.Error("class codes: want 4 for collapsed-range and 0 for an extended class")
	}
	if (Draw{Kind: FullDraw, Unsigned: true}).Equivalent(spread.SuspectSignFlip) == "" || (Draw{Kind: FullDraw}).Equivalent(spread.SuspectSignFlip) != "" {
		t.Error("Equivalent: sign-flip of a full-range draw is a reflection when unsigned, a mutant when signed")
	}
	for _, k := range []DrawKind{BytesDraw, ReaderDraw} {
		if (Draw{Kind: k}).Equivalent(spread.SuspectSignFlip) == "" || (Draw{Kind: k}).Equivalent(spread.SuspectConstant) != "" {
			t.Errorf("Equivalent: sign-flip of %s draws is no mutant, constant bytes are one", k)
		}
	}
	if BytesDraw.Discards() || ReaderDraw.Discards() || !UnitDraw.Discards() {
		t.Error("Discards: a Read and a reader work through their arguments, a Float64 only through its value")
	}
}

// FuzzDraw: whatever a Draw holds, Rewrite, Helper and Schema.Source give a result or an
// error, never a panic.
func FuzzDraw(f *testing.F) {
	f.Add("bounded", "int", "r.IntN", "n", "", "", "p")
	f.Add("full", "uint64", "", "", "r.Uint64()", "math.MaxUint64", "main")
	f.Add("clock-mod", "int64", "", "x\x00y", "", "", "1bad")
	f.Add("reader", "", "", "", "crand.Reader", "", "p")
	f.Fuzz(func(t *testing.T, kind, typ, fn, args, value, maxv, pkg string) {
		d := Draw{Kind: DrawKind(kind), Type: typ, Func: fn, Value: value, Max: maxv}
		if args != "" {
			d.Args = strings.Split(args, "\x00")
		}
		if _, err := d.Rewrite(3); err != nil {
			return
		}
		h, err := d.Helper(3)
		if err != nil {
			t.Fatalf("Rewrite accepted %+v, Helper refused it: %v", d, err)
		}
		Schema{Package: pkg, Helpers: []string{h}, Sites: 4, Fixed: args}.Source()
		d.Kind.Classes()
		d.Equivalent(spread.SuspectSignFlip)
	})
}

// TestClockFromSeed: the clock-derived class reads a clock whose first reading in a process
// is drawn from the process's run seed (SPREADCHECK_SEED), so that each process of an audit
// reads its own time of day and a replay with the same seed reads the same one; a wall clock
// gave a burst of runs one time of day between them. The first unit value of a process is
// the seed's reading, mod 1e9, over 1e9, computed here from SplitMix64's published mixer.
func TestClockFromSeed(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program with the go command")
	}
	bin := buildRewriteProgram(t)
	active := fmt.Sprintf("0:%d", ClassCode(spread.SuspectClockDerived)) // site 0 is the unit case
	firsts := map[float64]bool{}
	for _, seed := range []uint64{1, 2, 5, 1 << 63, math.MaxUint64} {
		t.Setenv("SPREADCHECK_SEED", strconv.FormatUint(seed, 10))
		xs := runRewriteProgram(t, bin, active)["unit"]
		want := float64(clockReading(seed)%1e9) / 1e9
		if xs[0] != want {
			t.Errorf("seed %d: first clock-derived value %v, want %v (the seed's reading)", seed, xs[0], want)
		}
		if again := runRewriteProgram(t, bin, active)["unit"]; again[0] != xs[0] {
			t.Errorf("seed %d: first value %v, then %v in a second process with the same seed", seed, xs[0], again[0])
		}
		firsts[xs[0]] = true
	}
	if len(firsts) != 5 {
		t.Errorf("5 seeds gave %d first readings, want 5", len(firsts))
	}
}

// clockReading is SplitMix64's finalizer (Steele, Lea and Flood 2014) on seed ^
// 0x2545f4914f6cdd1d, shifted into [0, 2^62).
func clockReading(seed uint64) uint64 {
	z := seed ^ 0x2545f4914f6cdd1d
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return (z ^ (z >> 31)) >> 2
}
