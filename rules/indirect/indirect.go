package indirect

import (
	"fmt"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/analyzer/ctype"
	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/rules/accesses"
	"github.com/cudalint/cudalint/symbolic"
)

// Analyzer reports data-dependent addresses.
var Analyzer = accesses.NewAnalyzer(accesses.Spec{ID: accesses.IndirectAccess, Name: "indirect", Detect: Detect, Describe: describe})

// Detect: a global address that depends on loaded data (a gather). A
// value every lane of a warp loads from one address (bottom = bottomd;
// k = (bottom & -32) + threadIdx.x) is no gather: the lanes do not pick
// their addresses from data, whatever the model could not resolve.
func Detect(_ *accesses.Result, p *analyzer.Prediction) bool {
	return p.Access.Space == interp.Global && !p.Known && p.Unknown.Cause == symbolic.CauseLoadedValue &&
		symbolic.ClassOf(p.Access.Addr) == symbolic.Data
}

// Severity: the cost depends on the data, so it is information.
func Severity(*analyzer.Prediction) accesses.Severity { return accesses.Info }

func describe(p *analyzer.Prediction) string {
	return fmt.Sprintf("%s: %s; sort or bucket the indices so neighbouring lanes read neighbouring elements: 1 to 32 sectors/request depending on the data (32 for random indices), ideal %s; %s",
		accesses.Subject(p), p.Reason(), idealFor(p), p.Config.Describe())
}

// idealFor is the ideal a coalesced version of the access would reach.
func idealFor(p *analyzer.Prediction) string {
	return fmt.Sprint((32*ctype.Pieces(p.Access.Type)[0][1] + 31) / 32)
}
