package interp

import (
	"path/filepath"
	"strings"
	"sync"

	"github.com/cudalint/cudalint/analyzer/ctype"
	"github.com/cudalint/cudalint/parser"
	"github.com/cudalint/cudalint/symbolic"
)

// Program is the set of analyzed files: their functions, types and
// file-scope variables. Each file is a translation unit (unit.go) whose
// code resolves names within it first; what it does not define may come
// from any file (a helper, a struct, a constant of another file).
type Program struct {
	Files   []*parser.File
	types   *ctype.Types
	funcs   map[string][]*parser.Func
	globals map[string]value
	// fileGlobals are each file's unit's file-scope variables, by path.
	fileGlobals map[string]map[string]value
	// all is the program-wide unit; units are the files', made on
	// first use.
	all     *unit
	unitMu  sync.Mutex
	units   map[*parser.File]*unit
	Kernels []*parser.Func
	Notes   []parser.Note
	// ValueSpecialized is set when a function template of the program
	// has an explicit specialization: which one a call f<T, N>(...)
	// runs can rest on a kernel's template values, so its instances are
	// told apart by them too (launch.Site.Instance).
	ValueSpecialized bool
	sources          map[string][]byte
	// launchMemo says which host functions launch a kernel (host.go).
	launchMu   sync.Mutex
	launchMemo map[*parser.Func]bool
}

// NewProgram indexes the functions, types and file-scope constants of
// files.
func NewProgram(files []*parser.File) *Program {
	p := &Program{Files: files, types: ctype.NewTypes(), funcs: map[string][]*parser.Func{}, globals: map[string]value{}, fileGlobals: map[string]map[string]value{}, sources: map[string][]byte{}, units: map[*parser.File]*unit{}}
	p.all = &unit{prog: p, types: p.types}
	for _, f := range files {
		for path, src := range f.Sources {
			p.sources[path] = src
		}
		p.types.Add(f)
		for _, fn := range f.Funcs {
			p.funcs[fn.Name] = append(p.funcs[fn.Name], fn)
			p.ValueSpecialized = p.ValueSpecialized || fn.Specialized
			if fn.Global && fn.Body != nil {
				p.Kernels = append(p.Kernels, fn)
			}
		}
	}
	p.types.Consts = func(e parser.Expr, resolve func(*parser.TypeRef) *ctype.Type) (int64, bool) {
		return p.constIn(p.all, e, resolve)
	}
	p.evalGlobals()
	return p
}

// Types resolves the type names of the program's files.
func (p *Program) Types() *ctype.Types { return p.types }

// FuncsNamed are the program's functions named name, in file order.
func (p *Program) FuncsNamed(name string) []*parser.Func { return p.funcs[name] }

// Launch is a kernel<<<grid, block>>>(args) met in host code, with what
// the host code says about its values.
type Launch struct {
	Pos    parser.Pos
	Kernel string
	Grid   [3]symbolic.Expr
	Block  [3]symbolic.Expr
	Args   []Arg
	// Targs are the launch's template arguments: a value for each value
	// argument (nil for type arguments); TypeArgs the types of the type
	// arguments (nil for values).
	Targs    []*Arg
	TypeArgs []*ctype.Type
	// Via is the host function interpreted and the host functions it
	// called to reach the launch, outermost first.
	Via []string
	// Bare: host code before the launch took a branch or skipped a loop
	// on main's argument count as the program run without arguments does
	// (interp.bareCond).
	Bare bool
}

// Arg is a value host code gives a launch, as far as a launch
// configuration can use it.
type Arg struct {
	Int    symbolic.Expr // the value, when an integer; else nil
	Offset symbolic.Expr // when a pointer, the byte offset into its allocation; else nil
	Func   string        // when a __device__ function (a template argument), its name
	// Fields are the members of a struct value, as far as host code set
	// them (view.data = a + 1).
	Fields map[string]Arg
}

