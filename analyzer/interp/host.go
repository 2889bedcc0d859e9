package interp

import (
	"github.com/cudalint/cudalint/analyzer/ctype"
	"github.com/cudalint/cudalint/parser"
	"github.com/cudalint/cudalint/symbolic"
)

// Host code is interpreted for the values it gives launches. Beyond what
// a kernel's interpretation does, it runs loops with constant bounds
// iteration by iteration, reads local arrays it initialised, calls host
// helpers (iDivUp(w, 16), a launcher that takes the sizes main set) and
// follows function pointers to the kernels they hold.

const (
	maxHostTrips = 64   // iterations of one host loop run one by one
	maxHostSteps = 2000 // statements one host loop may run so
)

// hostLoop runs a host loop whose condition is a constant at every
// iteration, one iteration at a time: count = 0; for (k < 6) count++
// leaves count 3, and a launch in the body is made with each iteration's
// values. It reports false, changing nothing, when the loop is not so
// (a bound from argv, too many iterations, a break or return).
func (in *interp) hostLoop(cond, post parser.Expr, body parser.Stmt, do bool) bool {
	if !in.host || cond == nil || in.passes > 0 || in.hostLoopTooLong[body] {
		return false
	}
	if !do && skipsBody(in.bareCond(in.cond(cond))) {
		// Whatever the body does (a return, a break), it never runs: the
		// scan of argv in for (i = 1; i < argc; i++) of a main run without
		// arguments, which otherwise leaves checkCmdLineFlag's result, and
		// every size set behind it, unknown.
		return true
	}
	if jumpsOut(body) {
		return false
	}
	savedVars, savedMem := cloneVars(in.vars), cloneMem(in.hostMem)
	nLaunches, nNotes, nRets, steps := len(in.launches), len(in.notes), len(in.rets), in.steps
	for trip := 0; ; trip++ {
		if !do || trip > 0 {
			k, ok := symbolic.IsConst(in.bareCond(in.cond(cond)))
			if !ok || trip > maxHostTrips || in.steps-steps > maxHostSteps {
				if ok {
					// Too long to run one by one: so it is at the next
					// iteration of a loop around it, which need not try
					// its maxHostTrips iterations again (a data
					// initialisation over H x W pixels inside a loop over
					// rows ran 64 x 64 iterations before giving up).
					if in.hostLoopTooLong == nil {
						in.hostLoopTooLong = map[parser.Stmt]bool{}
					}
					in.hostLoopTooLong[body] = true
				}
				in.vars, in.hostMem = savedVars, savedMem
				in.launches, in.notes, in.rets, in.steps = in.launches[:nLaunches], in.notes[:nNotes], in.rets[:nRets], steps
				return false
			}
			if k == 0 {
				return true
			}
		}
		in.stmt(body)
		if post != nil {
			in.eval(post)
		}
	}
}

// bareCond is host condition c as in the program run without
// arguments (main's argument count 1), when it depends on the count and
// is a constant so: the branch or loop the bare run takes. From then on
// the run is the bare one, and its launches say so (Launch.Bare). Host
// code runs with the count unknown (a usage check that exits on it must
// not hide the launches after it); left symbolic, a size set behind
// checkCmdLineFlag(argc, argv, "sizemult") grew past the expressions'
// bound (MaxSize) through MAX(1, MIN(mult, 10)) and iDivUp, and the
// launch lost its grid (cuda-samples' histogram).
func (in *interp) bareCond(c symbolic.Expr) symbolic.Expr {
	if !in.host {
		return c
	}
	bare, changed := WithoutArguments(c)
	if !changed {
		return c
	}
	if _, ok := symbolic.IsConst(bare); !ok {
		return c
	}
	in.bare = true
	return bare
}

// WithoutArguments is e with main's argument count at 1, as in the
// program run without arguments; changed says whether e depended on it.
func WithoutArguments(e symbolic.Expr) (bare symbolic.Expr, changed bool) {
	if e == nil {
		return nil, false
	}
	m := map[symbolic.SymID]symbolic.Expr{}
	symbolic.Symbols(e, func(v *symbolic.Var) {
		if v.Kind == symbolic.KindUnknown && v.Cause == symbolic.CauseArgCount {
			m[v.Key()] = symbolic.Const(1)
		}
	})
	if len(m) == 0 {
		return e, false
	}
	return symbolic.Subst(e, m), true
}

// skipsBody: the loop's condition is false on entry.
func skipsBody(c symbolic.Expr) bool {
	k, ok := symbolic.IsConst(c)
	return ok && k == 0
}

// jumpsOut reports whether a loop body holds a break, continue, goto or
// return, which running it straight through would not honour.
func jumpsOut(s parser.Stmt) bool {
	found := false
	parser.EachStmt(s, func(x parser.Stmt) {
		switch x.(type) {
		case *parser.Jump, *parser.Return:
			found = true
		}
	})
	return found
}

