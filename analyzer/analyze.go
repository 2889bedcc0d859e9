// Package analyzer is the model's orchestration: Analyze finds the
// program's kernels and launches (launch), interprets each kernel once
// per set of template arguments it is launched with (interp), derives its
// launch configurations (launch) with the user's answers applied
// (Options), and predicts every global and shared access under each of
// them (warp), concurrently, a bug costing one kernel or configuration
// (InternalError) and never the run. C layout is ctype's.
package analyzer

import (
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/cudalint/cudalint/analyzer/ctype"
	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/analyzer/launch"
	"github.com/cudalint/cudalint/analyzer/warp"
	"github.com/cudalint/cudalint/internal/par"
	"github.com/cudalint/cudalint/parser"
	"github.com/cudalint/cudalint/symbolic"
)

// The model's types, named here as the analyzer's results and options
// are made of them.
type (
	Program      = launch.Program
	LaunchSite   = launch.Site
	LaunchConfig = launch.Config
	Dim3         = launch.Dim3
	Access       = interp.Access
	Prediction   = warp.Prediction
	Merged       = warp.Merged
)

// ParseDim3 reads "256", "16x16" or "8x8x4" (see launch.ParseDim3).
func ParseDim3(s string) (Dim3, error) { return launch.ParseDim3(s) }

// Options are the user's answers to what the source does not say.
type Options struct {
	// Settings are the command line's: they override Scope's.
	Settings
	// Scope, when set, gives the settings that govern a file (its
	// folder's configuration): a kernel takes those of the file that
	// defines it, so one folder's settings never reach another's
	// kernels.
	Scope func(file string) Settings
	// Memo, when set, keeps kernels' analyses between analyses of a
	// changing program (see Memo).
	Memo *Memo
	// UnitStride, when set, names the parameters that may well be 1 (a
	// stride, an increment): an access more than twice its ideal with
	// one of them assumed large is priced again with those at 1
	// (Prediction.AtUnitStride), for the rules to say what the waste
	// rests on.
	UnitStride func(param string) bool
}

