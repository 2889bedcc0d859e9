package interp

import (
	"strings"

	"github.com/cudalint/cudalint/analyzer/ctype"
	"github.com/cudalint/cudalint/parser"
	"github.com/cudalint/cudalint/parser/lex"
	"github.com/cudalint/cudalint/symbolic"
)

// Intrinsics that read memory through their pointer argument.
var loadIntrinsics = map[string]bool{
	"__ldg": true, "__ldcg": true, "__ldca": true, "__ldcs": true, "__ldlu": true, "__ldcv": true,
}

// Intrinsics that store their second argument through their first.
var storeIntrinsics = map[string]bool{"__stcg": true, "__stcs": true, "__stwb": true, "__stwt": true}

// isAtomic reports whether name is a CUDA atomic read-modify-write.
func isAtomic(name string) bool {
	base := strings.TrimSuffix(strings.TrimSuffix(name, "_block"), "_system")
	switch base {
	case "atomicAdd", "atomicSub", "atomicExch", "atomicMin", "atomicMax", "atomicInc", "atomicDec",
		"atomicCAS", "atomicAnd", "atomicOr", "atomicXor":
		return true
	}
	return false
}

// Integer intrinsics with an exact model.
var intIntrinsics = map[string]symbolic.OpKind{
	"min": symbolic.OpMin, "max": symbolic.OpMax, "umin": symbolic.OpMin, "umax": symbolic.OpMax,
	"imin": symbolic.OpMin, "imax": symbolic.OpMax, "llmin": symbolic.OpMin, "llmax": symbolic.OpMax,
}

func calleeName(e parser.Expr) string {
	switch f := e.(type) {
	case *parser.Ident:
		name := f.Name
		if i := strings.LastIndex(name, "::"); i >= 0 {
			name = name[i+2:]
		}
		return name
	case *parser.Member:
		return f.Name
	}
	return ""
}

// launchAPI are the runtime's launch calls, (kernel, grid, block,
// args, ...): a launch as kernel<<<grid, block>>> is, whose arguments
// travel in an array of pointers the model does not follow.
var launchAPI = map[string]bool{"cudaLaunchKernel": true, "cudaLaunchCooperativeKernel": true}

// IsLaunchCall reports whether e is a launch through the runtime API.
func IsLaunchCall(e *parser.Call) bool { return launchAPI[calleeName(e.Fun)] && len(e.Args) >= 3 }

// apiLaunch is the launch a cudaLaunchKernel call makes: its kernel with
// the casts to void* taken off, its grid and block, no arguments.
func apiLaunch(e *parser.Call) *parser.Launch {
	k := e.Args[0]
	for {
		c, ok := k.(*parser.Cast)
		if !ok {
			break
		}
		k = c.X
	}
	if u, ok := k.(*parser.Unary); ok && u.Op == parser.And {
		k = u.X // &kernel
	}
	return &parser.Launch{P: e.P, Kernel: k, Config: e.Args[1:3]}
}