func cloneMem(m map[Alloc]map[int64]value) map[Alloc]map[int64]value {
	c := make(map[Alloc]map[int64]value, len(m))
	for k, v := range m {
		w := make(map[int64]value, len(v))
		for o, x := range v {
			w[o] = x
		}
		c[k] = w
	}
	return c
}

// hostArray declares a host local array with an initialiser list: its
// elements are known (int sizes[] = {32, 64, 128}), and sizeof gives
// the count of a dimension left empty.
func (in *interp) hostArray(dc *parser.Declarator, t *ctype.Type) (value, bool) {
	l, ok := dc.Init.(*parser.InitList)
	if !ok || len(dc.Dims) != 1 || t == nil || t.Kind != ctype.TArray || t.Elem == nil || !t.Elem.LayoutKnown() || t.Elem.Size <= 0 {
		return value{}, false
	}
	if in.dim(dc.Dims[0]) == 0 {
		t = ctype.ArrayOf(t.Elem, int64(len(l.Elems)))
	}
	in.fresh++
	base := Alloc{Kind: AllocHost, Name: dc.Name, ID: in.fresh}
	mem := map[int64]value{}
	for i, x := range l.Elems {
		mem[int64(i)*t.Elem.Size] = in.convert(in.eval(x), t.Elem)
	}
	if in.hostMem == nil {
		in.hostMem = map[Alloc]map[int64]value{}
	}
	in.hostMem[base] = mem
	return value{kind: vPtr, typ: t, ptr: &pointer{space: Local, base: base, offset: zero, elem: t.Elem, array: true}}, true
}

// hostLoad reads an element of a host array hostArray made.
func (in *interp) hostLoad(p *pointer) (value, bool) {
	if !in.host || p.space != Local {
		return value{}, false
	}
	mem, ok := in.hostMem[p.base]
	if !ok {
		return value{}, false
	}
	off, ok := symbolic.IsConst(p.offset)
	if !ok {
		return value{}, false
	}
	v, ok := mem[off]
	return v, ok
}

// hostStore writes an element of a host array: at a constant offset
// outside any branch the element is known, else the whole array is not.
func (in *interp) hostStore(p *pointer, v value) {
	if !in.host || p.space != Local {
		return
	}
	mem, ok := in.hostMem[p.base]
	if !ok {
		return
	}
	off, ok := symbolic.IsConst(p.offset)
	if !ok || len(in.guards) > 0 {
		delete(in.hostMem, p.base)
		return
	}
	w := make(map[int64]value, len(mem))
	for o, x := range mem {
		w[o] = x
	}
	w[off] = v
	in.hostMem[p.base] = w
}

// hostFunc returns the host function called name that host code of the
// file being interpreted can call with n arguments and that is worth
// following: one that returns a value (a size helper) or that launches a
// kernel, directly or through the host functions it calls. One of the
// caller's own file is preferred.
func (in *interp) hostFunc(name string, args []value) *parser.Func {
	n := len(args)
	var pick *parser.Func
	for _, f := range in.unit.candidates(name, isHostFunc) {
		// A small function template over types (ceil_div(n, block_size))
		// is run in place with its types bound at the call; a larger one
		// would cost host code's budget for what is rarely a size, and
		// one that launches kernels is instantiated (hosttmpl.go).
		if f.Global || f.Body == nil || !f.Host || len(f.Params) != n || (hasTypeParams(f) && (!smallHelper(f) || in.prog.LaunchesKernel(f))) {
			continue
		}
		if f.Result != nil && (len(f.Result.Words) != 1 || f.Result.Words[0] != "void" || f.Result.Ptr > 0) || in.prog.LaunchesKernel(f) || allocatesThroughRef(f) || in.passesLauncher(args) {
			if pick == nil || (in.kernel != nil && f.P.File == in.kernel.P.File) {
				pick = f
			}
		}
	}
	return pick
}

// passesLauncher reports whether one of args is a host function that
// launches a kernel (a launcher handed to the code that runs it).
func (in *interp) passesLauncher(args []value) bool {
	for _, a := range args {
		if a.closure == nil || a.closure.fn == "" {
			continue
		}
		for _, g := range in.unit.candidates(a.closure.fn, isHostFunc) {
			if isHostFunc(g) && in.prog.LaunchesKernel(g) {
				return true
			}
		}
	}
	return false
}

