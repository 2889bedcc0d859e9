// Package accesses is the analyzer every cudalint rule requires: it parses
// the CUDA files of the pass (Pass.OtherFiles), models every memory
// access under every launch that reaches it, and hands the rules the
// predictions, their positions in the pass's token.FileSet (where a
// finding is marked, its related places), and the facts computed once
// per prediction (lane coefficients, element widths, assumed strides,
// requests per launch, the figures of machine output, components the
// compiler merges).
//
// What rules share beyond that lives beside it: rules/policy (the
// preconditions and the severity policy), rules/wording (what messages
// say), rules/spec (a rule made from its description and logic), and
// rules/lint (what a rule is and what it finds).
package accesses

import (
	"go/token"
	"reflect"
	"regexp"
	"sort"

	"golang.org/x/tools/go/analysis"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/parser"
	"github.com/cudalint/cudalint/parser/cpp"
	"github.com/cudalint/cudalint/sources"
)

// Analyzer models the accesses of the CUDA files in Pass.OtherFiles with
// default options. A driver that has options (definitions, block shapes,
// parameters, include folders) computes the analyzer's result with Load
// instead: options travel with the run, never through package state, so
// that two runs in one process (an editor server) stay independent.
var Analyzer = &analysis.Analyzer{
	Name:       "cudaaccesses",
	Doc:        "models every global and shared memory access of the CUDA kernels in Pass.OtherFiles",
	URL:        "https://github.com/cudalint/cudalint/blob/main/docs/model.md",
	Run:        func(pass *analysis.Pass) (any, error) { return Load(pass, Options{}) },
	ResultType: reflect.TypeOf((*Result)(nil)),
}

// Options are one run's settings for the model.
type Options struct {
	// Settings are the command line's; they win over Scope's.
	analyzer.Settings
	// Root and the settings' IncludeDirs are the folders includes may
	// read; includes are searched in IncludeDirs.
	Root string
	// Scope, when set, gives the settings of the configuration that
	// governs a file: the blocks and parameter values of the kernels
	// defined there, the defines of a translation unit rooted there. It
	// is called from several goroutines.
	Scope func(file string) analyzer.Settings
	// Items and Headers, when set, are parser caches kept across runs
	// (see parser.Config); each run makes its own otherwise.
	Items   *parser.ItemCache
	Headers *cpp.HeaderCache
	// Memo, when set, keeps kernels' analyses across runs (analyzer.Memo).
	Memo *analyzer.Memo
	// HostFiles are C or C++ files read for their host code alone
	// (sources.LoadWithHost): what they pass to the CUDA files' host
	// functions reaches the launches.
	HostFiles []string
}

// analyzerOptions are the command line's answers for the model.
func (o Options) analyzerOptions() analyzer.Options {
	return analyzer.Options{Settings: o.Settings, Memo: o.Memo, Scope: o.Scope, UnitStride: StrideName}
}

// Result is what the rules get.
type Result struct {
	Analysis *analyzer.Result
	Fset     *token.FileSet
	// Errors are the files that could not be read, each naming the file.
	Errors []error
	files  map[string]*token.File
	// kernel holds each prediction's kernel's predictions; merged the
	// vector components the compiler loads together with a sibling.
	kernel map[*analyzer.Prediction][]*analyzer.Prediction
	merged map[*analyzer.Prediction]bool
	// records are the records each thread reads or writes whole.
	records map[*analyzer.Prediction]*Record
	// reused are the loads whose value nvcc reuses from an earlier one.
	reused map[*analyzer.Prediction]*analyzer.Prediction
}

// Load models the CUDA files of pass.OtherFiles under opts.
func Load(pass *analysis.Pass, o Options) (*Result, error) {
	res, files := open(pass, o)
	res.Analysis = analyzer.Analyze(files, o.analyzerOptions())
	res.computeFacts()
	return res, nil
}

