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
	"strings"

	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/internal/par"
	"github.com/cudalint/cudalint/parser"
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
}

// Site is a kernel<<<grid, block>>>(args) in host code, with what the
// host code says about its values and the kernels it can start.
type Site struct {
	interp.Launch
	// targets are the kernels of that name this launch can reach.
	targets map[*parser.Func]bool
}

// Reaches reports whether the launch can start kernel fn.
func (l *Site) Reaches(fn *parser.Func) bool { return l.targets[fn] }

// Instance names the type arguments of a launch, "" when there are none.
func (l *Site) Instance() string {
	var parts []string
	for i, t := range l.TypeArgs {
		if t != nil {
			parts = append(parts, t.String())
		} else if i < len(l.Targs) && l.Targs[i] != nil && l.Targs[i].Func != "" {
			parts = append(parts, "&"+l.Targs[i].Func)
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
			p.Launches = append(p.Launches, &Site{Launch: *l, targets: p.launchTargets(w.f, l.Kernel)})
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
func (p *Program) launchTargets(f *parser.File, name string) map[*parser.Func]bool {
	var all, inUnit, sameDir []*parser.Func
	for _, k := range p.kernelsNamed[name] {
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
