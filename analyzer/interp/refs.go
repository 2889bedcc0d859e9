package interp

import (
	"github.com/cudalint/cudalint/parser"
	"github.com/cudalint/cudalint/symbolic"
)

// refArgs takes as places the arguments of a call to device function name
// that a reference parameter binds (T& dst): it returns their lvalues
// (valid where taken) and sets args[i] to the value each holds, without
// recording a load, for overload resolution. Nil when no candidate of
// that arity has a reference parameter.
func (in *interp) refArgs(name string, e *parser.Call, args []value) []lvalue {
	if in.host {
		return nil
	}
	var lvs []lvalue
	for _, f := range in.unit.candidates(name, isDeviceDef) {
		if !f.Device || f.Body == nil || !arityFits(f.Params, len(e.Args)) {
			continue
		}
		for i, p := range f.Params {
			if p.Pack {
				break // the arguments from here on are not bound by position
			}
			if !isMutableRef(p) || lvs != nil && lvs[i].valid {
				continue
			}
			if !isPlace(e.Args[i]) {
				continue
			}
			if lvs == nil {
				lvs = make([]lvalue, len(e.Args))
			}
			lv := in.lval(e.Args[i])
			if !lv.valid {
				continue
			}
			lvs[i] = lv
			if lv.mem != nil {
				args[i] = in.loaded(lv.mem, e.Args[i])
			} else {
				args[i] = in.load(lv, e.Args[i])
			}
		}
	}
	return lvs
}

// isMutableRef reports whether p is a reference the callee may write
// through (T&, not const T&): a const reference reads like a value, which
// the compiler loads where the call passes it.
func isMutableRef(p *parser.Param) bool {
	return p.Type != nil && p.Type.Ref && !p.Type.Const
}

// isPlace reports whether e names an object a reference can bind.
func isPlace(e parser.Expr) bool {
	switch e := e.(type) {
	case *parser.Ident, *parser.Index:
		return true
	case *parser.Member:
		return true
	case *parser.Unary:
		return e.Op == parser.Deref
	}
	return false
}

// selectSeparation is how far apart, in bytes, the two allocations a
// selected pointer may point into are placed in its one address space: a
// multiple of every sector and line, and far beyond any offset.
const selectSeparation = int64(1) << 44

// selectPointer is c ? a : b for pointers into different allocations of
// one space (p = w < 4 ? &A[i] : &B[2 * i]): one pointer whose base names
// both and whose offset places b's allocation selectSeparation bytes
// after a's, so that a warp whose lanes pick both touches the sectors of
// each, and one that picks one costs what that one costs.
func selectPointer(c symbolic.Expr, a, b *pointer) (*pointer, bool) {
	if a.space != b.space || a.offset == nil || b.offset == nil || a.elem == nil || b.elem == nil || a.elem.Size != b.elem.Size {
		return nil, false
	}
	if a.base.Kind == AllocLoaded || b.base.Kind == AllocLoaded {
		return nil, false // a loaded pointer: its offset is data already
	}
	q := *a
	q.base = allocEither(a.base, b.base)
	q.offset = symbolic.Cond(c, a.offset, symbolic.Add(b.offset, symbolic.Const(selectSeparation)))
	q.guessed = a.guessed || b.guessed
	q.array = false
	q.owner, q.field = nil, ""
	return &q, true
}

// nonNull is the condition a pointer tested for null stands for: for a
// pointer into a kernel parameter's allocation, whether the launch gave a
// non-null pointer (unknown without a launch, so that both branches
// count); any other pointer (an array, a loaded pointer) is taken as set.
func (in *interp) nonNull(p *pointer) symbolic.Expr {
	if in.host || p.space != Global || p.offset == nil || p.base.Kind == AllocLoaded || !symbolic.Mentions(p.offset, symbolic.BaseID(p.base.Name)) {
		return symbolic.Const(1)
	}
	return symbolic.NonNullSym(p.base.Name)
}
