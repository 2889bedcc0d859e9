package driver

import (
	"github.com/cudalint/cudalint/rules/accesses"
	"github.com/cudalint/cudalint/rules/lint"
)

// combineImpact gives a folded finding the impact of its whole cause:
// fixing the cause fixes every access folded into it, so their excess
// counts together against the kernel (accesses.CombinedImpact). first is
// the finding that stands for the group; it leads, so that accesses of
// another launch configuration than its own are left out. An address
// read again counts once, as the compiler emits it (as in mergeCause).
func combineImpact(f *lint.Finding, first *lint.Finding, m []*lint.Finding) {
	imps := []*lint.Impact{first.Figures.Impact}
	counted := map[string]bool{addressKey(first.Prediction): true}
	for _, x := range m {
		if k := addressKey(x.Prediction); !counted[k] {
			counted[k] = true
			imps = append(imps, x.Figures.Impact)
		}
	}
	f.Figures.Impact = accesses.CombinedImpact(imps)
}

// withImpactText ends each finding's message with what fixing it is worth
// to its kernel ("fixing it: up to 4.3x for this kernel"). It runs once,
// after folding, so that a folded finding says what its whole cause is
// worth.
func withImpactText(fs []*lint.Finding) {
	for _, f := range fs {
		if imp := f.Figures.Impact; imp != nil {
			f.Message += "; " + accesses.ImpactText(imp)
		}
	}
}
