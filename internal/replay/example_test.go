package replay_test

import (
	"fmt"

	"github.com/spreadcheck/spreadcheck/internal/replay"
)

func ExampleRunPattern() {
	fmt.Println(replay.RunPattern("TestBackoff"))
	fmt.Println(replay.RunPattern("TestBackoff/cap=1s/attempt.3"))
	// Output:
	// ^TestBackoff$
	// ^TestBackoff$/^cap=1s$/^attempt\.3$
}