func argOf(v value) Arg {
	switch v.kind {
	case vInt:
		return Arg{Int: v.x}
	case vPtr:
		if v.ptr != nil {
			return Arg{Offset: v.ptr.offset}
		}
	case vStruct:
		if len(v.fields) > 0 {
			a := Arg{Fields: map[string]Arg{}}
			for k, f := range v.fields {
				a.Fields[k] = argOf(f)
			}
			return a
		}
	}
	return Arg{}
}

// HostLaunches interprets host function fn of file f and returns the
// launches it makes, in the order met.
func (p *Program) HostLaunches(f *parser.File, fn *parser.Func) []*Launch {
	return p.hostLaunches(newInterp(p.unitOf(f), true), f, fn)
}

func (p *Program) hostLaunches(in *interp, f *parser.File, fn *parser.Func) []*Launch {
	in.kernel = fn
	in.fileGlobals = p.fileGlobals[f.Path]
	in.enterClass(fn)
	for i, param := range fn.Params {
		if param.Name == "" {
			continue
		}
		// A pointer parameter is an allocation of its own; any other
		// parameter's value is unknown (a dim3& is not (1,1,1)).
		if t := in.resolve(param.Type); t.Kind == ctype.TPointer {
			in.vars[param.Name] = in.zeroValue(t, param.Name, Local)
		} else if i == 0 && fn.Name == "main" && !exitsOnArgCount(fn.Body, param.Name) {
			// argc: unknown while host code runs (a usage check may
			// exit), 1 where a launch's values depend on it (ArgCount).
			in.vars[param.Name] = intValue(in.unknown(symbolic.CauseArgCount, param.Name, fn.P, param.Name, symbolic.Data))
		} else {
			in.vars[param.Name] = in.dataValue(symbolic.CauseNotModelled, "parameter "+param.Name)
		}
	}
	for name, f := range in.hostFuncArgs {
		in.vars[name] = in.funcValue(f)
	}
	in.block(fn.Body)
	return in.launches
}

// exitsOnArgCount: main's body leaves early on a test of its argument
// count (if (argc < 3) { usage(); return 1; }): the program does not
// run without arguments, so no launch value may take the bare run's.
func exitsOnArgCount(body *parser.Block, argc string) bool {
	found := false
	parser.Inspect(body, func(n parser.Node) bool {
		if s, ok := n.(*parser.If); ok && !found && mentionsName(s.Cond, argc) && (exitsMain(s.Then) || exitsMain(s.Else)) {
			found = true
		}
		return !found
	})
	return found
}

func mentionsName(e parser.Expr, name string) bool {
	found := false
	parser.WalkExpr(e, func(x parser.Expr) {
		if id, ok := x.(*parser.Ident); ok && id.Name == name {
			found = true
		}
	})
	return found
}

// exitsMain: s returns, or calls exit or abort.
func exitsMain(s parser.Stmt) bool {
	if s == nil {
		return false
	}
	found := false
	parser.Inspect(s, func(n parser.Node) bool {
		switch x := n.(type) {
		case *parser.Return:
			found = true
		case *parser.Call:
			if id, ok := x.Fun.(*parser.Ident); ok && (id.Name == "exit" || id.Name == "abort" || id.Name == "_exit") {
				found = true
			}
		}
		return !found
	})
	return found
}

// Run is what interpreting a kernel gives.
type Run struct {
	Accesses []*Access
	Notes    []parser.Note
	// Params are the kernel's parameters and value template parameters,
	// the symbols a user may give values for.
	Params map[symbolic.SymID]bool
	// Unresolved counts the calls the interpreter could not follow that a
	// note names (a member function it cannot find): the kernel is then
	// only partly analyzed.
	Unresolved int
}

// RunKernel interprets kernel fn of file f, its type parameters bound to
// typeArgs (nil for a generic analysis).
func (p *Program) RunKernel(f *parser.File, fn *parser.Func, typeArgs map[string]*ctype.Type) Run {
	return p.RunInstance(f, fn, typeArgs, nil)
}

