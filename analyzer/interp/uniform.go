package interp

import (
	"strconv"

	"github.com/cudalint/cudalint/symbolic"
)

// warpUniform reports whether the value a kernel loads from place p is
// the same in every lane of a warp: the lanes read one address (it
// depends on no lane and on no loaded data: block indices, parameters,
// loop iterations only) of memory the whole block or grid shares. A
// thread's own array (local memory) holds its own values at every
// address, and host code has no lanes.
func (in *interp) warpUniform(p *pointer) bool {
	if in.host || p.offset == nil || symbolic.ClassOf(p.offset) != symbolic.Uniform {
		return false
	}
	switch p.space {
	case Global, Shared, Constant:
		return true
	}
	return false
}

// uniformMember is member name of a struct value loaded at a warp-uniform
// address (Box b = boxes[blockIdx.x]; b.offset): uniform too.
func (in *interp) uniformMember(base value, name string) (value, bool) {
	v, ok := symbolic.AsVar(base.x)
	if !ok || v.Kind != symbolic.KindUnknown || v.Class != symbolic.Uniform || v.Cause != symbolic.CauseLoadedValue {
		return value{}, false
	}
	in.fresh++
	of := v.Of + "." + name
	return intValue(symbolic.NewSym(symbolic.Var{Name: "value loaded by " + of + " at " + v.Site.String() + "#" + strconv.Itoa(in.fresh),
		Class: symbolic.Uniform, Kind: symbolic.KindUnknown, Cause: symbolic.CauseLoadedValue, Of: of, Site: v.Site, ID: in.fresh})), true
}