func (in *interp) call(e *parser.Call) value {
	name := calleeName(e.Fun)
	if m, ok := e.Fun.(*parser.Member); ok && !m.Arrow {
		// Only a named group (block.sync(), grid.size()): evaluating any
		// other object of a method call could record accesses C++ makes
		// differently, if at all.
		if g, ok := in.groupNamed(m.X); ok {
			for _, a := range e.Args {
				in.eval(a)
			}
			if v, ok := in.groupMethod(g, m.Name); ok {
				return v
			}
			return in.dataValue(symbolic.CauseCallResult, name+"()")
		}
	}
	switch {
	case launchAPI[name] && len(e.Args) >= 3:
		return in.launch(apiLaunch(e))
	case name == "dim3":
		vals := make([]value, len(e.Args))
		for i, a := range e.Args {
			vals[i] = in.eval(a)
		}
		return dim3Value(vals)
	case loadIntrinsics[name] && len(e.Args) == 1:
		p := in.eval(e.Args[0])
		if p.kind != vPtr {
			return in.dataValue(symbolic.CauseNotModelled, name)
		}
		m := p.ptr.at(p.ptr.offset, p.ptr.elem)
		in.access(m, Load, e)
		return in.loaded(m, e)
	case storeIntrinsics[name] && len(e.Args) == 2:
		p := in.eval(e.Args[0])
		in.eval(e.Args[1])
		if p.kind == vPtr {
			in.access(p.ptr.at(p.ptr.offset, p.ptr.elem), Store, e)
		}
		return intValue(symbolic.Const(0))
	case in.host && deviceAllocs[name] && len(e.Args) >= 1:
		in.allocated(e.Args[0])
	case name == "__mul24" || name == "__umul24":
		if len(e.Args) == 2 {
			return in.arith(parser.Mul, in.eval(e.Args[0]), in.eval(e.Args[1]))
		}
	}
	if k, ok := intIntrinsics[name]; ok && len(e.Args) == 2 {
		a, b := in.eval(e.Args[0]), in.eval(e.Args[1])
		if a.kind == vInt && b.kind == vInt && !isFloat(a.typ) && !isFloat(b.typ) {
			return intValue(symbolic.Binary(k, a.x, b.x))
		}
		return in.dataValue(symbolic.CauseNotModelled, name)
	}
	args := make([]value, len(e.Args))
	lvs := in.refArgs(name, e, args)
	for i, a := range e.Args {
		if lvs == nil || !lvs[i].valid {
			args[i] = in.eval(a)
		}
	}
	passed := in.passClosures(args)
	v := in.callWith(e, name, args, lvs)
	in.afterClosures(passed, e)
	return v
}

// deviceAllocs are the runtime's calls that set the pointer their first
// argument points to to a new device allocation.
var deviceAllocs = map[string]bool{"cudaMalloc": true, "cudaMallocManaged": true, "cudaMallocAsync": true, "cudaMallocPitch": true}

// allocated makes the host pointer variable that cudaMalloc(&p, ...) (or
// (void **)&p) sets an allocation of its own, at offset 0: whatever it
// held before (float *p = 0, the usual way to declare it), it now points
// to the start of a new allocation, and p + k passed to a launch is an
// offset of k elements into it (FDTD3d's bufferIn + padding).
func (in *interp) allocated(arg parser.Expr) {
	for {
		c, ok := arg.(*parser.Cast)
		if !ok {
			break
		}
		arg = c.X
	}
	u, ok := arg.(*parser.Unary)
	if !ok || u.Op != parser.AddrOf {
		return
	}
	fresh := func(t *ctype.Type, name string) value {
		return value{kind: vPtr, typ: t, ptr: &pointer{space: Global, base: Alloc{Kind: AllocVar, Name: name}, offset: zero, elem: t.Elem}}
	}
	switch x := u.X.(type) {
	case *parser.Ident:
		v, ok := in.vars[x.Name]
		if !ok || v.typ == nil || v.typ.Kind != ctype.TPointer || v.inMemory {
			return
		}
		in.vars[x.Name] = fresh(v.typ, x.Name)
	case *parser.Member:
		// cudaMalloc(&input.g_b_raw, ...): a member of a local struct.
		id, ok := x.X.(*parser.Ident)
		if !ok || x.Arrow {
			return
		}
		s, ok := in.vars[id.Name]
		if !ok || s.kind != vStruct || s.typ == nil {
			return
		}
		f, ok := s.typ.Field(x.Name)
		if !ok || f.Type == nil || f.Type.Kind != ctype.TPointer {
			return
		}
		in.vars[id.Name] = setField(s, []string{x.Name}, fresh(f.Type, id.Name+"."+x.Name))
	}
}