// RunInstance is RunKernel with the kernel's function template
// parameters bound too: funcArgs maps each to the __device__ function
// it names.
func (p *Program) RunInstance(f *parser.File, fn *parser.Func, typeArgs map[string]*ctype.Type, funcArgs map[string]string) Run {
	return p.RunSized(f, fn, typeArgs, funcArgs, nil)
}

// RunSized is RunInstance with the values that size the kernel's arrays
// when template value parameters do (dimArgs: every launch gives them
// alike); the parameters stay symbols everywhere else.
func (p *Program) RunSized(f *parser.File, fn *parser.Func, typeArgs map[string]*ctype.Type, funcArgs map[string]string, dimArgs map[string]int64) Run {
	in := newInterp(p.unitOf(f), false)
	in.dimArgs = dimArgs
	in.kernel = fn
	in.fileGlobals = p.fileGlobals[f.Path]
	in.typeArgs = typeArgs
	in.funcArgs = funcArgs
	for i, tp := range fn.Template {
		if parser.FuncParam(fn.Template, i) {
			continue
		}
		if !tp.IsType {
			in.params[symbolic.ParamID(tp.Name)] = true
			in.vars[tp.Name] = intValue(symbolic.ParamSym(tp.Name))
			continue
		}
		// A type parameter no launch binds stays unknown: it never takes
		// a name of the file scope (another program's typedef double T).
		if _, bound := in.typeArgs[tp.Name]; !bound {
			in.typeArgs = withType(in.typeArgs, tp.Name, ctype.UnknownType)
		}
	}
	for _, prm := range fn.Params {
		if prm.Name != "" {
			in.vars[prm.Name] = in.paramValue(prm.Name, in.resolve(prm.Type))
		}
	}
	in.block(fn.Body)
	return Run{Accesses: in.accesses, Notes: in.notes, Params: in.params, Unresolved: in.unresolved}
}

// ConstValue evaluates a constant expression (array sizes, globals).
func (p *Program) ConstValue(e parser.Expr) (int64, bool) { return p.constIn(p.all, e, nil) }

// ConstIn evaluates a constant expression of file f, with the names of
// its translation unit (__launch_bounds__(BLOCK) with its own BLOCK).
func (p *Program) ConstIn(f *parser.File, e parser.Expr) (int64, bool) {
	return p.constIn(p.unitOf(f), e, nil)
}

// constIn evaluates e in unit u, resolving its types with resolve when
// not nil (see ctype.Types.Consts).
func (p *Program) constIn(u *unit, e parser.Expr, resolve func(*parser.TypeRef) *ctype.Type) (int64, bool) {
	in := newInterp(u, true)
	in.fileGlobals = p.fileGlobals[u.path]
	in.resolveType = resolve
	v := in.eval(e)
	if v.kind != vInt {
		return 0, false
	}
	return symbolic.IsConst(v.x)
}

// evalGlobals evaluates each file's file-scope variables: all its unit
// declares (a header's constants as its macros made them), which its code
// sees first; the first file to declare a name gives the program's.
func (p *Program) evalGlobals() {
	for _, f := range p.Files {
		in := newInterp(p.unitOf(f), false)
		in.record = false
		// The file's globals so far are in.vars: the constants its array
		// sizes read (float a[N]) are there.
		p.fileGlobals[f.Path] = in.vars
		for _, d := range f.UnitDecls().Globals {
			in.decl(d)
		}
		if isHostSource(f.Path) {
			in.forgetAssignedGlobals(f)
		}
		p.fileGlobals[f.Path] = in.vars
		for k, v := range in.vars {
			if _, seen := p.globals[k]; !seen {
				p.globals[k] = v
			}
		}
	}
}

