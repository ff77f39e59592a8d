package plugin

import (
	"testing"

	"github.com/golangci/plugin-module-register/register"

	"github.com/spreadcheck/spreadcheck/spreadvet"
)

// TestRegistered: the init registers "spreadvet", and the plugin it builds runs the analyzer
// with type information.
func TestRegistered(t *testing.T) {
	newPlugin, err := register.GetPlugin("spreadvet")
	if err != nil {
		t.Fatal(err)
	}
	p, err := newPlugin(map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	as, err := p.BuildAnalyzers()
	if err != nil || len(as) != 1 || as[0] != spreadvet.Analyzer {
		t.Errorf("BuildAnalyzers() = %v, %v; want the spreadvet analyzer", as, err)
	}
	if m := p.GetLoadMode(); m != register.LoadModeTypesInfo {
		t.Errorf("load mode %q, want %q", m, register.LoadModeTypesInfo)
	}
}
