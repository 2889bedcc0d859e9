// Package analyzer is the model's orchestration: Analyze finds the
// program's kernels and launches (launch), interprets each kernel once
// per set of template arguments it is launched with (interp), derives its
// launch configurations (launch) with the user's answers applied
// (Options), and predicts every global and shared access under each of
// them (warp), concurrently, a bug costing one kernel or configuration
// (InternalError) and never the run. C layout is ctype's.
package analyzer

import (
	"fmt"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/cudalint/cudalint/analyzer/ctype"
	"github.com/cudalint/cudalint/parser"
	"github.com/cudalint/cudalint/symbolic"
)

// Block-shape sources, most specific first.
const (
	FromConfig     = "config"        // --block or the config file
	FromLaunch     = "launch"        // a kernel<<<grid, block>>> in the analyzed files
	FromAnnotation = "annotation"    // a // cudalint:block comment above the kernel
	FromBounds     = "launch-bounds" // __launch_bounds__(n) on the kernel, when no launch is found
	FromDefault    = "default"       // DefaultBlock
)

// DefaultBlock is the block shape assumed for a kernel with no launch,
// annotation or configuration: 256 threads, laid out along the dimensions
// the kernel uses.
func DefaultBlock(usesY, usesZ bool) Dim3 {
	switch {
	case usesZ:
		return Dim3{8, 8, 4}
	case usesY:
		return Dim3{16, 16, 1}
	}
	return Dim3{256, 1, 1}
}

// boundsBlock is the block shape __launch_bounds__(n) suggests when no
// launch gives one: n threads in x for a 1D kernel; for a 2D one, rows of
// a power of two near the square root of n, at most a warp (256 gives
// 16x16, as the default; 1024 gives 32x32, 512 32x16). A 3D kernel keeps
// the default.
func boundsBlock(prog *Program, fn *parser.Func, usesY, usesZ bool) (Dim3, bool) {
	if fn.LaunchBounds == nil || usesZ {
		return Dim3{}, false
	}
	n, ok := prog.constValue(fn.LaunchBounds)
	if !ok || n <= 0 || n > 1024 {
		return Dim3{}, false
	}
	if !usesY {
		return Dim3{n, 1, 1}, true
	}
	x := int64(1)
	for x*x < n && x < 32 {
		x *= 2
	}
	if n%x != 0 {
		return Dim3{}, false
	}
	return Dim3{x, n / x, 1}, true
}

// LaunchConfig is one way a kernel runs: a block shape and what is known
// of the grid and the arguments.
type LaunchConfig struct {
	Block       Dim3
	BlockSource string
	// At is where the block shape comes from: the launch or the annotation.
	At parser.Pos
	// Grid holds the launch's grid; a dimension the launch does not give
	// as a constant is AssumedGrid's, and GridKnown says which are known.
	Grid      Dim3
	GridKnown [3]bool
	// Params are integer parameters with known values; Bases the byte
	// offsets at which pointer parameters point into their allocations.
	Params map[string]int64
	Bases  map[string]int64
}

// Describe says where the block shape came from, for messages.
func (c *LaunchConfig) Describe() string {
	switch c.BlockSource {
	case FromLaunch:
		return fmt.Sprintf("block %s from launch at %s:%d", c.Block, baseName(c.At.File), c.At.Line)
	case FromAnnotation:
		return fmt.Sprintf("block %s from annotation at %s:%d", c.Block, baseName(c.At.File), c.At.Line)
	case FromConfig:
		return fmt.Sprintf("block %s from configuration", c.Block)
	case FromBounds:
		return fmt.Sprintf("block %s from __launch_bounds__ (no launch found)", c.Block)
	}
	return fmt.Sprintf("block %s by default (no launch found)", c.Block)
}

func baseName(p string) string {
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		return p[i+1:]
	}
	return p
}

// Options are the user's answers to what the source does not say.
type Options struct {
	// Blocks maps kernel names to block shapes; they override launches.
	Blocks map[string]Dim3
	// Params maps "kernel.param" or "param" to a value.
	Params map[string]int64
	// Scope, when set, gives the settings that govern a file (its
	// folder's configuration): a kernel takes those of the file that
	// defines it, so one folder's settings never reach another's
	// kernels. Blocks and Params above (the command line) override them.
	Scope func(file string) Settings
}

