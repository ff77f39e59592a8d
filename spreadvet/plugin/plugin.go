// Package plugin registers spreadvet as a golangci-lint v2 module plugin. Name it in
// .custom-gcl.yml, build the custom binary with golangci-lint custom, and enable the linter
// "spreadvet" in .golangci.yml (type: module); it takes no settings.
package plugin

import (
	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/spreadcheck/spreadcheck/spreadvet"
)

func init() { register.Plugin("spreadvet", New) }

// New returns the plugin; golangci-lint calls it with the linter's settings, which spreadvet
// does not use.
func New(any) (register.LinterPlugin, error) { return linter{}, nil }

type linter struct{}

// BuildAnalyzers returns the spreadvet analyzer.
func (linter) BuildAnalyzers() ([]*analysis.Analyzer, error) {
	return []*analysis.Analyzer{spreadvet.Analyzer}, nil
}

// GetLoadMode asks for type information: the analyzer needs types and facts.
func (linter) GetLoadMode() string { return register.LoadModeTypesInfo }
