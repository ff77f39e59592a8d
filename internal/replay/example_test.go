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

func ExampleCommand() {
	c := replay.Command{
		Env:     []string{replay.SeedEnv + "=42"},
		Flags:   []string{"-vet=off"},
		Test:    "TestBackoff/cap=1s",
		Package: "example.com/retry",
	}
	fmt.Println(c)
	// Output:
	// SPREADCHECK_SEED=42 go test -vet=off -run '^TestBackoff$/^cap=1s$' -count=1 example.com/retry
}