// allocatesThroughRef reports whether void host function f sets device
// pointers its caller sees: it takes a mutable reference and calls
// cudaMalloc (eigenvalues' initInputData(InputData &input, ...), whose
// input.g_b = input.g_b_raw + 1 the launches are given).
func allocatesThroughRef(f *parser.Func) bool {
	ref := false
	for _, p := range f.Params {
		ref = ref || isMutableRef(p)
	}
	if !ref || f.Body == nil {
		return false
	}
	found := false
	parser.WalkStmt(f.Body, func(e parser.Expr) {
		if c, ok := e.(*parser.Call); ok && deviceAllocs[calleeName(c.Fun)] {
			found = true
		}
	})
	return found
}

// smallHelper reports whether f's body is a few statements with no loop:
// the size helpers (ceil_div, iDivUp) launch configurations use.
func smallHelper(f *parser.Func) bool {
	if f.Body == nil || len(f.Body.Stmts) > 3 {
		return false
	}
	loops := false
	parser.EachStmt(f.Body, func(s parser.Stmt) {
		switch s.(type) {
		case *parser.For, *parser.While:
			loops = true
		}
	})
	return !loops
}

func isHostFunc(f *parser.Func) bool { return f.Host && !f.Global && f.Body != nil }

func hasTypeParams(f *parser.Func) bool {
	for _, tp := range f.Template {
		if tp.IsType {
			return true
		}
	}
	return false
}

// LaunchesKernel reports whether host function f launches a kernel,
// itself or through the host functions it calls.
func (p *Program) LaunchesKernel(f *parser.Func) bool {
	p.launchMu.Lock()
	defer p.launchMu.Unlock()
	return p.launches(f, 0)
}

// launches reports whether host function f launches a kernel, itself or
// through the host functions it calls (depth-limited, memoised).
func (p *Program) launches(f *parser.Func, depth int) bool {
	if v, ok := p.launchMemo[f]; ok {
		return v
	}
	if depth > maxCallDepth {
		return false
	}
	if p.launchMemo == nil {
		p.launchMemo = map[*parser.Func]bool{}
	}
	p.launchMemo[f] = false // a recursive call does not launch by itself
	found := false
	parser.WalkStmt(f.Body, func(e parser.Expr) {
		if found {
			return
		}
		switch e := e.(type) {
		case *parser.Launch:
			found = true
		case *parser.Call:
			if launchAPI[calleeName(e.Fun)] {
				found = true
				return
			}
			for _, g := range p.funcs[calleeName(e.Fun)] {
				if g != f && g.Host && !g.Global && g.Body != nil && p.launches(g, depth+1) {
					found = true
					return
				}
			}
			// A launcher handed to the function called, which runs it
			// (run(a, n, launch_softmax_1)).
			for _, a := range e.Args {
				if u, ok := a.(*parser.Unary); ok && u.Op == parser.AddrOf {
					a = u.X
				}
				id, ok := a.(*parser.Ident)
				if !ok {
					continue
				}
				for _, g := range p.funcs[id.Name] {
					if g != f && isHostFunc(g) && p.launches(g, depth+1) {
						found = true
						return
					}
				}
			}
		}
	})
	p.launchMemo[f] = found
	return found
}

// maxHostCalls bounds the host calls one host function's interpretation
// follows (its own and its callees').
const maxHostCalls = 64

// hostCall interprets a call of host function f in the caller's context:
// the launches it makes are the caller's, made with the caller's values.
func (in *interp) hostCall(f *parser.Func, args []value, site *parser.Call) value {
	for _, c := range in.calls {
		if c == f.Name {
			return in.dataValue(symbolic.CauseNotModelled, "recursive call")
		}
	}
	if len(in.calls) >= maxCallDepth {
		return in.dataValue(symbolic.CauseNotModelled, "deep call")
	}
	// Host code calls host code calls host code: each entry follows at
	// most maxHostCalls calls, so a large host program costs in
	// proportion to its size, not to the number of paths through it.
	if in.hostCalls++; in.hostCalls > maxHostCalls {
		return in.dataValue(symbolic.CauseNotModelled, "host calls beyond the budget")
	}
	// A host template called in place runs with its template arguments
	// bound, types, functions (launcher<matmul_naive>(...)) and values
	// (helper<WARPS_PER_TB>(...)), as its instantiation does; they are
	// evaluated where the call is, with the caller's variables.
	fr := in.templateFrame(f, site, args)
	savedVars, nguards := in.vars, len(in.guards)
	defer in.returnsFrom(nguards)()
	in.vars = map[string]value{}
	if fr != nil {
		for _, tp := range f.Template {
			if v, ok := fr.vals[tp.Name]; ok && !tp.IsType && v.kind == vInt && v.x != nil {
				if _, known := symbolic.IsConst(v.x); known {
					in.vars[tp.Name] = v
				}
			}
		}
	}
	for i, p := range f.Params {
		if i < len(args) && p.Name != "" {
			t := in.resolve(p.Type)
			v := args[i]
			if t.Kind != ctype.TUnknown {
				v = in.convert(v, t)
			}
			v.constant = false
			in.vars[p.Name] = v
		}
	}
	savedTypes, savedFuncs := in.typeArgs, in.hostFuncArgs
	if fr != nil {
		in.typeArgs, in.hostFuncArgs = fr.types, funcArgsOf(f, fr)
	}
	in.enterClass(f)
	in.calls = append(in.calls, f.Name)
	in.block(f.Body)
	in.calls = in.calls[:len(in.calls)-1]
	in.typeArgs, in.hostFuncArgs = savedTypes, savedFuncs
	result := in.returnValue()
	written := in.refsWritten(f, site, savedVars)
	in.vars, in.guards = savedVars, in.guards[:nguards]
	for name, v := range written {
		in.vars[name] = v
	}
	if f.Result != nil {
		if t := in.resolve(f.Result); t.Kind != ctype.TUnknown {
			result = in.convert(result, t)
		}
	}
	return result
}

