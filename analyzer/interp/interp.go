// Package interp is the symbolic interpreter. It runs a kernel's body
// over symbolic values (symbolic.Expr): every load, store and atomic on
// memory becomes an Access, with its byte address as an expression over
// thread and block indices, block and grid sizes, parameters and loop
// iterations, and with the guards and loops around it, its type and,
// through a struct, its field. Each loop has an iteration symbol, and
// the induction variables its body steps a closed form in it;
// __device__ helpers are inlined; cooperative groups (groups.go) are their index expressions;
// what it cannot know is an unknown symbol that carries its cause and
// site (symbols.go), and a statement the parser skipped makes the
// variables it mentions unknown. Host functions are interpreted too, for
// the launches they make (Launch). Program holds what the files declare:
// functions, types (ctype) and file-scope variables.
package interp

import (
	"fmt"
	"maps"

	"github.com/cudalint/cudalint/analyzer/ctype"
	"github.com/cudalint/cudalint/parser"
	"github.com/cudalint/cudalint/parser/lex"
	"github.com/cudalint/cudalint/symbolic"
)

// Limits that keep interpretation bounded on any input.
const (
	maxCallDepth    = 8      // inlined __device__ calls
	maxLoopPasses   = 4      // loops nested deeper get one pass with unknown loop-carried values
	maxStmtsPerFunc = 200000 // statements interpreted per kernel or host function
	maxEvalDepth    = 2000   // nested expression evaluation
	maxReturns      = 16     // returns of an inlined function joined into one value
	maxAccesses     = 4096   // accesses recorded per kernel
)

// interp runs a function body symbolically. For a kernel it records every
// memory access with its address; for a host function it records launches.
type interp struct {
	prog *Program
	// unit is the translation unit whose names the code resolves;
	// resolveType, when set, resolves types instead of unit.types (an
	// array dimension evaluated while a layout is computed).
	unit        *unit
	resolveType func(*parser.TypeRef) *ctype.Type
	host        bool
	vars        map[string]value
	// fileGlobals are the file-scope variables of the file being analyzed.
	fileGlobals map[string]value
	guards      []symbolic.Expr
	loops       []*Loop
	record      bool
	passes      int // loop discovery passes in progress
	calls       []string
	kernel      *parser.Func
	accesses    []*Access
	launches    []*Launch
	// rets are the returns met, of the function being inlined from
	// retsFrom on (its callers' before: see returnsFrom); retBase is how
	// many guards stood when it was called: its returns record those
	// after them.
	rets              []ret
	retsFrom, retBase int
	fresh             int
	steps             int
	// bare: host code took a branch on main's argument count as the
	// program run without arguments does (bareCond).
	bare   bool
	depth  int
	capped bool // maxAccesses reached
	// typeArgs binds a template kernel's type parameters for one
	// instantiation (T -> float).
	typeArgs map[string]*ctype.Type
	// hostFuncArgs binds a host template's function parameters (see
	// Instantiation.FuncArgs).
	hostFuncArgs map[string]string
	// params are the symbols that stand for kernel parameters and other
	// uniform values the user can give (template values, unknown globals).
	params map[symbolic.SymID]bool
	notes  []parser.Note
	// loopSyms holds each loop node's iteration symbol; loopSites counts
	// the loops seen at each site (see loopSym).
	loopSyms  map[parser.Stmt]symbolic.Expr
	loopSites map[symbolic.Site]int
	// guardedIfs holds, for the guard of each loop being interpreted
	// whose variables only it changes, what they hold where it is
	// evaluated and in its branch (guarded.go).
	guardedIfs map[*parser.If]map[string]value
	// hostMem holds the elements of host arrays with known contents, by
	// base (host.go); fnTargets the kernels each host function pointer
	// may hold.
	hostMem map[Alloc]map[int64]value
	// localMem holds what a kernel's local arrays are known to hold
	// (localmem.go).
	localMem map[Alloc]*localContent
	// skippedNames are the names statements not understood mention that
	// no variable held there, with the first such statement.
	skippedNames map[string]parser.Pos
	// hostLoopTooLong marks the host loops found too long to run one
	// iteration at a time (hostLoop), by body.
	hostLoopTooLong map[parser.Stmt]bool
	hostCalls       int // host calls followed so far (hostCall)
	fnTargets       map[string][]*parser.Ident
	// unresolved counts the calls of member functions that could not be
	// resolved (each has a note).
	unresolved int
	// frames are the frames of the inlined calls in progress (see frame).
	frames []*frame
	// funcArgs binds a template kernel's function parameters (F ->
	// op_twice) for one instantiation.
	funcArgs map[string]string
	// sites are the inlined calls in progress, outermost first (see
	// Access.Via); scope numbers the function body being run, and
	// localFuncs are the lambdas written in the kernel's body (closure.go).
	sites      []CallSite
	siteCalls  []*parser.Call
	scope      int
	scopes     int
	localFuncs map[*parser.Func]bool
	// insts are the instantiations of host function templates that host
	// code's calls make.
	insts []Instantiation
	// refs are the reference parameters of the inlined function being
	// run that alias memory (set_ref(out[i], v)): their reads are loads
	// and their writes stores.
	refs map[string]*pointer
	// dimArgs are the kernel's template value parameters every launch
	// gives alike, for the sizes of its arrays (RunSized).
	dimArgs map[string]int64
}

type ret struct {
	guards []symbolic.Expr // those the returning function added (see interp.retBase)
	v      value
}

func newInterp(u *unit, host bool) *interp {
	return &interp{prog: u.prog, unit: u, host: host, vars: map[string]value{}, record: true, params: map[symbolic.SymID]bool{},
		loopSyms: map[parser.Stmt]symbolic.Expr{}, loopSites: map[symbolic.Site]int{}, guardedIfs: map[*parser.If]map[string]value{}}
}

// lookup returns a variable's value: a local (or a global the code has
// written), else a file-scope global. Globals are not copied into vars:
// vars is cloned at every branch and loop, and a program can have
// thousands of globals.
func (in *interp) lookup(name string) (value, bool) {
	if v, ok := in.vars[name]; ok {
		return v, true
	}
	return in.global(name)
}