// callWith runs a call whose arguments are evaluated: a host template, a
// class's function, a lambda, a kernel's function parameter, a
// __device__ helper, a cooperative group's function, an atomic or a
// functional cast.
func (in *interp) callWith(e *parser.Call, name string, args []value, lvs []lvalue) value {
	if in.host {
		in.hostTemplateCall(e, name, args)
	}
	written := name // as the call spells it, for name lookup
	if l, ok := e.Fun.(*parser.Lambda); ok {
		// A lambda called where it is written ([&] { ... }(), as
		// BOOL_SWITCH-style dispatch macros expand): its body runs here.
		return in.callLambda(l, args, e)
	}
	if id, ok := e.Fun.(*parser.Ident); ok && in.host {
		// A local lambda of host code (auto launch = [&] { k<<<g, b>>>(a); };
		// launch();): its launches are the function's.
		if v, ok := in.vars[id.Name]; ok && v.closure != nil && v.closure.lambda != nil {
			return in.callClosure(v.closure, args, e)
		}
	}
	if !in.host {
		if v, ok := in.classCall(e, args); ok {
			return v
		}
		if id, ok := e.Fun.(*parser.Ident); ok {
			written = id.Name
			// A lambda, or a helper's parameter bound to one: it hides any
			// function of that name.
			if v, ok := in.vars[id.Name]; ok && v.closure != nil {
				return in.callClosure(v.closure, args, e)
			}
			if r, ok := in.callObject(e, id.Name, args); ok {
				return r
			}
			if f, ok := in.funcParam(e, id.Name); ok {
				if f == "" {
					return in.dataValue(symbolic.CauseCallResult, name+"()")
				}
				name, written = f, f
			}
		}
	}
	if f := in.deviceCalled(written, e, args); f != nil && !in.host {
		return in.inlineWith(f, args, lvs, e)
	}
	if in.host {
		if f := in.hostFunc(name, args); f != nil {
			return in.hostCall(f, args, e)
		}
		if f := in.hostFuncHeld(e, args); f != nil {
			return in.hostCall(f, args, e)
		}
	}
	if g, ok := in.groupCall(e, name, args); ok {
		return g
	}
	if isAtomic(name) {
		in.fence()
	}
	if isAtomic(name) && len(args) >= 2 && args[0].kind == vPtr {
		p := args[0].ptr
		in.access(p.at(p.offset, p.elem), Atomic, e)
		return in.dataValue(symbolic.CauseCallResult, name+"()")
	}
	if t, ok := ctype.Builtin(name); ok && len(args) == 1 { // functional cast: int(x), float(x)
		return in.convert(args[0], t)
	}
	if v, ok := in.makeVector(name, args); ok {
		return v
	}
	if v, ok := in.valueInit(e, args); ok {
		return v
	}
	if v, ok := in.curand(e, name, args); ok {
		return v
	}
	if name == "__builtin_assume_aligned" && len(args) >= 1 { // a hint: the pointer itself
		return alignedBy(args)
	}
	if (name == "__cvta_generic_to_shared" || name == "__cvta_generic_to_global") && len(args) == 1 && args[0].kind == vPtr {
		t, _ := ctype.Builtin("size_t")
		return byteAddress(args[0], t)
	}
	if in.host {
		if v, ok := in.dispatchLambda(e, name, args); ok {
			return v
		}
	}
	if pureMath[name] && allUniform(args) {
		// ceilf((float)rows / blockDim.x): a math function of values the
		// same in every lane is the same in every lane, though its value
		// is not known (apex's per-thread row counts).
		v := intValue(in.unknown(symbolic.CauseCallResult, name+"()", parser.Pos{}, unknownName(symbolic.CauseCallResult, name+"()"), symbolic.Uniform))
		if known, ok := mathOfKnown(name, args, v); ok {
			return known // ceil((float) N / Bc) of known N and Bc
		}
		return v
	}
	if !pureMath[name] && !pureIntrinsics[name] {
		in.fence()
	}
	in.notFollowed(e, name, args)
	return in.dataValue(symbolic.CauseCallResult, name+"()")
}