// classScope is what the body of class member function f sees of its
// class beyond its parameters: the static data members (a launcher
// method reading static const THREADS_PER_CTA) and the member aliases
// (typedef uint16_t StorageType;). A class template's members depend on
// arguments host code does not bind here, so it gives none.
func (in *interp) classScope(f *parser.Func) (map[string]value, map[string]*ctype.Type) {
	if f.Class == "" {
		return nil, nil
	}
	s := in.class(f.Class)
	if s == nil || len(s.Template) > 0 {
		return nil, nil
	}
	vals := in.staticValues(s, in.classFrame(s, nil))
	saved := in.typeArgs
	var types map[string]*ctype.Type
	for _, td := range s.Typedefs {
		if td.Type == nil || len(td.Dims) > 0 || len(td.Params) > 0 {
			continue
		}
		if t := in.resolve(td.Type); t.Kind != ctype.TUnknown {
			if types == nil {
				types = map[string]*ctype.Type{}
			}
			types[td.Name] = t
			in.typeArgs = withTypes(saved, types)
		}
	}
	in.typeArgs = saved
	return vals, types
}

// enterClass binds what classScope gives for f: its values into in.vars,
// its aliases under the type arguments already bound (a member
// template's own parameters hide the class's names).
func (in *interp) enterClass(f *parser.Func) {
	vals, types := in.classScope(f)
	for name, v := range vals {
		if _, hidden := in.vars[name]; !hidden { // a parameter of that name
			in.vars[name] = v
		}
	}
	if types != nil {
		in.typeArgs = withTypes(types, in.typeArgs)
	}
}

// refsWritten are the values a host function leaves in its mutable
// reference parameters bound to the caller's variables (caller: the
// caller's variables): void init(InputData &in) { cudaMalloc(&in.raw,
// ...); in.b = in.raw + 1; } sets the caller's in.b.
func (in *interp) refsWritten(f *parser.Func, site *parser.Call, caller map[string]value) map[string]value {
	if site == nil {
		return nil
	}
	var out map[string]value
	for i, p := range f.Params {
		if i >= len(site.Args) || p.Name == "" || !isMutableRef(p) {
			continue
		}
		id, ok := site.Args[i].(*parser.Ident)
		if !ok {
			continue
		}
		before, ok := caller[id.Name]
		v, set := in.vars[p.Name]
		if !ok || !set || v.kind != before.kind || before.constant || before.inMemory {
			continue
		}
		if out == nil {
			out = map[string]value{}
		}
		out[id.Name] = v
	}
	return out
}

// kernelNamed reports whether name is a kernel of the unit, else of the
// program.
func (in *interp) kernelNamed(name string) bool {
	for _, f := range in.unit.candidates(name, isKernel) {
		if f.Global {
			return true
		}
	}
	return false
}

// noteFnTarget records that host variable name may hold kernel e (a
// function pointer given &kernel or kernel): a launch through the
// pointer starts each kernel it may hold.
func (in *interp) noteFnTarget(name string, e parser.Expr) {
	if !in.host || e == nil {
		return
	}
	for {
		switch x := e.(type) {
		case *parser.Unary:
			if x.Op != parser.AddrOf {
				return
			}
			e = x.X
			continue
		case *parser.Cast:
			e = x.X
			continue
		case *parser.Ident:
			k := calleeName(x)
			if !in.kernelNamed(k) {
				return
			}
			if in.fnTargets == nil {
				in.fnTargets = map[string][]*parser.Ident{}
			}
			for _, t := range in.fnTargets[name] {
				if parser.Format(t) == parser.Format(x) {
					return
				}
			}
			in.fnTargets[name] = append(in.fnTargets[name], x) // k<1>: with its template arguments
		}
		return
	}
}