// global returns a file-scope variable: the one the kernel's own file
// declares, else one another file of the program declares (an extern
// variable defined elsewhere). A project holds many programs; one file's
// blockSize must not be another's.
func (in *interp) global(name string) (value, bool) {
	if v, ok := in.fileGlobals[name]; ok {
		return v, true
	}
	v, ok := in.prog.globals[name]
	return v, ok
}

// resolve is Types.Resolve with the instantiation's type arguments.
func (in *interp) resolve(ref *parser.TypeRef) *ctype.Type {
	if ref != nil && len(ref.Words) == 1 {
		if t, ok := in.typeArgs[ref.Words[0]]; ok {
			for i := 0; i < ref.Ptr; i++ {
				t = ctype.PointerTo(t)
			}
			return t
		}
		if fr := in.frame(); fr != nil && fr.class != nil {
			for _, td := range fr.class.Typedefs {
				if td.Name == ref.Words[0] && td.Type != nil && len(td.Dims) == 0 && !(len(td.Type.Words) == 1 && td.Type.Words[0] == td.Name) {
					t := in.resolve(td.Type) // a member alias: size_type, reference
					for range ref.Ptr {
						t = ctype.PointerTo(t)
					}
					return t
				}
			}
		}
		inst, ptrs := ref, ref.Ptr
		if td := in.unit.types.Typedef(ref.Words[0]); len(ref.Targs) == 0 && td != nil && td.Type != nil && len(td.Type.Targs) > 0 && len(td.Type.Words) == 1 && len(td.Dims) == 0 {
			inst, ptrs = td.Type, td.Type.Ptr+ref.Ptr // using Vec = Array<T, vec_size>: the instance it names
		}
		if len(inst.Targs) > 0 {
			if t := in.instance(inst); t != nil {
				for range ptrs {
					t = ctype.PointerTo(t)
				}
				return t
			}
		}
	}
	return in.resolveNamed(ref)
}

// instance is the layout of a class template named with its arguments
// (Array<T, vec_size> with the kernel's T and vec_size), or nil when an
// argument is not a known type or constant.
func (in *interp) instance(ref *parser.TypeRef) *ctype.Type {
	name := ref.Words[0]
	s := in.class(name)
	if s == nil || s.Specialized || len(s.Template) != len(ref.Targs) {
		return nil
	}
	args := make([]ctype.TemplateArg, len(ref.Targs))
	for i, p := range s.Template {
		a := ref.Targs[i]
		if p.IsType {
			tr := a.Type
			if id, ok := a.Value.(*parser.Ident); ok && tr == nil {
				tr = &parser.TypeRef{Words: []string{id.Name}}
			}
			if tr == nil {
				return nil
			}
			args[i].Type = in.resolve(tr)
			continue
		}
		var v value
		switch {
		case a.Value != nil:
			v = in.eval(a.Value)
		case a.Type != nil && len(a.Type.Words) == 1 && a.Type.Ptr == 0 && len(a.Type.Targs) == 0:
			v = in.ident(&parser.Ident{Name: a.Type.Words[0]}) // a value the parser read as a type name
		}
		if v.kind != vInt || v.x == nil {
			return nil
		}
		c, ok := symbolic.IsConst(in.sized(v.x))
		if !ok {
			return nil
		}
		args[i].Value = c
	}
	return in.unit.types.Instance(name, args)
}

// resolveNamed resolves ref with the unit's names only (no type
// arguments), through resolveType when set.
func (in *interp) resolveNamed(ref *parser.TypeRef) *ctype.Type {
	if in.resolveType != nil {
		return in.resolveType(ref)
	}
	return in.unit.types.Resolve(ref)
}

// dim is the unit's Types.Dim, with types resolved as resolveNamed does.
func (in *interp) dim(e parser.Expr) int64 {
	if fn := in.current(); fn != nil && mentionsValueParam(fn, e) {
		// A template value parameter's value is the instance's: never a
		// file-scope constant of the same name in another file of the
		// program (cuda-samples: interval.h's BLOCK_SIZE = 64 made
		// matrixMul's As[BLOCK_SIZE][BLOCK_SIZE] 64 x 64).
		if v := in.eval(e); v.kind == vInt {
			if c, ok := symbolic.IsConst(in.sized(v.x)); ok {
				return c
			}
		}
		return 0
	}
	if in.resolveType != nil {
		return in.unit.types.DimWith(e, in.resolveType)
	}
	return in.unit.types.Dim(e)
}

// sized is e with the kernel's dimArgs put in.
func (in *interp) sized(e symbolic.Expr) symbolic.Expr {
	if len(in.dimArgs) == 0 {
		return e
	}
	m := map[symbolic.SymID]symbolic.Expr{}
	for name, v := range in.dimArgs {
		m[symbolic.ParamID(name)] = symbolic.Const(v)
	}
	return symbolic.Subst(e, m)
}

// current is the function being interpreted: the innermost helper the
// kernel's calls inlined, else the kernel.
func (in *interp) current() *parser.Func {
	if n := len(in.sites); n > 0 && in.sites[n-1].Func != nil {
		return in.sites[n-1].Func
	}
	return in.kernel
}

// mentionsValueParam reports whether e names a value parameter of fn's
// template.
func mentionsValueParam(fn *parser.Func, e parser.Expr) bool {
	found := false
	parser.WalkExpr(e, func(x parser.Expr) {
		id, ok := x.(*parser.Ident)
		if !ok || found {
			return
		}
		for _, tp := range fn.Template {
			if !tp.IsType && tp.Name == id.Name {
				found = true
			}
		}
	})
	return found
}

// note records a note of kind k about subject (the function it
// concerns, which --stats names; "" for none).
func (in *interp) note(k lex.NoteKind, subject string, p parser.Pos, format string, args ...any) {
	in.notes = append(in.notes, parser.Note{Pos: p, Msg: fmt.Sprintf(format, args...), Kind: k, Subject: subject})
}

// ---- statements ----

func (in *interp) block(b *parser.Block) {
	saved := in.saveScope()
	nguards := len(in.guards)
	for _, s := range b.Stmts {
		in.stmt(s)
	}
	in.guards = in.guards[:nguards]
	in.restoreScope(saved)
}

// scope saving: the names visible before a block, so that names the block
// declares disappear at its end while assignments to outer names stay.
type scopeSave map[string]bool

