package warp

import (
	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/symbolic"
)

// Hoisted loads: a global load inside a loop that the compiler does not
// unroll, at an address no iteration changes and under no condition an
// iteration decides, in a loop whose body stores nothing, is loaded once
// before the loop (loop-invariant code motion): Nsight Compute counts the
// instruction once per warp, not once per iteration, and may put it on
// another line (measured: Rodinia's particlefilter, u[i] in
// for (x = 0; x < n; x++) if (CDF[x] >= u[i]) break;, on the line of the
// if around the loop; testdata/truth/probes9.cu's q_hoist on its own,
// 512 instructions for 512 warps, and q_nohoist, with a store in the
// loop, once per iteration). The figures per request are the same;
// Prediction.Hoisted says the instruction runs before the loop.

// hoistedLoad reports whether nvcc hoists load a out of its innermost
// loop; kernel is the kernel's accesses in program order.
func hoistedLoad(a *interp.Access, kernel []*interp.Access) bool {
	if a.Op != interp.Load || a.Space != interp.Global || len(a.Loops) == 0 || a.Guessed || a.Type == nil || !a.Type.LayoutKnown() {
		// (A layout the model guessed may hide the loop's stores: they
		// are accesses only where the types are known.)
		return false
	}
	l := a.Loops[len(a.Loops)-1]
	if l.Trip > 0 {
		return false // a constant trip: unrolled, or its copies priced one by one
	}
	invariant := func(e symbolic.Expr) bool {
		ok := true
		symbolic.Symbols(e, func(v *symbolic.Var) {
			if v.Key() == l.Iter || v.Kind == symbolic.KindUnknown || v.Kind == symbolic.KindEntry {
				ok = false
			}
		})
		return ok
	}
	if !invariant(a.Addr) {
		return false
	}
	for _, g := range a.Guards {
		if !invariant(g) {
			return false
		}
	}
	for _, b := range kernel {
		if b.Op == interp.Load {
			continue
		}
		for _, bl := range b.Loops {
			if bl == l {
				return false // a store or atomic in the loop may change what it reads
			}
		}
	}
	return true
}