// pureIntrinsics are CUDA's arithmetic intrinsics: like pureMath, they
// touch no memory, so a loop that calls them may keep memory's values in
// registers.
var pureIntrinsics = map[string]bool{
	"fma": true, "fmaf": true, "fabsf": true, "fminf": true, "fmaxf": true, "rsqrtf": true, "rsqrt": true,
	"__expf": true, "__exp10f": true, "__logf": true, "__log2f": true, "__sinf": true, "__cosf": true, "__tanf": true,
	"__powf": true, "__fdividef": true, "__saturatef": true, "__frcp_rn": true, "__fsqrt_rn": true,
	"__fmul_rn": true, "__fadd_rn": true, "__fmaf_rn": true, "copysign": true, "copysignf": true,
}

// fence marks the loops around the code being run as ordering memory or
// touching it unseen (Loop.Fenced).
func (in *interp) fence() {
	for _, l := range in.loops {
		l.Fenced = true
	}
}

// pureMath are the CUDA math library's functions whose result depends on
// their arguments alone: no memory, no lane.
var pureMath = map[string]bool{}

func init() {
	for _, f := range []string{"ceil", "floor", "round", "trunc", "rint", "sqrt", "rsqrt", "cbrt", "exp", "exp2", "exp10", "expm1",
		"log", "log2", "log10", "log1p", "pow", "sin", "cos", "tan", "tanh", "fabs", "fmin", "fmax", "fmod", "abs", "min", "max"} {
		pureMath[f] = true
		pureMath[f+"f"] = true
		pureMath["std::"+f] = true
	}
}

// allUniform: every argument is a number the same in every lane.
func allUniform(args []value) bool {
	for _, a := range args {
		if a.kind != vInt || a.x == nil || symbolic.ClassOf(a.x) != symbolic.Uniform {
			return false
		}
	}
	return len(args) > 0
}

// makeVector is make_int2(x, y), make_float4(...) and the other make_*
// helpers of CUDA's vector types: the vector of those components.
func (in *interp) makeVector(name string, args []value) (value, bool) {
	t, ok := ctype.Builtin(strings.TrimPrefix(name, "make_"))
	if !strings.HasPrefix(name, "make_") || !ok || t.Kind != ctype.TVector || t.Len != int64(len(args)) || t.Len > 4 {
		return value{}, false
	}
	v := value{kind: vStruct, typ: t, fields: map[string]value{}}
	for i, a := range args {
		v.fields[[]string{"x", "y", "z", "w"}[i]] = in.convert(a, t.Elem)
	}
	return v, true
}

// byteAddress is pointer v as an integer of type t: the same place, in
// bytes (an address the asm operands of PTX wrappers carry), so that
// adding n to it moves n bytes.
func byteAddress(v value, t *ctype.Type) value {
	b, _ := ctype.Builtin("uint8_t")
	p := *v.ptr
	p.elem, p.array = b, false
	return value{kind: vPtr, typ: t, ptr: &p}
}

// alignedBy is the pointer of __builtin_assume_aligned(p, n), carrying
// the alignment promised when n is a constant.
func alignedBy(args []value) value {
	v := args[0]
	if v.kind != vPtr || len(args) < 2 || args[1].kind != vInt || args[1].x == nil {
		return v
	}
	if n, ok := symbolic.IsConst(args[1].x); ok && n > 0 {
		p := *v.ptr
		p.alignHint = n
		v.ptr = &p
	}
	return v
}

