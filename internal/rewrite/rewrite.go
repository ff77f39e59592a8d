package rewrite

import (
	"bytes"
	"fmt"
	"go/format"
	"math"
	"sort"
	"strings"

	"github.com/spreadcheck/spreadcheck/internal/replay"
	"github.com/spreadcheck/spreadcheck/spread"
)

// Classes returns the four classes of mutant that the audit makes of every draw, in the order
// of its reports; a helper names a class by 1 + its index here (ClassCode).
func Classes() []spread.Suspect {
	return []spread.Suspect{spread.SuspectConstant, spread.SuspectSignFlip, spread.SuspectClockDerived, spread.SuspectCollapsedRange}
}

// A DrawKind says what a draw returns, which decides how each class rewrites it.
type DrawKind string

// The kinds of draw that spreadcheck audit finds and rewrites.
const (
	UnitDraw     DrawKind = "unit"       // a float in [0, 1): Float64, Float32
	BoundedDraw  DrawKind = "bounded"    // an integer in [0, n): IntN, Int64N, Int63n, Intn, N, ...; Args[0] is n
	FullDraw     DrawKind = "full"       // a non-negative integer over [0, Max]: Int, Int63, Uint64, ...
	NormalDraw   DrawKind = "normal"     // NormFloat64: mean 0, standard deviation 1
	ExpDraw      DrawKind = "exp"        // ExpFloat64: mean 1
	ClockModDraw DrawKind = "clock-mod"  // x % n where x is read from a clock; Args are x and n
	ClockSeed    DrawKind = "clock-seed" // a clock reading that seeds a random source
	BigDraw      DrawKind = "big"        // crypto/rand.Int(reader, max): a *big.Int in [0, max)
	BytesDraw    DrawKind = "bytes"      // Read(b): fills b with random bytes
	ReaderDraw   DrawKind = "reader"     // crypto/rand.Reader where the code reads it as an io.Reader: io.ReadFull(rand.Reader, b)
	PermDraw     DrawKind = "perm"       // Perm(n): a random permutation of [0, n)
	ShuffleDraw  DrawKind = "shuffle"    // Shuffle(n, swap): a statement, no value
)

// Classes returns the classes that apply to a kind of draw, in the order of Classes. A
// clock-derived rewrite of a value already read from a clock, or a sign-flip or a
// collapsed range of a permutation or a seed, would be no mutant at all, so those kinds have
// fewer.
func (k DrawKind) Classes() []spread.Suspect {
	switch k {
	case ClockModDraw:
		return []spread.Suspect{spread.SuspectConstant, spread.SuspectSignFlip, spread.SuspectCollapsedRange}
	case ClockSeed, PermDraw, ShuffleDraw:
		return []spread.Suspect{spread.SuspectConstant}
	}
	return Classes()
}

// Discards reports whether a draw of this kind whose value is thrown away is still a
// mutation point: Read and Shuffle work through their arguments, not their value.
func (k DrawKind) Discards() bool { return k != BytesDraw && k != ShuffleDraw && k != ReaderDraw }

// A Draw is one place where randomness enters, as the rewrite needs it: the kind of draw and
// the source text of its parts. The rewrite keeps the original draw and evaluates it exactly
// once, in the same order, and only then replaces its value: so every mutant changes this
// value alone (a seeded source still yields the same sequence to every other draw), and no
// import or variable of the file becomes unused.
type Draw struct {
	Kind DrawKind
	// Type is the draw's value type as the schema file spells it, such as "int64" or
	// "time.Duration" (unused for BigDraw, BytesDraw, PermDraw and ShuffleDraw).
	Type string
	// Func is the callee, for kinds that pass arguments: BoundedDraw, BigDraw, BytesDraw,
	// PermDraw and ShuffleDraw. It is passed to the helper as a function value ("r.IntN",
	// "rand.N").
	Func string
	// Value is the whole draw expression, for the kinds that take the value as is: UnitDraw,
	// FullDraw, NormalDraw, ExpDraw and ClockSeed; for ReaderDraw, the reader.
	Value string
	// Args are the argument expressions of Func, or the two operands of ClockModDraw.
	Args []string
	// Max is FullDraw's largest value, a constant expression such as "math.MaxInt64".
	Max string
	// Unsigned says that Type is an unsigned integer.
	Unsigned bool
	// FuncValue says that the draw is a function value, not a call: the default of a
	// func-typed variable or field (var jitter = rand.Float64; T{pick: rand.IntN}). Value is
	// that expression, Args are empty, and the helper wraps the function in one of the same
	// type whose every value the active class mutates: what a test puts in the variable
	// instead is left alone. UnitDraw, FullDraw, NormalDraw, ExpDraw, BoundedDraw, PermDraw
	// and ShuffleDraw (var shuffle = rand.Shuffle) only.
	FuncValue bool
	// Generic says that Type is made of type parameters of the function that holds the draw
	// (D, or Tagged[D]) and admits integer types only (BoundedDraw and ClockModDraw). A
	// package-level helper cannot name it, so the helper is generic: its own type parameter T,
	// constrained to the integer types (IntegerConstraint), on which every operation of the
	// helper is defined; the call infers T from the draw's arguments.
	Generic bool
}