// LoadEach models the files as Load does, handing the model over in
// parts (analyzer.AnalyzeEach): each is a Result of its own, for a part
// of the kernels, with their predictions and facts, in the pass's file
// set. The Result returned has the program, every kernel and internal
// error and no predictions: a driver that keeps what it derives from each
// part holds a few parts at a time, not the whole model.
func LoadEach(pass *analysis.Pass, o Options, each func(part *Result)) (*Result, error) {
	res, files := open(pass, o)
	res.Analysis = analyzer.AnalyzeEach(files, o.analyzerOptions(), func(a *analyzer.Result) {
		part := &Result{Analysis: a, Fset: res.Fset, Errors: res.Errors, files: res.files}
		part.computeFacts()
		each(part)
	})
	res.computeFacts()
	return res, nil
}

// open reads and parses the files of the pass and adds them to its file
// set: the Result, to be given its analysis, and the files to analyze.
func open(pass *analysis.Pass, o Options) (*Result, []*parser.File) {
	defines := o.Defines
	if defines == nil {
		defines = map[string]string{}
	}
	var definesFor func(string) map[string]string
	if o.Scope != nil {
		definesFor = func(file string) map[string]string { return merged(o.Scope(file).Defines, defines) }
	}
	cfg := parser.Config{Defines: defines, IncludeDirs: o.IncludeDirs, Root: o.Root, ReadFile: pass.ReadFile,
		Items: o.Items, Headers: o.Headers}
	set, errs := sources.LoadWithHost(pass.OtherFiles, o.HostFiles, cfg, definesFor)
	res := &Result{Fset: pass.Fset, Errors: errs, files: map[string]*token.File{}}
	var paths []string
	srcs := map[string][]byte{}
	for _, f := range set.Files {
		for path, src := range f.Sources {
			if _, ok := srcs[path]; !ok {
				srcs[path] = src
				paths = append(paths, path)
			}
		}
	}
	sort.Strings(paths)
	for _, path := range paths {
		tf := pass.Fset.AddFile(path, -1, len(srcs[path]))
		tf.SetLinesForContent(srcs[path])
		res.files[path] = tf
	}
	return res, set.Analyzed()
}

// merged is base with over's entries put over it.
func merged(base, over map[string]string) map[string]string {
	out := make(map[string]string, len(base)+len(over))
	for k, v := range base {
		out[k] = v
	}
	for k, v := range over {
		out[k] = v
	}
	return out
}

// Pos converts a source position to the pass's token.Pos.
func (r *Result) Pos(p parser.Pos) token.Pos {
	tf, ok := r.files[p.File]
	if !ok || p.Offset < 0 || int(p.Offset) > tf.Size() {
		return token.NoPos
	}
	return tf.Pos(int(p.Offset))
}

// Range is the access's position in the pass's file set.
func (r *Result) Range(a *analyzer.Access) (token.Pos, token.Pos) {
	start, end := r.Pos(a.Pos), r.Pos(a.End)
	if end == token.NoPos || end < start {
		end = start
	}
	return start, end
}

// strideName matches the names code gives strides rather than sizes:
// stride_x, pitch, and ggml's byte and element strides (nb01, src1_nb1,
// s00); increments, multipliers and ratios, which are 1 as often as not
// (darknet's X[i*INCX] and out[i*sample], sample = w2/w1 clamped to 1;
// its softmax's input[g*group_offset]; Rodinia srad's d_sums[ei*d_mul]);
// a convolution's dilation (dilation_w; ggml's d0 and d1, beside its
// strides s0 and s1). A leading dimension (lda, ld) is not one of
// them: it is a matrix's row length, never 1 where lanes walk it, so a
// lane step of lda is the column walk it looks like (kaldi's CMVN).
// A flag used as a factor (FasterTransformer's
// amax[row * scale_is_vector], 0 or 1 as the host checks) is one too.
var strideName = regexp.MustCompile(`(?i)stride|pitch|step|^inc|(^|_)nb\d*$|(^|_)s[a-z]?\d+$|offset|(^|_)d?mul|sample|ratio|dilation|^d\d$|(^|_)(is|has|use)_|flag`)

// StrideName reports whether a parameter's name says a stride, an
// increment, a multiplier or a ratio (strideName): a value that may
// well be 1.
func StrideName(name string) bool { return strideName.MatchString(name) }
