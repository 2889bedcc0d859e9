package interp

import (
	"fmt"
	"slices"
	"strings"

	"github.com/cudalint/cudalint/analyzer/ctype"
	"github.com/cudalint/cudalint/parser"
	"github.com/cudalint/cudalint/parser/lex"
	"github.com/cudalint/cudalint/symbolic"
)

// lvalue is a place a value can be stored: a variable (with a field path
// for dim3 and struct variables) or memory.
type lvalue struct {
	name  string
	path  []string
	mem   *pointer // memory: offset of the place, elem = its type
	valid bool
}

func (in *interp) cond(e parser.Expr) symbolic.Expr {
	if e == nil {
		return symbolic.Const(1)
	}
	v := in.eval(e)
	switch v.kind {
	case vInt:
		return v.x
	case vPtr:
		return in.nonNull(v.ptr) // a pointer tested for null
	}
	return in.unknown(symbolic.CauseNotModelled, "condition", parser.Pos{}, "condition", symbolic.Data)
}

// eval computes the value of an expression, recording the accesses it makes.
func (in *interp) eval(e parser.Expr) value {
	in.depth++
	defer func() { in.depth-- }()
	if in.depth > maxEvalDepth {
		return in.dataValue(symbolic.CauseTooComplex, "expression too deep")
	}
	switch e := e.(type) {
	case *parser.IntLit:
		return intValue(symbolic.Const(e.Value))
	case *parser.FloatLit:
		// A number the model does not follow, but the same in every lane.
		v := intValue(in.unknown(symbolic.CauseFloatValue, "literal", parser.Pos{}, unknownName(symbolic.CauseFloatValue, "literal"), symbolic.Uniform))
		v.typ = literalType(e.Text)
		if x, ok := floatLiteral(e.Text); ok {
			v = withNumber(v, x)
		}
		return v
	case *parser.StringLit, *parser.InitList:
		if l, ok := e.(*parser.InitList); ok {
			for _, x := range l.Elems {
				in.eval(x)
			}
		}
		return in.dataValue(symbolic.CauseFloatValue, "literal")
	case *parser.Ident:
		return in.ident(e)
	case *parser.Index, *parser.Member:
		if m, ok := e.(*parser.Member); ok {
			if v, ok := in.memberOfValue(m); ok {
				return v
			}
		}
		if x, ok := e.(*parser.Index); ok {
			if v, ok := in.paramArrayElem(x); ok {
				return v
			}
			if v, ok := in.indexOperator(x); ok {
				return v
			}
		}
		return in.rvalue(e)
	case *parser.Unary:
		return in.unary(e)
	case *parser.Postfix:
		lv := in.lval(e.X)
		old := in.load(lv, e.X)
		in.store(lv, in.arith(stepOp(e.Op), old, intValue(symbolic.Const(1))), e.X)
		return old
	case *parser.Binary:
		return in.binary(e)
	case *parser.Ternary:
		c := in.cond(e.Cond)
		nguards := len(in.guards)
		in.guards = append(in.guards, c)
		a := in.eval(e.Then)
		in.guards[nguards] = symbolic.Not(c)
		b := in.eval(e.Else)
		in.guards = in.guards[:nguards]
		if k, ok := symbolic.IsConst(c); ok {
			if k != 0 {
				return a
			}
			return b
		}
		return mergeValue(c, a, b)
	case *parser.Cast:
		return in.convert(in.eval(e.X), in.resolve(e.Type))
	case *parser.SizeofType:
		return intValue(symbolic.Const(in.resolve(e.Type).Size))
	case *parser.SizeofExpr:
		return intValue(symbolic.Const(in.typeOf(e.X).Size))
	case *parser.Call:
		return in.call(e)
	case *parser.Launch:
		return in.launch(e)
	case *parser.Lambda:
		return in.closureValue(e)
	case *parser.PackExpansion:
		pack := packName(e.X)
		if e.Fold {
			in.note(lex.NotePackNotFollowed, "in a fold expression", e.Start(), "a fold expression over a parameter pack is not followed")
			return in.dataValue(symbolic.CauseNotModelled, "fold expression")
		}
		in.note(lex.NotePackNotFollowed, pack, e.Start(), "the expansion of parameter pack %s is not followed", pack)
		return in.dataValue(symbolic.CauseNotModelled, pack+"...")
	case *parser.SizeofPack:
		in.note(lex.NotePackNotFollowed, e.Pack, e.Start(), "sizeof...(%s): the size of parameter pack %s is not known", e.Pack, e.Pack)
		return in.dataValue(symbolic.CauseNotModelled, "sizeof...("+e.Pack+")")
	}
	return in.dataValue(symbolic.CauseNotModelled, "expression")
}