// Settings are the blocks and parameter values one configuration gives.
type Settings struct {
	Blocks map[string]Dim3
	Params map[string]int64
}

// blockOf is the block shape the user gave for kernel fn, if any.
func (o Options) blockOf(fn *parser.Func) (Dim3, bool) {
	if d, ok := o.Blocks[fn.Name]; ok {
		return d, true
	}
	if o.Scope == nil {
		return Dim3{}, false
	}
	d, ok := o.Scope(fn.P.File).Blocks[fn.Name]
	return d, ok
}

// paramOf is the value the user gave for parameter name of kernel fn:
// "kernel.name" before "name", the command line before the scope.
// Qualified says whether it was given for this kernel alone.
func (o Options) paramOf(fn *parser.Func, name string) (v int64, qualified, ok bool) {
	var scoped map[string]int64
	if o.Scope != nil {
		scoped = o.Scope(fn.P.File).Params
	}
	for _, m := range []map[string]int64{o.Params, scoped} {
		if v, ok := m[fn.Name+"."+name]; ok {
			return v, true, true
		}
	}
	for _, m := range []map[string]int64{o.Params, scoped} {
		if v, ok := m[name]; ok {
			return v, false, true
		}
	}
	return 0, false, false
}

// Kernel is one analyzed kernel.
type Kernel struct {
	Func     *parser.Func
	File     string
	Accesses []*Access
	Configs  []*LaunchConfig
	Notes    []parser.Note
	params   map[string]bool
}

// Result is the analysis of a set of files.
type Result struct {
	Program     *Program
	Kernels     []*Kernel
	Predictions []*Prediction
	// InternalErrors are the bugs of cudalint the analysis met, in the
	// order of the kernels; each cost one kernel or one of its launch
	// configurations, and the rest was analyzed.
	InternalErrors []InternalError
}

// Analyze interprets every kernel of files and predicts each global access
// under each launch configuration that reaches it.
func Analyze(files []*parser.File, opts Options) *Result {
	prog := NewProgram(files)
	r := &Result{Program: prog}
	// A kernel in a header included by several files is analyzed once, in
	// the context of its first includer.
	type job struct {
		f        *parser.File
		fn       *parser.Func
		instance string // type arguments, for template kernels
	}
	var jobs []job
	seen := map[parser.Pos]bool{}
	for _, f := range files {
		for _, fn := range f.Funcs {
			if !fn.Global || fn.Body == nil || seen[fn.P] {
				continue
			}
			seen[fn.P] = true
			// A template kernel is analyzed once per distinct set of type
			// arguments its launches use (and generically without any).
			for _, inst := range instances(prog, fn) {
				jobs = append(jobs, job{f, fn, inst})
			}
		}
	}
	// Kernels are independent: analyze them concurrently, keep their order.
	kernels := make([]*Kernel, len(jobs))
	preds := make([][]*Prediction, len(jobs))
	errs := make([][]InternalError, len(jobs))
	parallel(len(jobs), func(i int) {
		kernels[i], preds[i], errs[i] = analyzeJob(prog, jobs[i].f, jobs[i].fn, opts, jobs[i].instance)
	})
	r.Kernels = kernels
	for i, ps := range preds {
		r.Predictions = append(r.Predictions, ps...)
		r.InternalErrors = append(r.InternalErrors, errs[i]...)
	}
	sort.SliceStable(r.Predictions, func(i, j int) bool {
		a, b := r.Predictions[i].Access, r.Predictions[j].Access
		if a.Pos != b.Pos {
			return posLess(a.Pos, b.Pos)
		}
		return a.Op < b.Op
	})
	return r
}

// analyzeJob analyzes one kernel and predicts its accesses under each of
// its launch configurations. A bug in the interpretation costs the kernel
// (it is returned with no accesses); one in a prediction costs only that
// configuration.
func analyzeJob(prog *Program, f *parser.File, fn *parser.Func, opts Options, instance string) (*Kernel, []*Prediction, []InternalError) {
	var k *Kernel
	if ie := contain(fn, nil, func() { k = analyzeKernel(prog, f, fn, opts, instance) }); ie != nil {
		return &Kernel{Func: fn, File: f.Path}, nil, []InternalError{*ie}
	}
	var preds []*Prediction
	var errs []InternalError
	for _, cfg := range k.Configs {
		var ps []*Prediction
		if ie := contain(fn, cfg, func() { ps = predictKernel(k, cfg) }); ie != nil {
			errs = append(errs, *ie)
			continue
		}
		preds = append(preds, ps...)
	}
	return k, preds, errs
}

