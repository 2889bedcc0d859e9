package driver

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/analyzer/launch"
	"github.com/cudalint/cudalint/analyzer/warp"
	"github.com/cudalint/cudalint/parser"
	"github.com/cudalint/cudalint/parser/lex"
	"github.com/cudalint/cudalint/rules/impact"
	"github.com/cudalint/cudalint/rules/lint"
)

// combineImpact gives a folded finding the impact of its whole cause:
// fixing the cause fixes every access folded into it, so their excess
// counts together against the kernel (impact.Combined). first is
// the finding that stands for the group; it leads, so that accesses of
// another kernel or launch configuration than its own are left out (the
// same access under two launches is two costs, of which the first is the
// worst). An address read again counts once, as the compiler emits it
// (as in mergeCause).
func combineImpact(f *lint.Finding, first *lint.Finding, m []*lint.Finding) {
	imps := []*lint.Impact{first.Figures.Impact}
	counted := map[string]bool{addressKey(first.Prediction): true}
	for _, x := range m {
		if !sameLaunch(x.Prediction, first.Prediction) {
			continue
		}
		if k := addressKey(x.Prediction); !counted[k] {
			counted[k] = true
			imps = append(imps, x.Figures.Impact)
		}
	}
	f.Figures.Impact = impact.Combined(imps)
}

// applyLaunchers prices each finding against the launches its kernel's
// host function runs with it (impact.Sites.Launcher), once every kernel
// of the run has its time: before folding, so that a folded cause
// carries its first finding's.
func applyLaunchers(fs []*lint.Finding, sites *impact.Sites, prog *analyzer.Program) {
	for _, f := range fs {
		if f.Figures.Impact == nil || f.Prediction == nil {
			continue
		}
		if l := sites.Launcher(prog, f.Prediction, f.Figures.Impact); l != nil {
			imp := *f.Figures.Impact
			imp.Launcher = l
			f.Figures.Impact = &imp
		}
	}
}

// applyImpact grades each finding by its share of its kernel's memory
// time (impact.ShareSeverity: a warning whose fix saves under 5% is
// info) and ends its message with what fixing it is worth ("fixing it:
// up to 4.3x for this kernel"). It runs once, after folding, so that a
// folded cause is graded and priced by all its accesses together, and
// before the severity filters. A fault (a crash) is not graded by time.
func applyImpact(fs []*lint.Finding) {
	for _, f := range fs {
		imp := f.Figures.Impact
		if imp == nil || f.Rule.Fault {
			continue
		}
		graded := impact.ShareSeverity(f.Severity, imp)
		f.Impact = "; " + impact.Text(imp, graded < f.Severity)
		f.Compose()
		f.Severity = graded
	}
}

// applyUnlaunched makes a warning about a kernel that no launch of the
// analyzed files reaches info, saying so, when the kernel's own file
// launches other kernels (it holds the host code): the kernel may be
// dead, or launched where cudalint cannot see, and its cost rests on a
// made-up block. A file of kernels alone keeps its warnings: its kernels
// are launched from elsewhere, and the default block is all anyone has.
func applyUnlaunched(fs []*lint.Finding, res *analyzer.Result) {
	launching := map[string]bool{} // files that hold a launch
	for _, l := range res.Program.Launches {
		launching[l.Pos.File] = true
	}
	demote(fs, func(f *lint.Finding) string {
		p := f.Prediction
		if !unlaunched(p.Config) || !launching[p.Access.Kernel.P.File] {
			return ""
		}
		return "no launch in the analyzed files reaches " + p.Access.Kernel.Name + " (dead code, or launched where cudalint cannot see)"
	})
}

// demote makes info each warning about a prediction for which why gives
// a reason, ending its message with it ("; info: REASON"): what the
// kernel's context says of a cost the rule priced alone.
func demote(fs []*lint.Finding, why func(*lint.Finding) string) {
	for _, f := range fs {
		if f.Prediction == nil || f.Severity != lint.Warning {
			continue
		}
		if reason := why(f); reason != "" {
			f.Severity = lint.Info
			f.AddExtra("; info: " + reason)
		}
	}
}

// perKernel memoises a reason that depends on the kernel alone.
func perKernel(reason func(*parser.Func) string) func(*lint.Finding) string {
	memo := map[*parser.Func]string{}
	return func(f *lint.Finding) string {
		if f.Rule.Fault {
			return "" // a crash is not a cost
		}
		fn := f.Prediction.Access.Kernel
		r, seen := memo[fn]
		if !seen {
			r = reason(fn)
			memo[fn] = r
		}
		return r
	}
}

// applyRuntimeCalls makes a warning about a kernel that calls the device
// runtime's allocator (cudaMalloc, cudaFree, malloc, free) info, saying
// so: such a call takes far longer than the memory accesses the model
// prices (cuda-samples' freeVertexMem: one load per thread, then
// cudaFree), so what fixing them saves is no share of the kernel's time.
func applyRuntimeCalls(fs []*lint.Finding) {
	demote(fs, perKernel(func(fn *parser.Func) string {
		if call := allocatorCall(fn); call != "" {
			return fn.Name + " calls " + call + ", which takes far longer than its memory accesses"
		}
		return ""
	}))
}