// IntegerConstraint is the constraint of a generic helper's type parameter, as Go source:
// every integer type, which math/rand/v2's N admits too.
const IntegerConstraint = "~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr"

// Equivalent returns why a class cannot change what this draw yields, or "" when it can:
// sign-flip negates, and a negated unsigned draw over its type's whole range wraps round to
// a reflection of it, the same uniform distribution. Random bytes are such draws, each over
// the whole of its byte: a sign has no meaning for them, and negating them is no mutant.
func (d Draw) Equivalent(c spread.Suspect) string {
	switch {
	case c == spread.SuspectSignFlip && d.Kind == FullDraw && d.Unsigned:
		return "the draw spans its whole unsigned type: negating it wraps round to a reflection, the same distribution"
	case c == spread.SuspectSignFlip && (d.Kind == BytesDraw || d.Kind == ReaderDraw):
		return "not applicable to random bytes: negating each byte modulo 256 maps independent uniform bytes " +
			"onto independent uniform bytes, so whatever the code makes of them has the same distribution"
	}
	return ""
}

// An Interval is the closed range [Lo, Hi] that holds every value a draw, or a mutant of it,
// can take.
type Interval struct{ Lo, Hi float64 }

// Values returns the values that a draw yields, unmutated (the zero Class) or under class c,
// when they are known exactly: a draw in [0, 1) of type float64 or float32 (Float64,
// Float32), and a bounded draw of a signed type (not a generic one) whose bound n is a
// known integer from 1 to 2^53 (n is ignored for other kinds). ok is false for any other draw, and for the negated
// draw of an unsigned type, which wraps round. The helpers (Helper) keep to these ranges.
func (d Draw) Values(c spread.Suspect, n int64) (iv Interval, ok bool) {
	switch {
	case d.Kind == UnitDraw && (d.Type == "float64" || d.Type == "float32"):
		return unitValues(c, d.Type == "float32"), true
	case d.Kind == BoundedDraw && !d.Unsigned && !d.Generic && n >= 1 && n <= 1<<53:
		return boundedValues(c, float64(n)), true
	}
	return Interval{}, false
}

// unitValues are the values of a [0, 1) draw: its largest is the float just under 1; the
// clock's (nanoseconds mod 1e9, over 1e9) is 0.999999999, or 1 in float32, where
// 999,999,999 rounds to 1e9.
func unitValues(c spread.Suspect, single bool) Interval {
	top, clock := 1-0x1p-53, 0.999999999
	if single {
		top, clock = 1-0x1p-24, 1
	}
	switch c {
	case spread.SuspectConstant:
		return Interval{0.5, 0.5}
	case spread.SuspectSignFlip:
		return Interval{-top, 0}
	case spread.SuspectClockDerived:
		return Interval{0, clock}
	case spread.SuspectCollapsedRange:
		return Interval{0, top / 2}
	}
	return Interval{0, top}
}

// boundedValues are the values of an integer draw in [0, n), integer division rounding down.
func boundedValues(c spread.Suspect, n float64) Interval {
	switch c {
	case spread.SuspectConstant:
		return Interval{math.Floor(n / 2), math.Floor(n / 2)}
	case spread.SuspectSignFlip:
		return Interval{1 - n, 0}
	case spread.SuspectCollapsedRange:
		return Interval{0, math.Floor((n - 1) / 2)}
	}
	return Interval{0, n - 1}
}

// helperName is the name of the function that replaces site number site.
func helperName(site int) string { return fmt.Sprintf("spreadcheckAudit%d", site) }