// parallel runs f(0..n-1) on GOMAXPROCS goroutines.
func parallel(n int, f func(int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				f(i)
			}
		}()
	}
	wg.Wait()
}

// instances lists the type-argument sets a kernel is launched with: ""
// for a kernel without type parameters or launches that give them.
func instances(prog *Program, fn *parser.Func) []string {
	if !hasTypeParams(fn) {
		return []string{""}
	}
	var out []string
	seen := map[string]bool{}
	for _, l := range prog.launchesOf[fn.Name] {
		if l.Reaches(fn) && !seen[l.instance()] {
			seen[l.instance()] = true
			out = append(out, l.instance())
		}
	}
	if len(out) == 0 {
		return []string{""}
	}
	return out
}

func analyzeKernel(prog *Program, f *parser.File, fn *parser.Func, opts Options, instance string) *Kernel {
	hook("interpret", fn, nil)
	in := newInterp(prog, false)
	in.kernel = fn
	in.fileGlobals = prog.fileGlobals[f.Path]
	if instance != "" {
		in.typeArgs = typeArgsOf(prog, fn, instance)
	}
	for _, tp := range fn.Template {
		if !tp.IsType {
			in.params[tp.Name] = true
			in.vars[tp.Name] = intValue(paramSym(tp.Name))
		}
	}
	for _, p := range fn.Params {
		if p.Name != "" {
			in.vars[p.Name] = in.paramValue(p.Name, in.resolve(p.Type))
		}
	}
	in.block(fn.Body)
	k := &Kernel{Func: fn, File: f.Path, Accesses: in.accesses, Notes: in.notes, params: in.params}
	usesY, usesZ := usesDims(in.accesses)
	k.Configs = configs(prog, f, fn, opts, usesY, usesZ, instance)
	return k
}

// predictKernel predicts a kernel's global accesses under one launch
// configuration. Accesses at one position (a macro unrolled in place, a
// helper called twice) make one prediction, averaged per instruction as
// Nsight Compute attributes them to one source line.
func predictKernel(k *Kernel, cfg *LaunchConfig) []*Prediction {
	hook("predict", k.Func, cfg)
	type key struct {
		pos parser.Pos
		op  Op
	}
	var out []*Prediction
	byPos := map[key]*Prediction{}
	for _, a := range k.Accesses {
		if a.Space != Global && a.Space != Shared {
			continue
		}
		p := Predict(a, cfg, k.params)
		p.Count = 1
		kk := key{a.Pos, a.Op}
		if first, ok := byPos[kk]; ok {
			first.merge(p)
			continue
		}
		byPos[kk] = p
		out = append(out, p)
	}
	return out
}

// usesDims reports whether the kernel's accesses depend on threadIdx.y and .z.
func usesDims(accesses []*Access) (y, z bool) {
	for _, a := range accesses {
		y = y || symbolic.Mentions(a.Addr, "threadIdx.y")
		z = z || symbolic.Mentions(a.Addr, "threadIdx.z")
	}
	return y, z
}

// configs lists the launch configurations of a kernel: one per distinct
// launch; else the annotation; else the default.
func hasTypeParams(fn *parser.Func) bool {
	for _, tp := range fn.Template {
		if tp.IsType {
			return true
		}
	}
	return false
}

// typeArgsOf binds the kernel's type parameters to the types of the
// first launch with the given instance.
func typeArgsOf(prog *Program, fn *parser.Func, instance string) map[string]*ctype.Type {
	for _, l := range prog.launchesOf[fn.Name] {
		if !l.Reaches(fn) || l.instance() != instance {
			continue
		}
		m := map[string]*ctype.Type{}
		for i, tp := range fn.Template {
			if tp.IsType && i < len(l.TypeArgs) && l.TypeArgs[i] != nil {
				m[tp.Name] = l.TypeArgs[i]
			}
		}
		return m
	}
	return nil
}