// notFollowed notes a call in a kernel that may run code cudalint cannot
// see: a lambda passed to a function it cannot find, or a call through a
// variable that holds no lambda (a function object, a function pointer).
// The kernel is then partly analyzed.
func (in *interp) notFollowed(e *parser.Call, name string, args []value) {
	if in.host || !in.record {
		return
	}
	if name == "" {
		name = parser.Format(e.Fun) // a temporary's call: ggml_cuda_unroll<7>{}(load)
	}
	for _, a := range args {
		if a.closure != nil && a.closure.lambda != nil {
			in.note(lex.NoteLambdaNotFollowed, name, e.Start(), "a lambda is passed to %s, which cudalint cannot find; its body is not followed", name)
			in.unresolved++
			return
		}
	}
	if id, ok := e.Fun.(*parser.Ident); ok {
		if _, local := in.vars[id.Name]; local {
			in.note(lex.NoteCallThroughValue, id.Name, e.Start(), "call through %s, which holds no function or lambda cudalint knows; not followed", id.Name)
			in.unresolved++
			return
		}
	}
	// A function cudalint has no body for, given a pointer into global
	// memory (curand_init(..., &states[tid]), wmma::load_matrix_sync(a,
	// p + k, ld)): what it reads and writes there is not modelled, and
	// the kernel must not pass for one with no such access.
	if m, ok := e.Fun.(*parser.Member); ok {
		if in.knownClassOf(m) {
			return // a method of a class it knows has its own note (classCall)
		}
		name = m.Name // obj.load(p) on an object of a class it cannot see
	} else if _, plain := e.Fun.(*parser.Ident); !plain || in.definedEmpty(name) || isMacroName(name) {
		return // ggml_unused_vars_impl(x, y...) makes no access
	}
	in.globalPointerPassed(e.Start(), name, "call to "+name, args)
}

// globalPointerPassed notes code cudalint does not follow (what, at at)
// that is given a pointer into global memory: what it reads and writes
// there is not modelled, and the kernel must not pass for one with no
// such access.
func (in *interp) globalPointerPassed(at parser.Pos, name, what string, args []value) {
	if in.host || !in.record {
		return
	}
	for i, a := range args {
		if a.kind == vPtr && a.ptr != nil && a.ptr.space == Global {
			in.note(lex.NoteGlobalPointerPassed, name, at, "%s, which cudalint does not follow, with a pointer to global memory (argument %d): the accesses it makes there are not modelled", what, i+1)
			in.unresolved++
			return
		}
	}
}

// knownClassOf reports whether obj.f(...)'s object is of a class cudalint
// has the members of (whose unresolved calls classCall notes).
func (in *interp) knownClassOf(m *parser.Member) bool {
	if isThis(m.X) {
		return true
	}
	obj := in.evalNoLoad(m.X)
	if obj.typ == nil || obj.typ.Kind != ctype.TStruct && obj.typ.Kind != ctype.TUnknown {
		return obj.kind == vStruct && isGroup(obj) // cooperative groups are modelled
	}
	s := in.class(obj.typ.Name)
	return s != nil && len(s.Methods) > 0
}

// isMacroName reports whether name is spelled as a macro (GGML_UNUSED_VARS):
// one the preprocessor did not expand comes from a header it did not
// read, which a note at the #include already says.
func isMacroName(name string) bool {
	return name != "" && strings.ToUpper(name) == name && strings.ToLower(name) != name
}

// definedEmpty reports whether the program defines a function called
// name whose body is empty: a call that makes no access, whatever its
// arguments (a variadic "unused" marker cudalint does not bind).
func (in *interp) definedEmpty(name string) bool {
	for _, f := range in.unit.candidates(name, anyFunc) {
		if f.Body != nil && len(f.Body.Stmts) == 0 {
			return true
		}
	}
	return false
}

// inline interprets a __device__ function in the caller's context: its
// accesses are the caller's, under the caller's guards and loops.
func (in *interp) inline(f *parser.Func, args []value, site *parser.Call) value {
	return in.inlineIn(f, args, nil, site, in.templateFrame(f, site, args))
}

// inlineWith is inline with the places lvs[i] that reference parameters
// bind (valid where the argument was taken as a place).
func (in *interp) inlineWith(f *parser.Func, args []value, lvs []lvalue, site *parser.Call) value {
	return in.inlineIn(f, args, lvs, site, in.templateFrame(f, site, args))
}

