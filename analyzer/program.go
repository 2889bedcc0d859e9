package analyzer

import (
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/cudalint/cudalint/analyzer/ctype"
	"github.com/cudalint/cudalint/parser"
	"github.com/cudalint/cudalint/symbolic"
)

// Program is the set of analyzed files seen as one: kernels may be
// launched from a file other than the one defining them.
type Program struct {
	Files   []*parser.File
	types   *ctype.Types
	funcs   map[string][]*parser.Func
	globals map[string]value
	// fileGlobals are each file's own file-scope variables, by path.
	fileGlobals map[string]map[string]value
	// kernelsNamed and launchesOf index kernels and launches by name: a
	// file of thousands of kernels must not compare every launch with
	// every kernel.
	kernelsNamed map[string][]*parser.Func
	launchesOf   map[string][]*LaunchSite
	Kernels      []*parser.Func
	Launches     []*LaunchSite
	Notes        []parser.Note
	sources      map[string][]byte
}

// LaunchSite is a kernel<<<grid, block>>>(args) in host code, with what
// the host code says about its values.
type LaunchSite struct {
	Pos    parser.Pos
	Kernel string
	Grid   [3]symbolic.Expr
	Block  [3]symbolic.Expr
	Args   []value
	// Targs are the launch's template arguments: a value for each value
	// argument (nil for type arguments); TypeArgs the types of the type
	// arguments (nil for values).
	Targs    []*value
	TypeArgs []*ctype.Type
	// targets are the kernels of that name this launch can reach.
	targets map[*parser.Func]bool
}

// Reaches reports whether the launch can start kernel fn.
func (l *LaunchSite) Reaches(fn *parser.Func) bool { return l.targets[fn] }

// instance names the type arguments of a launch, "" when there are none.
func (l *LaunchSite) instance() string {
	var parts []string
	for _, t := range l.TypeArgs {
		if t != nil {
			parts = append(parts, t.String())
		} else {
			parts = append(parts, "_")
		}
	}
	return strings.Join(parts, ",")
}

// NewProgram indexes the functions, types and file-scope constants of files
// and finds the launches in their host code.
func NewProgram(files []*parser.File) *Program {
	p := &Program{Files: files, types: ctype.NewTypes(), funcs: map[string][]*parser.Func{}, globals: map[string]value{}, fileGlobals: map[string]map[string]value{}, sources: map[string][]byte{},
		kernelsNamed: map[string][]*parser.Func{}, launchesOf: map[string][]*LaunchSite{}}
	for _, f := range files {
		for path, src := range f.Sources {
			p.sources[path] = src
		}
		p.types.Add(f)
		for _, fn := range f.Funcs {
			p.funcs[fn.Name] = append(p.funcs[fn.Name], fn)
			if fn.Global && fn.Body != nil {
				p.Kernels = append(p.Kernels, fn)
				p.kernelsNamed[fn.Name] = append(p.kernelsNamed[fn.Name], fn)
			}
		}
	}
	p.types.Consts = p.constValue
	p.evalGlobals()
	p.findLaunches()
	return p
}

// constValue evaluates a constant expression (array sizes, globals).
func (p *Program) constValue(e parser.Expr) (int64, bool) {
	in := newInterp(p, true)
	v := in.eval(e)
	if v.kind != vInt {
		return 0, false
	}
	return symbolic.IsConst(v.x)
}

func (p *Program) evalGlobals() {
	for _, f := range p.Files {
		in := newInterp(p, false)
		in.record = false
		in.fileGlobals = p.fileGlobals[f.Path] // none yet: the file's own come from in.vars
		for _, d := range f.Globals {
			in.decl(d)
		}
		p.fileGlobals[f.Path] = in.vars
		for k, v := range in.vars {
			if _, seen := p.globals[k]; !seen {
				p.globals[k] = v
			}
		}
	}
}

// device returns the __device__ function called name that C++ could
// call with args: the right number of arguments, and pointer parameters
// whose pointee matches the argument's (there is no conversion from int*
// to double*: a file's own atomicAdd(double*, double) is not the one
// atomicAdd(&ints[i], 1) calls).
func (p *Program) device(name string, args []value) *parser.Func {
	for _, f := range p.funcs[name] {
		if !f.Device || f.Body == nil || len(f.Params) != len(args) {
			continue
		}
		if p.pointersMatch(f, args) {
			return f
		}
	}
	return nil
}

