// Package driver runs cudalint's rules, go/analysis analyzers, over a set
// of CUDA files: go/analysis's own drivers load Go packages, so this one
// builds the passes itself (the CUDA files go in Pass.OtherFiles,
// positions through a token.FileSet), then applies suppression comments
// and configuration.
package driver

import (
	"bytes"
	"fmt"
	"go/token"
	"path/filepath"
	"sort"
	"strings"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/parser"
	"github.com/cudalint/cudalint/parser/cpp"
	"github.com/cudalint/cudalint/parser/lex"
	"github.com/cudalint/cudalint/rules"
	"github.com/cudalint/cudalint/rules/accesses"
	"github.com/cudalint/cudalint/rules/impact"
	"github.com/cudalint/cudalint/rules/lint"
	"github.com/cudalint/cudalint/sources"
)

// Options are the command line's choices.
type Options struct {
	Paths []string
	// Found, when set, is what sources.Find returned for Paths (with
	// FindErrors): a caller that searched already need not search again.
	Found      []string
	FindErrors []error
	ConfigPath string // --config: overrides discovery
	// Settings are the command line's: -D, --block, --grid, --param, -I.
	// They win over every configuration's.
	analyzer.Settings
	Enable  []string // --enable: only these rules
	Disable []string // --disable
	// Root (--root) and the settings' IncludeDirs are the folders
	// includes may read.
	Root string
	// MinSeverity overrides the configuration's when set.
	MinSeverity *lint.Severity
	// ModelOnly runs the model and no rule: --accesses and --stats load
	// through the driver, under the same configuration, and print the
	// predictions themselves.
	ModelOnly bool
	// ReadFile, when set, reads the files instead of sources.ReadFile:
	// it serves standard input under the name --stdin-filename gives.
	ReadFile func(path string) ([]byte, error)
	// Items and Headers, when set, keep parsed items and preprocessed
	// headers across runs: a language server passes the same caches to
	// every run, so an edit re-reads only what changed. Both key their
	// entries by content, so a changed file is never served stale.
	Items   *parser.ItemCache
	Headers *cpp.HeaderCache
	// Memo, when set, keeps kernels' interpretations and predictions
	// across runs, keyed by what they depend on (analyzer.Memo).
	Memo *analyzer.Memo
	// NoContext analyzes files named alone without the rest of their
	// project (see contextFiles).
	NoContext bool
	// NoDiscovery looks for no .cudalint.yaml: an editor's file outside
	// every workspace and repository reads nothing but itself.
	NoDiscovery bool
	// Context, when set, keeps the project's files read for context
	// between runs (a language server passes the same one to every run).
	Context *ContextCache
	// NoHostCpp reads no C or C++ file for host context (hostcpp.go);
	// a configuration's host-cpp: false does the same for its folder.
	NoHostCpp bool
	// Stream keeps, of the model, only what the findings need: the rules
	// run part by part of the kernels and the rest of each part is
	// dropped, so that a large run holds a few parts' predictions, not
	// all of them. The report's Result then has the program and its
	// kernels (with no accesses) and no predictions but the findings':
	// for a caller that reads the findings alone (not ModelOnly, not the
	// HTML page or an editor's hovers, which read every prediction).
	Stream bool
}

// Report is the outcome of a run.
type Report struct {
	Findings []*lint.Finding
	Errors   []error // files or configuration that could not be used
	// Warnings are settings that took no effect: blocks and params
	// entries, in a configuration or a flag, naming no kernel or
	// parameter of the files analyzed.
	Warnings []Warning
	Fset     *token.FileSet
	Result   *accesses.Result
	Notes    []parser.Note
	// Root is the run's root, absolute: the base of every path a report
	// prints ("" when none could be had).
	Root string
	// Reported, when not nil, says whether a file's findings are
	// reported: files named alone are read with others of their project
	// (see contextFiles), whose findings are not, and C or C++ files
	// are read for host context (hostcpp.go), which are never reported.
	Reported func(file string) bool
	// HostFiles are the C and C++ files read for host context, and
	// HostProblems what in them, or of them, could not be used: a file
	// over the size limit, a read error, a parse note (the run goes on
	// without what it would have given).
	HostFiles    []string
	HostProblems []string
}