func stepOp(op parser.Op) parser.Op { return op.Arith() }

// packName names an expansion's pattern by its first name, the pack in
// args... and static_cast<T>(dims)..., for the note.
func packName(x parser.Expr) string {
	name := "?"
	parser.Inspect(x, func(n parser.Node) bool {
		if id, ok := n.(*parser.Ident); ok && name == "?" {
			name = id.Name
		}
		return name == "?"
	})
	return name
}

// packBound is how many of a call's arguments bind to its callee's
// parameters by position when a parameter pack or a pack expansion cuts
// the binding short (cudalint does not count a pack's elements), and
// false when none does.
func packBound(params []*parser.Param, args []parser.Expr) (int, bool) {
	n, cut := len(args), false
	for i, p := range params {
		if p.Pack {
			n, cut = min(n, i), true
			break
		}
	}
	for i, a := range args[:n] {
		if _, ok := a.(*parser.PackExpansion); ok {
			return i, true
		}
	}
	return n, cut
}

func (in *interp) ident(e *parser.Ident) value {
	name := e.Name
	if m, ok := in.memoryVar(name); ok {
		return in.load(lvalue{mem: m.at(m.offset, m.elem), valid: true}, e)
	}
	if v, ok := in.lookup(name); ok {
		return v
	}
	if i := strings.LastIndex(name, "::"); i >= 0 {
		if v, ok := in.staticMember(name[:i], name[i+2:], e.Scope); ok {
			return v
		}
		if v, ok := in.lookup(name[i+2:]); ok {
			return v
		}
		name = name[i+2:]
	}
	if kind, ok := builtinNames[name]; ok {
		return builtins[kind]
	}
	switch name {
	case "warpSize", "C10_WARP_SIZE":
		// C10_WARP_SIZE is PyTorch's macro for it (c10/macros/Macros.h),
		// 32 on NVIDIA GPUs, which extensions use without the header in
		// reach (apex's megatron softmax).
		return intValue(symbolic.Const(32))
	case "true":
		return intValue(symbolic.Const(1))
	case "false", "nullptr", "NULL":
		return intValue(symbolic.Const(0))
	}
	// A __device__ function named as a value (a helper's function
	// template argument, blockReduce<warpReduceMax>): calls through what
	// holds it run it. In host code it is what a host template's
	// function parameter binds (launcher<matmul_naive>(...)).
	if f := in.unit.funcNamed(&parser.Ident{P: e.P, Name: name}); f != "" {
		return in.funcValue(f)
	}
	// A host function named as a value (a launcher passed to the code
	// that times it: llm.c's attention_backward1(..., launch_softmax_1,
	// block_size)): a call through what holds it runs it.
	if in.host && slices.ContainsFunc(in.unit.candidates(name, isHostFunc), isHostFunc) {
		return in.funcValue(name)
	}
	if at, ok := in.skippedNames[e.Name]; ok {
		// Named by a statement not understood, which may declare it.
		return in.clobbered(value{kind: vInt}, e.Name, at)
	}
	// An unknown name: a constant from a header we did not read, a
	// template value... uniform across the warp, given by the user.
	in.params[symbolic.ParamID(name)] = true
	return intValue(symbolic.ParamSym(name))
}

// builtinNames are the C identifiers of the builtins: the one place their
// names in the source are read.
var builtinNames = map[string]symbolic.SymKind{
	"threadIdx": symbolic.KindThreadIdx,
	"blockIdx":  symbolic.KindBlockIdx,
	"blockDim":  symbolic.KindBlockDim,
	"gridDim":   symbolic.KindGridDim,
}

// IsBuiltinNamed reports whether name is how the source spells the
// builtin of kind k (threadIdx for KindThreadIdx).
func IsBuiltinNamed(name string, k symbolic.SymKind) bool {
	kind, ok := builtinNames[name]
	return ok && kind == k
}