// inlineIn is inline with the places lvs[i] that reference parameters
// bind, and what fr binds: template parameters, and for a member
// function the object's members (written back to fr.this).
func (in *interp) inlineIn(f *parser.Func, args []value, lvs []lvalue, site *parser.Call, fr *frame) value {
	if in.recursive(f) {
		return in.dataValue(symbolic.CauseNotModelled, "recursive call")
	}
	if len(in.calls) >= maxCallDepth {
		in.note(lex.NoteCallDepth, f.Name, site.Start(), "calls nested more than %d deep; %s not followed", maxCallDepth, f.Name)
		return in.dataValue(symbolic.CauseNotModelled, "deep call")
	}
	savedVars, savedRefs, nguards := in.vars, in.refs, len(in.guards)
	savedTypes := in.typeArgs
	defer in.returnsFrom(nguards)()
	in.vars = map[string]value{} // the callee sees globals through lookup, not the caller's locals
	in.refs = nil
	if fr != nil {
		in.typeArgs = withTypes(savedTypes, fr.types)
		in.enter(f, fr)
	}
	bound := len(args)
	if site != nil {
		if n, cut := packBound(f.Params, site.Args); cut {
			bound = min(bound, n)
		}
	}
	for i, p := range f.Params {
		if i < bound && p.Name != "" {
			if i < len(lvs) && lvs[i].mem != nil && isMutableRef(p) {
				if in.refs == nil {
					in.refs = map[string]*pointer{}
				}
				in.refs[p.Name] = lvs[i].mem
				continue
			}
			v := in.convert(args[i], in.resolve(p.Type))
			v.constant = false
			in.vars[p.Name] = v
		}
	}
	in.calls = append(in.calls, f.Name)
	leave := in.enterCall(f, site)
	if fr != nil {
		in.memberInits(f, fr)
	}
	in.block(f.Body)
	leave()
	in.calls = in.calls[:len(in.calls)-1]
	result := in.returnValue()
	if f.Ctor {
		result = intValue(symbolic.Const(0))
	}
	if fr != nil {
		in.leave(fr)
	}
	calleeVars := in.vars
	in.vars, in.refs, in.guards = savedVars, savedRefs, in.guards[:nguards]
	// A reference to a caller's variable: what the callee left in it is
	// the caller's (read_ref(v, in, k) sets v).
	for i, p := range f.Params {
		if i < len(lvs) && lvs[i].valid && lvs[i].mem == nil && isMutableRef(p) && p.Name != "" {
			if v, ok := calleeVars[p.Name]; ok {
				in.store(lvs[i], v, site)
			}
		}
	}
	if f.Result != nil {
		result = in.convert(result, in.resolve(f.Result))
	}
	in.typeArgs = savedTypes
	return result
}

// recursive reports whether f is being run already: by name for a named
// function (overloads that call each other are not followed either), by
// identity for a lambda, whose function has no name of its own.
func (in *interp) recursive(f *parser.Func) bool {
	// A lambda is itself, not its name: every lambda written in place
	// has none, and BOOL_SWITCH's [&] { return [&] { ... }(); }() runs
	// one inside another.
	if _, lambda := in.localFuncs[f]; lambda || f.Name == "" {
		for _, c := range in.sites {
			if c.Func == f {
				return true
			}
		}
		return false
	}
	for _, c := range in.calls {
		if c == f.Name {
			return true
		}
	}
	return false
}

// enterCall puts the call of f at site on the call chain of the accesses
// its body makes, in a scope of its own; the function returned takes it
// off again.
func (in *interp) enterCall(f *parser.Func, site *parser.Call) func() {
	savedScope := in.scope
	in.scopes++
	in.scope = in.scopes
	in.sites = append(in.sites, CallSite{Pos: site.Start(), End: site.End(), Func: f, Local: in.localFuncs[f]})
	in.siteCalls = append(in.siteCalls, site)
	return func() {
		in.sites = in.sites[:len(in.sites)-1]
		in.siteCalls = in.siteCalls[:len(in.siteCalls)-1]
		in.scope = savedScope
	}
}

