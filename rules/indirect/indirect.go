package indirect

import (
	"fmt"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/rules/accesses"
)

// Analyzer reports data-dependent addresses.
var Analyzer = accesses.NewAnalyzer(accesses.IndirectAccess, "indirect", describe, nil)

func describe(p *analyzer.Prediction) string {
	return fmt.Sprintf("%s: %s; it costs 1 to 32 sectors/request depending on the data (32 for random indices); sort or bucket the indices so neighbouring lanes read neighbouring elements; %s",
		accesses.Subject(p), p.Reason, p.Config.Describe())
}
