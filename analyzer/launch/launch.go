// Package launch is launch discovery: where host code launches each
// kernel and what a launch configuration is. NewProgram interprets every
// host function that holds a kernel<<<grid, block>>>(args) (through
// interp) and indexes the launches by kernel, each reaching the kernels
// of its translation unit first (Site). Configs turns a kernel's launches
// into launch configurations (Config: a block shape with where it came
// from, the grid, the integer arguments and pointer offsets a launch
// gives); a kernel no launch reaches takes a cudalint:block annotation,
// its __launch_bounds__, or DefaultBlock.
package launch

import (
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/cudalint/cudalint/analyzer/ctype"
	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/internal/par"
	"github.com/cudalint/cudalint/parser"
	"github.com/cudalint/cudalint/symbolic"
)

// Program is the set of analyzed files seen as one, with the launches in
// their host code: kernels may be launched from a file other than the one
// defining them.
type Program struct {
	*interp.Program
	Launches []*Site
	// kernelsNamed and launchesOf index kernels and launches by name: a
	// file of thousands of kernels must not compare every launch with
	// every kernel.
	kernelsNamed map[string][]*parser.Func
	launchesOf   map[string][]*Site
	// picksSpec memoizes picksSpecialization, which the kernels'
	// analyses ask concurrently.
	picksMu   sync.Mutex
	picksSpec map[*parser.Func]bool
}

// Site is a kernel<<<grid, block>>>(args) in host code, with what the
// host code says about its values and the kernels it can start.
type Site struct {
	interp.Launch
	// targets are the kernels of that name this launch can reach.
	targets map[*parser.Func]bool
	// byValue: the instance names the template values too (see
	// interp.Program.ValueSpecialized).
	byValue bool
}

// Reaches reports whether the launch can start kernel fn.
func (l *Site) Reaches(fn *parser.Func) bool { return l.targets[fn] }

// Instance names the type arguments of a launch, "" when there are none;
// in a program with explicit specializations, the constant values too.
func (l *Site) Instance() string {
	var parts []string
	for i, t := range l.TypeArgs {
		var value int64
		isValue := false
		if l.byValue && i < len(l.Targs) && l.Targs[i] != nil && l.Targs[i].Int != nil {
			value, isValue = symbolic.IsConst(l.Targs[i].Int)
		}
		if t != nil {
			parts = append(parts, t.String())
		} else if i < len(l.Targs) && l.Targs[i] != nil && l.Targs[i].Func != "" {
			parts = append(parts, "&"+l.Targs[i].Func)
		} else if isValue {
			parts = append(parts, strconv.FormatInt(value, 10))
		} else {
			parts = append(parts, "_")
		}
	}
	return strings.Join(parts, ",")
}

// NewProgram indexes the functions, types and file-scope constants of
// files and finds the launches in their host code.
func NewProgram(files []*parser.File) *Program { return NewProgramIn(files, nil) }

// NewProgramIn is NewProgram taking what host functions launch from
// memo's index where their items are unchanged (see Memo); nil: none.
func NewProgramIn(files []*parser.File, memo *Index) *Program {
	p := &Program{Program: interp.NewProgram(files), kernelsNamed: map[string][]*parser.Func{}, launchesOf: map[string][]*Site{}}
	for _, fn := range p.Kernels {
		p.kernelsNamed[fn.Name] = append(p.kernelsNamed[fn.Name], fn)
	}
	p.findLaunches(memo)
	return p
}

// LaunchesOf returns the launches of kernels called name, in source order.
func (p *Program) LaunchesOf(name string) []*Site { return p.launchesOf[name] }

// KernelsNamed returns the kernels called name: a header's kernel once
// per translation unit that includes it.
func (p *Program) KernelsNamed(name string) []*parser.Func { return p.kernelsNamed[name] }

func (p *Program) findLaunches(memo *Index) {
	tmpl := newHostTemplates()
	var work []hostWork
	skip := p.unreported(memo)
	for _, f := range p.Files {
		for _, fn := range hostCandidates(f) {
			if !fn.Host || fn.Global || fn.Body == nil || !(hasLaunch(fn.Body) || p.LaunchesKernel(fn) || p.callsHostTemplate(fn)) || skip(fn) {
				continue
			}
			work = append(work, hostWork{f: f, fn: fn, tmpl: interp.IsHostTemplate(fn)})
		}
	}
	// The host functions are interpreted on every core, each on its own
	// interpreter; what they give is taken in file order, as if one by one.
	par.Each(len(work), func(i int) {
		w := &work[i]
		if w.tmpl {
			return
		}
		w.launches, w.insts = memo.hostRun(w.f, interp.Instantiation{Func: w.fn}, func() ([]*interp.Launch, []interp.Instantiation) {
			return p.HostRun(w.f, w.fn, interp.Instantiation{Func: w.fn})
		})
	})
	for _, w := range work {
		if w.tmpl {
			tmpl.add(w.f, w.fn) // launched once per instantiation, below
			continue
		}
		tmpl.made(w.insts)
		for _, l := range w.launches {
			p.Launches = append(p.Launches, p.site(w.f, l))
		}
	}
	p.instantiate(tmpl, memo)
	p.Launches = supersede(p.Launches)
	sort.SliceStable(p.Launches, func(i, j int) bool { return p.Launches[i].Pos.Before(p.Launches[j].Pos) })
	for _, l := range p.Launches {
		p.launchesOf[l.Kernel] = append(p.launchesOf[l.Kernel], l)
	}
}

