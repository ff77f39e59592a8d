package spread

import (
	"os"
	"testing"
	"time"
)

// childCheckLine is the line of the Check call below; TestReportsTheCallersLine pins it.
const childCheckLine = 18

func TestChildFailingCheck(t *testing.T) {
	if os.Getenv("SPREAD_CHILD") != "1" {
		t.Skip("run by TestReportsTheCallersLine")
	}
	r := Rand(t)
	xs := Draw(1000, func() time.Duration { return time.Duration(r.Int64N(int64(time.Second))) / 2 })
	Check(t, xs, Uniform(0, time.Second))
}