// launch records kernel<<<grid, block, ...>>>(args) met in host code.
func (in *interp) launch(e *parser.Launch) value {
	if targets := in.pointerTargets(e); targets != nil {
		// A function pointer starts each kernel it may hold, k<1> with
		// its template arguments (auto f = k<1>;), which the pointer's
		// name lacks.
		for _, t := range targets {
			in.launch(&parser.Launch{P: e.P, Kernel: t, Config: e.Config, Args: e.Args})
		}
		return intValue(symbolic.Const(0))
	}
	site := &Launch{Pos: e.Start(), Kernel: calleeName(e.Kernel)}
	if id, ok := e.Kernel.(*parser.Ident); ok {
		for _, ta := range id.Targs {
			if f := in.boundFunc(ta); f != "" { // k<F> in a host template bound to a function
				site.Targs = append(site.Targs, &Arg{Func: f})
				site.TypeArgs = append(site.TypeArgs, nil)
				continue
			}
			if ta.Value == nil {
				if v, ok := in.valueNamedAsType(ta); ok { // k<N>, N a host constant the parser read as a type
					a := argOf(v)
					site.Targs = append(site.Targs, &a)
					site.TypeArgs = append(site.TypeArgs, nil)
					continue
				}
				site.Targs = append(site.Targs, nil)
				site.TypeArgs = append(site.TypeArgs, in.resolve(ta.Type))
				continue
			}
			if t, ok := in.typeNamedAsValue(ta.Value); ok { // k<StorageType>, a class's member alias
				site.Targs = append(site.Targs, nil)
				site.TypeArgs = append(site.TypeArgs, t)
				continue
			}
			a := Arg{Func: in.unit.funcNamed(ta.Value)}
			if a.Func == "" {
				v := in.eval(ta.Value)
				a = argOf(v)
				if v.closure != nil && v.closure.fn != "" { // a host template's function parameter
					a = Arg{Func: v.closure.fn}
				}
			}
			site.Targs = append(site.Targs, &a)
			site.TypeArgs = append(site.TypeArgs, nil)
		}
	}
	dims := func(x parser.Expr) [3]symbolic.Expr {
		v := in.eval(x)
		switch v.kind {
		case vStruct:
			var d [3]symbolic.Expr
			for i, f := range []string{"x", "y", "z"} {
				d[i] = symbolic.Const(1)
				if fv, ok := v.fields[f]; ok && fv.kind == vInt {
					d[i] = dimExpr(fv)
				}
			}
			return d
		case vInt:
			return [3]symbolic.Expr{dimExpr(v), symbolic.Const(1), symbolic.Const(1)}
		}
		unknown := in.unknown(symbolic.CauseNotModelled, "launch dimension", parser.Pos{}, "launch dimension", symbolic.Data)
		return [3]symbolic.Expr{unknown, unknown, unknown}
	}
	if len(e.Config) >= 2 {
		site.Grid = dims(e.Config[0])
		site.Block = dims(e.Config[1])
	}
	for _, c := range e.Config[min(2, len(e.Config)):] {
		in.eval(c)
	}
	args := make([]value, len(e.Args))
	for i, a := range e.Args {
		args[i] = in.eval(a)
		site.Args = append(site.Args, argOf(args[i]))
	}
	if len(site.TypeArgs) == 0 {
		site.Targs, site.TypeArgs = in.deduceKernelTypes(site.Kernel, args)
	}
	in.deduceFromArgInstances(site, args)
	if in.record && site.Grid[0] != nil {
		if in.kernel != nil {
			site.Via = append([]string{in.kernel.Name}, in.calls...)
		}
		site.Bare = in.bare
		in.launches = append(in.launches, site)
	}
	return intValue(symbolic.Const(0))
}

// valueNamedAsType is the value of a template argument the parser read as
// a type name because a lone name reads as either (k<THREADS_PER_PIXEL>)
// when host code knows it as a variable; ok is false for a type.
func (in *interp) valueNamedAsType(ta parser.TemplateArg) (value, bool) {
	t := ta.Type
	if t == nil || len(t.Words) != 1 || t.Ptr != 0 || len(t.Targs) > 0 {
		return value{}, false
	}
	v, ok := in.lookup(t.Words[0])
	if !ok || v.kind != vInt {
		return value{}, false
	}
	return v, true
}

