// Package ruletest runs a rule over CUDA files whose expected diagnostics
// sit in the files themselves, as in golang.org/x/tools/go/analysis/
// analysistest: a comment // want "regexp" ["regexp"...] on a line
// expects one diagnostic per regexp on that line, matching it; every
// diagnostic must be expected and every expectation met.
package ruletest

import (
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/cudalint/cudalint/rules/accesses"
	"github.com/cudalint/cudalint/rules/impact"
)

var wantComment = regexp.MustCompile(`//\s*want\s+(.*)$`)

type want struct {
	file string
	line int
	re   *regexp.Regexp
	hit  bool
}

// Run checks rule a against the .cu files of dir.
func Run(t *testing.T, dir string, a *analysis.Analyzer) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.cu"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no .cu files in %s", dir)
	}
	wants := map[string][]*want{}
	for _, f := range files {
		for _, w := range parseWants(t, f) {
			key := fmt.Sprintf("%s:%d", w.file, w.line)
			wants[key] = append(wants[key], w)
		}
	}
	fset, got := diagnostics(t, files, a)
	for _, d := range got {
		pos := fset.Position(d.Pos)
		key := fmt.Sprintf("%s:%d", pos.Filename, pos.Line)
		matched := false
		for _, w := range wants[key] {
			if !w.hit && w.re.MatchString(d.Message) {
				w.hit, matched = true, true
				break
			}
		}
		if !matched {
			t.Errorf("%s: unexpected diagnostic: %s", pos, d.Message)
		}
	}
	for _, ws := range wants {
		for _, w := range ws {
			if !w.hit {
				t.Errorf("%s:%d: no diagnostic matching %q", w.file, w.line, w.re)
			}
		}
	}
}

// diagnostics runs a, after the model with default options, over files.
func diagnostics(t *testing.T, files []string, a *analysis.Analyzer) (*token.FileSet, []analysis.Diagnostic) {
	t.Helper()
	fset := token.NewFileSet()
	res, err := accesses.Load(&analysis.Pass{Analyzer: accesses.Analyzer, Fset: fset, OtherFiles: files}, accesses.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []analysis.Diagnostic
	pass := &analysis.Pass{Analyzer: a, Fset: fset, OtherFiles: files,
		ResultOf: map[*analysis.Analyzer]any{accesses.Analyzer: res, impact.Analyzer: impact.Of(res)},
		Report:   func(d analysis.Diagnostic) { got = append(got, d) }}
	if _, err := a.Run(pass); err != nil {
		t.Fatal(err)
	}
	return fset, got
}

// pattern reads one "..." or `...` pattern at the start of s. Inside
// double quotes only \" is an escape, so regexp escapes such as \[ stay
// as written. It returns the pattern and the length read.
func pattern(s string) (string, int, error) {
	switch s[0] {
	case '`':
		end := strings.IndexByte(s[1:], '`')
		if end < 0 {
			return "", 0, fmt.Errorf("unterminated pattern %s", s)
		}
		return s[1 : 1+end], end + 2, nil
	case '"':
		var b strings.Builder
		for i := 1; i < len(s); i++ {
			switch {
			case s[i] == '\\' && i+1 < len(s) && s[i+1] == '"':
				b.WriteByte('"')
				i++
			case s[i] == '"':
				return b.String(), i + 1, nil
			default:
				b.WriteByte(s[i])
			}
		}
	}
	return "", 0, fmt.Errorf("want a quoted pattern, got %s", s)
}

func parseWants(t *testing.T, file string) []*want {
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var out []*want
	for i, line := range strings.Split(string(src), "\n") {
		m := wantComment.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		rest := strings.TrimSpace(m[1])
		for rest != "" {
			pat, n, err := pattern(rest)
			if err != nil {
				t.Fatalf("%s:%d: bad want: %v", file, i+1, err)
			}
			re, err := regexp.Compile(pat)
			if err != nil {
				t.Fatalf("%s:%d: bad want: %v", file, i+1, err)
			}
			out = append(out, &want{file: file, line: i + 1, re: re})
			rest = strings.TrimSpace(rest[n:])
		}
	}
	return out
}