// BuiltinNames is the set of the builtins' C identifiers, for code that
// edits source text.
func BuiltinNames() map[string]bool {
	out := make(map[string]bool, len(builtinNames))
	for name := range builtinNames {
		out[name] = true
	}
	return out
}

// builtins holds the dim3 values threadIdx, blockIdx, blockDim and gridDim
// by kind, their fields named as the source spells them: immutable, so
// shared by every reference instead of rebuilt at each.
var builtins = func() map[symbolic.SymKind]value {
	m := map[symbolic.SymKind]value{}
	for _, kind := range symbolic.BuiltinKinds {
		v := value{kind: vStruct, typ: dim3Type, fields: map[string]value{}}
		for _, a := range symbolic.Axes {
			v.fields[a.String()] = intValue(symbolic.Builtin{Kind: kind, Axis: a}.Sym())
		}
		m[kind] = v
	}
	return m
}()

// memberOfValue evaluates x.f where x is a value (dim3, struct parameter)
// rather than memory.
func (in *interp) memberOfValue(m *parser.Member) (value, bool) {
	if m.Arrow {
		return value{}, false
	}
	base := in.evalNoLoad(m.X)
	if base.kind != vStruct {
		if base.kind == vInt && symbolic.ClassOf(base.x) == symbolic.Data {
			return in.dataValue(symbolic.CauseLoadedMember, ""), true
		}
		if u, ok := in.uniformMember(base, m.Name); ok {
			return u, true
		}
		return value{}, false
	}
	return in.field(base, m.Name), true
}

// evalNoLoad evaluates an expression that names a struct value, without
// recording a load when it is memory (the member access will).
func (in *interp) evalNoLoad(e parser.Expr) value {
	switch e := e.(type) {
	case *parser.Ident:
		if _, ok := in.memoryVar(e.Name); ok {
			return value{kind: vPtr} // memory: handled by lval
		}
		return in.ident(e)
	case *parser.Member:
		if v, ok := in.memberOfValue(e); ok {
			return v
		}
	}
	return value{kind: vPtr} // memory: handled by lval
}

// MemberPath names member of the struct parameter (or member) path: the
// parameter the member's symbols stand for. Interpretation and launches
// both name members so, and a launch's value binds the member's symbol
// through symbolic.ParamID of it.
func MemberPath(path, member string) string { return path + "." + member }

func (in *interp) field(base value, name string) value {
	if v, ok := base.fields[name]; ok {
		return v
	}
	if base.param && base.typ != nil {
		if f, ok := base.typ.Field(name); ok {
			v := in.paramValue(MemberPath(base.path, name), f.Type)
			if base.fields == nil {
				base.fields = map[string]value{}
			}
			base.fields[name] = v
			return v
		}
	}
	return in.dataValue(symbolic.CauseNotModelled, "field "+name)
}

// paramValue is the value of a kernel parameter (or a field of a struct
// parameter) called name, of type t.
func (in *interp) paramValue(name string, t *ctype.Type) value {
	switch {
	case t != nil && t.Kind == ctype.TPointer:
		return value{kind: vPtr, typ: t, param: true, ptr: &pointer{space: Global, base: Alloc{Kind: AllocParam, Name: name}, offset: symbolic.BaseSym(name), elem: t.Elem}}
	case t != nil && (t.Kind == ctype.TStruct || t.Kind == ctype.TVector):
		return value{kind: vStruct, typ: t, param: true, path: name, fields: map[string]value{}}
	case t != nil && t.Kind == ctype.TFloat:
		return in.dataValue(symbolic.CauseFloatValue, "float parameter")
	case t != nil && t.Kind == ctype.TArray:
		// An array member of a struct passed by value: its elements are
		// parameters too (paramArrayElem).
		return value{kind: vInt, typ: t, param: true, path: name, x: symbolic.ParamSym(name)}
	}
	in.params[symbolic.ParamID(name)] = true
	return value{kind: vInt, typ: t, param: true, x: symbolic.ParamSym(name)}
}

func (in *interp) rvalue(e parser.Expr) value {
	lv := in.lval(e)
	return in.load(lv, e)
}

