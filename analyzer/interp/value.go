package interp

import (
	"github.com/cudalint/cudalint/analyzer/ctype"
	"github.com/cudalint/cudalint/parser"
	"github.com/cudalint/cudalint/symbolic"
)

// Space is a memory space.
type Space uint8

const (
	Global Space = iota
	Shared
	Local
	Constant
	// Generic is memory through a pointer whose space is not known: one
	// loaded from a local array of pointers, which may point anywhere.
	Generic
)

func (s Space) String() string {
	return [...]string{"global", "shared", "local", "constant", "generic"}[s]
}

// Op is what an access does.
type Op uint8

const (
	Load Op = iota
	Store
	Atomic // a read-modify-write: atomicAdd and friends
)

func (o Op) String() string { return [...]string{"load", "store", "atomic"}[o] }

// Access is one memory access of a kernel, with its byte address as a
// symbolic expression relative to the start of its allocation.
type Access struct {
	Kernel *parser.Func
	Pos    parser.Pos
	End    parser.Pos // just after the access expression
	Expr   string     // the access as written
	Op     Op
	Space  Space
	Base   Alloc         // the allocation: a parameter, a __shared__ array, ...
	Addr   symbolic.Expr // bytes from the allocation's start
	Type   *ctype.Type   // the type accessed
	// Guards must all be non-zero for a lane to perform the access.
	Guards []symbolic.Expr
	// Loops are the enclosing loops, outermost first.
	Loops []*Loop
	// Via are the inlined calls the access sits in, outermost first: the
	// call written in the kernel's body, then the calls inside the
	// helpers it reaches. Pos stays the access's own place (where Nsight
	// attributes the instruction); Site says where the kernel changes it.
	Via []CallSite
	// Struct and Field are set when the access reads or writes one member
	// of a struct in memory (p[i].x, p->x).
	Struct *ctype.Type
	Field  string
	// BaseExpr is the source text of the pointer or array indexed, and
	// Index that of the index, when the access is written base[index].
	BaseExpr, IndexExpr string
	// Subscripts counts the subscripts written in a row on the array the
	// access indexes: 2 for tile[y][x] (and tile[y][x].f), 1 for a[i].
	Subscripts int
	// AlignHint is the alignment, in bytes, that __builtin_assume_aligned
	// promised for the pointer the access goes through (0: none). nvcc
	// uses it: four adjacent floats through a pointer promised 16 bytes
	// are one LDG.E.128 (measured, probes6's v_f4_assume).
	AlignHint int64
	// Guessed is set when the address went through a guessed layout.
	Guessed bool
}

// CallSite is one inlined call on the way from a kernel's body to an
// access: the call as written, the function it runs, and whether that
// function's body is written inside the kernel's own body (a lambda the
// kernel defines), so that its code is the kernel's to change.
type CallSite struct {
	Pos, End parser.Pos
	Text     string // the call as written
	Func     *parser.Func
	Local    bool
}

// Name is how a message names the function called: "get()", or "lambda"
// for a lambda written in place (its function has no name).
func (c CallSite) Name() string {
	if c.Func == nil || c.Func.Name == "" {
		return "lambda"
	}
	return c.Func.Name + "()"
}

// SiteIndex says where a user changes the access in the kernel: the first
// place, from the access outwards, written in the kernel's own body. It
// is len(a.Via) when that is the access itself (written in the kernel, or
// in a lambda the kernel defines), else the index of the call in Via: the
// outermost call of a helper that holds the access.
func (a *Access) SiteIndex() int {
	for j := len(a.Via); j > 0; j-- {
		if a.Via[j-1].Local {
			return j // written in a lambda of the kernel's body
		}
	}
	return 0
}

// InHelper reports whether the access is written outside the kernel's
// body, in a helper a call of the kernel reaches.
func (a *Access) InHelper() bool { return a.SiteIndex() < len(a.Via) }

// Site is the range a finding about the access marks: the access itself,
// or the call in the kernel's body that reaches the helper holding it.
func (a *Access) Site() (pos, end parser.Pos) {
	if i := a.SiteIndex(); i < len(a.Via) {
		return a.Via[i].Pos, a.Via[i].End
	}
	return a.Pos, a.End
}

// Loop is a loop around an access: Iter is the symbol counting its
// iterations from 0; Cond decides (per lane) whether iteration Iter runs.
type Loop struct {
	Iter symbolic.SymID
	Cond symbolic.Expr // nil when unknown
	Pos  parser.Pos
	// Trip is the number of iterations when the condition makes it a
	// constant (r < 4, r < R with R a template argument): what the
	// compiler can unroll. 0 when it is not a constant.
	Trip int64
	// Unroll is the #pragma unroll just before the loop.
	Unroll parser.Unroll
	// Accesses counts the memory accesses one pass of the body recorded
	// (those of a nested loop once): the size of the body, for the
	// compiler's choice to unroll.
	Accesses int
	// Leaves is set when the body may leave an iteration or the loop
	// early (break, continue, return, goto, a statement not understood).
	Leaves bool
	// Fenced is set when the body orders memory or may touch it where
	// cudalint cannot see: a barrier, a fence, an atomic, inline asm, a
	// call the interpreter does not follow. nvcc keeps no value of
	// memory in a register across such a loop's iterations.
	Fenced bool
	// FreshAt is the last unknown made before the loop began (Var.ID of
	// KindUnknown): those are values the loop's iterations share (a box's
	// offset loaded before the loop); later ones may change in it.
	FreshAt int
	// Var is the variable the loop counts with (for (int r = 0; ...)) and
	// VarAt its value at iteration Iter, for messages; "" when there is
	// none the model follows.
	Var   string
	VarAt symbolic.Expr
	// Carried are the scalars the loop carries from one iteration to the
	// next that are the same in every lane but not induction variables.
	Carried []Carried
	// iterX is Iter as an expression; guardsAt how many guards held
	// where the loop began (localStore: a store under none of its own).
	iterX    symbolic.Expr
	guardsAt int
	// lastBreak is the body's only way out, an if (c) break; among its
	// statements (lastBreakAt the index), nil when there is none or
	// another; breakCond is c, as the second pass evaluated it.
	lastBreak   *parser.If
	lastBreakAt int
	breakCond   symbolic.Expr
}

