package annotate

import (
	"fmt"
	"io"
	"strings"
)

// Level is how GitHub shows an annotation.
type Level string

// The levels of annotation. An error marks what fails the run, a warning what does not.
const (
	Warning Level = "warning"
	Error   Level = "error"
)

// Annotation is one message on one line of a file. File is relative to the repository's root
// (the working directory of a GitHub Actions step) and slash-separated; an annotation with no
// File is shown on the run, not on a line.
type Annotation struct {
	Level   Level
	File    string
	Line    int
	Title   string
	Message string
}

// Write writes each annotation as a workflow command line.
func Write(w io.Writer, as []Annotation) error {
	for _, a := range as {
		if _, err := io.WriteString(w, a.command()+"\n"); err != nil {
			return err
		}
	}
	return nil
}

// command returns the workflow command, escaped as the Actions toolkit escapes it: in the
// message %, CR and LF; in a property also ':' and ',', which separate properties.
func (a Annotation) command() string {
	var props []string
	if a.File != "" {
		props = append(props, "file="+escapeProperty(a.File))
		if a.Line > 0 {
			props = append(props, fmt.Sprintf("line=%d", a.Line))
		}
	}
	if a.Title != "" {
		props = append(props, "title="+escapeProperty(a.Title))
	}
	level := a.Level
	if level != Error {
		level = Warning
	}
	cmd := "::" + string(level)
	if len(props) > 0 {
		cmd += " " + strings.Join(props, ",")
	}
	return cmd + "::" + escapeData(a.Message)
}

var (
	dataEscaper     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	propertyEscaper = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

func escapeData(s string) string     { return dataEscaper.Replace(s) }
func escapeProperty(s string) string { return propertyEscaper.Replace(s) }

// InActions reports whether the process runs as a GitHub Actions step, from its environment
// (getenv is os.Getenv, or a stand-in in tests).
func InActions(getenv func(string) string) bool { return getenv("GITHUB_ACTIONS") == "true" }