// Rewrite returns the expression that replaces the draw in its file: a call of the site's
// helper (see Helper) on the original draw or on its callee and arguments.
func (d Draw) Rewrite(site int) (string, error) {
	if err := d.check(); err != nil {
		return "", err
	}
	args := d.Args
	switch d.Kind {
	case UnitDraw, FullDraw, NormalDraw, ExpDraw, ClockSeed, ReaderDraw:
		args = []string{d.Value}
	case ClockModDraw:
	default:
		args = append([]string{d.Func}, d.Args...)
	}
	if d.FuncValue {
		args = []string{d.Value}
	}
	return helperName(site) + "(" + strings.Join(args, ", ") + ")", nil
}

// arity is how many Args each kind takes.
var arity = map[DrawKind]int{
	UnitDraw: 0, FullDraw: 0, NormalDraw: 0, ExpDraw: 0, ClockSeed: 0, ReaderDraw: 0,
	BoundedDraw: 1, ClockModDraw: 2, BigDraw: 2, BytesDraw: 1, PermDraw: 1, ShuffleDraw: 2,
}

func (d Draw) check() error {
	n, ok := arity[d.Kind]
	if d.FuncValue {
		if !funcValueKinds[d.Kind] {
			return fmt.Errorf("rewrite: a %s draw has no function-value rewrite", d.Kind)
		}
		n = 0 // the function itself is the Value
	}
	switch {
	case !ok:
		return fmt.Errorf("rewrite: unknown draw kind %q", d.Kind)
	case len(d.Args) != n:
		return fmt.Errorf("rewrite: a %s draw takes %d arguments, not %d", d.Kind, n, len(d.Args))
	case n == 0 && d.Value == "":
		return fmt.Errorf("rewrite: a %s draw needs its Value", d.Kind)
	case n > 0 && d.Kind != ClockModDraw && d.Func == "":
		return fmt.Errorf("rewrite: a %s draw needs its Func", d.Kind)
	case d.Kind == FullDraw && d.Max == "":
		return fmt.Errorf("rewrite: a %s draw needs its Max", d.Kind)
	case d.Type == "" && !fixedType[d.Kind] && !d.Generic:
		return fmt.Errorf("rewrite: a %s draw needs its Type", d.Kind)
	case d.Generic && d.Kind != BoundedDraw && d.Kind != ClockModDraw:
		return fmt.Errorf("rewrite: a %s draw has no generic rewrite: only an integer draw's type can be a type parameter", d.Kind)
	}
	return nil
}

// funcValueKinds are the kinds whose draws a FuncValue helper wraps.
var funcValueKinds = map[DrawKind]bool{UnitDraw: true, FullDraw: true, NormalDraw: true, ExpDraw: true, BoundedDraw: true,
	PermDraw: true, ShuffleDraw: true}

// fixedType holds the kinds whose helper spells its own types.
var fixedType = map[DrawKind]bool{BigDraw: true, BytesDraw: true, ReaderDraw: true, PermDraw: true, ShuffleDraw: true}

// ClassCode is the number by which a helper names a class: 1 + its index in Classes.
func ClassCode(c spread.Suspect) int {
	for i, k := range Classes() {
		if k == c {
			return i + 1
		}
	}
	return 0
}

// Helper returns the source of the site's helper function, which the schema file (see
// Schema) holds. It evaluates the draw, then asks which class of mutant is active at this
// site and returns the original value when none is. Every class returns a value in the
// draw's range except sign-flip, which negates it; none panics where the draw did not.
func (d Draw) Helper(site int) (string, error) {
	if err := d.check(); err != nil {
		return "", err
	}
	body, ok := helperBodies[d.Kind]
	if !ok {
		return "", fmt.Errorf("rewrite: no rewrite for a %s draw", d.Kind)
	}
	name, typ := helperName(site), d.Type
	tparams := ""
	if d.Generic {
		tparams, typ = "[T "+integerName+"]", "T"
	}
	if !d.FuncValue {
		r := strings.NewReplacer("NAME", name+tparams, "SITE", fmt.Sprint(site), "T", typ, "MAX", d.Max)
		return r.Replace(body), nil
	}
	// The kind's helper under another name, and the wrapper of the function around it.
	inner := name + "Value"
	r := strings.NewReplacer("NAME", inner+tparams, "SITE", fmt.Sprint(site), "T", typ, "MAX", d.Max)
	wrapper, ok := funcValueWrappers[d.Kind]
	if !ok {
		wrapper = funcValueWrappers[UnitDraw] // a func() T
	}
	w := strings.NewReplacer("NAME", name+tparams, "INNER", inner, "T", typ)
	return r.Replace(body) + "\n\n" + w.Replace(wrapper), nil
}

