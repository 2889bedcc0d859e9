package interp

import (
	"sort"
	"strings"

	"github.com/cudalint/cudalint/analyzer/ctype"
	"github.com/cudalint/cudalint/parser"
)

// Host function templates that launch kernels: a launch inside
// template <class T> void run(T* d) { k<T><<<g, b>>>(d); } is made once
// per instantiation the program makes, each with its own types.

// Instantiation is a host function template with its type parameters
// bound: by a call (run<float>(a), or run(d) with T deduced from d) or
// by an explicit instantiation (template void run<int>(int*);).
type Instantiation struct {
	Func     *parser.Func
	TypeArgs map[string]*ctype.Type
	// FuncArgs binds its function parameters to the __device__
	// functions named (launcher<matmul_naive>): a launch inside passes
	// them on (k<F><<<...>>>).
	FuncArgs map[string]string
}

// Key names the instantiation: the function's position and its bound
// types, in parameter order.
func (i Instantiation) Key() string {
	names := make([]string, 0, len(i.TypeArgs))
	for k := range i.TypeArgs {
		names = append(names, k)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString(i.Func.P.String())
	for _, k := range names {
		b.WriteString(" " + k + "=" + i.TypeArgs[k].String())
	}
	funcs := make([]string, 0, len(i.FuncArgs))
	for k := range i.FuncArgs {
		funcs = append(funcs, k)
	}
	sort.Strings(funcs)
	for _, k := range funcs {
		b.WriteString(" " + k + "=&" + i.FuncArgs[k])
	}
	return b.String()
}

// IsHostTemplate reports whether fn is a host function template over
// types or functions that launches kernels.
func IsHostTemplate(fn *parser.Func) bool {
	if !fn.Host || fn.Device || fn.Global || fn.Body == nil {
		return false
	}
	for i, tp := range fn.Template {
		if tp.IsType || parser.FuncParam(fn.Template, i) {
			return true
		}
	}
	return false
}

// HostRun is HostLaunches with fn's template parameters bound as inst
// says (none: not bound), and the instantiations of host function templates
// that fn's calls make.
func (p *Program) HostRun(f *parser.File, fn *parser.Func, inst Instantiation) ([]*Launch, []Instantiation) {
	in := newInterp(p.unitOf(f), true)
	in.typeArgs = inst.TypeArgs
	in.hostFuncArgs = inst.FuncArgs
	launches := p.hostLaunches(in, f, fn)
	return launches, in.insts
}

// Instantiations are the explicit instantiations the files declare of
// host function templates.
func (p *Program) Instantiations() []Instantiation {
	var out []Instantiation
	for _, f := range p.Files {
		for _, id := range f.Instantiations {
			u := p.unitOf(f)
			for _, fn := range u.candidates(id.Name, IsHostTemplate) {
				if !IsHostTemplate(fn) {
					continue
				}
				in := newInterp(u, true)
				fr := newFrame()
				in.bindTemplate(fn.Template, id.Targs, fr)
				if bound(fn, fr.types) {
					out = append(out, Instantiation{Func: fn, TypeArgs: fr.types})
				}
			}
		}
	}
	return out
}

// hostTemplateCall records the instantiation a host call of a host
// function template makes, its type arguments written or deduced.
func (in *interp) hostTemplateCall(e *parser.Call, name string, args []value) {
	for _, fn := range in.unit.candidates(name, IsHostTemplate) {
		if !IsHostTemplate(fn) || len(fn.Params) != len(args) {
			continue
		}
		fr := in.templateFrame(fn, e, args)
		if fr != nil && bound(fn, fr.types) {
			in.insts = append(in.insts, Instantiation{Func: fn, TypeArgs: fr.types, FuncArgs: funcArgsOf(fn, fr)})
		}
	}
}

// funcArgsOf are the __device__ functions a call binds fn's function
// parameters to; nil when none.
func funcArgsOf(fn *parser.Func, fr *frame) map[string]string {
	var out map[string]string
	for i, tp := range fn.Template {
		if v, ok := fr.vals[tp.Name]; ok && parser.FuncParam(fn.Template, i) && v.closure != nil && v.closure.fn != "" {
			if out == nil {
				out = map[string]string{}
			}
			out[tp.Name] = v.closure.fn
		}
	}
	return out
}

// bound reports whether types binds every type parameter of fn.
func bound(fn *parser.Func, types map[string]*ctype.Type) bool {
	for _, tp := range fn.Template {
		if t, ok := types[tp.Name]; tp.IsType && (!ok || t == nil || t.Kind == ctype.TUnknown) {
			return false
		}
	}
	return true
}

// IsHostTemplateName reports whether name (qualified or not) is a host
// function template that launches kernels.
func (p *Program) IsHostTemplateName(name string) bool {
	if i := strings.LastIndex(name, "::"); i >= 0 {
		name = name[i+2:]
	}
	for _, fn := range p.funcs[name] {
		if IsHostTemplate(fn) {
			return true
		}
	}
	return false
}
