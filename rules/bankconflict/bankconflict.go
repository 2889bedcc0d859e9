package bankconflict

import (
	"fmt"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/rules/accesses"
)

// Analyzer reports shared-memory bank conflicts.
var Analyzer = accesses.NewAnalyzer(accesses.SharedBankConflict, "bankconflict", describe, nil)

func describe(p *analyzer.Prediction) string {
	return fmt.Sprintf("%s: lanes hit the same bank at different words; pad the array's rows by one element (as in [32][33]): %s",
		accesses.Subject(p), accesses.Figures(p))
}