// Carried is a warp-uniform scalar a loop carries that no closed form
// gives (off = off * 3 + 1, off += steps[k]). In the loop, the variable
// is Sym, its value at the loop's iteration Iter. Entry is its value
// before the loop; Next its value after iteration Iter, in terms of the
// loop's carried symbols and Iter, or nil when an iteration adds what the
// model does not know (a loaded value): Sym is then a uniform unknown.
type Carried struct {
	Name  string
	Sym   *symbolic.Var
	Entry symbolic.Expr
	Next  symbolic.Expr
}

type valueKind uint8

const (
	vInt    valueKind = iota // an integer: X
	vPtr                     // a pointer or array: Ptr
	vStruct                  // a struct or dim3 value: Fields, created lazily for parameters
)

// value is what the interpreter knows of a C value. Floating-point and
// other values we do not model are integers over a Data-class symbol, so
// that they flow through arithmetic and mark whatever they reach.
type value struct {
	kind   valueKind
	x      symbolic.Expr
	ptr    *pointer
	fields map[string]value
	typ    *ctype.Type
	path   string // for struct parameters: the name prefix of lazily made fields
	param  bool   // a kernel parameter (fields of a parameter struct are parameters too)
	// constant is set for a variable declared const or constexpr integer:
	// nothing, not even a statement the parser skipped, can change it.
	constant bool
	// inMemory is set for a scalar __device__ variable: ptr is its place
	// in global memory, which every read loads and every write stores.
	inMemory bool
	// closure is set for a lambda: a call through the value runs it.
	closure *closure
	// num is the number of a floating value computed from constants
	// alone (floats.go): x stays an unknown, and num is what converting
	// it back to an integer gives.
	num *float64
}

type pointer struct {
	space  Space
	base   Alloc
	offset symbolic.Expr // bytes
	elem   *ctype.Type
	array  bool // an array object rather than a pointer variable
	// owner and field are set for a place that is one member of a struct.
	owner *ctype.Type
	field string
	// guessed is set once the offset went through a layout cudalint
	// guessed (a struct with a member of unknown type): it may be wrong.
	guessed bool
	// alignHint is the alignment in bytes that __builtin_assume_aligned
	// promised the compiler for the pointer this one was made from.
	alignHint int64
}

func intValue(x symbolic.Expr) value { return value{kind: vInt, x: x} }

func (p *pointer) at(offset symbolic.Expr, elem *ctype.Type) *pointer {
	q := *p
	q.offset = offset
	q.elem = elem
	q.array = false
	q.owner, q.field = nil, ""
	return &q
}

// sameValue reports whether two values are certainly equal.
func sameValue(a, b value) bool {
	if a.kind != b.kind {
		return false
	}
	switch a.kind {
	case vInt:
		if (a.num == nil) != (b.num == nil) || a.num != nil && *a.num != *b.num {
			return false
		}
		return a.x.String() == b.x.String()
	case vPtr:
		return a.ptr.base == b.ptr.base && a.ptr.space == b.ptr.space && a.ptr.offset.String() == b.ptr.offset.String() && a.ptr.elem == b.ptr.elem
	}
	if len(a.fields) != len(b.fields) || a.path != b.path {
		return false
	}
	for k, v := range a.fields {
		if w, ok := b.fields[k]; !ok || !sameValue(v, w) {
			return false
		}
	}
	return true
}

// zero is the offset of a pointer to the start of its allocation.
var zero = symbolic.Const(0)

// dim3Type is CUDA's dim3.
var dim3Type, _ = ctype.Builtin("dim3")

// SameConditions reports whether b runs under a's conditions: the same
// guards and the same loops (one loop, or copies of it with one
// iteration symbol), so that what one does per lane the other does too.
func (a *Access) SameConditions(b *Access) bool {
	if len(a.Guards) != len(b.Guards) || len(a.Loops) != len(b.Loops) {
		return false
	}
	for i := range a.Guards {
		if symbolic.Key(a.Guards[i]) != symbolic.Key(b.Guards[i]) {
			return false
		}
	}
	for i := range a.Loops {
		if a.Loops[i] != b.Loops[i] && a.Loops[i].Iter != b.Loops[i].Iter {
			return false
		}
	}
	return true
}