// typeNamedAsValue is the type a template argument read as a value names:
// a lone name bound as a type argument or a member alias of the class
// whose method launches, which the parser, not knowing it as a type
// there, read as an expression.
func (in *interp) typeNamedAsValue(x parser.Expr) (*ctype.Type, bool) {
	id, ok := x.(*parser.Ident)
	if !ok || len(id.Targs) > 0 {
		return nil, false
	}
	if _, isVar := in.lookup(id.Name); isVar {
		return nil, false
	}
	if t, ok := in.typeArgs[id.Name]; ok {
		return t, true
	}
	// A qualified name of a type the program or the builtins know
	// (k<at::Half>, k<c10::BFloat16>), which the parser, not knowing
	// the namespace, read as a value.
	if !strings.Contains(id.Name, "::") {
		return nil, false
	}
	t := in.resolve(&parser.TypeRef{P: id.P, Words: []string{id.Name}})
	return t, t != nil && t.LayoutKnown()
}

// dimExpr is a launch dimension's value, which the launch converts to
// unsigned int: a floating one (ceil(n / 256.0)) truncated.
func dimExpr(v value) symbolic.Expr {
	if k, ok := truncated(v); ok {
		return symbolic.Const(k)
	}
	return v.x
}

// pointerTargets are the kernels the host variable launched by e may
// hold (void (*kern)(float*) = &k; auto f = k<8>;), or nil when e names
// no such variable.
func (in *interp) pointerTargets(e *parser.Launch) []*parser.Ident {
	id, ok := e.Kernel.(*parser.Ident)
	if !ok || len(id.Targs) > 0 || in.kernelNamed(calleeName(id)) {
		return nil
	}
	return in.fnTargets[calleeName(id)]
}

// boundFunc is the __device__ function a template argument names through
// a host template's function parameter (F, read as a type name or a
// value), or "".
func (in *interp) boundFunc(ta parser.TemplateArg) string {
	name := ""
	switch {
	case ta.Type != nil && len(ta.Type.Words) == 1 && ta.Type.Ptr == 0:
		name = ta.Type.Words[0]
	case ta.Value != nil:
		if id, ok := ta.Value.(*parser.Ident); ok {
			name = id.Name
		}
	}
	if f, ok := in.hostFuncArgs[name]; ok {
		return f
	}
	return ""
}

// deduceKernelTypes deduces the type arguments of a template kernel
// launched without them (k<<<g, b>>>(p) with p a T*, as in a host
// template's body): C++ deduces them from the arguments as for any
// function template. Nil when the kernel takes none or they cannot be
// deduced; a parameter left undeduced stays nil.
func (in *interp) deduceKernelTypes(name string, args []value) ([]*Arg, []*ctype.Type) {
	for _, k := range in.unit.candidates(name, isKernel) {
		if len(k.Template) == 0 || len(k.Params) != len(args) {
			continue
		}
		targs := make([]*Arg, len(k.Template))
		types := make([]*ctype.Type, len(k.Template))
		found := false
		for i, tp := range k.Template {
			if !tp.IsType {
				continue
			}
			if t := deduce(tp.Name, k.Params, args); t != nil {
				types[i], found = t, true
			}
		}
		if found {
			return targs, types
		}
	}
	return nil, nil
}

