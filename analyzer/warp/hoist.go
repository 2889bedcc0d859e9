package warp

import (
	"slices"

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
	if !invariantIn(a, l, false) {
		return false
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

// invariant: e is the same in every iteration of loop l, as far as the
// model can tell: no value the loop carries, and no unknown, or (where
// earlier) none made after the loop began.
func invariant(e symbolic.Expr, l *interp.Loop, earlier bool) bool {
	ok := true
	symbolic.Symbols(e, func(v *symbolic.Var) {
		unknown := v.Kind == symbolic.KindUnknown && (!earlier || v.ID > l.FreshAt)
		if v.Key() == l.Iter || unknown || v.Kind == symbolic.KindEntry {
			ok = false
		}
	})
	return ok
}

// invariantIn: a's address and the guards it runs under are the same in
// every iteration of l (earlier: as invariant).
func invariantIn(a *interp.Access, l *interp.Loop, earlier bool) bool {
	if !invariant(a.Addr, l, earlier) {
		return false
	}
	for _, g := range a.Guards {
		if !invariant(g, l, earlier) {
			return false
		}
	}
	return true
}

// Promoted read-modify-writes: a record a thread adds to in a loop whose
// global accesses are all to that one record, at addresses no iteration
// changes (lavaMD's fA[wtx].v += ..., .x, .y, .z in the loop over a
// neighbour box's particles, which reads only shared memory besides), is
// kept in registers by nvcc: loaded before the loop and stored after it,
// once each, not once per iteration (measured: testdata/truth/timing's
// pairloop_slow, four STG in its SASS and 68.6 M L2 sectors a launch
// where once per iteration would be 2,807 M). So is a shared load no
// iteration moves in a loop that writes no shared memory (the thread's
// own particle, rA[tx].x: pairloop_slow's shared wavefronts measured
// 105.6 M a launch, where once per iteration would be 1,407 M). Four planes written in the
// same loop are not (pairloop's first twin, 1,130 M sectors): the rule
// asks for one record's fields or one location. A loop that orders
// memory or calls what cudalint does not follow (Loop.Fenced) keeps
// nothing.

// promotedAccess reports whether nvcc keeps a, a load or store in its
// innermost loop, in a register across that loop.
func promotedAccess(a *interp.Access, kernel []*interp.Access) bool {
	if a.Op != interp.Load && a.Op != interp.Store || len(a.Loops) == 0 || a.Guessed || a.Type == nil || !a.Type.LayoutKnown() {
		return false
	}
	l := a.Loops[len(a.Loops)-1]
	if l.Fenced || !invariantIn(a, l, true) {
		return false
	}
	if a.Space == interp.Shared {
		return a.Op == interp.Load && !storesShared(l, kernel)
	}
	if a.Space != interp.Global {
		return false
	}
	stored := false
	for _, b := range kernel {
		if b.Space != interp.Global || !slices.Contains(b.Loops, l) {
			continue
		}
		if b.Op != interp.Load && b.Op != interp.Store || !sameRecord(a, b, l) {
			return false
		}
		stored = stored || b.Op == interp.Store
	}
	return stored
}

// storesShared: some access in loop l writes shared memory (or does an
// atomic there), which may change what a shared load there reads.
func storesShared(l *interp.Loop, kernel []*interp.Access) bool {
	for _, b := range kernel {
		if b.Space == interp.Shared && b.Op != interp.Load && slices.Contains(b.Loops, l) {
			return true
		}
	}
	return false
}

// sameRecord: b, another global access in loop l, is at a's location or
// at another field of the same record, at an address l does not change.
func sameRecord(a, b *interp.Access, l *interp.Loop) bool {
	if b.Base != a.Base || b.Guessed || !invariantIn(b, l, true) {
		return false
	}
	d, ok := symbolic.IsConst(symbolic.Sub(b.Addr, a.Addr))
	if !ok {
		return false
	}
	if d == 0 {
		return true
	}
	return a.Struct != nil && b.Struct != nil && a.BaseExpr == b.BaseExpr && a.IndexExpr == b.IndexExpr &&
		max(d, -d) < a.Struct.Size
}
