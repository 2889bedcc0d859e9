package ruletest

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"golang.org/x/tools/go/analysis"
)

// RunWithSuggestedFixes checks rule a against the .cu files of dir, as
// Run does, then applies the first fix of every diagnostic and compares
// each file with FILE.golden beside it (as analysistest does): a file
// with a .golden must come out as its golden, and a file the fixes change
// must have one.
func RunWithSuggestedFixes(t *testing.T, dir string, a *analysis.Analyzer) {
	t.Helper()
	Run(t, dir, a)
	files, _ := filepath.Glob(filepath.Join(dir, "*.cu"))
	fset, diags := diagnostics(t, files, a)
	edits := map[string][]edit{}
	for _, d := range diags {
		if len(d.SuggestedFixes) == 0 {
			continue
		}
		for _, e := range d.SuggestedFixes[0].TextEdits {
			start, end := fset.Position(e.Pos), fset.Position(e.End)
			if !e.End.IsValid() {
				end = start
			}
			edits[start.Filename] = append(edits[start.Filename], edit{start.Offset, end.Offset, string(e.NewText)})
		}
	}
	for _, name := range files {
		checkGolden(t, name, edits[name])
	}
}

type edit struct {
	start, end int
	text       string
}

// checkGolden applies the edits to name and compares with name.golden.
func checkGolden(t *testing.T, name string, es []edit) {
	t.Helper()
	src, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	got, err := apply(src, es)
	if err != nil {
		t.Errorf("%s: %v", name, err)
		return
	}
	want, err := os.ReadFile(name + ".golden")
	switch {
	case os.IsNotExist(err) && bytes.Equal(got, src):
		return // not fixed, and no golden expects it to be
	case err != nil:
		t.Errorf("%s: fixes change the file but there is no golden: %v", name, err)
	case !bytes.Equal(got, want):
		t.Errorf("%s: fixed file differs from %s.golden:\n%s", name, filepath.Base(name), got)
	}
}

// apply applies edits in order of position; identical edits (two
// findings in one kernel proposing the same fix) apply once, others may
// not overlap.
func apply(src []byte, es []edit) ([]byte, error) {
	sort.Slice(es, func(i, j int) bool { return es[i].start < es[j].start })
	var b bytes.Buffer
	last := 0
	for i, e := range es {
		if i > 0 && e == es[i-1] {
			continue
		}
		if e.start < last {
			return nil, errOverlap
		}
		b.Write(src[last:e.start])
		b.WriteString(e.text)
		last = e.end
	}
	b.Write(src[last:])
	return b.Bytes(), nil
}

var errOverlap = errorString("fixes overlap")

type errorString string

func (e errorString) Error() string { return string(e) }