// Settings are a user's answers to what the code does not say. Each
// place a user says them is one Settings: the command line's flags, a
// folder's .cudalint.yaml, the editor's settings; a run's options hold
// the command line's and a Scope for the folders'.
type Settings struct {
	Defines map[string]string // preprocessor definitions: NAME=VALUE
	Blocks  map[string]Dim3   // block shapes per kernel; they override launches
	Grids   map[string]Dim3   // grid shapes per kernel; they override launches
	Params  map[string]int64  // values of "kernel.param" or "param"
	// IncludeDirs are folders includes are searched in and may read.
	IncludeDirs []string
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

// gridOf is the grid shape the user gave for kernel fn, if any.
func (o Options) gridOf(fn *parser.Func) (Dim3, bool) {
	if d, ok := o.Grids[fn.Name]; ok {
		return d, true
	}
	if o.Scope == nil {
		return Dim3{}, false
	}
	d, ok := o.Scope(fn.P.File).Grids[fn.Name]
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
	// Unresolved counts the calls that could not be followed (each with
	// a note): the kernel is partly analyzed.
	Unresolved int
	params     map[symbolic.SymID]bool
	memoKey    string            // its interpretation's key in Options.Memo
	unitStride func(string) bool // Options.UnitStride
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
	memo := opts.Memo.begin(files)
	prog := launch.NewProgramIn(files, memo.hostIndex())
	jobs := kernelJobs(files, prog, memo)
	// Kernels are independent: analyze them concurrently, keep their order.
	done := make([]jobResult, len(jobs))
	lanes := &warp.Lanes{} // one copy of each distinct warp's addresses
	cs := newCases()
	par.Each(len(jobs), func(i int) { done[i] = jobs[i].analyze(prog, opts, memo, lanes, cs) })
	memo.end()
	r := &Result{Program: prog}
	r.add(done)
	return r
}

// job is one kernel to analyze, in the file whose translation unit it is
// analyzed in.
type job struct {
	f        *parser.File
	fn       *parser.Func
	instance string // type arguments, for template kernels
}

// jobResult is what analyzing a job gave.
type jobResult struct {
	kernel *Kernel
	preds  []*Prediction
	errs   []InternalError
}

func (j job) analyze(prog *Program, opts Options, memo *memoIndex, lanes *warp.Lanes, cs *cases) jobResult {
	k, ps, errs := analyzeJob(prog, j.f, j.fn, opts, j.instance, memo, lanes, cs)
	return jobResult{k, ps, errs}
}

// kernelJobs lists the kernels of files to analyze, in file order. A
// kernel in a header included by several files is analyzed once, in the
// context of its first includer; a template kernel once per distinct set
// of type arguments its launches use (and generically without any), its
// instances one after another.
func kernelJobs(files []*parser.File, prog *Program, memo *memoIndex) []job {
	var jobs []job
	seen := map[parser.Pos]bool{}
	beside := companions(files, prog, memo)
	for _, f := range files {
		for _, fn := range f.Funcs {
			if !fn.Global || fn.Body == nil || seen[fn.P] {
				continue
			}
			seen[fn.P] = true
			if !memo.reportable(fn) && !beside[fn] {
				continue // under the memo's focus, findings no one reads
			}
			for _, inst := range prog.Instances(fn) {
				jobs = append(jobs, job{f, fn, inst})
			}
		}
	}
	return jobs
}

// companions are, under a memo's focus, the kernels launched by a host
// function that launches a reportable one: a finding is priced against
// the launches its host function makes beside its own
// (impact.Sites.Launcher), so they are analyzed too, and the focused
// files' findings stay those of the whole analysis. None without a
// focus (every kernel is analyzed).
func companions(files []*parser.File, prog *Program, memo *memoIndex) map[*parser.Func]bool {
	if memo == nil || !memo.items.Focused() {
		return nil
	}
	var kernels []*parser.Func
	for _, f := range files {
		for _, fn := range f.Funcs {
			if fn.Global && fn.Body != nil {
				kernels = append(kernels, fn)
			}
		}
	}
	type host struct{ file, name string }
	hostOf := func(s *launch.Site) (host, bool) {
		if len(s.Via) == 0 || !s.KnownShape() { // an assumed grid is priced against nothing
			return host{}, false
		}
		return host{s.Pos.File, s.Via[len(s.Via)-1]}, true
	}
	launching := map[host]bool{} // host functions that launch a reportable kernel
	for _, s := range prog.Launches {
		h, ok := hostOf(s)
		for _, fn := range kernels {
			if ok && s.Reaches(fn) && memo.reportable(fn) {
				launching[h] = true
			}
		}
	}
	out := map[*parser.Func]bool{}
	for _, s := range prog.Launches {
		if h, ok := hostOf(s); ok && launching[h] {
			for _, fn := range kernels {
				if s.Reaches(fn) {
					out[fn] = true
				}
			}
		}
	}
	return out
}

// add appends analyzed jobs to r, in their order, and sorts r's
// predictions by position.
func (r *Result) add(done []jobResult) {
	for _, d := range done {
		r.Kernels = append(r.Kernels, d.kernel)
		r.Predictions = append(r.Predictions, d.preds...)
		r.InternalErrors = append(r.InternalErrors, d.errs...)
	}
	sortPredictions(r.Predictions)
}

func sortPredictions(ps []*Prediction) {
	sort.SliceStable(ps, func(i, j int) bool {
		a, b := ps[i].Access, ps[j].Access
		if a.Pos != b.Pos {
			return a.Pos.Before(b.Pos)
		}
		return a.Op < b.Op
	})
}

// analyzeJob analyzes one kernel and predicts its accesses under each of
// its launch configurations. A bug in the interpretation costs the kernel
// (it is returned with no accesses); one in a prediction costs only that
// configuration.
func analyzeJob(prog *Program, f *parser.File, fn *parser.Func, opts Options, instance string, memo *memoIndex, lanes *warp.Lanes, cs *cases) (*Kernel, []*Prediction, []InternalError) {
	var k *Kernel
	if ie := contain(fn, nil, func() { k = analyzeKernel(prog, f, fn, opts, instance, memo) }); ie != nil {
		return &Kernel{Func: fn, File: f.Path}, nil, []InternalError{*ie}
	}
	var preds []*Prediction
	var errs []InternalError
	content := ""
	if instance != "" {
		content = contentKey(k) // only instances of a template can be alike
	}
	for _, cfg := range k.Configs {
		var ps []*Prediction
		if ie := contain(fn, cfg, func() {
			ps = memo.predictions(k.memoKey, cfg, func() []*Prediction {
				return cs.predictions(k, content, cfg, func() []*Prediction {
					ps := predictKernel(k, cfg)
					lanes.Share(ps) // before a memo shares the predictions themselves
					return ps
				})
			})
		}); ie != nil {
			errs = append(errs, *ie)
			continue
		}
		preds = append(preds, ps...)
	}
	return k, preds, errs
}

// analyzeKernel interprets kernel fn of file f with the type arguments
// instance names, and lists its launch configurations with the user's
// answers applied.
func analyzeKernel(prog *Program, f *parser.File, fn *parser.Func, opts Options, instance string, memo *memoIndex) *Kernel {
	hook("interpret", fn, nil)
	var typeArgs map[string]*ctype.Type
	var funcArgs map[string]string
	if instance != "" {
		typeArgs = prog.TypeArgs(fn, instance)
		funcArgs = prog.FuncArgs(fn, instance)
	}
	dimArgs := prog.DimArgs(fn, instance)
	key := memo.interpKey(f, fn, instance, typeArgs, funcArgs, dimArgs)
	run := memo.run(key, func() interp.Run { return prog.RunSized(f, fn, typeArgs, funcArgs, dimArgs) })
	// A run the memo serves is shared: appending to its notes must copy.
	k := &Kernel{Func: fn, File: f.Path, Accesses: run.Accesses, Notes: slices.Clip(run.Notes), Unresolved: run.Unresolved, params: run.Params, memoKey: key, unitStride: opts.UnitStride}
	usesY, usesZ := usesDims(fn, run.Accesses)
	var refused []parser.Note
	k.Configs, refused = prog.Configs(f, fn, usesY, usesZ, instance)
	k.Notes = append(k.Notes, refused...)
	opts.apply(fn, k.Configs)
	return k
}

// apply gives configurations cfgs of kernel fn the block shape and the
// parameter values the user gave.
func (o Options) apply(fn *parser.Func, cfgs []*LaunchConfig) {
	if d, ok := o.blockOf(fn); ok {
		for _, c := range cfgs {
			c.Block, c.BlockSource = d, launch.FromConfig
		}
	}
	if d, ok := o.gridOf(fn); ok {
		for _, c := range cfgs {
			c.Grid, c.GridKnown = d, [3]bool{true, true, true}
		}
	}
	for _, c := range cfgs {
		for _, p := range fn.Params {
			// What the user gives overrides what the launches (and the
			// host code behind them) give: the user knows the run.
			if v, _, ok := o.paramOf(fn, p.Name); ok {
				c.Params[p.Name] = v
			}
		}
	}
}

// predictKernel predicts a kernel's global accesses under one launch
// configuration. Accesses at one position reached through one call of the
// kernel's body (a macro unrolled in place, a helper that calls another
// twice) make one prediction, averaged per instruction as Nsight Compute
// attributes them to one source line: the kernel can change them only
// together. A helper's access reached through two calls of the kernel's
// body makes two predictions, one per call, each where the kernel can
// change it (Access.Site).
func predictKernel(k *Kernel, cfg *LaunchConfig) []*Prediction {
	hook("predict", k.Func, cfg)
	type key struct {
		pos, site parser.Pos
		op        interp.Op
	}
	var out []*Prediction
	byPos := map[key]*Prediction{}
	for _, a := range k.Accesses {
		if a.Space != interp.Global && a.Space != interp.Shared {
			continue
		}
		p := warp.PredictIn(a, k.Accesses, cfg, k.params)
		p.AtUnitStride = atUnitStride(k, a, cfg, p)
		p.Count = 1
		site, _ := a.Site()
		kk := key{a.Pos, site, a.Op}
		if first, ok := byPos[kk]; ok {
			first.Merge(p)
			continue
		}
		byPos[kk] = p
		out = append(out, p)
	}
	return out
}

// atUnitStride prices access a of k again with the parameters p assumed
// large that may well be 1 (k.unitStride) at 1, where p is more than
// twice its ideal; nil where it is not, or assumes none of them.
func atUnitStride(k *Kernel, a *Access, cfg *LaunchConfig, p *Prediction) *warp.UnitStride {
	if k.unitStride == nil || !p.Known || p.Sectors <= 2*p.Ideal+0.01 {
		return nil
	}
	var names []string
	for _, as := range p.Assumptions {
		if as.Kind == warp.AssumedParam && k.unitStride(as.Name) && !slices.Contains(names, as.Name) {
			names = append(names, as.Name)
		}
	}
	if len(names) == 0 {
		return nil
	}
	at := *cfg
	at.Params = maps.Clone(cfg.Params)
	for _, n := range names {
		at.Params[n] = 1
	}
	q := warp.PredictIn(a, k.Accesses, &at, k.params)
	return &warp.UnitStride{Names: names, Known: q.Known, Sectors: q.Sectors, Ideal: q.Ideal}
}

// usesDims reports whether the kernel's accesses depend on threadIdx.y
// and .z, for the default block's shape. A cooperative-groups rank
// (thread_rank() is x + y*Bx + z*Bx*By) mentions them without the kernel
// asking for a 2D block: a kernel that uses cooperative groups and never
// writes threadIdx.y or .z itself gets the 1D default.
func usesDims(fn *parser.Func, accesses []*Access) (y, z bool) {
	for _, a := range accesses {
		y = y || symbolic.Mentions(a.Addr, symbolic.ThreadIdx(symbolic.Y).ID())
		z = z || symbolic.Mentions(a.Addr, symbolic.ThreadIdx(symbolic.Z).ID())
	}
	if (y || z) && usesCooperativeGroups(fn) {
		y = y && writesThreadIdx(fn, symbolic.Y)
		z = z && writesThreadIdx(fn, symbolic.Z)
	}
	return y, z
}

// usesCooperativeGroups: the kernel's body calls this_thread_block,
// this_grid or tiled_partition.
func usesCooperativeGroups(fn *parser.Func) bool {
	found := false
	walkBody(fn, func(e parser.Expr) {
		if id, ok := e.(*parser.Ident); ok {
			name := id.Name[strings.LastIndex(id.Name, ":")+1:] // cg::this_thread_block
			if name == "this_thread_block" || name == "this_grid" || name == "tiled_partition" {
				found = true
			}
		}
	})
	return found
}

// writesThreadIdx: the kernel's body reads threadIdx.<axis> itself.
func writesThreadIdx(fn *parser.Func, axis symbolic.Axis) bool {
	found := false
	walkBody(fn, func(e parser.Expr) {
		if m, ok := e.(*parser.Member); ok && m.Name == axis.String() {
			if id, ok := m.X.(*parser.Ident); ok && interp.IsBuiltinNamed(id.Name, symbolic.KindThreadIdx) {
				found = true
			}
		}
	})
	return found
}

func walkBody(fn *parser.Func, f func(parser.Expr)) {
	if fn != nil && fn.Body != nil {
		parser.WalkStmt(fn.Body, f)
	}
}