func (in *interp) unary(e *parser.Unary) value {
	switch e.Op {
	case parser.Deref:
		return in.rvalue(e)
	case parser.AddrOf:
		lv := in.lval(e.X)
		if lv.mem != nil {
			return value{kind: vPtr, ptr: lv.mem}
		}
		return in.dataValue(symbolic.CauseNotModelled, addressOfVariable)
	case parser.Inc, parser.Dec:
		lv := in.lval(e.X)
		v := in.arith(stepOp(e.Op), in.load(lv, e.X), intValue(symbolic.Const(1)))
		in.store(lv, v, e.X)
		return v
	}
	v := in.eval(e.X)
	if v.kind != vInt {
		if e.Op == parser.Not && v.kind == vPtr {
			return intValue(symbolic.Not(in.nonNull(v.ptr))) // !p: p is null
		}
		if e.Op == parser.Not {
			return intValue(symbolic.Const(0))
		}
		return in.dataValue(symbolic.CauseNotModelled, "operator on a non-integer")
	}
	switch e.Op {
	case parser.Sub:
		return intValue(symbolic.Neg(v.x))
	case parser.Add:
		return v
	case parser.Not:
		return intValue(symbolic.Not(v.x))
	case parser.Tilde:
		return intValue(symbolic.Binary(symbolic.OpXor, v.x, symbolic.Const(-1)))
	}
	return in.dataValue(symbolic.CauseNotModelled, "operator")
}

func (in *interp) binary(e *parser.Binary) value {
	switch {
	case e.Op == parser.Comma:
		in.eval(e.X)
		return in.eval(e.Y)
	case e.Op == parser.Assign:
		if id, ok := e.X.(*parser.Ident); ok {
			in.noteFnTarget(id.Name, e.Y)
		}
		v := in.eval(e.Y)
		lv := in.lval(e.X)
		in.store(lv, in.convert(v, in.lvalType(lv)), e.X)
		return v
	case isAssignOp(e.Op):
		lv := in.lval(e.X)
		old := in.load(lv, e.X)
		v := in.arith(e.Op.Arith(), old, in.eval(e.Y))
		in.store(lv, in.convert(v, in.lvalType(lv)), e.X)
		return v
	case e.Op == parser.LogAnd || e.Op == parser.LogOr:
		a := in.cond(e.X)
		// The right side runs only where the left allows it.
		nguards := len(in.guards)
		if e.Op == parser.LogAnd {
			in.guards = append(in.guards, a)
		} else {
			in.guards = append(in.guards, symbolic.Not(a))
		}
		b := in.cond(e.Y)
		in.guards = in.guards[:nguards]
		k := symbolic.OpLAnd
		if e.Op == parser.LogOr {
			k = symbolic.OpLOr
		}
		return intValue(symbolic.Binary(k, a, b))
	}
	return in.arith(e.Op, in.eval(e.X), in.eval(e.Y))
}

