package interp

import (
	"slices"
	"strings"

	"github.com/cudalint/cudalint/analyzer/ctype"
	"github.com/cudalint/cudalint/parser"
	"github.com/cudalint/cudalint/symbolic"
)

// unit is one translation unit of the program: a file with what it
// includes, as its macros made them. A project holds many programs
// (llm.c's dev/cuda: floatX is float in one file and __nv_bfloat16 in
// the next, and each has its own layernorm_forward_kernel1 and helpers),
// so a name resolves within the unit of the code being interpreted, and
// in the whole program only where the unit defines none (a header
// analyzed alone relies on its includer; an -rdc program calls a
// function another file defines).
type unit struct {
	prog *Program
	// path is the file's; "" for the program-wide unit.
	path string
	// funcs indexes the unit's own functions; nil for the program-wide
	// unit, whose lookups are the program's.
	funcs map[string][]*parser.Func
	// types resolves the unit's type names, the program's as fallback.
	types *ctype.Types
	// usings are the unit's using-directives and -declarations at
	// namespace scope.
	usings []*parser.Using
}

// unitOf returns the translation unit of file f (the program-wide one
// for nil), made on first use: kernels are interpreted concurrently.
func (p *Program) unitOf(f *parser.File) *unit {
	if f == nil {
		return p.all
	}
	p.unitMu.Lock()
	defer p.unitMu.Unlock()
	if u, ok := p.units[f]; ok {
		return u
	}
	u := p.newUnit(f)
	p.units[f] = u
	return u
}

// newUnit indexes what f's translation unit defines: its functions and
// types only, the program's are reached through the fallback.
func (p *Program) newUnit(f *parser.File) *unit {
	d := f.UnitDecls()
	u := &unit{prog: p, path: f.Path, funcs: make(map[string][]*parser.Func, len(d.Funcs)), types: p.types, usings: d.Usings}
	for _, fn := range d.Funcs {
		u.funcs[fn.Name] = append(u.funcs[fn.Name], fn)
	}
	if len(d.Structs) > 0 || len(d.Typedefs) > 0 {
		u.types = ctype.NewUnitTypes(p.types)
		u.types.Declare(d.Structs, d.Typedefs)
		u.types.Consts = func(e parser.Expr, resolve func(*parser.TypeRef) *ctype.Type) (int64, bool) {
			return p.constIn(u, e, resolve)
		}
	}
	return u
}

// InUnit reports whether fn is defined in file f's translation unit:
// in f or in a header f includes, as f's macros made it.
func (p *Program) InUnit(f *parser.File, fn *parser.Func) bool {
	for _, g := range p.unitOf(f).funcs[fn.Name] {
		if g == fn || g.P == fn.P {
			return true
		}
	}
	return false
}

// candidates returns the functions called name to choose from: the
// unit's when it defines one that keep accepts, else the program's.
// Callers filter the list as keep does.
func (u *unit) candidates(name string, keep func(*parser.Func) bool) []*parser.Func {
	if own := u.funcs[name]; u.funcs != nil && slices.ContainsFunc(own, keep) {
		return own
	}
	return u.prog.funcs[name]
}

func isDeviceDef(f *parser.Func) bool { return f.Device && f.Body != nil }

func isKernel(f *parser.Func) bool { return f.Global }

func anyFunc(*parser.Func) bool { return true }

// device returns the __device__ function that the name written (f,
// ns::f) calls with args, as C++ looks it up (lookup.go) and then
// resolves the overload: the right number of arguments, and pointer
// parameters whose pointee matches the argument's (there is no
// conversion from int* to double*: a file's own atomicAdd(double*,
// double) is not the one atomicAdd(&ints[i], 1) calls).
func (in *interp) device(written string, args []value) *parser.Func {
	return in.deviceFor(written, nil, args)
}

// deviceCalled is the __device__ function call site calls: device's,
// with the template arguments the call writes (f<T, N>(...)) choosing
// among explicit specializations.
func (in *interp) deviceCalled(written string, site *parser.Call, args []value) *parser.Func {
	var targs []parser.TemplateArg
	if id, ok := site.Fun.(*parser.Ident); ok {
		targs = id.Targs
	}
	return in.deviceFor(written, targs, args)
}