// launchTargets returns the kernels called name that a launch in file f
// can reach. A project often holds many programs, each with its own
// kernel called "kernel": the one defined in f's translation unit (f and
// what it includes, as its macros made it) is the one launched; failing
// that (an -rdc program), one in f's folder; failing that, any.
func (p *Program) launchTargets(f *parser.File, l *interp.Launch) map[*parser.Func]bool {
	var all, inUnit, sameDir []*parser.Func
	for _, k := range p.specializationOf(p.kernelsNamed[l.Kernel], l) {
		all = append(all, k)
		if k.P.File == f.Path || p.InUnit(f, k) {
			inUnit = append(inUnit, k)
		}
		if filepath.Dir(k.P.File) == filepath.Dir(f.Path) {
			sameDir = append(sameDir, k)
		}
	}
	pick := all
	switch {
	case len(inUnit) > 0:
		pick = inUnit
	case len(sameDir) > 0:
		pick = sameDir
	}
	out := map[*parser.Func]bool{}
	for _, k := range pick {
		out[k] = true
	}
	return out
}

// site is launch l of file f with the kernels it reaches.
func (p *Program) site(f *parser.File, l *interp.Launch) *Site {
	st := &Site{Launch: *l, targets: p.launchTargets(f, l)}
	for k := range st.targets {
		st.byValue = st.byValue || p.picksSpecialization(k)
	}
	return st
}

// picksSpecialization reports whether kernel fn, a template over values,
// calls (itself or through the device functions it calls) a function
// template with explicit specializations: which one runs can rest on
// its template values (copy_vector<T, ELEMENTS>), so its launches are
// told apart by them.
func (p *Program) picksSpecialization(fn *parser.Func) bool {
	if !p.ValueSpecialized || len(fn.Template) == 0 {
		return false
	}
	p.picksMu.Lock()
	defer p.picksMu.Unlock()
	if v, ok := p.picksSpec[fn]; ok {
		return v
	}
	if p.picksSpec == nil {
		p.picksSpec = map[*parser.Func]bool{}
	}
	seen := map[string]bool{}
	var reaches func(body parser.Stmt, depth int) bool
	reaches = func(body parser.Stmt, depth int) bool {
		found := false
		parser.WalkStmt(body, func(e parser.Expr) {
			c, ok := e.(*parser.Call)
			if !ok || found {
				return
			}
			id, ok := c.Fun.(*parser.Ident)
			if !ok || seen[id.Name] {
				return
			}
			seen[id.Name] = true
			for _, g := range p.FuncsNamed(id.Name) {
				if g.Specialized || depth < 8 && g.Device && g.Body != nil && reaches(g.Body, depth+1) {
					found = true
					return
				}
			}
		})
		return found
	}
	v := fn.Body != nil && reaches(fn.Body, 0)
	p.picksSpec[fn] = v
	return v
}

// specializationOf narrows kernels of one name to those launch l starts:
// the explicit specializations whose arguments are the launch's (template
// <> __global__ void k<float>(...) for k<float><<<...>>>), else the
// others. A specialization whose arguments cannot be compared is kept
// with the others: it may be the one.
func (p *Program) specializationOf(ks []*parser.Func, l *interp.Launch) []*parser.Func {
	var matched, rest []*parser.Func
	for _, k := range ks {
		if !k.Specialized {
			rest = append(rest, k)
			continue
		}
		switch match, sure := p.specMatches(k, l); {
		case match:
			matched = append(matched, k)
		case !sure:
			rest = append(rest, k)
		}
	}
	if len(matched) > 0 {
		return matched
	}
	return rest
}

// specMatches reports whether specialization k's arguments are launch
// l's, and whether that could be decided (each argument a type whose
// layout is known or a constant, on both sides).
func (p *Program) specMatches(k *parser.Func, l *interp.Launch) (match, sure bool) {
	if len(k.SpecArgs) != len(l.Targs) {
		return false, len(l.Targs) > 0
	}
	types := p.Types()
	for i, a := range k.SpecArgs {
		var got *ctype.Type
		if i < len(l.TypeArgs) {
			got = l.TypeArgs[i]
		}
		switch {
		case a.Value != nil:
			want, okW := types.Consts(a.Value, types.Resolve)
			if l.Targs[i] == nil || l.Targs[i].Int == nil || !okW {
				return false, false
			}
			v, ok := symbolic.IsConst(l.Targs[i].Int)
			if !ok {
				return false, false
			}
			if v != want {
				return false, true
			}
		case a.Type != nil:
			want := types.Resolve(a.Type)
			if got == nil || want == nil || !want.LayoutKnown() || !got.LayoutKnown() {
				return false, false
			}
			if !ctype.Same(want, got) {
				return false, true
			}
		}
	}
	return true, true
}

// hostCandidates are the functions of f that may launch kernels: its
// functions, and the member functions its classes define in their bodies
// (a launch in a method of a class or class template: run() { k<<<g,
// b>>>(...); }), which the class's callers reach. A method runs with its
// object's members unknown.
func hostCandidates(f *parser.File) []*parser.Func {
	out := f.Funcs
	for _, s := range f.Structs {
		for _, m := range s.Methods {
			if m.Body != nil && hasLaunch(m.Body) {
				out = append(out[:len(out):len(out)], m)
			}
		}
	}
	return out
}

func hasLaunch(b *parser.Block) bool {
	found := false
	parser.WalkStmt(b, func(e parser.Expr) {
		switch e := e.(type) {
		case *parser.Launch:
			found = true
		case *parser.Call:
			found = found || interp.IsLaunchCall(e)
		}
	})
	return found
}