// arith applies a C binary operator, pointer arithmetic included.
func (in *interp) arith(op parser.Op, a, b value) value {
	if a.kind == vPtr && b.kind == vInt && (op == parser.Add || op == parser.Sub) {
		d := symbolic.Mul(b.x, symbolic.Const(elemSize(a.ptr.elem)))
		if op == parser.Sub {
			d = symbolic.Neg(d)
		}
		q := a.ptr.at(symbolic.Add(a.ptr.offset, d), a.ptr.elem)
		q.guessed = q.guessed || !a.ptr.elem.LayoutKnown()
		return value{kind: vPtr, typ: a.typ, ptr: q}
	}
	if b.kind == vPtr && a.kind == vInt && op == parser.Add {
		return in.arith(op, b, a)
	}
	if a.kind == vPtr && b.kind == vPtr && op == parser.Sub && a.ptr.base == b.ptr.base {
		diff := symbolic.Sub(a.ptr.offset, b.ptr.offset)
		return intValue(symbolic.Binary(symbolic.OpDiv, diff, symbolic.Const(elemSize(a.ptr.elem))))
	}
	if a.kind != vInt || b.kind != vInt {
		if t, ok := in.nullTest(op, a, b); ok {
			return intValue(t)
		}
		if a.kind == vPtr || b.kind == vPtr {
			switch op {
			case parser.Eql, parser.Neq, parser.Lss, parser.Gtr, parser.Leq, parser.Geq:
				return intValue(symbolic.Const(b2i(op != parser.Eql)))
			}
		}
		return in.dataValue(symbolic.CauseFloatValue, "arithmetic on a non-integer")
	}
	if isFloat(a.typ) || isFloat(b.typ) {
		if allUniform([]value{a, b}) {
			// (float)rows / blockDim.x: not known, but the same in every
			// lane, as its operands are.
			v := floatValue(intValue(in.unknown(symbolic.CauseFloatValue, "float arithmetic", parser.Pos{}, unknownName(symbolic.CauseFloatValue, "float arithmetic"), symbolic.Uniform)), a, b)
			if n, t, ok := floatArith(op, a, b); ok {
				v.typ = t
				v = withNumber(v, n)
			}
			return v
		}
		return in.dataValue(symbolic.CauseFloatValue, "float arithmetic")
	}
	x, y := a.x, b.x
	var r symbolic.Expr
	switch op {
	case parser.Add:
		r = symbolic.Add(x, y)
	case parser.Sub:
		r = symbolic.Sub(x, y)
	case parser.Mul:
		r = symbolic.Mul(x, y)
	case parser.Quo:
		r = symbolic.Binary(symbolic.OpDiv, x, y)
	case parser.Rem:
		r = symbolic.Binary(symbolic.OpRem, x, y)
	case parser.Shl:
		r = symbolic.Binary(symbolic.OpShl, x, y)
	case parser.Shr:
		r = symbolic.Binary(symbolic.OpShr, x, y)
	case parser.And:
		r = symbolic.Binary(symbolic.OpAnd, x, y)
	case parser.Or:
		r = symbolic.Binary(symbolic.OpOr, x, y)
	case parser.Xor:
		r = symbolic.Binary(symbolic.OpXor, x, y)
	case parser.Lss:
		r = symbolic.Binary(symbolic.OpLt, x, y)
	case parser.Gtr:
		r = symbolic.Binary(symbolic.OpLt, y, x)
	case parser.Leq:
		r = symbolic.Binary(symbolic.OpLe, x, y)
	case parser.Geq:
		r = symbolic.Binary(symbolic.OpLe, y, x)
	case parser.Eql:
		r = symbolic.Binary(symbolic.OpEq, x, y)
	case parser.Neq:
		r = symbolic.Binary(symbolic.OpNe, x, y)
	default:
		return in.dataValue(symbolic.CauseNotModelled, "operator "+op.String())
	}
	return value{kind: vInt, x: r, typ: a.typ}
}

// nullTest is p == NULL or p != NULL (either side; NULL, nullptr and 0
// are the integer 0) as the condition the pointer's null test stands for,
// so that a launch passing NULL decides the branch as if (p) does.
func (in *interp) nullTest(op parser.Op, a, b value) (symbolic.Expr, bool) {
	if op != parser.Eql && op != parser.Neq {
		return nil, false
	}
	if b.kind == vPtr {
		a, b = b, a
	}
	if a.kind != vPtr || b.kind != vInt {
		return nil, false
	}
	if c, ok := symbolic.IsConst(b.x); !ok || c != 0 {
		return nil, false
	}
	if op == parser.Eql {
		return symbolic.Not(in.nonNull(a.ptr)), true
	}
	return in.nonNull(a.ptr), true
}

func isFloat(t *ctype.Type) bool { return t != nil && t.Kind == ctype.TFloat }

func b2i(c bool) int64 {
	if c {
		return 1
	}
	return 0
}

func elemSize(t *ctype.Type) int64 {
	if t == nil || t.Size <= 0 {
		return 1
	}
	return t.Size
}