// deviceFor picks the function: an explicit specialization whose
// arguments are the call's targs, else the first other one that fits.
// A specialization is not the template: without template arguments
// written, or with others, it is chosen only where nothing else fits
// (as an overload would be).
func (in *interp) deviceFor(written string, targs []parser.TemplateArg, args []value) *parser.Func {
	name := written
	if i := strings.LastIndex(written, "::"); i >= 0 {
		name = written[i+2:]
	}
	var primary, other *parser.Func
	for _, f := range in.inLookupOrder(written, in.unit.candidates(name, isDeviceDef)) {
		if !f.Device || f.Body == nil || !arityFits(f.Params, len(args)) || !in.pointersMatch(f, args) || !in.arrayLensMatch(f, args) {
			continue
		}
		switch {
		case !f.Specialized:
			if primary == nil {
				primary = f
			}
		case len(targs) > 0 && in.sameTemplateArgs(f.SpecArgs, targs):
			return f
		case other == nil && len(targs) == 0:
			other = f
		}
	}
	if primary != nil {
		return primary
	}
	return other
}

// sameTemplateArgs reports whether template arguments a and b, as
// written, are the same here: types that resolve alike, values that
// evaluate to the same constant.
func (in *interp) sameTemplateArgs(a, b []parser.TemplateArg) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, okX := in.templateArg(a[i])
		y, okY := in.templateArg(b[i])
		if !okX || !okY || !sameArg(x, y) {
			return false
		}
	}
	return true
}

// templateArg is what a template argument stands for here: a type whose
// layout is known, or a constant. A value argument the parser read as a
// type name (N) is the value it names, when it names one.
func (in *interp) templateArg(a parser.TemplateArg) (ctype.TemplateArg, bool) {
	if a.Type != nil && len(a.Type.Words) == 1 && a.Type.Ptr == 0 && len(a.Type.Targs) == 0 {
		if v, ok := in.lookup(a.Type.Words[0]); ok && v.kind == vInt {
			a = parser.TemplateArg{Value: &parser.Ident{P: a.Type.P, Name: a.Type.Words[0]}}
		}
	}
	if a.Value != nil {
		v := in.eval(a.Value)
		if v.kind != vInt || v.x == nil {
			return ctype.TemplateArg{}, false
		}
		// A value parameter of the kernel's template is its instance's
		// value (copy_vector<T, N> in k<half, 4>).
		c, ok := symbolic.IsConst(in.sized(v.x))
		return ctype.TemplateArg{Value: c}, ok
	}
	t := in.resolve(a.Type)
	return ctype.TemplateArg{Type: t}, t != nil && t.LayoutKnown()
}

// sameArg: the same constant, or the same type (ctype.Same).
func sameArg(a, b ctype.TemplateArg) bool {
	if a.Type == nil || b.Type == nil {
		return a.Type == nil && b.Type == nil && a.Value == b.Value
	}
	return ctype.Same(a.Type, b.Type)
}

// arrayLensMatch reports whether the arrays args name have the lengths
// f's array reference parameters fix (ldg(int (&dst)[1], ...) is not
// the ldg(int (&dst)[2], ...) an int[2] calls); a length either side
// does not give matches.
func (in *interp) arrayLensMatch(f *parser.Func, args []value) bool {
	for i, p := range f.Params {
		if p.ArrayLen == nil || i >= len(args) {
			continue
		}
		n := arrayLen(args[i])
		if n <= 0 {
			continue
		}
		if id, ok := p.ArrayLen.(*parser.Ident); ok && slices.ContainsFunc(f.Template, func(tp parser.TemplateParam) bool { return tp.Name == id.Name }) {
			continue // deduced (deduceArrayLens)
		}
		if lit, ok := p.ArrayLen.(*parser.IntLit); ok && lit.Value != n {
			return false
		}
	}
	return true
}

// arityFits reports whether n arguments can call a function with params:
// as many, or, past a parameter pack (which may be empty), any number.
func arityFits(params []*parser.Param, n int) bool {
	for i, p := range params {
		if p.Pack {
			return n >= len(params)-1 && n >= i
		}
	}
	return len(params) == n
}

func (in *interp) pointersMatch(f *parser.Func, args []value) bool {
	for i, param := range f.Params {
		if param.Pack {
			break // the arguments from here on are the pack's, or after it
		}
		t := in.resolveNamed(param.Type)
		a := args[i]
		if t.Kind != ctype.TPointer || a.kind != vPtr || a.ptr.elem == nil {
			continue
		}
		want, got := t.Elem, a.ptr.elem
		if !want.LayoutKnown() || !got.LayoutKnown() || want.Kind == ctype.TVoid || got.Kind == ctype.TVoid {
			continue // a template or void pointer: anything goes
		}
		if want.Size != got.Size || want.Kind != got.Kind {
			return false
		}
	}
	return true
}
