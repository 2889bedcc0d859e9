package analyzer

import (
	"path/filepath"
	"testing"

	"github.com/cudalint/cudalint/parser"
	"github.com/cudalint/cudalint/sources"
)

// Every kernel the project ships (test data, examples, the rules' test
// files, and this package's guard shapes) is analyzed without an internal
// error, loaded as the tool loads them.
func TestShippedKernelsHaveNoInternalErrors(t *testing.T) {
	roots := []string{"../testdata", "../examples", "testdata"}
	rules, _ := filepath.Glob("../rules/*/testdata")
	roots = append(roots, rules...)
	for _, root := range roots {
		t.Run(root, func(t *testing.T) {
			files, errs := sources.Find([]string{root})
			if len(errs) > 0 || len(files) == 0 {
				t.Fatalf("found %d files, errors %v", len(files), errs)
			}
			set, errs := sources.Load(files, parser.Config{})
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			r := Analyze(set.Analyzed(), Options{})
			if len(r.Kernels) == 0 {
				t.Fatal("no kernels analyzed")
			}
			for _, e := range r.InternalErrors {
				t.Error(e)
			}
			checkPredictions(t, r)
		})
	}
}