// lval finds the place an expression names.
func (in *interp) lval(e parser.Expr) lvalue {
	switch e := e.(type) {
	case *parser.Ident:
		if m, ok := in.memoryVar(e.Name); ok {
			return lvalue{mem: m.at(m.offset, m.elem), valid: true}
		}
		return lvalue{name: e.Name, valid: true}
	case *parser.Index:
		base := in.eval(e.X)
		idx := in.eval(e.Index)
		if base.kind == vInt && idx.kind == vPtr { // i[p] is p[i]
			base, idx = idx, base
		}
		if base.kind != vPtr {
			in.notAPointer(e.X, base)
			return lvalue{}
		}
		if idx.kind != vInt {
			idx = intValue(in.unknown(symbolic.CauseNotModelled, "", parser.Pos{}, "index", symbolic.Data))
		}
		el := base.ptr.elem
		off := symbolic.Add(base.ptr.offset, symbolic.Mul(idx.x, symbolic.Const(elemSize(el))))
		m := base.ptr.at(off, el)
		m.guessed = m.guessed || !el.LayoutKnown()
		return lvalue{mem: m, valid: true}
	case *parser.Unary:
		if e.Op == parser.Deref {
			p := in.eval(e.X)
			if p.kind != vPtr {
				in.notAPointer(e.X, p)
				return lvalue{}
			}
			return lvalue{mem: p.ptr.at(p.ptr.offset, p.ptr.elem), valid: true}
		}
	case *parser.Member:
		if e.Arrow && isThis(e.X) {
			return in.thisMember(e.Name)
		}
		if e.Arrow {
			p := in.eval(e.X)
			if p.kind != vPtr {
				return lvalue{}
			}
			return memberOf(p.ptr, e.Name)
		}
		if id, ok := e.X.(*parser.Ident); ok {
			if v, ok := in.lookup(id.Name); ok && v.kind == vStruct {
				return lvalue{name: id.Name, path: []string{e.Name}, valid: true}
			}
		}
		inner := in.lval(e.X)
		if inner.mem != nil {
			return memberOf(inner.mem, e.Name)
		}
		if inner.name != "" {
			return lvalue{name: inner.name, path: append(append([]string{}, inner.path...), e.Name), valid: true}
		}
		return lvalue{}
	case *parser.Cast:
		return in.lval(e.X)
	}
	if _, ok := e.(*parser.Unary); !ok {
		in.eval(e) // not a place: evaluate it for the accesses it makes
	}
	return lvalue{}
}

func memberOf(p *pointer, name string) lvalue {
	if p.elem == nil {
		return lvalue{}
	}
	f, ok := p.elem.Field(name)
	if !ok {
		return lvalue{mem: p.at(p.offset, ctype.UnknownType), valid: true}
	}
	m := p.at(symbolic.Add(p.offset, symbolic.Const(f.Offset)), f.Type)
	m.guessed = p.guessed || !p.elem.LayoutKnown()
	if p.elem.Kind == ctype.TStruct || p.elem.Kind == ctype.TVector {
		m.owner, m.field = p.elem, name
	}
	return lvalue{mem: m, valid: true}
}

func (in *interp) lvalType(lv lvalue) *ctype.Type {
	if lv.mem != nil {
		return lv.mem.elem
	}
	if v, ok := in.lookup(lv.name); ok && len(lv.path) == 0 {
		return v.typ
	}
	return nil
}

// load reads a place: a variable's value, or a memory access.
func (in *interp) load(lv lvalue, e parser.Expr) value {
	switch {
	case !lv.valid:
		return intValue(in.unknown(symbolic.CauseNotModelled, "", parser.Pos{}, "unknown place", symbolic.Data))
	case lv.mem != nil:
		t := lv.mem.elem
		if t != nil && t.Kind == ctype.TArray { // an array decays to a pointer to its first element
			return value{kind: vPtr, ptr: &pointer{space: lv.mem.space, base: lv.mem.base, offset: lv.mem.offset, elem: t.Elem, array: true, guessed: lv.mem.guessed}}
		}
		if v, ok := in.hostLoad(lv.mem); ok {
			return v
		}
		in.access(lv.mem, Load, e)
		return in.loaded(lv.mem, e)
	}
	v, ok := in.lookup(lv.name)
	if !ok {
		v = in.ident(&parser.Ident{Name: lv.name})
	}
	for _, f := range lv.path {
		if v.kind != vStruct {
			return intValue(in.unknown(symbolic.CauseNotModelled, "", parser.Pos{}, "field", symbolic.Data))
		}
		v = in.field(v, f)
	}
	return v
}

