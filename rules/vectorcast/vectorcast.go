package vectorcast

import (
	"fmt"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/analyzer/ctype"
	"github.com/cudalint/cudalint/rules/accesses"
)

// Analyzer reports vector accesses through misaligned pointers.
var Analyzer = accesses.NewAnalyzer(accesses.Spec{ID: accesses.UnalignedVectorCast, Name: "vectorcast", Detect: Detect, Describe: describe})

// Detect: some requests of a vector access are not aligned to its width.
func Detect(_ *accesses.Result, p *analyzer.Prediction) bool {
	return accesses.GlobalKnown(p) && p.Misaligned > 0
}

// Severity: an unaligned vector access faults.
func Severity(*analyzer.Prediction) accesses.Severity { return accesses.Error }

func describe(p *analyzer.Prediction) string {
	width := ctype.Pieces(p.Access.Type)[0][1]
	return fmt.Sprintf("%s: %d-byte %s access at an address that is not %d-byte aligned in %.0f%% of requests: the GPU raises a misaligned address error; offset the pointer by a multiple of %d bytes: %s",
		accesses.Subject(p), width, p.Access.Type.Name, width, 100*p.Misaligned, width, accesses.Figures(p))
}
