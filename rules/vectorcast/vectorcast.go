package vectorcast

import (
	"fmt"
	"slices"
	"strings"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/analyzer/ctype"
	"github.com/cudalint/cudalint/analyzer/warp"
	"github.com/cudalint/cudalint/rules/accesses"
	"github.com/cudalint/cudalint/rules/lint"
	"github.com/cudalint/cudalint/rules/policy"
	"github.com/cudalint/cudalint/rules/spec"
	"github.com/cudalint/cudalint/rules/wording"
	"github.com/cudalint/cudalint/symbolic"
)

// Rule reports vector accesses through misaligned pointers.
var Rule = spec.NewRule(spec.Spec{
	Rule: lint.Rule{ID: "unaligned-vector-cast", Title: "Unaligned vector access", Severity: lint.Error, Tags: []string{"correctness", "alignment"}, Precision: "high", Fault: true},
	Name: "vectorcast", Detect: Detect, Grade: Severity, Describe: describe})

// Analyzer is the rule's analyzer, for go/analysis drivers and tests.
var Analyzer = Rule.Analyzer

// Detect: some requests of a vector access are not aligned to its width.
func Detect(_ *accesses.Result, p *analyzer.Prediction) bool {
	return policy.GlobalKnown(p) && p.Misaligned > 0
}

// Severity: an unaligned vector access faults, an error where the
// misalignment holds for the values the code gives. Where it rests on a
// size no launch gives (assumed), on a guessed block or on a loaded
// base's residue, other values may align it: a warning, saying so.
func Severity(p *analyzer.Prediction) lint.Severity {
	if len(uncertainties(p)) > 0 {
		return lint.Warning
	}
	return lint.Error
}

func describe(_ *accesses.Result, p *analyzer.Prediction) string {
	width := ctype.Pieces(p.Access.Type)[0][1]
	if why := uncertainties(p); len(why) > 0 {
		return fmt.Sprintf("%d-byte %s access at an address that is not %d-byte aligned in %.0f%% of requests %s: for such values the GPU raises a misaligned address error; offset the pointer by a multiple of %d bytes, or give the values the code runs with: %s",
			width, p.Access.Type.Name, width, 100*p.Misaligned, strings.Join(why, " and "), width, wording.Figures(p))
	}
	return fmt.Sprintf("%d-byte %s access at an address that is not %d-byte aligned in %.0f%% of requests: the GPU raises a misaligned address error; offset the pointer by a multiple of %d bytes: %s",
		width, p.Access.Type.Name, width, 100*p.Misaligned, width, wording.Figures(p))
}

// uncertainties says what the misalignment rests on beyond the code's own
// values: sizes no launch gives, a block shape nothing gives, the residue
// of a base loaded from memory. None: the access faults as written.
func uncertainties(p *analyzer.Prediction) []string {
	var why []string
	if names := assumedParams(p); len(names) > 0 {
		why = append(why, fmt.Sprintf("at the assumed %s (no launch gives %s)", assumedValues(p, names), map[bool]string{true: "it", false: "them"}[len(names) == 1]))
	}
	if policy.GuessedBlock(p.Config) && mentionsBlockShape(p.Access.Addr) {
		why = append(why, "under a guessed block shape")
	}
	if p.BaseResidue != nil {
		why = append(why, "averaged over the residues of a loaded base")
	}
	return why
}

// assumedParams are the parameters in the address that no launch or
// configuration gives a value.
func assumedParams(p *analyzer.Prediction) []string {
	given := p.Config.Values()
	var out []string
	symbolic.Symbols(p.Access.Addr, func(v *symbolic.Var) {
		if v.Kind != symbolic.KindParam || v.Class == symbolic.Data {
			return
		}
		if _, ok := given[v.Key()]; !ok && !slices.Contains(out, v.Name) {
			out = append(out, v.Name)
		}
	})
	return out
}

// assumedValues writes the values the model took for names: "off = 4096".
func assumedValues(p *analyzer.Prediction, names []string) string {
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%s = %d", n, warp.AssumedValue)
		for _, a := range p.Assumptions {
			if a.Kind == warp.AssumedParam && a.Name == n {
				parts[i] = fmt.Sprintf("%s = %d", n, a.Value)
			}
		}
	}
	return strings.Join(parts, ", ")
}

func mentionsBlockShape(e symbolic.Expr) bool {
	for _, a := range symbolic.Axes {
		if symbolic.Mentions(e, symbolic.ThreadIdx(a).ID()) || symbolic.Mentions(e, symbolic.BlockDim(a).ID()) {
			return true
		}
	}
	return false
}
