package indirect

import (
	"fmt"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/analyzer/ctype"
	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/rules/accesses"
	"github.com/cudalint/cudalint/rules/lint"
	"github.com/cudalint/cudalint/rules/spec"
	"github.com/cudalint/cudalint/symbolic"
)

// Rule reports data-dependent addresses.
var Rule = spec.NewRule(spec.Spec{
	Rule: lint.Rule{ID: "indirect-access", Title: "Data-dependent access", Severity: lint.Info, Tags: []string{"performance", "gather"}, Precision: "medium"},
	Name: "indirect", Detect: Detect, Grade: Severity, Describe: describe})

// Analyzer is the rule's analyzer, for go/analysis drivers and tests.
var Analyzer = Rule.Analyzer

// Detect: a global address that depends on loaded data (a gather). A
// value every lane of a warp loads from one address (bottom = bottomd;
// k = (bottom & -32) + threadIdx.x) is no gather: the lanes do not pick
// their addresses from data, whatever the model could not resolve.
func Detect(_ *accesses.Result, p *analyzer.Prediction) bool {
	return p.Access.Space == interp.Global && !p.Known && p.Unknown.Cause == symbolic.CauseLoadedValue &&
		symbolic.ClassOf(p.Access.Addr) == symbolic.Data
}

// Severity: the cost depends on the data, so it is information.
func Severity(*analyzer.Prediction) lint.Severity { return lint.Info }

func describe(_ *accesses.Result, p *analyzer.Prediction) string {
	return fmt.Sprintf("%s; sort or bucket the indices so neighbouring lanes read neighbouring elements: 1 to 32 sectors/request depending on the data (32 for random indices), ideal %s; %s",
		p.Reason(), idealFor(p), p.Config.Describe())
}

// idealFor is the ideal a coalesced version of the access would reach.
func idealFor(p *analyzer.Prediction) string {
	return fmt.Sprint((32*ctype.Pieces(p.Access.Type)[0][1] + 31) / 32)
}
