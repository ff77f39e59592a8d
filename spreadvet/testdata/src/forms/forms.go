// Package forms draws values that tests often check by their form alone: dates, addresses,
// flags, phone numbers and passwords.
package forms

import (
	"fmt"
	"math/rand/v2"
	"net"
	"strconv"
	"strings"
	"time"
)

// Date returns a day of 2026 drawn evenly, as 2006-01-02.
func Date() string { // want Date:"random\\(rand.IntN\\)"
	start := time.Date(2026, time.January, 1, 0, 0, 0, 0, time.UTC)
	return start.AddDate(0, 0, rand.IntN(365)).Format("2006-01-02")
}

// Flag returns true or false, evenly.
func Flag() bool { return rand.IntN(2) == 1 } // want Flag:"random\\(rand.IntN\\)"

// IPv4 returns a dotted address of four octets drawn evenly.
func IPv4() string { // want IPv4:"random\\(rand.IntN\\)"
	parts := make([]string, 4)
	for i := range parts {
		parts[i] = strconv.Itoa(rand.IntN(256))
	}
	return strings.Join(parts, ".")
}

// IPv6 returns an address of sixteen bytes drawn evenly.
func IPv6() string { // want IPv6:"random\\(rand.IntN\\)"
	ip := make(net.IP, net.IPv6len)
	for i := range ip {
		ip[i] = byte(rand.IntN(256))
	}
	return ip.String()
}

// digits returns n decimal digits drawn evenly.
func digits(n int) string { // want digits:"random\\(rand.IntN\\)"
	var b strings.Builder
	for range n {
		b.WriteByte(byte('0' + rand.IntN(10)))
	}
	return b.String()
}

// Code returns an n-digit code, two calls from its draw.
func Code(n int) string { return wrap(n) } // want Code:"random\\(calls wrap\\)"

func wrap(n int) string { return "" + digits(n) } // want wrap:"random\\(calls digits\\)"

// Phone returns a number with a country code.
func Phone() string { return fmt.Sprintf("+%d %s", 1+rand.IntN(99), digits(9)) } // want Phone:"random\\(rand.IntN\\)"

// Password returns n lowercase letters drawn evenly.
func Password(n int) string { // want Password:"random\\(rand.IntN\\)"
	b := make([]byte, n)
	for i := range b {
		b[i] = byte('a' + rand.IntN(26))
	}
	return string(b)
}

// ParseCode is the package's own parser: a code handed to it is its input.
func ParseCode(s string) (int, error) { return strconv.Atoi(s) }

// Hash is code under test that takes a password.
func Hash(p string) string { return strings.Repeat(p, 2) }

// Decimal returns a number in [lo, hi) drawn evenly, rounded to three places.
func Decimal(lo, hi float64) float64 { // want Decimal:"random\\(rand.Float64.*\\)"
	x := lo + rand.Float64()*(hi-lo)
	r, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'f', 3, 64), 64)
	return r
}

// Token returns n random bytes, and none, before any draw, when n <= 0.
func Token(n int) []byte { // want Token:"random\\(rand.IntN, quiet when \\$0 <= 0\\)"
	if n <= 0 {
		return []byte{}
	}
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rand.IntN(256))
	}
	return b
}

// Mix writes v in hex with a random digit after it, which is 0 when bits is 4 or more: it
// draws only when bits < 4.
func Mix(v uint64, bits int) string { // want Mix:"random\\(rand.IntN, quiet when \\$1 >= 4\\)"
	r := 0
	if bits < 4 {
		r = rand.IntN(1 << (4 - bits))
	}
	return fmt.Sprintf("%x%d", v, r)
}

// Currencies are the codes an Amount starts with.
var Currencies = []string{"USD", "EUR", "JPY"}

// Amount is go-faker's AmountWithCurrency: a random code, a space and a random amount.
func Amount() string { // want Amount:"random\\(rand.IntN\\)"
	return Currencies[rand.IntN(len(Currencies))] + " " + strconv.FormatFloat(rand.Float64()*1000, 'f', 2, 64)
}