// via is the call chain of an access made now, each call with its text.
func (in *interp) via() []CallSite {
	if len(in.sites) == 0 {
		return nil
	}
	out := append([]CallSite{}, in.sites...)
	for i := range out {
		out[i].Text = in.prog.Text(in.siteCalls[i])
	}
	return out
}

// returnValue joins the values a function returned: a return under extra
// guards g wins where g holds, the later ones elsewhere.
func (in *interp) returnValue() value {
	rets := in.rets[in.retsFrom:]
	if len(rets) == 0 {
		return in.dataValue(symbolic.CauseNotModelled, "no return value")
	}
	if len(rets) > maxReturns {
		return in.dataValue(symbolic.CauseCallResult, "a function with many returns")
	}
	v := rets[len(rets)-1].v
	for i := len(rets) - 2; i >= 0; i-- {
		r := rets[i]
		c := symbolic.Const(1)
		for _, g := range r.guards {
			c = symbolic.Binary(symbolic.OpLAnd, c, g)
		}
		v = mergeValue(c, r.v, v)
	}
	return v
}

// valueInit is Cls<args>(), a temporary of a class with no constructor
// cudalint follows, value-initialised: an object of its type, whose
// conversion operators convert can run (SharedMemory<T>() as a T*).
func (in *interp) valueInit(e *parser.Call, args []value) (value, bool) {
	id, ok := e.Fun.(*parser.Ident)
	if !ok || len(args) != 0 || in.host {
		return value{}, false
	}
	s := in.class(id.Name)
	if s == nil || in.conversion(s) == nil {
		return value{}, false
	}
	t := in.resolve(&parser.TypeRef{P: id.P, Words: []string{id.Name}, Targs: id.Targs})
	if t.Kind != ctype.TStruct && t.Kind != ctype.TUnknown {
		return value{}, false
	}
	return value{kind: vStruct, typ: t, fields: map[string]value{}}, true
}

// conversion is class s's conversion operator to a pointer (operator T*),
// or nil.
func (in *interp) conversion(s *parser.Struct) *parser.Func {
	for _, f := range s.Methods {
		if strings.HasPrefix(f.Name, "operator ") && f.Body != nil && len(f.Params) == 0 && !f.Static {
			return f
		}
	}
	return nil
}

// converted is object v of a class with a conversion operator to a
// pointer, converted to one: the operator run on v (SharedMemory<T>'s
// returns the block's dynamic shared memory).
func (in *interp) converted(v value, at parser.Pos) (value, bool) {
	if v.kind != vStruct || v.typ == nil || in.host {
		return value{}, false
	}
	s := in.class(v.typ.Name)
	if s == nil {
		return value{}, false
	}
	f := in.conversion(s)
	if f == nil {
		return value{}, false
	}
	this := in.object(v, s)
	fr := newFrame()
	fr.this, fr.class = &this, s
	bindInstance(fr, s, v.typ)
	site := &parser.Call{P: at, Fun: &parser.Ident{P: at, Name: f.Name}, E: at}
	r := in.inlineIn(f, nil, nil, site, fr)
	return r, r.kind == vPtr
}

// curandDraws are cuRAND's device functions that draw from a generator's
// state: each reads the state its last argument points to and writes it
// back, advanced.
var curandDraws = map[string]bool{
	"curand": true, "curand_uniform": true, "curand_normal": true, "curand_log_normal": true,
	"curand_uniform_double": true, "curand_normal_double": true, "curand_log_normal_double": true,
	"curand_uniform2_double": true, "curand_normal2": true, "curand_normal2_double": true,
	"curand_uniform4": true, "curand_normal4": true, "curand4": true, "curand_poisson": true,
}