// applyWarmups makes a warning about a warm-up kernel info, saying so:
// a kernel named for warming the GPU (warmup, warm_up, warmUpKernel) is
// launched before the timed work so that the first timed launch does not
// pay the context's start-up; its own speed is no part of what the
// program measures (CUDA_Freshman's warmup, a copy of the reduction it
// precedes, drew the reduction's warnings twice).
func applyWarmups(fs []*lint.Finding) {
	demote(fs, perKernel(func(fn *parser.Func) string {
		if isWarmup(fn.Name) {
			return fn.Name + " is by its name a warm-up launch, run before the timed kernels"
		}
		return ""
	}))
}

// isWarmup: name says warm-up, as a word of it (warmup, warm_up,
// warmUpGpu, gpuWarmup), not inside another word.
func isWarmup(name string) bool {
	words := identWords(name)
	for i, w := range words {
		if w == "warmup" || w == "warm" && i+1 < len(words) && words[i+1] == "up" {
			return true
		}
	}
	return false
}

// identWords splits an identifier into its lower-cased words at
// underscores, digits, lower-to-upper case changes and the end of a run
// of capitals: warmUpKernel is warm, up, kernel; GPUWarmup is gpu,
// warmup.
func identWords(name string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(name)
	for i, r := range rs {
		switch {
		case r == '_' || unicode.IsDigit(r):
			flush()
			continue
		case unicode.IsUpper(r) && i > 0 && unicode.IsLower(rs[i-1]):
			flush() // warmUp: a new word
		case unicode.IsUpper(r) && i > 0 && unicode.IsUpper(rs[i-1]) && i+1 < len(rs) && unicode.IsLower(rs[i+1]):
			flush() // GPUWarmup: the capitals' run ends before Warmup
		}
		cur = append(cur, r)
	}
	flush()
	return words
}

// allocatorCall names the first device-runtime allocator call in fn's
// body, "" when none.
func allocatorCall(fn *parser.Func) string {
	found := ""
	if fn == nil || fn.Body == nil {
		return ""
	}
	parser.WalkStmt(fn.Body, func(e parser.Expr) {
		c, ok := e.(*parser.Call)
		if !ok || found != "" {
			return
		}
		if id, ok := c.Fun.(*parser.Ident); ok && deviceAllocators[id.Name] {
			found = id.Name + "()"
		}
	})
	return found
}

var deviceAllocators = map[string]bool{"cudaMalloc": true, "cudaFree": true, "malloc": true, "free": true}

// applyMissingIncludes makes a warning info when its cost rests on a name
// no file cudalint read defines, in a file whose include was not found:
// the header most likely defines it (LeetCUDA's utils.h: WARP_SIZE,
// assumed 4096, and LDST128BITS, read as a call), so the figures rest on
// a guess. The message names the include and how to give its folder.
func applyMissingIncludes(fs []*lint.Finding, res *analyzer.Result) {
	missing := map[string]lex.Note{} // file -> its first include not found
	for _, f := range res.Program.Files {
		for _, n := range f.Notes {
			if _, seen := missing[n.Pos.File]; n.Kind == lex.NoteIncludeNotFound && !seen {
				missing[n.Pos.File] = n
			}
		}
	}
	demote(fs, func(f *lint.Finding) string {
		p := f.Prediction
		inc, ok := missing[p.Access.Kernel.P.File]
		if !ok {
			inc, ok = missing[p.Access.Pos.File]
		}
		name := undefinedName(p)
		if !ok || name == "" || f.Rule.Fault {
			return ""
		}
		return fmt.Sprintf("%s is defined in no file cudalint read, and %s (line %d) was not found: give its folder with -I DIR or include-dirs: in .cudalint.yaml", name, inc.Subject, inc.Pos.Line)
	})
}

// undefinedName is a name the prediction assumed a value for that is
// not a parameter of the kernel: an identifier no file defines.
func undefinedName(p *analyzer.Prediction) string {
	params := map[string]bool{}
	for _, prm := range p.Access.Kernel.Params {
		params[prm.Name] = true
	}
	for _, tp := range p.Access.Kernel.Template {
		params[tp.Name] = true
	}
	for _, a := range p.Assumptions {
		if a.Kind == warp.AssumedParam && !params[a.Name] {
			return a.Name
		}
	}
	return ""
}

// unlaunched: no launch, annotation or setting gave c's block.
func unlaunched(c *analyzer.LaunchConfig) bool {
	return c.BlockSource == launch.FromDefault || c.BlockSource == launch.FromBounds
}

// sameLaunch: p and q are accesses of one kernel under one launch
// configuration, whose costs add up.
func sameLaunch(p, q *analyzer.Prediction) bool {
	return p.Access.Kernel == q.Access.Kernel && p.Config == q.Config
}