// loaded is the value read from memory: unknown data, or for pointers
// loaded from memory, a pointer whose target we do not know.
func (in *interp) loaded(p *pointer, e parser.Expr) value {
	if v, ok := in.localLoad(p); ok {
		return v
	}
	t := p.elem
	what, at := parser.Format(e), e.Start()
	sym := func() symbolic.Expr {
		return in.unknown(symbolic.CauseLoadedValue, what, at, "value loaded by "+what+" at "+at.String(), symbolic.Data)
	}
	if t != nil && t.Kind == ctype.TPointer {
		// A pointer loaded from global memory points into global memory
		// (device pointers are global); one kept in a local array of
		// pointers may point into shared memory as well.
		space := Global
		if p.space == Local {
			space = Generic
		}
		return value{kind: vPtr, typ: t, ptr: &pointer{space: space, base: Alloc{Kind: AllocLoaded, Name: what}, offset: sym(), elem: t.Elem}}
	}
	x := sym()
	if in.warpUniform(p) {
		x = in.unknown(symbolic.CauseLoadedValue, what, at, "value loaded by "+what+" at "+at.String(), symbolic.Uniform)
	}
	v := intValue(x)
	v.typ = t
	return v
}

func (in *interp) store(lv lvalue, v value, e parser.Expr) {
	switch {
	case !lv.valid:
	case lv.mem != nil:
		in.hostStore(lv.mem, v)
		in.localStore(lv.mem, v)
		in.access(lv.mem, Store, e)
	case len(lv.path) == 0:
		v.constant = false // the variable assigned is not const, whatever the value came from
		in.vars[lv.name] = v
	default:
		cur, ok := in.lookup(lv.name)
		if !ok || cur.kind != vStruct {
			return
		}
		in.vars[lv.name] = setField(cur, lv.path, v)
	}
}

func setField(s value, path []string, v value) value {
	out := s
	out.fields = make(map[string]value, len(s.fields)+1)
	for k, x := range s.fields {
		out.fields[k] = x
	}
	if len(path) == 1 {
		out.fields[path[0]] = v
	} else if inner, ok := s.fields[path[0]]; ok && inner.kind == vStruct {
		out.fields[path[0]] = setField(inner, path[1:], v)
	}
	return out
}

// access records a memory access and returns it (nil when none is recorded).
func (in *interp) access(p *pointer, op Op, e parser.Expr) *Access {
	if !in.record || in.host {
		return nil
	}
	if len(in.accesses) >= maxAccesses {
		if !in.capped {
			in.capped = true
			in.note(lex.NoteAccessLimit, "", e.Start(), "more than %d memory accesses in one kernel; the rest are not modelled", maxAccesses)
		}
		return nil
	}
	a := &Access{
		Kernel: in.kernel, Pos: e.Start(), Expr: in.prog.Text(e), Op: op, Space: p.space, Base: p.base,
		Addr: p.offset, Type: p.elem, Guards: append([]symbolic.Expr{}, in.guards...),
		Loops: append([]*Loop{}, in.loops...), Via: in.via(),
	}
	if en, ok := e.(parser.Ender); ok {
		a.End = en.End()
	}
	a.Struct, a.Field = p.owner, p.field
	a.Guessed = p.guessed || !a.Type.LayoutKnown()
	if ix, ok := e.(*parser.Index); ok {
		a.BaseExpr, a.IndexExpr = in.prog.Text(ix.X), in.prog.Text(ix.Index)
	}
	a.Subscripts = subscripts(e)
	a.AlignHint = p.alignHint
	if a.Type == nil {
		a.Type = ctype.UnknownType
	}
	in.accesses = append(in.accesses, a)
	return a
}

// subscripts counts the subscripts of e's innermost array indexing
// written in a row, past the members it reads: tile[y][x].f is 2.
func subscripts(e parser.Expr) int {
	for {
		m, ok := e.(*parser.Member)
		if !ok {
			break
		}
		e = m.X
	}
	n := 0
	for ix, ok := e.(*parser.Index); ok; ix, ok = ix.X.(*parser.Index) {
		n++
	}
	return n
}

func (in *interp) typeOf(e parser.Expr) *ctype.Type {
	if id, ok := e.(*parser.Ident); ok {
		if v, ok := in.lookup(id.Name); ok && v.typ != nil {
			return v.typ
		}
	}
	return ctype.UnknownType
}