// rangeVars declares the names a range-based for's header declares as
// values cudalint does not know (the header is not modelled): an access
// through them is unknown, said so, never priced with a value assumed
// for an undeclared name. It returns the outer values they shadow.
func (in *interp) rangeVars(s *parser.For) map[string]value {
	shadowed := map[string]value{}
	for _, name := range s.RangeVars {
		if v, ok := in.vars[name]; ok {
			shadowed[name] = v
		}
		in.vars[name] = in.dataValue(symbolic.CauseNotModelled, "range-for variable "+name)
	}
	return shadowed
}

func (in *interp) saveScope() scopeSave {
	s := make(scopeSave, len(in.vars))
	for k := range in.vars {
		s[k] = true
	}
	return s
}

func (in *interp) restoreScope(s scopeSave) {
	for k := range in.vars {
		if !s[k] {
			delete(in.vars, k)
		}
	}
}

func (in *interp) stmt(s parser.Stmt) {
	in.steps++
	if in.steps > maxStmtsPerFunc {
		if in.steps == maxStmtsPerFunc+1 {
			in.note(lex.NoteFunctionTooLarge, "", s.Start(), "function too large to model fully; the rest is skipped")
		}
		return
	}
	switch s := s.(type) {
	case *parser.Block:
		in.block(s)
	case *parser.DeclStmt:
		in.decl(s.Decl)
	case *parser.ExprStmt:
		in.eval(s.X)
	case *parser.If:
		in.ifStmt(s)
	case *parser.For:
		saved := in.saveScope()
		if s.Init != nil {
			in.stmt(s.Init)
		}
		shadowed := in.rangeVars(s)
		in.loop(s, s.P, s.Cond, s.Post, s.Body, false)
		in.restoreScope(saved)
		maps.Copy(in.vars, shadowed)
	case *parser.While:
		in.loop(s, s.P, s.Cond, nil, s.Body, s.Do)
	case *parser.Switch:
		if s.Tag != nil {
			in.eval(s.Tag)
		}
		in.stmt(s.Body)
	case *parser.BadStmt:
		in.notUnderstood(s)
	case *parser.Asm:
		in.asm(s)
	case *parser.Return:
		v := intValue(symbolic.Const(0))
		if s.X != nil {
			v = in.eval(s.X)
		}
		// The guards the function's own code added: its caller's are
		// the same for every return (returnValue joins them under the
		// added ones).
		own := in.guards[min(in.retBase, len(in.guards)):]
		in.rets = append(in.rets, ret{guards: append([]symbolic.Expr(nil), own...), v: v})
	}
}

func (in *interp) decl(d *parser.Decl) {
	space := Local
	switch {
	case d.HasSpec("__shared__"):
		space = Shared
	case d.HasSpec("__constant__"):
		space = Constant
	case d.HasSpec("__device__") || d.HasSpec("__managed__"):
		space = Global
	}
	for _, dc := range d.Declarators {
		t := in.resolve(dc.Type)
		if dc.Type != nil && len(dc.Type.Words) == 1 && dc.Type.Words[0] == "auto" {
			t = nil
		}
		if len(dc.Dims) > 0 {
			for i := len(dc.Dims) - 1; i >= 0; i-- {
				t = ctype.ArrayOf(t, in.dim(dc.Dims[i]))
			}
			if in.host && space == Local && dc.Init != nil {
				if v, ok := in.hostArray(dc, t); ok {
					in.vars[dc.Name] = v
					continue
				}
			}
			if !in.host || space != Local {
				in.vars[dc.Name] = value{kind: vPtr, typ: t, ptr: &pointer{space: space, base: Alloc{Kind: AllocVar, Name: dc.Name}, offset: zero, elem: t.Elem, array: true}}
				if space == Local {
					in.declareLocal(Alloc{Kind: AllocVar, Name: dc.Name}) // a fresh array holds nothing known
				} else {
					delete(in.localMem, Alloc{Kind: AllocVar, Name: dc.Name})
				}
				continue
			}
		}
		if v, ok := deviceScalar(space, dc.Name, t); ok {
			in.vars[dc.Name] = v
			continue
		}
		var v value
		if l, ok := dc.Init.(*parser.Lambda); ok {
			in.vars[dc.Name] = in.closureValue(l)
			continue
		}
		in.noteFnTarget(dc.Name, dc.Init)
		switch {
		case isDim3(t) && isInitList(dc.Init):
			v = in.dim3Of(dc.Init.(*parser.InitList)) // dim3 block = {4, 8, n / 32}
		case dc.Init != nil:
			v = in.convert(in.eval(dc.Init), t)
		case dc.IsCtr:
			v = in.construct(t, dc.Ctor, dc.P)
		default:
			v = in.zeroValue(t, dc.Name, space)
		}
		v.constant = v.kind == vInt && (d.HasSpec("const") || d.HasSpec("constexpr"))
		in.vars[dc.Name] = v
	}
}

// zeroValue is the value of a declaration without initialiser. In host
// code a pointer declared this way is an allocation of its own (it is
// about to be given to cudaMalloc); elsewhere the value is unknown.
func (in *interp) zeroValue(t *ctype.Type, name string, space Space) value {
	switch {
	case t != nil && t.Name == "dim3":
		one := symbolic.Const(1)
		return value{kind: vStruct, typ: t, fields: map[string]value{"x": intValue(one), "y": intValue(one), "z": intValue(one)}}
	case t != nil && t.Kind == ctype.TPointer && in.host:
		return value{kind: vPtr, typ: t, ptr: &pointer{space: Global, base: Alloc{Kind: AllocVar, Name: name}, offset: zero, elem: t.Elem}}
	case space == Shared && t != nil:
		return value{kind: vPtr, typ: t, ptr: &pointer{space: Shared, base: Alloc{Kind: AllocVar, Name: name}, offset: zero, elem: t, array: true}}
	case space == Local && t != nil && t.Kind == ctype.TStruct && t.LayoutKnown():
		// A struct whose members the code sets one by one (View v;
		// v.raw = in; v.data = v.raw + 1).
		return value{kind: vStruct, typ: t, fields: map[string]value{}}
	}
	v := in.dataValue(symbolic.CauseUninitialised, name)
	v.typ = t
	return v
}

