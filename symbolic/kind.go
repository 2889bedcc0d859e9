package symbolic

import (
	"strconv"
	"strings"
)

// SymKind says what a symbol stands for. Code that needs to know what a
// symbol is reads its kind, never its name: names are for printing.
type SymKind uint8

const (
	KindOther     SymKind = iota // symbols of tests, known by name only (Sym)
	KindThreadIdx                // threadIdx.x/y/z (Axis)
	KindBlockIdx                 // blockIdx.x/y/z (Axis)
	KindBlockDim                 // blockDim.x/y/z (Axis)
	KindGridDim                  // gridDim.x/y/z (Axis)
	KindParam                    // a value the user can give: a kernel parameter, template value, unresolved constant
	KindBase                     // the byte offset at which pointer parameter Of points into its allocation
	KindLoopIter                 // the iteration count of the loop at Site
	KindUnknown                  // a value the model does not know; Cause says why
	KindNonNull                  // whether pointer parameter Of is non-null (1) or null (0); a launch gives it
	KindEntry                    // the value variable Of has on entry to a loop: a placeholder the loop's analysis substitutes
)

var kindText = [...]string{"other", "threadIdx", "blockIdx", "blockDim", "gridDim", "param", "base", "loop iteration", "unknown", "non-null", "loop entry"}

func (k SymKind) String() string { return kindText[k] }

// UnknownCause says why a value is unknown. Rules and statistics read the
// cause; the prose a user reads is made from it at the output edge.
type UnknownCause uint8

const (
	CauseNone           UnknownCause = iota
	CauseLoadedValue                 // a value read from memory (Of: the expression, Site: the load)
	CauseLoadedMember                // a member of a value read from memory
	CauseLoopCarried                 // variable Of changes across loop iterations in a way not modelled
	CauseCallResult                  // the result of function Of
	CauseUnresolvedType              // a value of type Of, which cudalint cannot resolve
	CauseFloatValue                  // a floating-point value
	CauseUninitialised               // variable Of, declared without a value
	CauseTooComplex                  // an expression over the size limits
	CauseNotUnderstood               // variable Of, which a statement the parser skipped (at Site) may change
	CauseBranchMixed                 // a variable that holds different kinds of values on two branches
	CauseNotModelled                 // an expression or place cudalint does not model (Of says which)
	CauseUnresolvedName              // a uniform name no launch or parameter resolves (Of)
	CauseNoLane                      // no lane performs the access under the launch (a prediction's cause, not a symbol's)
	CauseNotEvaluable                // the address cannot be evaluated for some lane (a prediction's cause)
	CauseCapturedWrite               // variable Of, which a lambda passed to a call (at Site) captures by reference and assigns
	CauseArgCount                    // main's argument count Of (argc): the launches take the program run without arguments
)

var causeText = [...]string{"none", "loaded value", "member of loaded value", "loop-carried", "call result",
	"unresolved type", "float", "uninitialised", "too complex", "statement not understood", "mixed branches",
	"not modelled", "unresolved name", "no lane", "not evaluable", "assigned by a lambda", "argument count"}

func (c UnknownCause) String() string { return causeText[c] }

// Site is where a symbol comes from. The file is part of it: a loop in an
// included header and one in the kernel's file can share line and column.
type Site struct {
	File      string
	Line, Col int32
}

func (s Site) String() string {
	lc := strconv.Itoa(int(s.Line)) + ":" + strconv.Itoa(int(s.Col))
	if s.File == "" {
		return lc
	}
	return s.File + ":" + lc
}

// IsValid reports whether the site is set.
func (s Site) IsValid() bool { return s.Line > 0 }

// identityOf is the identity of a symbol, which Subst, Mentions, Compile
// and the canonical order use. It starts with the name, so that terms sort
// as their printed forms do (output stays stable), and goes on with what
// tells apart symbols that print alike: the kind, the site and the ID.
// Builtins, parameters, bases, null tests and loop-entry placeholders are
// identified by their name already (it is made from the kind and axis, or
// from a C identifier). A KindOther symbol is not: one that prints as a
// builtin (Sym("threadIdx.x")) must not stand for it.
func identityOf(v *Var) string {
	switch v.Kind {
	case KindThreadIdx, KindBlockIdx, KindBlockDim, KindGridDim, KindParam, KindBase, KindNonNull, KindEntry:
		return v.Name
	}
	var b strings.Builder
	b.WriteString(v.Name)
	b.WriteByte(0) // sorts before every character a name can continue with
	b.WriteString(strconv.Itoa(int(v.Kind)))
	b.WriteByte('|')
	b.WriteString(strconv.Itoa(int(v.Cause)))
	if v.Site.IsValid() {
		b.WriteByte('|')
		b.WriteString(v.Site.String())
	}
	b.WriteByte('|')
	b.WriteString(strconv.Itoa(v.ID))
	return b.String()
}

// NewSym returns the symbol v describes (its identity is computed here).
func NewSym(v Var) Expr {
	w := v
	w.key = identityOf(&w)
	return atomPoly(&w)
}

// Key is the symbol's identity: two symbols are the same when their keys are.
func (v *Var) Key() SymID { return SymID{v.key} }

// IsLaneOrBlockIndex reports whether v is threadIdx or blockIdx: the
// model enumerates these.
func (v *Var) IsLaneOrBlockIndex() bool { return v.Kind == KindThreadIdx || v.Kind == KindBlockIdx }

// AsOp returns the operation e is, when e is exactly one (a comparison
// kept as a polynomial's single atom too).
func AsOp(e Expr) (*Op, bool) {
	op, ok := asAtom(e).(*Op)
	return op, ok
}

// AsVar returns the symbol e is, when e is exactly one symbol.
func AsVar(e Expr) (*Var, bool) {
	v, ok := asAtom(e).(*Var)
	return v, ok
}