// curand models the cuRAND device API cudalint has no body for, from its
// documented effect on the generator state its pointer argument gives:
// curand_init(seed, subsequence, offset, &state) writes the state; a draw
// (curand_uniform(&state), ...) reads and writes it. The state's layout
// is its type's (ctype knows curandState_t's when curand_kernel.h is not
// read).
func (in *interp) curand(e *parser.Call, name string, args []value) (value, bool) {
	var p value
	switch {
	case name == "curand_init" && len(args) == 4:
		p = args[3]
	case curandDraws[name] && len(args) >= 1:
		p = args[len(args)-1]
		if name == "curand_poisson" || name == "curand_log_normal" || name == "curand_log_normal_double" {
			p = args[0]
		}
	default:
		return value{}, false
	}
	if p.kind != vPtr || p.ptr == nil {
		return value{}, false
	}
	m := p.ptr.at(p.ptr.offset, p.ptr.elem)
	if name != "curand_init" {
		in.access(m, Load, e)
	}
	in.access(m, Store, e)
	return in.dataValue(symbolic.CauseCallResult, name+"()"), true
}

// callObject is f(args) with f a variable holding an object of a class
// with a call operator (a function object: Silu<T>{} passed to a kernel,
// Kernel kernel; kernel(params)): that operator run on it, the object as
// the call leaves it.
func (in *interp) callObject(e *parser.Call, name string, args []value) (value, bool) {
	obj := in.vars[name]
	if obj.typ == nil || obj.typ.Kind != ctype.TStruct && obj.typ.Kind != ctype.TUnknown {
		return value{}, false
	}
	s := in.class(obj.typ.Name)
	f := in.method(s, "operator()", len(args))
	if f == nil || f.Static {
		return value{}, false
	}
	this := in.object(obj, s)
	fr := newFrame()
	fr.this, fr.class = &this, s
	bindInstance(fr, s, obj.typ)
	r := in.inlineIn(f, args, nil, e, fr)
	in.vars[name] = *fr.this
	return r, true
}

// dispatchLambda runs, in host code, the lambda without parameters that a
// call of a function cudalint does not know is given: a type dispatcher
// (PyTorch's AT_DISPATCH_FLOATING_TYPES(type, name, [&] { k<scalar_t><<<...>>>(...); }),
// a macro no file defines when the torch headers are absent) runs it for
// the types it covers, and its launches are the program's. The lambda
// runs once; the names the dispatcher binds (scalar_t) stay unknown.
func (in *interp) dispatchLambda(e *parser.Call, name string, args []value) (value, bool) {
	if in.hostFunc(name, args) != nil {
		return value{}, false
	}
	ran := false
	for _, a := range args {
		if c := a.closure; c != nil && c.lambda != nil && len(c.lambda.Fn.Params) == 0 {
			in.callClosure(c, nil, e)
			ran = true
		}
	}
	if !ran {
		return value{}, false
	}
	return in.dataValue(symbolic.CauseCallResult, name+"()"), true
}

// hostFuncHeld is the host function a call through a variable runs
// (launcher(a, n) with launcher a parameter given launch_softmax_1), or
// nil.
func (in *interp) hostFuncHeld(e *parser.Call, args []value) *parser.Func {
	id, ok := e.Fun.(*parser.Ident)
	if !ok {
		return nil
	}
	v, ok := in.vars[id.Name]
	if !ok || v.closure == nil || v.closure.fn == "" {
		return nil
	}
	return in.hostFunc(v.closure.fn, args)
}

// returnsFrom starts the returns of a function called under base
// guards: they are recorded past the caller's on the one stack of
// returns (a function with a return per case of a switch, called
// 100,000 times, would otherwise grow a list of its own each time), with
// the guards added past the first base. restore, when the function has
// returned, drops them.
func (in *interp) returnsFrom(base int) (restore func()) {
	savedFrom, savedBase := in.retsFrom, in.retBase
	in.retsFrom, in.retBase = len(in.rets), base
	return func() {
		in.rets = in.rets[:in.retsFrom]
		in.retsFrom, in.retBase = savedFrom, savedBase
	}
}
