package interp

import "github.com/cudalint/cudalint/symbolic"

// A kernel's local array is registers, not memory the model prices, but
// what it holds can be an address's part: mmcv's sparse kernels fill
// int ILPStrideY[ILP] with threadIdx.y + ilp * blockDim.y in one unrolled
// loop and index global memory with it in the next. localContent is what
// an array holds when one loop filled it element by element, without a
// branch of its own: element Iter (times Elem bytes, plus C) holds V,
// written in Iter, for the Trip iterations the loop runs.
type localContent struct {
	iter    symbolic.SymID
	elem, c int64
	trip    int64
	v       value
	// elems are the elements stored at constant byte offsets where the
	// array was declared: in no loop, branch or call entered since
	// (int x[2]; x[0] = blockIdx.x; x[1] = threadIdx.x), as its scalars
	// would be. at is where that is: loops, guards and calls open then.
	// A content is never changed in place (a loop's discovery pass
	// keeps a shallow copy to undo its stores).
	elems map[int64]value
	at    localDepth
}

// localDepth is how many loops, guards and calls are open.
type localDepth struct{ loops, guards, calls int }

func (in *interp) localDepth() localDepth {
	return localDepth{len(in.loops), len(in.guards), len(in.calls)}
}

// declareLocal notes that a kernel's local array is declared here: it
// holds nothing known, and element stores at this depth are followed.
func (in *interp) declareLocal(a Alloc) {
	if in.host {
		return
	}
	if in.localMem == nil {
		in.localMem = map[Alloc]*localContent{}
	}
	in.localMem[a] = &localContent{at: in.localDepth()}
}

// storeElement records v at constant byte offset off of the array's
// content lc, when the store is made where the array was declared;
// false otherwise.
func (in *interp) storeElement(lc *localContent, p *pointer, v value) bool {
	off, ok := symbolic.IsConst(p.offset)
	if !ok || lc == nil || lc.at != in.localDepth() || v.kind != vInt || v.x == nil {
		return false
	}
	elems := make(map[int64]value, len(lc.elems)+1)
	for k, e := range lc.elems {
		elems[k] = e
	}
	elems[off] = v
	in.localMem[p.base] = &localContent{elems: elems, at: lc.at}
	return true
}

// localStore records a store to a kernel's local array: its content when
// the innermost loop writes element iter of it outside any branch of the
// loop's own, else the array's content is not known.
func (in *interp) localStore(p *pointer, v value) {
	if in.host || p.space != Local || p.base.Kind != AllocVar {
		return
	}
	if in.storeElement(in.localMem[p.base], p, v) {
		return
	}
	delete(in.localMem, p.base)
	if len(in.loops) == 0 || v.kind != vInt || v.x == nil {
		return
	}
	l := in.loops[len(in.loops)-1]
	size := elemSize(p.elem)
	if l.Trip <= 0 || l.Leaves || size <= 0 || len(in.guards) != l.guardsAt {
		return
	}
	k, ok := symbolic.Coefficient(p.offset, l.Iter)
	if !ok {
		return
	}
	if kc, ok := symbolic.IsConst(k); !ok || kc != size {
		return
	}
	c, ok := symbolic.IsConst(symbolic.Sub(p.offset, symbolic.Mul(symbolic.Const(size), iterExpr(l))))
	if !ok {
		return
	}
	if in.localMem == nil {
		in.localMem = map[Alloc]*localContent{}
	}
	in.localMem[p.base] = &localContent{iter: l.Iter, elem: size, c: c, trip: l.Trip, v: v}
}

// localLoad is the value a load from a kernel's local array reads when
// its content is known and the load's element is one the filling loop
// wrote: an iteration of a loop that runs no more times, or a constant
// element within its trip.
func (in *interp) localLoad(p *pointer) (value, bool) {
	if in.host || p.space != Local {
		return value{}, false
	}
	lc, ok := in.localMem[p.base]
	if !ok {
		return value{}, false
	}
	if off, ok := symbolic.IsConst(p.offset); ok && lc.elems != nil && lc.at.calls == len(in.calls) {
		v, ok := lc.elems[off]
		return v, ok
	}
	if lc.trip <= 0 {
		return value{}, false
	}
	x, ok := in.elementOf(symbolic.Sub(p.offset, symbolic.Const(lc.c)), lc.elem, lc.trip)
	if !ok {
		return value{}, false
	}
	v := lc.v
	v.x = symbolic.Subst(lc.v.x, map[symbolic.SymID]symbolic.Expr{lc.iter: x})
	return v, true
}

// elementOf is the element at byte offset d of an array of elem-byte
// elements, when it is one a loop of trip iterations wrote: a constant
// below trip, or the iteration of an enclosing loop that runs at most
// trip times.
func (in *interp) elementOf(d symbolic.Expr, elem, trip int64) (symbolic.Expr, bool) {
	if k, ok := symbolic.IsConst(d); ok {
		return symbolic.Const(k / elem), k%elem == 0 && k >= 0 && k/elem < trip
	}
	for _, l := range in.loops {
		x := iterExpr(l)
		if l.Trip <= 0 || l.Trip > trip || x == nil {
			continue
		}
		if k, ok := symbolic.Coefficient(d, l.Iter); ok {
			if kc, ok := symbolic.IsConst(k); ok && kc == elem {
				if rest, ok := symbolic.IsConst(symbolic.Sub(d, symbolic.Mul(symbolic.Const(elem), x))); ok && rest == 0 {
					return x, true
				}
			}
		}
	}
	return nil, false
}

// iterExpr is loop l's iteration symbol as an expression.
func iterExpr(l *Loop) symbolic.Expr { return l.iterX }