// funcValueWrappers wrap a function value around the helper of its kind: a func() T (the
// kinds of a value, under UnitDraw), a bounded draw's func(T) T, Perm's and Shuffle's own
// signatures.
var funcValueWrappers = map[DrawKind]string{
	UnitDraw: `func NAME(draw func() T) func() T {
	return func() T { return INNER(draw()) }
}`,
	BoundedDraw: `func NAME(draw func(T) T) func(T) T {
	return func(n T) T { return INNER(draw, n) }
}`,
	PermDraw: `func NAME(draw func(int) []int) func(int) []int {
	return func(n int) []int { return INNER(draw, n) }
}`,
	ShuffleDraw: `func NAME(draw func(int, func(i, j int))) func(int, func(i, j int)) {
	return func(n int, swap func(i, j int)) { INNER(draw, n, swap) }
}`,
}

// The helper of each kind. Class codes: 1 constant, 2 sign-flip, 3 clock-derived,
// 4 collapsed-range (ClassCode). spreadcheckAuditNow reads the class's clock in nanoseconds (schemaRuntime).
var helperBodies = map[DrawKind]string{
	UnitDraw: `func NAME(v T) T {
	switch spreadcheckAuditClass(SITE) {
	case 1:
		return 0.5
	case 2:
		return -v
	case 3:
		return T(spreadcheckAuditNow()%1e9) / 1e9
	case 4:
		return v / 2
	}
	return v
}`,
	BoundedDraw: `func NAME(draw func(T) T, n T) T {
	v := draw(n)
	if n <= 0 { // a replaced draw may accept what the original refuses: keep its value
		return v
	}
	switch spreadcheckAuditClass(SITE) {
	case 1:
		return n / 2
	case 2:
		return -v
	case 3:
		return T(uint64(spreadcheckAuditNow()) % uint64(n))
	case 4:
		return v / 2
	}
	return v
}`,
	FullDraw: `func NAME(v T) T {
	switch spreadcheckAuditClass(SITE) {
	case 1:
		return T(MAX / 2)
	case 2:
		return -v
	case 3:
		return T(uint64(spreadcheckAuditNow()) & uint64(MAX))
	case 4:
		return v / 2
	}
	return v
}`,
	NormalDraw: `func NAME(v T) T {
	switch spreadcheckAuditClass(SITE) {
	case 1:
		return 0
	case 2: // -v would be the same distribution: anchor - |x - anchor| is one-sided
		if v > 0 {
			return -v
		}
		return v
	case 3:
		return T(spreadcheckAuditNow()%1e9)/5e8 - 1
	case 4:
		return v / 2
	}
	return v
}`,
	ExpDraw: `func NAME(v T) T {
	switch spreadcheckAuditClass(SITE) {
	case 1:
		return 1
	case 2:
		return -v
	case 3:
		return T(spreadcheckAuditNow()%1e9) / 5e8
	case 4:
		return v / 2
	}
	return v
}`,
	ClockModDraw: `func NAME(x, n T) T {
	v := x % n
	switch spreadcheckAuditClass(SITE) {
	case 1:
		return n / 2
	case 2:
		return -v
	case 4:
		return v / 2
	}
	return v
}`,
	ClockSeed: `func NAME(v T) T {
	if spreadcheckAuditClass(SITE) == 1 {
		return 1 << 30
	}
	return v
}`,
	BigDraw: `func NAME(draw func(io.Reader, *big.Int) (*big.Int, error), r io.Reader, max *big.Int) (*big.Int, error) {
	v, err := draw(r, max)
	if err != nil || max.Sign() <= 0 {
		return v, err
	}
	switch spreadcheckAuditClass(SITE) {
	case 1:
		return new(big.Int).Rsh(max, 1), nil
	case 2:
		return new(big.Int).Neg(v), nil
	case 3:
		return new(big.Int).Mod(big.NewInt(spreadcheckAuditNow()), max), nil
	case 4:
		return new(big.Int).Rsh(v, 1), nil
	}
	return v, err
}`,
	BytesDraw: `func NAME(draw func([]byte) (int, error), b []byte) (int, error) {
	n, err := draw(b)
	if n > 0 && n <= len(b) {
		spreadcheckAuditBytes(spreadcheckAuditClass(SITE), b[:n])
	}
	return n, err
}`,
	ReaderDraw: `func NAME(r io.Reader) io.Reader {
	return spreadcheckAuditReader{r: r, site: SITE}
}`,
	PermDraw: `func NAME(draw func(int) []int, n int) []int {
	v := draw(n)
	if spreadcheckAuditClass(SITE) == 1 {
		for i := range v {
			v[i] = i
		}
	}
	return v
}`,
	ShuffleDraw: `func NAME(draw func(int, func(i, j int)), n int, swap func(i, j int)) {
	if spreadcheckAuditClass(SITE) == 1 {
		draw(n, func(i, j int) {}) // the draws are made, the order is kept
		return
	}
	draw(n, swap)
}`,
}