func (in *interp) construct(t *ctype.Type, args []parser.Expr, at parser.Pos) value {
	vals := make([]value, len(args))
	for i, a := range args {
		vals[i] = in.eval(a)
	}
	if t != nil && t.Name == "dim3" {
		return dim3Value(vals)
	}
	if !in.host {
		if v, ok := in.constructor(t, vals, nil, at); ok {
			return v
		}
		if t != nil && (t.Kind == ctype.TStruct || t.Kind == ctype.TUnknown) {
			in.globalPointerPassed(at, t.Name, "construction of a "+t.Name, vals)
		}
	}
	if len(vals) == 1 {
		return in.convert(vals[0], t)
	}
	if len(vals) == 0 && t != nil && t.Kind == ctype.TStruct && t.LayoutKnown() {
		// T x{}: value-initialised, of its type (an Array<const int*, N>
		// of pointers a launch passes keeps its instance's arguments).
		return value{kind: vStruct, typ: t, fields: map[string]value{}}
	}
	return in.dataValue(symbolic.CauseNotModelled, "constructed")
}

func isDim3(t *ctype.Type) bool { return t != nil && t.Name == "dim3" }

func isInitList(e parser.Expr) bool {
	_, ok := e.(*parser.InitList)
	return ok
}

// dim3Of is the dim3 a brace list initialises, its elements x, y, z in
// order.
func (in *interp) dim3Of(l *parser.InitList) value {
	vals := make([]value, 0, 3)
	for _, x := range l.Elems {
		vals = append(vals, in.eval(x))
	}
	return dim3Value(vals)
}

func dim3Value(vals []value) value {
	v := value{kind: vStruct, typ: dim3Type, fields: map[string]value{}}
	for i, f := range []string{"x", "y", "z"} {
		if i < len(vals) && vals[i].kind == vInt {
			v.fields[f] = vals[i]
		} else if i < len(vals) && vals[i].kind == vStruct && i == 0 {
			return vals[0] // dim3(other dim3)
		} else {
			v.fields[f] = intValue(symbolic.Const(1))
		}
	}
	return v
}

// convert applies an assignment or initialisation to a variable of type t.
func (in *interp) convert(v value, t *ctype.Type) value {
	if t == nil {
		return v
	}
	switch t.Kind {
	case ctype.TFloat:
		if v.kind == vInt && symbolic.ClassOf(v.x) != symbolic.Data {
			w := in.dataValue(symbolic.CauseFloatValue, "float")
			if symbolic.ClassOf(v.x) == symbolic.Uniform {
				// (float)rows: not followed as a number, but the same in
				// every lane, as rows is.
				w = intValue(in.unknown(symbolic.CauseFloatValue, "float", parser.Pos{}, unknownName(symbolic.CauseFloatValue, "float"), symbolic.Uniform))
			}
			w.typ = t
			if n, ok := knownNumber(v); ok {
				w = withNumber(w, n) // (float)1000: known, as a float
			}
			return w
		}
	case ctype.TPointer:
		if c, ok := in.converted(v, parser.Pos{}); ok {
			v = c
		}
		if v.kind == vPtr {
			p := *v.ptr
			p.elem = t.Elem
			p.array = false
			return value{kind: vPtr, typ: t, ptr: &p}
		}
	case ctype.TInt:
		if k, ok := truncated(v); ok && t.Size >= 2 {
			return value{kind: vInt, x: symbolic.Const(k), typ: t} // (int)ceil(31.25f): 32
		}
		if t.Size == 1 && v.kind == vInt {
			return v // bool and char conversions keep the value; C code relies on small ranges
		}
		if t.Size >= 4 && v.kind == vPtr && v.ptr != nil {
			return byteAddress(v, t) // an address as an integer counts bytes
		}
	case ctype.TUnknown:
		// A type we could not resolve (a template parameter, a class we
		// skipped): its values are not integers we can reason about.
		if v.kind == vInt && symbolic.ClassOf(v.x) != symbolic.Data {
			w := in.dataValue(symbolic.CauseUnresolvedType, t.Name)
			w.typ = t
			return w
		}
	}
	v.typ = t
	return v
}

func (in *interp) ifStmt(s *parser.If) {
	if held, ok := in.guardedIfs[s]; ok {
		in.guardedIf(s, held)
		return
	}
	c := in.bareCond(in.cond(s.Cond))
	if n := len(in.loops); n > 0 && in.loops[n-1].lastBreak == s {
		in.loops[n-1].breakCond = c
	}
	if k, ok := symbolic.IsConst(c); ok { // if constexpr-like: only one branch exists
		left := s.Else
		if k != 0 {
			in.stmt(s.Then)
		} else {
			left = s.Then
			if s.Else != nil {
				in.stmt(s.Else)
			}
		}
		if s.Arch != "" && !isEmptyStmt(left) {
			// Code for another GPU: not analyzed, and the kernel must not
			// pass for one that makes no access without a word.
			in.note(lex.NoteArchBranch, s.Arch, s.P, "code for another GPU architecture is left out: __CUDA_ARCH__ is %s here (give -D __CUDA_ARCH__=N to analyze it)", s.Arch)
		}
		return
	}
	before := in.vars
	nrets := len(in.rets)
	in.vars = cloneVars(before)
	in.guards = append(in.guards, c)
	in.stmt(s.Then)
	in.guards = in.guards[:len(in.guards)-1]
	thenVars := in.vars
	thenExits := exits(s.Then) || in.host && endsProgram(s.Then)

	// Without an else the other branch leaves before as it is: no one
	// else holds it (each branch, loop pass and call works on a map of
	// its own), so it needs no copy.
	in.vars = before
	elseExits := false
	if s.Else != nil {
		in.vars = cloneVars(before)
		in.guards = append(in.guards, symbolic.Not(c))
		in.stmt(s.Else)
		in.guards = in.guards[:len(in.guards)-1]
		elseExits = exits(s.Else)
	}
	elseVars := in.vars
	_ = nrets
	switch {
	case thenExits && !elseExits:
		// if (c) return; ...: the rest of the block runs only where !c.
		in.vars = elseVars
		in.guards = append(in.guards, symbolic.Not(c))
		if in.host && s.Else == nil {
			in.narrowNotEqual(s.Cond)
		}
	case elseExits && !thenExits:
		in.vars = thenVars
		in.guards = append(in.guards, c)
	default:
		in.vars = in.mergeVars(before, c, thenVars, elseVars)
	}
}

