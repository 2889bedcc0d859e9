package transpose

import (
	"fmt"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/rules/accesses"
)

// Analyzer reports the strided side of a transpose.
var Analyzer = accesses.NewAnalyzer(accesses.UncoalescedTranspose, "transpose", describe, nil)

func describe(p *analyzer.Prediction) string {
	other := "reads"
	if p.Access.Op == analyzer.Load {
		other = "writes"
	}
	return fmt.Sprintf("%s: the kernel transposes: it %s rows coalesced, but this %s walks a column; stage a tile in shared memory (__shared__ float tile[32][33]) so both sides walk rows: %s",
		accesses.Subject(p), other, p.Access.Op, accesses.Figures(p))
}