type run struct {
	opts Options
	// root is the run's root, absolute: no configuration above it is
	// read for the files inside it.
	root     string
	explicit *Config
	configs  map[string]*Config
	errs     []error
	// configErrs are mistakes in configuration files and options: any
	// stops the run before its findings, as a linter cannot say what is
	// wrong with code when it cannot say which rules to run.
	configErrs []error
}

// Run analyzes the files under opts.Paths with every enabled rule.
func Run(opts Options) *Report {
	d := &run{opts: opts, configs: map[string]*Config{}, root: runRoot(opts.Root)}
	d.configErrs = checkOptions(opts)
	if opts.ConfigPath != "" {
		c, err := LoadConfig(opts.ConfigPath)
		d.configErrs = append(d.configErrs, splitErrors(err)...)
		d.explicit = c
	}
	files, errs := opts.Found, opts.FindErrors
	if files == nil {
		files, errs = sources.Find(opts.Paths)
	}
	d.errs = append(d.errs, errs...)
	var kept []string
	for _, f := range files {
		if !d.configFor(f).excludes(f) {
			kept = append(kept, f)
		}
	}
	if len(d.configErrs) > 0 {
		return d.failed()
	}
	// Files named alone are analyzed within their project; only the
	// run's own files are reported.
	var reported map[string]bool
	analyzed := kept
	if named := underRoot(d.root, namedFiles(opts.Paths, kept)); len(named) > 0 && !opts.NoContext {
		read := opts.ReadFile
		if read == nil {
			read = sources.ReadFile
		}
		reported = map[string]bool{}
		for _, f := range kept {
			reported[absPath(f)] = true
		}
		analyzed = append([]string(nil), kept...)
		for _, f := range contextFiles(d.root, named, kept, read, opts.Context) {
			if !d.configFor(f).excludes(f) {
				analyzed = append(analyzed, f)
			}
		}
		sort.Strings(analyzed)
	}
	host, hostProblems := d.hostContext(analyzed)
	fset := token.NewFileSet()
	model := d.modelOptions()
	model.HostFiles = host
	runner := &passRunner{fset: fset, files: analyzed, readFile: opts.ReadFile, model: model, stream: opts.Stream && !opts.ModelOnly,
		sites: impact.NewSites()}
	enabled := d.cliEnabled
	if opts.ModelOnly {
		enabled = func(string) bool { return false }
	}
	keep := func(id, file string) bool { return d.configFor(file).ruleEnabled(id) }
	ar, found, errs := runner.checkRules(enabled, keep)
	if ar == nil {
		d.errs = append(d.errs, errs...)
		return &Report{Errors: d.errs, Fset: fset}
	}
	loadErrs, hidden, hostProblems := hostOutcome(ar, host, hostProblems)
	d.errs = append(append(d.errs, loadErrs...), errs...)
	if hidden != nil {
		ar.Analysis.Program.Files = dropHidden(ar.Analysis.Program.Files, hidden)
	}
	if opts.ModelOnly {
		if len(d.configErrs) > 0 {
			return d.failed()
		}
		rep := &Report{Fset: fset, Result: ar, Errors: d.errs, Warnings: d.warnings(ar.Analysis, analyzed), Notes: notes(ar, reported), Root: d.root}
		rep.Warnings = append(rep.Warnings, refusedIncludes(rep.Notes, d.root)...)
		rep.Reported = reportedFunc(reported, hidden)
		rep.HostFiles, rep.HostProblems = host, hostProblems
		return rep
	}
	rep := &Report{Fset: fset, Result: ar, Errors: d.errs, Root: d.root}
	rep.Findings = d.suppress(ar, found)
	applyLaunchers(rep.Findings, runner.sites, ar.Analysis.Program)
	rep.Findings = group(rep.Findings, fset)
	applyImpact(rep.Findings)
	applyUnlaunched(rep.Findings, ar.Analysis)
	applyRuntimeCalls(rep.Findings)
	applyWarmups(rep.Findings)
	applyMissingIncludes(rep.Findings, ar.Analysis)
	applyComputeLoops(rep.Findings, ar.Analysis)
	applyUnpricedAsm(rep.Findings, ar.Analysis)
	rep.Findings = d.filter(rep.Findings, fset)
	if len(d.configErrs) > 0 { // a configuration found only for an included header
		return d.failed()
	}
	rep.Warnings = d.warnings(ar.Analysis, analyzed)
	rep.Findings = append(rep.Findings, InternalErrorFindings(ar)...)
	if hidden != nil {
		var own []*lint.Finding
		for _, f := range rep.Findings {
			if !hidden[fset.Position(f.Pos).Filename] {
				own = append(own, f)
			}
		}
		rep.Findings = own
	}
	if reported != nil {
		var own []*lint.Finding
		for _, f := range rep.Findings {
			if inNamed(reported, fset.Position(f.Pos).Filename) {
				own = append(own, f)
			}
		}
		rep.Findings = own
	}
	sortFindings(rep.Findings, fset)
	rep.Notes = notes(ar, reported)
	rep.Warnings = append(rep.Warnings, refusedIncludes(rep.Notes, d.root)...)
	rep.Reported = reportedFunc(reported, hidden)
	rep.HostFiles, rep.HostProblems = host, hostProblems
	return rep
}