// deduceFromArgInstances binds the template parameters of the kernel a
// launch starts that it does not give, and that a parameter written as a
// class template's instance names, from its argument's instance:
// k<256><<<g, b>>>(ptrs) with ptrs an Array<const int*, 1> binds
// k(Array<const int*, MAX_COUNT>)'s MAX_COUNT to 1, as C++ deduces it.
func (in *interp) deduceFromArgInstances(site *Launch, args []value) {
	for _, k := range in.unit.candidates(site.Kernel, isKernel) {
		if len(k.Template) <= len(site.Targs) || len(k.Params) != len(args) {
			continue
		}
		fr := newFrame()
		deduceFromInstances(k, args, fr)
		if len(fr.types) == 0 && len(fr.vals) == 0 {
			continue
		}
		for i := len(site.Targs); i < len(k.Template); i++ {
			tp := k.Template[i]
			var a *Arg
			var t *ctype.Type
			if v, ok := fr.vals[tp.Name]; ok && !tp.IsType {
				x := argOf(v)
				a = &x
			} else if ty, ok := fr.types[tp.Name]; ok && tp.IsType {
				t = ty
			} else if tp.Default == nil {
				return // a parameter before a later one cannot be left out
			} else {
				break
			}
			site.Targs = append(site.Targs, a)
			site.TypeArgs = append(site.TypeArgs, t)
		}
		return
	}
}

// Source returns the text of a file the analysis read.
func (p *Program) Source(path string) []byte { return p.sources[path] }

// Text returns what the user wrote for e: the source between its first
// and last token (macro invocations included, as written), or e reprinted
// when it does not map to one span of a file.
func (p *Program) Text(e parser.Expr) string {
	if en, ok := e.(parser.Ender); ok {
		from, to := e.Start(), en.End()
		if src, ok := p.sources[from.File]; ok && from.File == to.File && from.Offset >= 0 && from.Offset < to.Offset && int(to.Offset) <= len(src) {
			return string(src[from.Offset:to.Offset])
		}
	}
	return parser.Format(e)
}

// withType is types with name bound to t, leaving types itself unchanged
// (it may be shared by other instantiations).
func withType(types map[string]*ctype.Type, name string, t *ctype.Type) map[string]*ctype.Type {
	out := make(map[string]*ctype.Type, len(types)+1)
	for k, v := range types {
		out[k] = v
	}
	out[name] = t
	return out
}

// isHostSource reports whether path is a C or C++ file read for its host
// code alone (driver/hostcpp.go).
func isHostSource(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".cpp", ".cc", ".cxx", ".c":
		return true
	}
	return false
}

// forgetAssignedGlobals makes unknown the file-scope variables of a C or
// C++ host file that its functions assign (static int imWidth = 0, set
// by the function that loads the image): a host function run on its own
// must not read the initial value as the one it sees. A function that
// runs after the assignment, inlined into the same run (main calling
// init() then go()), reads what was assigned. A pointer so assigned is
// an allocation of its own, as one declared without a value.
func (in *interp) forgetAssignedGlobals(f *parser.File) {
	assigned := map[string]bool{}
	for _, fn := range f.Funcs {
		if fn.Body == nil {
			continue
		}
		parser.WalkStmt(fn.Body, func(e parser.Expr) {
			var x parser.Expr
			switch e := e.(type) {
			case *parser.Binary:
				if e.Op.IsAssign() {
					x = e.X
				}
			case *parser.Unary:
				if e.Op == parser.Inc || e.Op == parser.Dec || e.Op == parser.AddrOf {
					x = e.X
				}
			case *parser.Postfix:
				x = e.X
			}
			if id, ok := x.(*parser.Ident); ok {
				assigned[id.Name] = true
			}
		})
	}
	for _, d := range f.Globals {
		if d.HasSpec("const") || d.HasSpec("constexpr") {
			continue
		}
		for _, dc := range d.Declarators {
			v, ok := in.vars[dc.Name]
			if !ok || !assigned[dc.Name] || len(dc.Dims) > 0 {
				continue
			}
			if v.kind == vPtr {
				in.vars[dc.Name] = in.zeroValue(v.typ, dc.Name, Local)
				continue
			}
			if v.kind == vInt {
				in.vars[dc.Name] = in.dataValue(symbolic.CauseNotModelled, dc.Name)
			}
		}
	}
}
