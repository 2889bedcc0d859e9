// Package accesses is the analyzer every cudalint rule requires: it parses
// the CUDA files of the pass (Pass.OtherFiles), models every memory
// access under every launch that reaches it, and hands the rules the
// predictions, positions in the pass's token.FileSet, and a place to
// record findings with their numbers.
package accesses

import (
	"flag"
	"fmt"
	"go/token"
	"reflect"
	"sort"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/parser"
	"github.com/cudalint/cudalint/sources"
)

// Analyzer models the accesses of the CUDA files in Pass.OtherFiles.
var Analyzer = &analysis.Analyzer{
	Name:       "cudaaccesses",
	Doc:        "models every global and shared memory access of the CUDA kernels in Pass.OtherFiles",
	URL:        "https://github.com/cudalint/cudalint#the-model",
	Run:        run,
	ResultType: reflect.TypeOf((*Result)(nil)),
	Flags:      flags(),
}

// Settings the driver passes through the analyzer's flags.
var (
	defines     = keyValues{}
	blocks      = keyValues{}
	params      = keyValues{}
	root        string
	includeDirs = &dirList{}
)

func flags() flag.FlagSet {
	fs := flag.NewFlagSet("cudaaccesses", flag.ContinueOnError)
	fs.Var(defines, "D", "NAME=VALUE preprocessor definition (repeatable)")
	fs.Var(blocks, "block", "KERNEL=16x16 block shape (repeatable)")
	fs.Var(params, "param", "NAME=V or KERNEL.NAME=V parameter value (repeatable)")
	fs.StringVar(&root, "root", "", "the folder includes may read")
	fs.Var(includeDirs, "I", "a folder includes may read and are searched in (repeatable)")
	return *fs
}

// keyValues is a repeatable NAME=VALUE flag.
type keyValues map[string]string

func (kv keyValues) String() string { return "" }
func (kv keyValues) Set(s string) error {
	k, v, _ := strings.Cut(s, "=")
	if k == "" {
		return fmt.Errorf("want NAME=VALUE, got %q", s)
	}
	kv[k] = v
	return nil
}

// dirList is a repeatable folder flag.
type dirList []string

func (d *dirList) String() string     { return strings.Join(*d, ",") }
func (d *dirList) Set(s string) error { *d = append(*d, s); return nil }

// Reset clears the settings (between runs in one process).
func Reset() {
	for _, m := range []keyValues{defines, blocks, params} {
		for k := range m {
			delete(m, k)
		}
	}
	root, *includeDirs = "", nil
}

// Result is what the rules get.
type Result struct {
	Analysis *analyzer.Result
	Fset     *token.FileSet
	// Errors are the files that could not be read, each naming the file.
	Errors []error
	files  map[string]*token.File

	mu       sync.Mutex
	findings []*Finding
}

func run(pass *analysis.Pass) (any, error) {
	opts := analyzer.Options{Blocks: map[string]analyzer.Dim3{}, Params: map[string]int64{}}
	for k, v := range blocks {
		d, err := analyzer.ParseDim3(v)
		if err != nil {
			return nil, err
		}
		opts.Blocks[k] = d
	}
	for k, v := range params {
		var n int64
		if _, err := fmt.Sscan(v, &n); err != nil {
			return nil, fmt.Errorf("parameter %s: %q is not an integer", k, v)
		}
		opts.Params[k] = n
	}
	set, errs := sources.Load(pass.OtherFiles, parser.Config{Defines: defines, IncludeDirs: *includeDirs, Root: root, ReadFile: pass.ReadFile})
	res := &Result{Analysis: analyzer.Analyze(set.Analyzed(), opts), Fset: pass.Fset, Errors: errs, files: map[string]*token.File{}}
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
	return res, nil
}

// Pos converts a source position to the pass's token.Pos.
func (r *Result) Pos(p parser.Pos) token.Pos {
	tf, ok := r.files[p.File]
	if !ok || p.Offset < 0 || int(p.Offset) > tf.Size() {
		return token.NoPos
	}
	return tf.Pos(int(p.Offset))
}

// Finding is a diagnostic with what the driver needs to print it: the
// rule, a severity, and the prediction behind it.
type Finding struct {
	analysis.Diagnostic
	Rule       string
	Severity   Severity
	Prediction *analyzer.Prediction // nil for findings about comments
	// Numbers are the figures behind the message, for machine output.
	Numbers map[string]any
}

// Severity orders findings.
type Severity int

const (
	Info Severity = iota
	Warning
	Error
)

func (s Severity) String() string { return [...]string{"info", "warning", "error"}[s] }

// ParseSeverity reads "info", "warning" or "error".
func ParseSeverity(s string) (Severity, error) {
	for v := Info; v <= Error; v++ {
		if v.String() == s {
			return v, nil
		}
	}
	return Info, fmt.Errorf("unknown severity %q (want info, warning or error)", s)
}

// Report records a finding and reports its diagnostic to the pass.
func (r *Result) Report(pass *analysis.Pass, f *Finding) {
	f.Category = f.Rule
	r.mu.Lock()
	r.findings = append(r.findings, f)
	r.mu.Unlock()
	pass.Report(f.Diagnostic)
}

// Findings returns what the rules recorded.
func (r *Result) Findings() []*Finding {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]*Finding(nil), r.findings...)
}

// Range is the access's position in the pass's file set.
func (r *Result) Range(a *analyzer.Access) (token.Pos, token.Pos) {
	start, end := r.Pos(a.Pos), r.Pos(a.End)
	if end == token.NoPos || end < start {
		end = start
	}
	return start, end
}
