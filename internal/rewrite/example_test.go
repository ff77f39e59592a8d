package rewrite_test

import (
	"fmt"

	"github.com/spreadcheck/spreadcheck/internal/rewrite"
)

// A draw of an integer in [0, n) becomes a call of its site's helper, which makes the
// original draw and then, when a class is active at the site, replaces its value.
func ExampleDraw_Rewrite() {
	d := rewrite.Draw{Kind: rewrite.BoundedDraw, Type: "time.Duration", Func: "rand.N", Args: []string{"base"}}
	call, _ := d.Rewrite(7)
	helper, _ := d.Helper(7)
	fmt.Println(call)
	fmt.Println(helper)
	// Output:
	// spreadcheckAudit7(rand.N, base)
	// func spreadcheckAudit7(draw func(time.Duration) time.Duration, n time.Duration) time.Duration {
	// 	v := draw(n)
	// 	if n <= 0 { // a replaced draw may accept what the original refuses: keep its value
	// 		return v
	// 	}
	// 	switch spreadcheckAuditClass(7) {
	// 	case 1:
	// 		return n / 2
	// 	case 2:
	// 		return -v
	// 	case 3:
	// 		return time.Duration(uint64(spreadcheckAuditNow()) % uint64(n))
	// 	case 4:
	// 		return v / 2
	// 	}
	// 	return v
	// }
}
