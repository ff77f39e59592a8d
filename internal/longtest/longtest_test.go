package longtest

import "testing"

func TestSkipFollowsTheVariable(t *testing.T) {
	t.Setenv(Env, "")
	if Enabled() {
		t.Fatalf("Enabled() with %s empty", Env)
	}
	ran := false
	t.Run("off", func(t *testing.T) { Skip(t); ran = true })
	if ran {
		t.Errorf("Skip let the test run with %s empty", Env)
	}
	t.Setenv(Env, "1")
	ran = false
	t.Run("on", func(t *testing.T) { Skip(t); ran = true })
	if !ran {
		t.Errorf("Skip skipped the test with %s=1", Env)
	}
}