func configs(prog *Program, f *parser.File, fn *parser.Func, opts Options, usesY, usesZ bool, instance string) []*LaunchConfig {
	var out []*LaunchConfig
	seen := map[string]bool{}
	for _, l := range prog.launchesOf[fn.Name] {
		if !l.Reaches(fn) || (hasTypeParams(fn) && l.instance() != instance) {
			continue
		}
		cfg := fromLaunch(l, fn)
		if cfg == nil {
			continue
		}
		key := fmt.Sprint(cfg.Block, cfg.Grid, cfg.GridKnown, sortedPairs(cfg.Params), sortedPairs(cfg.Bases))
		if !seen[key] {
			seen[key] = true
			out = append(out, cfg)
		}
	}
	if len(out) == 0 {
		cfg := &LaunchConfig{Block: DefaultBlock(usesY, usesZ), BlockSource: FromDefault, Grid: AssumedGrid, Params: map[string]int64{}, Bases: map[string]int64{}}
		if d, at, ok := annotation(f, fn); ok {
			cfg.Block, cfg.BlockSource, cfg.At = d, FromAnnotation, at
		} else if d, ok := boundsBlock(prog, fn, usesY, usesZ); ok {
			cfg.Block, cfg.BlockSource, cfg.At = d, FromBounds, fn.P
		}
		out = append(out, cfg)
	}
	if d, ok := opts.blockOf(fn); ok {
		for _, c := range out {
			c.Block, c.BlockSource = d, FromConfig
		}
	}
	for _, c := range out {
		for _, p := range fn.Params {
			// A value given for this kernel overrides its launches; one
			// given by name alone fills only what no launch gives.
			v, qualified, ok := opts.paramOf(fn, p.Name)
			if _, known := c.Params[p.Name]; ok && (qualified || !known) {
				c.Params[p.Name] = v
			}
		}
	}
	return out
}

func sortedPairs(m map[string]int64) string {
	var b strings.Builder
	for _, k := range sortedKeys(m) {
		fmt.Fprintf(&b, "%s=%d,", k, m[k])
	}
	return b.String()
}

// fromLaunch reads a launch site; nil when its block shape is not constant.
func fromLaunch(l *LaunchSite, fn *parser.Func) *LaunchConfig {
	cfg := &LaunchConfig{BlockSource: FromLaunch, At: l.Pos, Params: map[string]int64{}, Bases: map[string]int64{}}
	for d := 0; d < 3; d++ {
		v, ok := symbolic.IsConst(l.Block[d])
		if !ok || v <= 0 {
			return nil
		}
		cfg.Block[d] = v
	}
	if cfg.Block.Threads() > 1024 {
		return nil
	}
	for d := 0; d < 3; d++ {
		v, ok := symbolic.IsConst(l.Grid[d])
		cfg.Grid[d], cfg.GridKnown[d] = AssumedGrid[d], ok && v > 0
		if cfg.GridKnown[d] {
			cfg.Grid[d] = v
		}
	}
	for i, tp := range fn.Template {
		if i < len(l.Targs) && l.Targs[i] != nil && !tp.IsType && l.Targs[i].kind == vInt {
			if v, ok := symbolic.IsConst(l.Targs[i].x); ok {
				cfg.Params[tp.Name] = v
			}
		}
	}
	for i, p := range fn.Params {
		if i >= len(l.Args) || p.Name == "" {
			break
		}
		switch a := l.Args[i]; a.kind {
		case vInt:
			if v, ok := symbolic.IsConst(a.x); ok {
				cfg.Params[p.Name] = v
			}
		case vPtr:
			if v, ok := symbolic.IsConst(a.ptr.offset); ok {
				cfg.Bases[p.Name] = v
			}
		}
	}
	return cfg
}

// annotation finds a "cudalint:block WxH" comment on the lines just above
// the kernel's name (or on its line).
func annotation(f *parser.File, fn *parser.Func) (Dim3, parser.Pos, bool) {
	for _, d := range f.Directives {
		if d.Pos.File != fn.P.File || d.Pos.Line > fn.P.Line || d.Pos.Line < fn.P.Line-3 {
			continue
		}
		fields := strings.Fields(strings.ReplaceAll(d.Text, "=", " "))
		if len(fields) >= 2 && fields[0] == "block" {
			if dim, err := ParseDim3(fields[1]); err == nil {
				return dim, d.Pos, true
			}
		}
	}
	return Dim3{}, parser.Pos{}, false
}