// failed is the report of a run stopped by configuration mistakes: the
// mistakes, and no findings that would read as if all were well.
func (d *run) failed() *Report {
	return &Report{Errors: append(d.errs, d.configErrs...), Fset: token.NewFileSet()}
}

// warnings lists the blocks and params entries, of every configuration
// used and of the options, that name nothing in res. A configuration's
// entry is said only when no CUDA file under its folder (the run's root
// for --config) that the run left out declares what it names: a run of
// a few files (pre-commit, an editor) does not warn of the others'
// kernels.
func (d *run) warnings(res *analyzer.Result, analyzed []string) []Warning {
	n := namesOf(res)
	seen := map[string]bool{}
	for _, f := range analyzed {
		seen[absPath(f)] = true
	}
	var out []Warning
	for _, c := range d.allConfigs() {
		dir := filepath.Dir(c.path)
		if c == d.explicit && d.root != "" {
			dir = d.root
		}
		var lo *leftOut
		elsewhere := func(setting, name string) bool {
			if lo == nil { // read only when an entry names nothing analyzed
				lo = d.leftOut(dir, seen)
			}
			return lo.declares(setting, name)
		}
		out = append(out, configWarnings(c, n, elsewhere)...)
	}
	return append(out, FlagWarnings(res, d.opts.Blocks, d.opts.Params)...)
}

func (d *run) allConfigs() []*Config {
	if d.explicit != nil {
		return []*Config{d.explicit}
	}
	var out []*Config
	var dirs []string
	for dir, c := range d.configs {
		if c != nil {
			dirs = append(dirs, dir)
		}
	}
	sort.Strings(dirs)
	for _, dir := range dirs {
		out = append(out, d.configs[dir])
	}
	return out
}

func (d *run) cliEnabled(id string) bool {
	if len(d.opts.Enable) > 0 && !contains(d.opts.Enable, id) {
		return false
	}
	return !contains(d.opts.Disable, id)
}

// filter applies the configuration of each finding's file.
func (d *run) filter(fs []*lint.Finding, fset *token.FileSet) []*lint.Finding {
	var out []*lint.Finding
	for _, f := range fs {
		file := fset.Position(f.Pos).Filename
		c := d.configFor(file)
		min := lint.Info
		if c != nil {
			min = c.min
		}
		if d.opts.MinSeverity != nil {
			min = *d.opts.MinSeverity
		}
		if f.Severity < min || !c.ruleEnabled(f.Rule.ID) || !d.cliEnabled(f.Rule.ID) {
			continue
		}
		out = append(out, f)
	}
	return out
}

func sortFindings(fs []*lint.Finding, fset *token.FileSet) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fset.Position(fs[i].Pos), fset.Position(fs[j].Pos)
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		if a.Offset != b.Offset {
			return a.Offset < b.Offset
		}
		if fs[i].Rule.ID != fs[j].Rule.ID {
			return fs[i].Rule.ID < fs[j].Rule.ID
		}
		return fs[i].Message < fs[j].Message
	})
}

