package forms_test

import (
	"bytes"
	"forms"
	"net"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestDateParses(t *testing.T) {
	for range 100 {
		d := forms.Date() // want `blind test: TestDateParses draws forms.Date 100 times and checks only that it parses \(err != nil\), so a constant of the right form passes it`
		if _, err := time.Parse("2006-01-02", d); err != nil {
			t.Fatal(err)
		}
	}
}

func TestDateInYear(t *testing.T) {
	start := time.Date(2026, time.January, 1, 0, 0, 0, 0, time.UTC)
	end := time.Date(2026, time.December, 31, 0, 0, 0, 0, time.UTC)
	for range 100 {
		d, err := time.Parse("2006-01-02", forms.Date()) // want `blind test: TestDateInYear draws forms.Date 100 times and checks only that it parses and the bounds of what it parses to \(err != nil, d.Before\(start\), d.After\(end\)\)`
		if err != nil {
			t.Fatal(err)
		}
		if d.Before(start) || d.After(end) {
			t.Fatal(d)
		}
	}
}

func TestIPv4Octets(t *testing.T) {
	ip := forms.IPv4() // want `blind test: TestIPv4Octets draws forms.IPv4 once and checks only that it parses, the bounds of what it parses to and its length \(len\(parts\) != 4, err != nil, n < 0, n > 255\)`
	parts := strings.Split(ip, ".")
	if len(parts) != 4 {
		t.Fatal(ip)
	}
	for _, part := range parts {
		n, err := strconv.Atoi(part)
		if err != nil || n < 0 || n > 255 {
			t.Fatalf("octet %q of %s", part, ip)
		}
	}
}

func TestIPv6RoundTrip(t *testing.T) {
	ip := net.ParseIP(forms.IPv6()) // want `blind test: TestIPv6RoundTrip draws forms.IPv6 once and checks only that it parses, that it survives a round trip and that it is not empty \(ip == nil, bytes.Equal\(ip, net.ParseIP\(ip.String\(\)\)\)\)`
	if ip == nil || !bytes.Equal(ip, net.ParseIP(ip.String())) {
		t.Fatal(ip)
	}
}

func TestCodeLength(t *testing.T) {
	if len(forms.Code(6)) != 6 { // want `blind test: TestCodeLength draws forms.Code once and checks only its length \(len\(forms.Code\(6\)\) != 6\)`
		t.Fatal("wrong length")
	}
}

func checkPhone(t *testing.T, s string) bool {
	t.Helper()
	if len(s)-strings.Count(s, " ") > 16 {
		t.Error("too long")
		return false
	}
	if ok, _ := regexp.MatchString(`^\+\d{1,2} \d+$`, s); !ok {
		t.Errorf("%q is no phone number", s)
		return false
	}
	return true
}

func TestPhoneHelper(t *testing.T) {
	checkPhone(t, forms.Phone()) // want `blind test: TestPhoneHelper draws forms.Phone once and checks only its length and its characters \(len\(s\)-strings.Count\(s, " "\) > 16, regexp.MatchString\(`
}

func TestFlagNever(t *testing.T) {
	b := forms.Flag() // want `blind test: TestFlagNever draws forms.Flag once and checks it only by b != true && b != false, which holds or fails whatever it draws, so no draw can fail the test; check what it draws: xs := spread.Draw\(1000, func\(\) int \{ if forms.Flag\(\) \{ return 1 \}; return 0 \}\); spread.Check\(t, xs, spread.Uniform\(0, 2\)\)`
	if b != true && b != false {
		t.Fatal(b)
	}
}

func TestPasswordCase(t *testing.T) {
	for n := range 20 {
		p := forms.Password(n) // want `blind test: TestPasswordCase draws forms.Password 20 times, with an argument that changes on each pass \(n\), and checks only its characters and that it survives a round trip \(p != strings.ToLower\(p\), strings.Contains\(p, "A"\)\)`
		if p != strings.ToLower(p) {
			t.Errorf("%q is not lowercase", p)
		}
		if strings.Contains(p, "A") {
			t.Errorf("%q has an A", p)
		}
	}
}

// The months of the parsed dates counted: a check of the spread, not of the form.
func TestDateMonths(t *testing.T) {
	months := map[time.Month]int{}
	for range 1000 {
		d, err := time.Parse("2006-01-02", forms.Date())
		if err != nil {
			t.Fatal(err)
		}
		months[d.Month()]++
	}
	if len(months) != 12 {
		t.Fatal(months)
	}
}

// A parsed date compared exactly with what was expected.
func TestDateExact(t *testing.T) {
	d, err := time.Parse("2006-01-02", forms.Date())
	if err != nil {
		t.Fatal(err)
	}
	if want := time.Date(2026, time.March, 1, 0, 0, 0, 0, time.UTC); d != want {
		t.Log(d, want)
	}
}

// The package's own parser is code under test: the code is its input.
func TestParseCode(t *testing.T) {
	n, err := forms.ParseCode(forms.Code(4))
	if err != nil || n < 0 {
		t.Fatal(n, err)
	}
}

// A password handed to code under test tests that code.
func TestHash(t *testing.T) {
	p := forms.Password(8)
	if h := forms.Hash(p); len(h) != 16 {
		t.Fatal(h)
	}
}

// A flag used to decide what to check is read for what it is.
func TestFlagUsed(t *testing.T) {
	if forms.Flag() {
		t.Log("heads")
	}
}

// Bounds, then the places of the number written out: no more than the bounds.
func TestDecimalPlaces(t *testing.T) {
	d := forms.Decimal(2, 4) // want `blind test: TestDecimalPlaces draws forms.Decimal once and checks only its bounds \(d < 2 \|\| d > 4\), so a constant or a collapsed range passes it`
	if d < 2 || d > 4 {
		t.Fatal(d)
	}
	if ds := strings.Split(strconv.FormatFloat(d, 'f', 3, 64), "."); len(ds[1]) != 3 {
		t.Fatal(ds)
	}
}

// Token(0) and Mix(v, 4) draw nothing: a length is all there is to check. Token(8) draws.
func TestQuietPaths(t *testing.T) {
	if len(forms.Token(0)) != 0 || len(forms.Token(-1)) != 0 {
		t.Fatal("not empty")
	}
	if got := forms.Mix(10, 4); len(got) != 2 {
		t.Fatal(got)
	}
	if len(forms.Token(8)) != 8 { // want `blind test: TestQuietPaths draws forms.Token once and checks only its length \(len\(forms.Token\(8\)\) != 8\)`
		t.Fatal("wrong length")
	}
}

// go-faker's TestFakeAmountWithCurrency: a space, and the first part one of the codes; a
// constant amount passes.
func TestAmountCode(t *testing.T) {
	a := forms.Amount() // want `blind test: TestAmountCode draws forms.Amount once and checks only its characters and that it or a part of it is in a collection \(strings.Contains\(a, " "\), slices.Contains\(forms.Currencies, parts\[0\]\)\)`
	if !strings.Contains(a, " ") {
		t.Fatal(a)
	}
	parts := strings.Split(a, " ")
	if !slices.Contains(forms.Currencies, parts[0]) {
		t.Fatal(a)
	}
}

// The codes counted as well: their spread, more than their form.
func TestAmountCodesCounted(t *testing.T) {
	seen := map[string]int{}
	for range 1000 {
		parts := strings.Split(forms.Amount(), " ")
		if !slices.Contains(forms.Currencies, parts[0]) {
			t.Fatal(parts)
		}
		seen[parts[0]]++
	}
	if len(seen) != len(forms.Currencies) {
		t.Fatal(seen)
	}
}
