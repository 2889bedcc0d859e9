package aosfield

import (
	"fmt"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/analyzer/ctype"
	"github.com/cudalint/cudalint/rules/accesses"
)

// Analyzer reports one field of an array of structs read per lane.
var Analyzer = accesses.NewAnalyzer(accesses.Spec{ID: accesses.AoSField, Name: "aosfield", Detect: Detect, Describe: describe})

// Detect: lanes step by a whole struct and use one field of it. A vector
// component loaded with its sibling is excluded by Uncoalesced: the
// compiler loads the whole vector once.
func Detect(res *accesses.Result, p *analyzer.Prediction) bool {
	a := p.Access
	return res.Uncoalesced(p) && a.Struct != nil && accesses.LaneStrideBytes(p) == a.Struct.Size && a.Type.Size < a.Struct.Size
}

// Severity grades by cost.
func Severity(p *analyzer.Prediction) accesses.Severity { return accesses.CostSeverity(p) }

func describe(p *analyzer.Prediction) string {
	a := p.Access
	if a.Struct.Kind == ctype.TVector {
		return fmt.Sprintf("%s: each lane uses %d of the %d bytes of its %s (component %s); load the whole %s once, or keep the components in separate arrays: %s",
			accesses.Subject(p), a.Type.Size, a.Struct.Size, a.Struct.Name, a.Field, a.Struct.Name, accesses.Figures(p))
	}
	return fmt.Sprintf("%s: each lane uses %d of the %d bytes of struct %s (field %s); use a structure of arrays, or a vector load when all fields are used: %s",
		accesses.Subject(p), a.Type.Size, a.Struct.Size, a.Struct.Name, a.Field, accesses.Figures(p))
}
