package aosfield

import (
	"fmt"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/rules/accesses"
)

// Analyzer reports one field of an array of structs read per lane.
var Analyzer = accesses.NewAnalyzer(accesses.AoSField, "aosfield", describe, nil)

func describe(p *analyzer.Prediction) string {
	a := p.Access
	if a.Struct.Kind == analyzer.TVector {
		return fmt.Sprintf("%s: each lane uses %d of the %d bytes of its %s (component %s); load the whole %s once, or keep the components in separate arrays: %s",
			accesses.Subject(p), a.Type.Size, a.Struct.Size, a.Struct.Name, a.Field, a.Struct.Name, accesses.Figures(p))
	}
	return fmt.Sprintf("%s: each lane uses %d of the %d bytes of struct %s (field %s); use a structure of arrays, or a vector load when all fields are used: %s",
		accesses.Subject(p), a.Type.Size, a.Struct.Size, a.Struct.Name, a.Field, accesses.Figures(p))
}
