package strided

import (
	"fmt"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/rules/accesses"
)

// Analyzer reports strided accesses.
var Analyzer = accesses.NewAnalyzer(accesses.Spec{ID: accesses.StridedAccess, Name: "strided", Detect: Detect, Describe: describe})

// Detect: neighbouring lanes are further apart than an element.
func Detect(res *accesses.Result, p *analyzer.Prediction) bool {
	return res.Uncoalesced(p) && accesses.LaneStrideBytes(p) > accesses.ElemBytes(p.Access)
}

// Severity grades by cost.
func Severity(p *analyzer.Prediction) accesses.Severity { return accesses.CostSeverity(p) }

func describe(p *analyzer.Prediction) string {
	return fmt.Sprintf("%s: neighbouring lanes are %d bytes apart, so each request moves %.1fx the bytes it uses: %s",
		accesses.Subject(p), abs(*p.LaneStride), p.Sectors/p.Ideal, accesses.Figures(p))
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}