// paramArrayElem is p.ptrs[i], an element of an array member of a struct
// passed by value (lmdeploy's Array<const T*, N> of pointers, one per
// block): a parameter of its own for a constant index, a value uniform
// across the warp, not known, for a uniform index, else unknown data. It
// lives in the kernel's parameter space, so reading it is no access of
// global memory; ok is false for any other indexing.
func (in *interp) paramArrayElem(x *parser.Index) (value, bool) {
	switch b := x.X.(type) {
	case *parser.Ident:
	case *parser.Member:
		if b.Arrow {
			return value{}, false
		}
		if _, ok := b.X.(*parser.Ident); !ok {
			return value{}, false
		}
	default:
		return value{}, false
	}
	base := in.eval(x.X)
	if !base.param || base.typ == nil || base.typ.Kind != ctype.TArray || base.path == "" || base.kind == vPtr {
		return value{}, false
	}
	idx := in.eval(x.Index)
	el := base.typ.Elem
	if idx.kind == vInt && idx.x != nil {
		if k, ok := symbolic.IsConst(idx.x); ok {
			return in.paramValue(fmt.Sprintf("%s[%d]", base.path, k), el), true
		}
	}
	what, at := parser.Format(x), x.Start()
	class := symbolic.Data
	if idx.kind == vInt && idx.x != nil && symbolic.ClassOf(idx.x) == symbolic.Uniform {
		class = symbolic.Uniform
	}
	sym := in.unknown(symbolic.CauseLoadedValue, what, at, "parameter "+what, class)
	if el != nil && el.Kind == ctype.TPointer {
		return value{kind: vPtr, typ: el, ptr: &pointer{space: Global, base: Alloc{Kind: AllocLoaded, Name: what}, offset: sym, elem: el.Elem}}, true
	}
	v := intValue(sym)
	v.typ = el
	return v, true
}

// notAPointer notes an index or dereference of x, whose value v the
// model does not know as a pointer although its type is one (an element
// of a struct's array of pointers of a type it cannot resolve, a call it
// does not follow): the access it makes is not modelled, and the kernel
// must not pass for one with no such access. A value of another type or
// of none known (a register array's object, assigned an operator's
// result) is not noted.
// addressOfVariable is what the address of a variable held in registers
// is, as the Of of its unknown: a pointer to no memory the model keeps.
const addressOfVariable = "address of a variable"

func (in *interp) notAPointer(x parser.Expr, v value) {
	if in.host || !in.record || v.kind != vInt || v.typ == nil || v.typ.Kind != ctype.TPointer {
		return
	}
	inner := x
	for {
		c, ok := inner.(*parser.Cast)
		if !ok {
			break
		}
		inner = c.X
	}
	if u, ok := inner.(*parser.Unary); ok && u.Op == parser.AddrOf {
		return // (T*)&local: a variable's own bytes, no memory access to note
	}
	local := false
	symbolic.Symbols(v.x, func(s *symbolic.Var) {
		local = local || s.Of == addressOfVariable || s.Cause == symbolic.CauseUninitialised
	})
	if local {
		// A helper's pointer parameter given &local (intersectBox(...,
		// &tnear)), or a register object's array member cast to a
		// pointer (*reinterpret_cast<int4*>(v) = bits): no memory.
		return
	}
	if v.x != nil && symbolic.ClassOf(v.x) != symbolic.Data {
		return // an integer the model knows: not a pointer
	}
	what := parser.Format(x)
	in.note(lex.NoteNotAPointer, what, x.Start(), "an access through %s, which cudalint does not know as a pointer; not modelled", what)
	in.unresolved++
}

// floatValue gives v the floating type of the operands a and b, so that
// what follows treats it as the float it is.
func floatValue(v value, a, b value) value {
	if isFloat(a.typ) {
		v.typ = a.typ
	} else {
		v.typ = b.typ
	}
	return v
}

// literalType is a floating literal's type: float with an f suffix,
// double without.
func literalType(text string) *ctype.Type {
	name := "double"
	if strings.HasSuffix(text, "f") || strings.HasSuffix(text, "F") {
		name = "float"
	}
	t, _ := ctype.Builtin(name)
	return t
}