// exits reports whether a statement always leaves the enclosing block
// (return, continue or break as its last word).
func exits(s parser.Stmt) bool {
	switch s := s.(type) {
	case *parser.Return:
		return true
	case *parser.Jump:
		return s.Kind == parser.Continue || s.Kind == parser.Break
	case *parser.Block:
		return len(s.Stmts) > 0 && exits(s.Stmts[len(s.Stmts)-1])
	case *parser.If:
		return s.Else != nil && exits(s.Then) && exits(s.Else)
	}
	return false
}

// endsProgram reports whether a host statement always ends the program:
// exit(...) or abort() as its last word (a usage check: if (radius !=
// RADIUS) { printf(...); exit(EXIT_FAILURE); }).
func endsProgram(s parser.Stmt) bool {
	switch s := s.(type) {
	case *parser.Block:
		return len(s.Stmts) > 0 && endsProgram(s.Stmts[len(s.Stmts)-1])
	case *parser.ExprStmt:
		if c, ok := s.X.(*parser.Call); ok {
			switch calleeName(c.Fun) {
			case "exit", "abort", "_exit", "quick_exit", "std::exit", "std::abort":
				return true
			}
		}
	}
	return false
}

// narrowNotEqual gives x the value k after host code left where x != k
// (or k != x) held, k a constant: code past if (radius != RADIUS) exit(1);
// runs with radius equal to RADIUS.
func (in *interp) narrowNotEqual(cond parser.Expr) {
	b, ok := cond.(*parser.Binary)
	if !ok || b.Op != parser.Neq {
		return
	}
	for _, pair := range [2][2]parser.Expr{{b.X, b.Y}, {b.Y, b.X}} {
		id, ok := pair[0].(*parser.Ident)
		if !ok {
			continue
		}
		v, ok := in.vars[id.Name]
		if !ok || v.kind != vInt || v.x == nil || v.inMemory {
			continue
		}
		if _, known := symbolic.IsConst(v.x); known {
			return
		}
		k, ok := in.constantOf(pair[1])
		if !ok {
			continue
		}
		if sym, ok := symbolic.AsVar(v.x); ok {
			// Values computed from x before the check hold its symbol
			// (padding = 32 - radius above the if): they learn it too.
			bind := map[symbolic.SymID]symbolic.Expr{sym.Key(): symbolic.Const(k)}
			for name, w := range in.vars {
				in.vars[name] = substValue(w, bind)
			}
		}
		v.x = symbolic.Const(k)
		in.vars[id.Name] = v
		return
	}
}

// substValue is v with bind's symbols replaced in its integer, its
// pointer's offset and its members.
func substValue(v value, bind map[symbolic.SymID]symbolic.Expr) value {
	switch v.kind {
	case vInt:
		if v.x != nil {
			v.x = symbolic.Subst(v.x, bind)
		}
	case vPtr:
		if v.ptr != nil && v.ptr.offset != nil {
			p := *v.ptr
			p.offset = symbolic.Subst(p.offset, bind)
			v.ptr = &p
		}
	case vStruct:
		if len(v.fields) > 0 {
			f := make(map[string]value, len(v.fields))
			for k, w := range v.fields {
				f[k] = substValue(w, bind)
			}
			v.fields = f
		}
	}
	return v
}

// constantOf is the value of e when it is an integer literal or a
// constant variable holding one.
func (in *interp) constantOf(e parser.Expr) (int64, bool) {
	switch e := e.(type) {
	case *parser.IntLit:
		return e.Value, true
	case *parser.Ident:
		if v, ok := in.vars[e.Name]; ok && v.kind == vInt && v.x != nil && v.constant {
			return symbolic.IsConst(v.x)
		}
	}
	return 0, false
}