// notes are the parse and model notes, of the reported files only when
// reported is not nil.
func notes(ar *accesses.Result, reported map[string]bool) []parser.Note {
	var out []parser.Note
	seen := map[parser.Note]bool{}
	if reported != nil {
		for _, f := range ar.Analysis.Program.Files {
			for _, n := range f.Notes {
				if !inNamed(reported, n.Pos.File) {
					seen[n] = true
					// A budget spent inside a header leaves the named file
					// not analyzed whole: said at the file, never clean.
					if inNamed(reported, f.Path) && BudgetSpent(n.Kind) {
						out = append(out, spentFor(f, n))
					}
				}
			}
		}
		for _, k := range ar.Analysis.Kernels {
			for _, n := range k.Notes {
				if !inNamed(reported, n.Pos.File) {
					seen[n] = true
				}
			}
		}
	}
	for _, f := range ar.Analysis.Program.Files {
		for _, n := range f.Notes {
			if !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	for _, k := range ar.Analysis.Kernels {
		for _, n := range k.Notes {
			if !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Pos.File != out[j].Pos.File {
			return out[i].Pos.File < out[j].Pos.File
		}
		return out[i].Pos.Offset < out[j].Pos.Offset
	})
	return out
}

// BudgetSpent reports whether a note of this kind says a budget was spent,
// so that what follows it was not read or not analyzed whole.
func BudgetSpent(k lex.NoteKind) bool {
	switch k {
	case lex.NoteTokenLimit, lex.NoteExpansionLimit, lex.NoteIncludeDepth, lex.NoteIncludeCount, lex.NoteIncludeBytes, lex.NoteNestingLimit:
		return true
	}
	return false
}

// spentFor is n, a budget spent in a header f includes, said for f: at
// f's #include of that header (its first #include of a header it read
// when the header comes through another), naming where it was spent.
func spentFor(f *parser.File, n parser.Note) parser.Note {
	at := parser.Pos{File: f.Path, Line: 1, Col: 1}
	src := f.Sources[f.Path]
	read := map[string]bool{}
	for p := range f.Sources {
		read[filepath.Base(p)] = true
	}
	first := true
	for line, off := int32(1), 0; off < len(src); line++ {
		end := bytes.IndexByte(src[off:], '\n')
		if end < 0 {
			end = len(src) - off
		}
		text := bytes.TrimLeft(src[off:off+end], " \t")
		if bytes.HasPrefix(text, []byte("#")) && bytes.HasPrefix(bytes.TrimLeft(text[1:], " \t"), []byte("include")) {
			direct := bytes.Contains(text, []byte(filepath.Base(n.Pos.File)))
			if first && readInclude(text, read) || direct {
				indent := end - len(text)
				at = parser.Pos{File: f.Path, Line: line, Col: int32(indent) + 1, Offset: int32(off + indent)}
				first = false
			}
			if direct {
				break
			}
		}
		off += end + 1
	}
	n.Msg = fmt.Sprintf("%s (in %s, which this file includes: the file is not analyzed whole)", n.Msg, n.Pos)
	n.Pos = at
	return n
}

// readInclude reports whether an #include line names a file the unit read.
func readInclude(line []byte, read map[string]bool) bool {
	i := bytes.IndexAny(line, "\"<")
	if i < 0 {
		return false
	}
	j := bytes.IndexAny(line[i+1:], "\">")
	return j > 0 && read[filepath.Base(string(line[i+1:i+1+j]))]
}

// ---- suppression comments ----

type ignore struct {
	dir   parser.Directive
	rules []string
	file  bool // file-ignore
	used  bool
}

// parseIgnore reads "ignore RULE[,RULE] reason" and "file-ignore RULE reason".
func parseIgnore(d parser.Directive) (*ignore, bool) {
	if d.Verb != lex.DirectiveIgnore && d.Verb != lex.DirectiveFileIgnore {
		return nil, false
	}
	return &ignore{dir: d, rules: d.Rules, file: d.Verb == lex.DirectiveFileIgnore}, true
}

// suppress drops findings covered by an ignore comment on their line or
// the line above (or a file-ignore in their file), and reports every
// ignore comment that suppressed nothing.
func (d *run) suppress(ar *accesses.Result, fs []*lint.Finding) []*lint.Finding {
	var ignores []*ignore
	seen := map[parser.Pos]bool{}
	for _, f := range ar.Analysis.Program.Files {
		for _, dir := range f.Directives {
			if ig, ok := parseIgnore(dir); ok && !seen[dir.Pos] {
				seen[dir.Pos] = true
				ignores = append(ignores, ig)
			}
		}
	}
	var out []*lint.Finding
	for _, f := range fs {
		places := suppressionPlaces(ar, f)
		suppressed := false
		for _, ig := range ignores {
			if !contains(ig.rules, f.Rule.ID) {
				continue
			}
			for _, pos := range places {
				if ig.dir.Pos.File != pos.Filename {
					continue
				}
				if ig.file || int(ig.dir.Pos.Line) == pos.Line || int(ig.dir.Pos.Line) == pos.Line-1 {
					ig.used, suppressed = true, true
				}
			}
		}
		if !suppressed {
			out = append(out, f)
		}
	}
	for _, ig := range ignores {
		if ig.used || (len(ig.rules) > 0 && !d.anyRan(ig)) {
			continue
		}
		kind := "ignore"
		if ig.file {
			kind = "file-ignore"
		}
		f := &lint.Finding{Rule: rules.UnusedIgnore, Severity: lint.Warning}
		f.Pos = ar.Pos(ig.dir.Pos)
		f.End = f.Pos
		f.Category = rules.UnusedIgnore.ID
		f.Message = fmt.Sprintf("cudalint:%s %s suppresses nothing here; remove it", kind, strings.Join(ig.rules, ","))
		for _, id := range ig.rules {
			if rules.ByID(id) == nil {
				f.Message = fmt.Sprintf("cudalint:%s names %q, which is not a rule (cudalint rules lists them)", kind, id)
			}
		}
		if len(ig.rules) == 0 {
			f.Message = fmt.Sprintf("cudalint:%s names no rule, so it suppresses nothing: write cudalint:%s RULE[,RULE] reason (cudalint rules lists them)", kind, kind)
		}
		out = append(out, f)
	}
	return out
}

// suppressionPlaces are the places whose ignore comments cover a finding:
// where it is marked and, for an access in a helper, the access itself,
// so that an ignore written at a helper's access covers every call of it.
func suppressionPlaces(ar *accesses.Result, f *lint.Finding) []token.Position {
	out := []token.Position{ar.Fset.Position(f.Pos)}
	if p := f.Prediction; p != nil && p.Access.InHelper() {
		if pos, _ := ar.Range(p.Access); pos.IsValid() {
			out = append(out, ar.Fset.Position(pos))
		}
	}
	return out
}

// InternalErrorFindings turns the analysis's own failures into error
// findings at their kernels. Run adds them after suppression and
// filtering: a kernel cudalint failed on must never look clean.
func InternalErrorFindings(ar *accesses.Result) []*lint.Finding {
	var out []*lint.Finding
	for _, ie := range ar.Analysis.InternalErrors {
		f := &lint.Finding{Rule: rules.InternalError, Severity: lint.Error}
		f.Pos = ar.Pos(ie.Pos)
		f.End = f.Pos
		f.Category = rules.InternalError.ID
		f.Message = ie.Error() + "; " + lostPart(ie) + " (a bug in cudalint: please report it)"
		f.Figures = lint.Figures{Kernel: ie.Kernel}
		out = append(out, f)
	}
	return out
}

// lostPart says what the failure cost.
func lostPart(ie analyzer.InternalError) string {
	if ie.Config != "" {
		return "this launch configuration was not analyzed"
	}
	return "the kernel was not analyzed"
}

// runRoot is --root, or the repository holding the working directory, or
// the working directory; absolute, or "" when none can be had.
func runRoot(root string) string {
	if root == "" {
		var err error
		if root, err = sources.DefaultRoot(); err != nil {
			return ""
		}
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return ""
	}
	return abs
}

// anyRan: some rule an ignore comment names ran for its file, or names no
// rule at all. An ignore of a rule the run disabled (--disable, or the
// folder's configuration) had nothing to suppress this time, which says
// nothing about whether it is stale.
func (d *run) anyRan(ig *ignore) bool {
	c := d.configFor(ig.dir.Pos.File)
	for _, id := range ig.rules {
		if rules.ByID(id) == nil || (d.cliEnabled(id) && c.ruleEnabled(id)) {
			return true
		}
	}
	return false
}
