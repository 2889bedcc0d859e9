package transpose

import (
	"fmt"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/rules/accesses"
	"github.com/cudalint/cudalint/rules/lint"
	"github.com/cudalint/cudalint/rules/policy"
	"github.com/cudalint/cudalint/rules/spec"
	"github.com/cudalint/cudalint/rules/wording"
	"github.com/cudalint/cudalint/symbolic"
)

// Rule reports the strided side of a transpose.
var Rule = spec.NewRule(spec.Spec{
	Rule: lint.Rule{ID: "uncoalesced-transpose", Title: "Uncoalesced transpose", Severity: lint.Warning, Tags: []string{"performance", "coalescing", "transpose"}, Precision: "high", Folds: lint.FoldSameStride},
	Name: "transpose", Detect: Detect, Grade: Severity, Describe: describe})

// Analyzer is the rule's analyzer, for go/analysis drivers and tests.
var Analyzer = Rule.Analyzer

// Severity grades by cost.
func Severity(p *analyzer.Prediction) lint.Severity { return policy.CostSeverity(p) }

// Detect: this access walks a column along x while its rows run along y
// (contiguous in threadIdx.y), and the kernel has an access the other way
// that is coalesced along x and steps by rows along y: the same layout
// read by rows and written by columns, a transpose. A matrix product
// whose operand walks a column along x but does not run along y (SYRK's
// A[j*m + k]) is not a transpose: that is a strided access.
func Detect(res *accesses.Result, p *analyzer.Prediction) bool {
	if !policy.Uncoalesced(res, p) || p.Config.Block[1] == 1 {
		return false
	}
	cx, okx := accesses.Coefficient(p, symbolic.ThreadIdx(symbolic.X).ID())
	cy, oky := accesses.Coefficient(p, symbolic.ThreadIdx(symbolic.Y).ID())
	elem := accesses.ElemBytes(p.Access)
	if !okx || !oky || abs(cx) <= elem || abs(cx) < 32 || abs(cy) != elem {
		return false
	}
	for _, q := range res.Kernel(p) {
		if q != p && otherSide(p, q, cy) {
			return true
		}
	}
	return false
}

// otherSide: q, under p's launch, goes the other way (a load for a store)
// coalesced along x and stepping along y further than p does.
func otherSide(p, q *analyzer.Prediction, cy int64) bool {
	if q.Config != p.Config || q.Access.Space != interp.Global || q.Access.Op == p.Access.Op || !q.Known {
		return false
	}
	qx, okqx := accesses.Coefficient(q, symbolic.ThreadIdx(symbolic.X).ID())
	qy, okqy := accesses.Coefficient(q, symbolic.ThreadIdx(symbolic.Y).ID())
	qe := accesses.ElemBytes(q.Access)
	return okqx && okqy && abs(qx) == qe && abs(qy) >= 32 && abs(cy) < abs(qy)
}

func abs(x int64) int64 { return accesses.Abs(x) }

func describe(_ *accesses.Result, p *analyzer.Prediction) string {
	other := "reads"
	if p.Access.Op == interp.Load {
		other = "writes"
	}
	return fmt.Sprintf("the kernel transposes: it %s rows coalesced, but this %s walks a column; stage a tile in shared memory (__shared__ float tile[32][33]) so both sides walk rows: %s",
		other, p.Access.Op, wording.Figures(p))
}