func cloneVars(m map[string]value) map[string]value {
	c := make(map[string]value, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

// varsOf copies the values m holds of names: all a loop reads back of
// the values at its entry, at an iteration's start and at its end, which
// copying whole would cost every loop (and every pass of an enclosing
// loop's body) a copy of every variable in scope.
func varsOf(m map[string]value, names []string) map[string]value {
	out := make(map[string]value, len(names))
	for _, name := range names {
		if v, ok := m[name]; ok {
			out[name] = v
		}
	}
	return out
}

// mergeVars joins the two branches of an if: a variable that differs
// becomes c ? then : else.
func (in *interp) mergeVars(before map[string]value, c symbolic.Expr, a, b map[string]value) map[string]value {
	out := make(map[string]value, len(before))
	merge := func(k string, va, vb value) {
		if sameValue(va, vb) {
			out[k] = va
		} else {
			out[k] = mergeValue(c, va, vb)
		}
	}
	for k := range before {
		va, okA := a[k]
		vb, okB := b[k]
		if okA && okB {
			merge(k, va, vb)
		}
	}
	// A global written in a branch is in that branch's vars only.
	for _, m := range []map[string]value{a, b} {
		for k := range m {
			if _, local := before[k]; local {
				continue
			}
			g, global := in.global(k)
			if _, done := out[k]; done || !global {
				continue
			}
			va, okA := a[k]
			if !okA {
				va = g
			}
			vb, okB := b[k]
			if !okB {
				vb = g
			}
			merge(k, va, vb)
		}
	}
	return out
}

func mergeValue(c symbolic.Expr, a, b value) value {
	switch {
	case a.kind == vPtr && (uninitialised(b) || isNull(b)):
		// Set on one branch only (if (ok) p = info->ptr[i];), or null on
		// the other (p ? p + k : NULL): where it is not the pointer,
		// reading through it is undefined, so the pointer is its value.
		return a
	case b.kind == vPtr && (uninitialised(a) || isNull(a)):
		return b
	case a.kind == vInt && b.kind == vInt:
		return value{kind: vInt, x: symbolic.Cond(c, a.x, b.x), typ: a.typ}
	case a.kind == vPtr && b.kind == vPtr && a.ptr.base == b.ptr.base && a.ptr.space == b.ptr.space:
		return value{kind: vPtr, typ: a.typ, ptr: a.ptr.at(symbolic.Cond(c, a.ptr.offset, b.ptr.offset), a.ptr.elem)}
	case a.kind == vPtr && b.kind == vPtr:
		if p, ok := selectPointer(c, a.ptr, b.ptr); ok {
			return value{kind: vPtr, typ: a.typ, ptr: p}
		}
	case a.kind == vStruct && b.kind == vStruct:
		out := value{kind: vStruct, typ: a.typ, path: a.path, param: a.param, fields: map[string]value{}}
		for k, va := range a.fields {
			if vb, ok := b.fields[k]; ok {
				out.fields[k] = mergeValue(c, va, vb)
			}
		}
		return out
	}
	return intValue(mixedSym)
}

// loop interprets a loop. A first pass, recording nothing, runs the body
// with each variable it assigns set to a placeholder; a variable whose
// value after the body is placeholder + d, d invariant, is an induction
// variable: in the second pass it is entry + d*iter, with iter the loop's
// iteration symbol. A variable that stays the same in every lane but has
// no closed form is a uniform carried value (carried.go); other assigned
// variables are unknown in the loop.
func (in *interp) loop(node parser.Stmt, pos parser.Pos, cond, post parser.Expr, body parser.Stmt, do bool) {
	if in.hostLoop(cond, post, body, do) {
		return
	}
	assigned := assignedNames(body, post)
	in.addSkipped(assigned, body)
	var names []string
	for name := range assigned {
		if v, ok := in.lookup(name); ok {
			names = append(names, name)
			in.vars[name] = v // a global the loop writes becomes a local copy
		}
	}
	sortStrings(names)
	iter := in.loopSym(node, pos)
	iterVar, _ := symbolic.AsVar(iter)
	iterID := iterVar.Key()
	entry := varsOf(in.vars, names)
	l := &Loop{Iter: iterID, Pos: pos, Unroll: unrollOf(node), Leaves: leaves(body), iterX: iter, guardsAt: len(in.guards), FreshAt: in.fresh}
	l.lastBreak, l.lastBreakAt = onlyBreak(body)

	steps := map[string]step{}
	var disc discovery
	if in.passes < maxLoopPasses && len(names) > 0 {
		steps, disc = in.discoverInductions(names, body, post)
		in.sumInductions(steps, entry, iter)
	}
	advanced := map[string]value{}
	for _, name := range names {
		if st, ok := steps[name]; ok {
			advanced[name] = advance(entry[name], st, iter)
		}
	}
	guard, guarded := guardedSteps(names, body, post, disc, steps, disc.first)
	inGuard := map[string]value{} // what the guard and its branch see
	for name, st := range guarded {
		if e := entry[name]; e.kind == vInt && e.x != nil {
			inGuard[name] = advance(e, st, iter)
		}
	}
	l.Carried = in.uniformCarried(names, disc, entry, advanced, pos)
	uniform := map[string]bool{}
	for _, c := range l.Carried {
		uniform[c.Name] = true
		in.vars[c.Name] = value{kind: vInt, x: c.Sym, typ: entry[c.Name].typ}
	}
	reset := resetNames(names, disc, entry, steps)
	for _, name := range names {
		if v, ok := advanced[name]; ok {
			in.vars[name] = v
		} else if reset[name] {
			in.vars[name] = entry[name]
		} else if in.host && swappedPointer(name, body, entry) {
			in.vars[name] = entry[name]
		} else if !uniform[name] {
			in.vars[name] = in.loopCarried(name, entry[name])
		}
	}
	if cond != nil {
		c := in.cond(cond)
		if do {
			// The test before iteration k > 0 runs at the end of
			// iteration k-1, on what that iteration left: the values at
			// the start of iteration k, which c is written in.
			c = symbolic.Binary(symbolic.OpLOr, symbolic.Binary(symbolic.OpEq, iter, symbolic.Const(0)), c)
		}
		l.Cond = c
		l.Trip = constantTrip(c, iterID, do)
	}
	l.Var, l.VarAt = loopVar(node, advanced)
	carried := varsOf(in.vars, names)
	in.loops = append(in.loops, l)
	before := len(in.accesses)
	if len(inGuard) > 0 {
		in.guardedIfs[guard] = inGuard
		defer delete(in.guardedIfs, guard)
	}
	in.stmt(body)
	l.Accesses = len(in.accesses) - before
	last := varsOf(in.vars, names) // the values an iteration leaves, before the step
	if post != nil {
		in.eval(post)
	}
	in.loops = in.loops[:len(in.loops)-1]
	// After the loop: the exit values where the trip count is known (see
	// exitValues), else unknown (uniform for a uniform carried value).
	exit := in.exitValues(names, entry, carried, last, steps, l, iter, body, post, do)
	for name := range guarded {
		delete(exit, name) // each lane left the branch at an iteration of its own
	}
	for _, name := range names {
		if _, ok := in.vars[name]; !ok {
			continue
		}
		switch v, ok := exit[name]; {
		case reset[name]:
			in.vars[name] = entry[name]
		case ok:
			in.vars[name] = v
		case uniform[name]:
			in.vars[name] = value{kind: vInt, typ: entry[name].typ,
				x: in.unknown(symbolic.CauseLoopCarried, name, pos, "varies in loop: "+name, symbolic.Uniform)}
		default:
			in.vars[name] = in.loopCarried(name, entry[name])
		}
	}
}

// resetNames are the variables every iteration of a loop leaves as they
// entered it, whatever they held: lavaMD's wtx = tx after each inner
// while (wtx < NUMBER_PAR_PER_BOX) { ...; wtx += NUMBER_THREADS; }. Each
// iteration starts with the entry value, and so does the code after the
// loop.
func resetNames(names []string, disc discovery, entry map[string]value, steps map[string]step) map[string]bool {
	out := map[string]bool{}
	for _, name := range names {
		if _, ok := steps[name]; ok {
			continue
		}
		e, after := entry[name], disc.after[name]
		if e.kind != vInt || e.x == nil || after.kind != vInt || after.x == nil || symbolic.ClassOf(e.x) == symbolic.Data {
			continue
		}
		if symbolic.Key(e.x) == symbolic.Key(after.x) {
			out[name] = true
		}
	}
	return out
}

// discovery is what the first pass of a loop body saw: each assigned
// variable's placeholder and its value after the body.
type discovery struct {
	holders, after map[string]value
	first          int // the first unknown the pass made
}

func (in *interp) discoverInductions(names []string, body parser.Stmt, post parser.Expr) (map[string]step, discovery) {
	if post != nil && bodyLeaves(names, body) {
		// for (...; ...; ++k) { ... } whose body leaves k, and every
		// other variable it could carry, alone: an iteration's change is
		// the step's alone, so the step is evaluated without the body
		// (a pass over it would cost every loop nested inside twice
		// over).
		body = &parser.Empty{}
	}
	saved, savedRecord, savedGuards, savedRets, savedLaunches := in.vars, in.record, len(in.guards), len(in.rets), len(in.launches)
	savedLocal := maps.Clone(in.localMem) // what the discovery pass writes to local arrays is undone too
	firstFresh := in.fresh + 1            // unknowns from here on are made by this pass
	in.vars = cloneVars(saved)
	in.record = false
	in.passes++
	holders := map[string]value{}
	for _, name := range names {
		h := placeholder(name, saved[name])
		holders[name] = h
		in.vars[name] = h
	}
	in.stmt(body)
	if post != nil {
		in.eval(post)
	}
	after := in.vars
	in.passes--
	in.vars, in.record, in.localMem = saved, savedRecord, savedLocal
	in.guards, in.rets, in.launches = in.guards[:savedGuards], in.rets[:savedRets], in.launches[:savedLaunches]

	steps := map[string]step{}
	for _, name := range names {
		if madeIn(after[name], firstFresh) {
			// What an iteration adds reads a value the body loads (off +=
			// steps[k]): it differs from one iteration to the next.
			continue
		}
		if st, ok := stepOf(holders[name], after[name], holders); ok {
			steps[name] = step{add: st}
		} else if sh, ok := shiftOf(holders[name], after[name]); ok {
			steps[name] = step{shift: sh}
		} else if d, ok := sumDiff(holders[name], after[name]); ok {
			steps[name] = step{diff: d} // resolved or dropped by sumInductions
		}
	}
	return steps, discovery{holders: holders, after: after, first: firstFresh}
}

// bodyLeaves reports whether a loop body can change none of names, the
// variables the loop carries: it assigns none (nor one a statement the
// parser skipped mentions, nor an asm output), takes none's address or
// passes one to a call (a reference parameter), and writes no lambda
// (which may capture one by reference).
func bodyLeaves(names []string, body parser.Stmt) bool {
	touched := assignedNames(body, nil)
	skippedIdents(body, touched)
	for _, n := range names {
		if touched[n] {
			return false
		}
	}
	carried := map[string]bool{}
	for _, n := range names {
		carried[n] = true
	}
	leaves := true
	parser.Inspect(body, func(nd parser.Node) bool {
		switch x := nd.(type) {
		case *parser.Lambda:
			leaves = false
		case *parser.Unary:
			if id, ok := x.X.(*parser.Ident); ok && x.Op == parser.AddrOf && carried[id.Name] {
				leaves = false
			}
		case *parser.Call:
			for _, a := range x.Args {
				if id, ok := a.(*parser.Ident); ok && carried[id.Name] {
					leaves = false
				}
			}
		}
		return leaves
	})
	return leaves
}

// madeIn reports whether v mentions an unknown numbered first or later:
// one a loop's first pass made.
func madeIn(v value, first int) bool {
	found := false
	symbolsOf(v, func(x *symbolic.Var) {
		found = found || (x.Kind == symbolic.KindUnknown && x.ID >= first)
	})
	return found
}

// step is how an induction variable changes per iteration: by adding
// add, or (shift != 0) by shifting left (shift > 0) or right by |shift|
// bits: the halving strides of tree reductions (s >>= 1, s /= 2) and
// their doubling twins.
type step struct {
	add   value
	shift int64
	// quad, when set, adds quad * iter * (iter - 1) / 2: a sum of an
	// induction variable (d += j). diff is what an iteration adds in
	// terms of the other variables' placeholders, until sumInductions
	// resolves it.
	quad, diff symbolic.Expr
}

// shiftOf recognises after as holder shifted by a constant number of
// bits: holder >> k, holder / 2^k, holder << k, holder * 2^k.
func shiftOf(holder, after value) (int64, bool) {
	if holder.kind != vInt || after.kind != vInt || after.x == nil {
		return 0, false
	}
	want := after.x.String()
	for k := int64(1); k <= 4; k++ {
		for _, c := range []struct {
			e     symbolic.Expr
			shift int64
		}{
			{symbolic.Binary(symbolic.OpShr, holder.x, symbolic.Const(k)), -k},
			{symbolic.Binary(symbolic.OpDiv, holder.x, symbolic.Const(1<<k)), -k},
			{symbolic.Mul(holder.x, symbolic.Const(1<<k)), k},
		} {
			if c.e.String() == want {
				return c.shift, true
			}
		}
	}
	return 0, false
}

func placeholder(name string, v value) value {
	sym := symbolic.EntrySym(name)
	switch v.kind {
	case vInt:
		return value{kind: vInt, x: sym, typ: v.typ}
	case vPtr:
		return value{kind: vPtr, typ: v.typ, ptr: v.ptr.at(sym, v.ptr.elem)}
	}
	return v
}

// stepOf returns after - holder when it is free of every placeholder.
func stepOf(holder, after value, holders map[string]value) (value, bool) {
	var d symbolic.Expr
	switch {
	case holder.kind == vInt && after.kind == vInt:
		d = symbolic.Sub(after.x, holder.x)
	case holder.kind == vPtr && after.kind == vPtr && holder.ptr.base == after.ptr.base:
		d = symbolic.Sub(after.ptr.offset, holder.ptr.offset)
	default:
		return value{}, false
	}
	for name := range holders {
		if symbolic.Mentions(d, symbolic.EntryID(name)) {
			return value{}, false
		}
	}
	if symbolic.ClassOf(d) == symbolic.Data {
		return value{}, false
	}
	return intValue(d), true
}

func advance(entry value, st step, iter symbolic.Expr) value {
	if st.shift != 0 { // entry shifted by |shift| bits per iteration
		k, amount := symbolic.OpShl, symbolic.Mul(symbolic.Const(st.shift), iter)
		if st.shift < 0 {
			k, amount = symbolic.OpShr, symbolic.Mul(symbolic.Const(-st.shift), iter)
		}
		return value{kind: vInt, typ: entry.typ, x: symbolic.Binary(k, entry.x, amount)}
	}
	d := symbolic.Mul(st.add.x, iter)
	if st.quad != nil {
		d = symbolic.Add(d, symbolic.Mul(st.quad, triangle(iter)))
	}
	if entry.kind == vPtr {
		return value{kind: vPtr, typ: entry.typ, ptr: entry.ptr.at(symbolic.Add(entry.ptr.offset, d), entry.ptr.elem)}
	}
	return value{kind: vInt, typ: entry.typ, x: symbolic.Add(entry.x, d)}
}

// loopCarried is a variable whose value across iterations is not modelled.
func (in *interp) loopCarried(name string, entry value) value {
	c := symbolic.Uniform
	if entry.kind == vInt {
		c = max(c, symbolic.ClassOf(entry.x))
	}
	if entry.kind == vPtr {
		return value{kind: vPtr, typ: entry.typ, ptr: entry.ptr.at(in.unknown(symbolic.CauseLoopCarried, name, parser.Pos{}, "varies in loop: "+name, symbolic.Data), entry.ptr.elem)}
	}
	v := intValue(in.unknown(symbolic.CauseLoopCarried, name, parser.Pos{}, "varies in loop: "+name, max(c, symbolic.Lane)))
	v.typ = entry.typ
	if entry.typ != nil && entry.typ.Kind == ctype.TFloat {
		v = in.dataValue(symbolic.CauseFloatValue, "float")
	}
	return v
}

// swappedPointer reports whether host pointer variable name keeps its
// offset through a loop: it enters at a constant offset, and the body
// only assigns it other pointers that entered at that same offset,
// directly or through a local holding one (the double buffer of
// tmp = dst; dst = src; src = tmp): whichever allocation it points to in
// an iteration, a launch is given the same offset into it.
func swappedPointer(name string, body parser.Stmt, entry map[string]value) bool {
	offsetOf := func(n string) (int64, bool) {
		v, ok := entry[n]
		if !ok || v.kind != vPtr || v.ptr == nil || v.ptr.offset == nil {
			return 0, false
		}
		return symbolic.IsConst(v.ptr.offset)
	}
	k, ok := offsetOf(name)
	if !ok {
		return false
	}
	aliases := map[string]string{} // a local the body declares = another variable
	var sources []parser.Expr
	okAll := true
	parser.EachStmt(body, func(st parser.Stmt) {
		switch st := st.(type) {
		case *parser.DeclStmt:
			for _, dc := range st.Decl.Declarators {
				if id, ok := dc.Init.(*parser.Ident); ok {
					aliases[dc.Name] = id.Name
				} else if dc.Name == name {
					okAll = false
				}
			}
		case *parser.ExprStmt:
			parser.WalkExpr(st.X, func(e parser.Expr) {
				switch e := e.(type) {
				case *parser.Binary:
					if id, ok := e.X.(*parser.Ident); ok && id.Name == name && isAssignOp(e.Op) {
						if e.Op != parser.Assign {
							okAll = false
						}
						sources = append(sources, e.Y)
					}
				case *parser.Unary:
					if id, ok := e.X.(*parser.Ident); ok && id.Name == name && (e.Op == parser.Inc || e.Op == parser.Dec || e.Op == parser.AddrOf) {
						okAll = false
					}
				case *parser.Postfix:
					if id, ok := e.X.(*parser.Ident); ok && id.Name == name {
						okAll = false
					}
				}
			})
		case *parser.If, *parser.For, *parser.While, *parser.Switch:
			// A loop or branch of its own: its assignments are not one
			// swap's.
			okAll = okAll && st == body
		}
	})
	if !okAll || len(sources) == 0 {
		return false
	}
	for _, src := range sources {
		id, ok := src.(*parser.Ident)
		if !ok {
			return false
		}
		n := id.Name
		if a, ok := aliases[n]; ok {
			n = a
		}
		if j, ok := offsetOf(n); !ok || j != k {
			return false
		}
	}
	return true
}

// assignedNames lists the variables a loop body and step assign.
func assignedNames(body parser.Stmt, post parser.Expr) map[string]bool {
	out := map[string]bool{}
	var expr func(parser.Expr)
	target := func(e parser.Expr) {
		if id, ok := e.(*parser.Ident); ok {
			out[id.Name] = true
		}
		if m, ok := e.(*parser.Member); ok && !m.Arrow {
			if id, ok := m.X.(*parser.Ident); ok {
				out[id.Name] = true
			}
		}
	}
	expr = func(e parser.Expr) {
		parser.WalkExpr(e, func(e parser.Expr) {
			switch e := e.(type) {
			case *parser.Binary:
				if isAssignOp(e.Op) {
					target(e.X)
				}
			case *parser.Unary:
				if e.Op == parser.Inc || e.Op == parser.Dec {
					target(e.X)
				}
			case *parser.Postfix:
				target(e.X)
			}
		})
	}
	parser.WalkStmt(body, expr)
	if post != nil {
		expr(post)
	}
	return out
}

func isAssignOp(op parser.Op) bool { return op.IsAssign() }

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// isEmptyStmt reports whether s runs nothing: absent, empty, or a block
// of such.
func isEmptyStmt(s parser.Stmt) bool {
	switch s := s.(type) {
	case nil, *parser.Empty:
		return true
	case *parser.Block:
		for _, x := range s.Stmts {
			if !isEmptyStmt(x) {
				return false
			}
		}
		return true
	}
	return false
}

// uninitialised reports whether v is a variable's value before any
// assignment.
func uninitialised(v value) bool {
	if v.kind != vInt || v.x == nil {
		return false
	}
	x, ok := symbolic.AsVar(v.x)
	return ok && x.Kind == symbolic.KindUnknown && x.Cause == symbolic.CauseUninitialised
}

// isNull reports whether v is the integer 0: NULL, as a pointer.
func isNull(v value) bool {
	if v.kind != vInt || v.x == nil {
		return false
	}
	c, ok := symbolic.IsConst(v.x)
	return ok && c == 0
}
