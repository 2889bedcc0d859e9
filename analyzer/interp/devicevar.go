package interp

import (
	"github.com/cudalint/cudalint/analyzer/ctype"
	"github.com/cudalint/cudalint/symbolic"
)

// deviceScalar is the value of a scalar __device__ (or __managed__) or
// __shared__ variable: a one-element array in global or shared memory
// whose reads are loads and writes stores (float s = g_scale; g_last =
// i). A __shared__ scalar is the block's: what one thread writes behind
// if (tid == 0) every thread reads after the barrier, a value no lane's
// own arithmetic gives, so it is a load each time it is read.
func deviceScalar(space Space, name string, t *ctype.Type) (value, bool) {
	if space != Global && space != Shared || t == nil {
		return value{}, false
	}
	switch t.Kind {
	case ctype.TInt, ctype.TFloat, ctype.TPointer:
	default:
		return value{}, false
	}
	return value{kind: vPtr, typ: t, inMemory: true, ptr: &pointer{space: space, base: Alloc{Kind: AllocVar, Name: name}, offset: symbolic.Const(0), elem: t}}, true
}

// memoryVar is the place in memory a name stands for, when it is one: a
// reference parameter bound to memory, or a scalar __device__ variable.
func (in *interp) memoryVar(name string) (*pointer, bool) {
	if m, ok := in.refs[name]; ok {
		return m, true
	}
	if v, ok := in.lookup(name); ok && v.inMemory && v.ptr != nil {
		return v.ptr, true
	}
	return nil, false
}
