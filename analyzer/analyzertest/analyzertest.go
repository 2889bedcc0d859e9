// Package analyzertest helps tests that need the model's prediction of
// one access of a small source.
package analyzertest

import (
	"testing"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/parser"
)

// Predict analyzes src, one file k.cu, under the default options and
// returns the last prediction of an access of kind op: the table tests
// of severity policies build one access each.
func Predict(t *testing.T, src string, op interp.Op) *analyzer.Prediction {
	t.Helper()
	return PredictWith(t, src, op, analyzer.Options{})
}

// PredictWith is Predict under opts.
func PredictWith(t *testing.T, src string, op interp.Op, opts analyzer.Options) *analyzer.Prediction {
	t.Helper()
	f := parser.Parse("k.cu", []byte(src), parser.Config{})
	r := analyzer.Analyze([]*parser.File{f}, opts)
	var p *analyzer.Prediction
	for _, q := range r.Predictions {
		if q.Access.Op == op {
			p = q
		}
	}
	if p == nil {
		t.Fatalf("no %s predicted in %s", op, src)
	}
	return p
}