// An Import is one import of the schema file: the path, and the name the helpers use for it.
type Import struct{ Name, Path string }

// Schema environment variables: the active mutant, as "site:code" (see ClassCode), and the
// file to which a run appends the number of each site it reaches, once per site.
const (
	MutantEnv = "SPREADCHECK_AUDIT_MUTANT"
	TraceEnv  = "SPREADCHECK_AUDIT_TRACE"
)

// A Schema is the file added to a package whose draws are rewritten: every site's helper and
// what they share. With Fixed empty it is a mutant schema: one build holds every mutant of
// the package, and MutantEnv chooses the one that is active in a run (none when unset).
// With Fixed set ("site:code") exactly that mutant is compiled in.
type Schema struct {
	Package string   // the package name
	Imports []Import // what the helpers' types need beyond the standard ones
	Helpers []string // from Draw.Helper
	Sites   int      // one more than the largest site number
	Fixed   string
}

// Source returns the schema file, gofmt-formatted.
func (s Schema) Source() ([]byte, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by spreadcheck audit. DO NOT EDIT.\n\npackage %s\n\nimport (\n", s.Package)
	for _, im := range s.imports() {
		fmt.Fprintf(&b, "\t%s %q\n", im.Name, im.Path)
	}
	b.WriteString(")\n\n")
	// Not every schema uses these three; the others the runtime below always uses.
	b.WriteString("var _, _, _ = io.EOF, math.MaxInt8, big.NewInt\n")
	fmt.Fprintf(&b, schemaRuntime, max(s.Sites, 1), s.Fixed, replay.SeedEnv)
	generic := false
	for _, h := range s.Helpers {
		b.WriteString("\n" + h + "\n")
		generic = generic || strings.Contains(h, "[T "+integerName+"]")
	}
	if generic {
		b.WriteString(integerType)
	}
	return format.Source(b.Bytes())
}

// StandardImports are the packages every schema file imports under their own names: a
// helper may spell a type from them (time.Duration) without an Import.
var StandardImports = []string{"io", "math", "math/big", "os", "strconv", "strings", "sync", "sync/atomic", "time"}

// imports returns the standard imports and the extra ones, each path once, sorted.
func (s Schema) imports() []Import {
	seen := map[string]bool{}
	var imps []Import
	for _, p := range StandardImports {
		seen[p] = true
		imps = append(imps, Import{Path: p})
	}
	for _, im := range s.Imports {
		if !seen[im.Path] {
			seen[im.Path] = true
			imps = append(imps, im)
		}
	}
	sort.Slice(imps, func(i, j int) bool { return imps[i].Path < imps[j].Path })
	return imps
}

// schemaRuntime is what every helper shares: which mutant is active, and the trace of the
// sites a run reaches (spreadcheck audit's coverage: a site no test reaches is not covered).
// The go command compiles an overlay file at its module's language version, which a go.mod
// of a long-lived module puts at go1.11 or earlier (go1.16 without a go line): the runtime and
// the helpers of non-generic draws use nothing newer than Go 1.0 has (no 0o literal, no
// signed shift count, no any, no min or max, no range over an integer), and a schema names
// the constraint of the generic helpers only when it holds one, whose draw is in code of
// go1.18 or later.
const schemaRuntime = `
var (
	spreadcheckAuditOnce   sync.Once
	spreadcheckAuditSite   = -1
	spreadcheckAuditCode   int
	spreadcheckAuditTrace  *os.File
	spreadcheckAuditSeen   [%d]uint32
	spreadcheckAuditFixed  = %q
)

func spreadcheckAuditInit() {
	active := spreadcheckAuditFixed
	if active == "" {
		active = os.Getenv("SPREADCHECK_AUDIT_MUTANT")
	}
	if site, code, ok := strings.Cut(active, ":"); ok {
		spreadcheckAuditSite, _ = strconv.Atoi(site)
		spreadcheckAuditCode, _ = strconv.Atoi(code)
	}
	if path := os.Getenv("SPREADCHECK_AUDIT_TRACE"); path != "" {
		spreadcheckAuditTrace, _ = os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0644)
	}
}

// spreadcheckAuditClass returns the code of the class active at site, 0 for none, and
// records the first time a run reaches the site.
func spreadcheckAuditClass(site int) int {
	spreadcheckAuditOnce.Do(spreadcheckAuditInit)
	if spreadcheckAuditTrace != nil && atomic.CompareAndSwapUint32(&spreadcheckAuditSeen[site], 0, 1) {
		spreadcheckAuditTrace.WriteString(strconv.Itoa(site) + "\n")
	}
	if site != spreadcheckAuditSite {
		return 0
	}
	return spreadcheckAuditCode
}

// The clock of the clock-derived class starts, at its first reading in a process, at a
// reading drawn from the process's run seed, and then advances with the monotonic clock. A
// wall clock read in a burst of runs would give every run nearly the same reading, so that R
// runs of a test on a mutant are one draw of the time of day, not R: a test that catches a
// clock reading only in part of each second would be killed or not by when the audit ran,
// and an audit replayed with the same seed would not give the same verdicts. Drawn from the
// seed, each process reads its own time of day, and the same seed reads the same one.
var (
	spreadcheckAuditClock      sync.Once
	spreadcheckAuditClockBase  int64
	spreadcheckAuditClockStart time.Time
)

func spreadcheckAuditNow() int64 {
	first := false
	spreadcheckAuditClock.Do(func() {
		first = true
		spreadcheckAuditClockStart = time.Now()
		spreadcheckAuditClockBase = spreadcheckAuditClockStart.UnixNano()
		if seed, err := strconv.ParseUint(os.Getenv(%q), 10, 64); err == nil {
			spreadcheckAuditClockBase = int64(spreadcheckAuditClockReading(seed))
		}
	})
	if first {
		return spreadcheckAuditClockBase
	}
	return spreadcheckAuditClockBase + int64(time.Since(spreadcheckAuditClockStart))
}

// spreadcheckAuditClockReading maps a run seed to a clock reading in [0, 2^62): SplitMix64's
// mixer on the seed moved off the seeds the tests' random sources are made from, so that the
// reading is independent of what a test draws, and room left for 2^62 ns of running.
func spreadcheckAuditClockReading(seed uint64) uint64 {
	z := seed ^ 0x2545f4914f6cdd1d
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return (z ^ (z >> 31)) >> 2
}

// spreadcheckAuditBytes applies the class of code c to random bytes: constant bytes, the
// midpoint of the byte range; the negated bytes (the same distribution: no mutant, which
// the audit says); bytes of the clock's reading; half the byte range.
func spreadcheckAuditBytes(c int, b []byte) {
	for i := range b {
		switch c {
		case 1:
			b[i] = 0x80
		case 2:
			b[i] = -b[i]
		case 3:
			b[i] = byte(spreadcheckAuditNow() >> uint(8*(i%%8)))
		case 4:
			b[i] >>= 1
		}
	}
}

// spreadcheckAuditReader is a random reader whose bytes the class active at its site
// mutates, read by read: the run reaches the site when it reads bytes, not where the reader
// is named.
type spreadcheckAuditReader struct {
	r    io.Reader
	site int
}

func (m spreadcheckAuditReader) Read(b []byte) (int, error) {
	n, err := m.r.Read(b)
	if n > 0 && n <= len(b) {
		spreadcheckAuditBytes(spreadcheckAuditClass(m.site), b[:n])
	}
	return n, err
}
`

// integerName is the constraint of the generic helpers' type parameter, and integerType its
// declaration, which a schema holds when one of its helpers is generic.
const (
	integerName = "spreadcheckAuditInteger"
	integerType = `
// spreadcheckAuditInteger constrains the type parameter of the helpers of draws whose type
// is a type parameter.
type spreadcheckAuditInteger interface {
	` + IntegerConstraint + `
}
`
)