func (p *Program) pointersMatch(f *parser.Func, args []value) bool {
	for i, param := range f.Params {
		t := p.types.Resolve(param.Type)
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

func (p *Program) findLaunches() {
	for _, f := range p.Files {
		for _, fn := range f.Funcs {
			if !fn.Host || fn.Body == nil || !hasLaunch(fn.Body) {
				continue
			}
			in := newInterp(p, true)
			in.kernel = fn
			in.fileGlobals = p.fileGlobals[f.Path]
			for _, param := range fn.Params {
				if param.Name == "" {
					continue
				}
				// A pointer parameter is an allocation of its own; any other
				// parameter's value is unknown (a dim3& is not (1,1,1)).
				if t := p.types.Resolve(param.Type); t.Kind == ctype.TPointer {
					in.vars[param.Name] = in.zeroValue(t, param.Name, Local)
				} else {
					in.vars[param.Name] = in.dataValue(symbolic.CauseNotModelled, "parameter "+param.Name)
				}
			}
			in.block(fn.Body)
			for _, l := range in.launches {
				l.targets = p.launchTargets(f, l.Kernel)
			}
			p.Launches = append(p.Launches, in.launches...)
		}
	}
	sort.SliceStable(p.Launches, func(i, j int) bool { return posLess(p.Launches[i].Pos, p.Launches[j].Pos) })
	for _, l := range p.Launches {
		p.launchesOf[l.Kernel] = append(p.launchesOf[l.Kernel], l)
	}
}

// launchTargets returns the kernels called name that a launch in file f
// can reach. A project often holds many programs, each with its own
// kernel called "kernel": the one defined in f or a file it includes is
// the one launched; failing that, one in f's folder; failing that, any.
func (p *Program) launchTargets(f *parser.File, name string) map[*parser.Func]bool {
	var all, inUnit, sameDir []*parser.Func
	for _, k := range p.kernelsNamed[name] {
		all = append(all, k)
		if k.P.File == f.Path || slices.Contains(f.Includes, k.P.File) {
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

func hasLaunch(b *parser.Block) bool {
	found := false
	parser.WalkStmt(b, func(e parser.Expr) {
		if _, ok := e.(*parser.Launch); ok {
			found = true
		}
	})
	return found
}

func posLess(a, b parser.Pos) bool {
	if a.File != b.File {
		return a.File < b.File
	}
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	return a.Col < b.Col
}

// launch records kernel<<<grid, block, ...>>>(args) met in host code.
func (in *interp) launch(e *parser.Launch) value {
	site := &LaunchSite{Pos: e.Start(), Kernel: calleeName(e.Kernel)}
	if id, ok := e.Kernel.(*parser.Ident); ok {
		for _, ta := range id.Targs {
			if ta.Value == nil {
				site.Targs = append(site.Targs, nil)
				site.TypeArgs = append(site.TypeArgs, in.resolve(ta.Type))
				continue
			}
			v := in.eval(ta.Value)
			site.Targs = append(site.Targs, &v)
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
					d[i] = fv.x
				}
			}
			return d
		case vInt:
			return [3]symbolic.Expr{v.x, symbolic.Const(1), symbolic.Const(1)}
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
	for _, a := range e.Args {
		site.Args = append(site.Args, in.eval(a))
	}
	if in.record && site.Grid[0] != nil {
		in.launches = append(in.launches, site)
	}
	return intValue(symbolic.Const(0))
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

// Dim3 is a block or grid shape.
type Dim3 [3]int64

func (d Dim3) String() string {
	switch {
	case d[2] != 1:
		return fmt.Sprintf("%dx%dx%d", d[0], d[1], d[2])
	case d[1] != 1:
		return fmt.Sprintf("%dx%d", d[0], d[1])
	}
	return fmt.Sprintf("%d", d[0])
}

// Threads is the number of threads in the shape.
func (d Dim3) Threads() int64 { return d[0] * d[1] * d[2] }

// ParseDim3 reads "256", "16x16" or "8x8x4".
func ParseDim3(s string) (Dim3, error) {
	d := Dim3{1, 1, 1}
	parts := strings.Split(strings.ToLower(strings.TrimSpace(s)), "x")
	if len(parts) > 3 {
		return d, fmt.Errorf("block shape %q has more than three dimensions", s)
	}
	for i, part := range parts {
		var v int64
		if _, err := fmt.Sscan(part, &v); err != nil || v <= 0 {
			return d, fmt.Errorf("block shape %q: %q is not a positive number", s, part)
		}
		d[i] = v
	}
	if d.Threads() > 1024 {
		return d, fmt.Errorf("block shape %q has %d threads; CUDA allows at most 1024", s, d.Threads())
	}
	return d, nil
}
