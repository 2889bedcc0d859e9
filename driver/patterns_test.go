package driver

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// wantFinding is one expectation of testdata/patterns: on its line, a
// finding of the rule, at the severity, whose message matches.
var wantFinding = regexp.MustCompile(`//\s*want (info|warning|error) ([a-z-]+) "(.*)"\s*$`)

// The real-code patterns of testdata/patterns, run through the whole
// driver (precedence, grouping, severity, suppression): every finding is
// expected by a want comment on its line, and every want is met.
func TestRealCodePatterns(t *testing.T) {
	files, _ := filepath.Glob("../testdata/patterns/*.cu")
	if len(files) == 0 {
		t.Fatal("no patterns")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			wants := map[int][]string{}
			for i, line := range strings.Split(string(src), "\n") {
				if m := wantFinding.FindStringSubmatch(line); m != nil {
					wants[i+1] = m[1:]
				}
			}
			rep := Run(Options{Paths: []string{file}, NoContext: true})
			if len(rep.Errors) > 0 {
				t.Fatal(rep.Errors)
			}
			for _, f := range rep.Findings {
				line := rep.Fset.Position(f.Pos).Line
				w := wants[line]
				switch {
				case w == nil:
					t.Errorf("line %d: unexpected %s %s: %s", line, f.Severity, f.Rule.ID, f.Message)
				case w[0] != f.Severity.String() || w[1] != f.Rule.ID || !regexp.MustCompile(w[2]).MatchString(f.Message):
					t.Errorf("line %d: got %s %s: %s\nwant %s %s %q", line, f.Severity, f.Rule.ID, f.Message, w[0], w[1], w[2])
				}
				delete(wants, line)
			}
			for line, w := range wants {
				t.Errorf("line %d: no finding; want %s %s %q", line, w[0], w[1], w[2])
			}
		})
	}
}
