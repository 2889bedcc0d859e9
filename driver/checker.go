package driver

import (
	"fmt"
	"go/token"
	"maps"
	"path/filepath"
	"reflect"
	"sort"

	"golang.org/x/tools/go/analysis"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/rules"
	"github.com/cudalint/cudalint/rules/accesses"
	"github.com/cudalint/cudalint/rules/impact"
	"github.com/cudalint/cudalint/rules/lint"
	"github.com/cudalint/cudalint/rules/spec"
	"github.com/cudalint/cudalint/sources"
)

// passRunner runs go/analysis analyzers over one set of CUDA files, as
// x/tools' checker does for Go packages: in Requires order, each with a
// Pass whose ResultOf holds its requirements' results and whose Report
// collects its diagnostics.
type passRunner struct {
	fset     *token.FileSet
	files    []string
	readFile func(string) ([]byte, error)
	// model are the options the model analyzer runs with in this run.
	model accesses.Options
	// stream runs the rules part by part of the model (accesses.LoadEach),
	// keeping only their findings: see checkRules.
	stream bool
	// part, while the rules run over one part of the model, is the model
	// analyzer's result for that part.
	part *accesses.Result
	// sites gather the kernels' times by launch site over the passes
	// (impact.Sites), which the findings are priced against at the end.
	sites *impact.Sites
}

// action is one analyzer's run.
type action struct {
	a     *analysis.Analyzer
	deps  []*action
	res   any
	diags []analysis.Diagnostic
	err   error
}

// run runs roots and what they require, each once, requirements first;
// it returns the actions in the order they ran. An analyzer whose
// requirement failed does not run, and carries the failure.
func (c *passRunner) run(roots []*analysis.Analyzer) []*action {
	var order []*action
	seen := map[*analysis.Analyzer]*action{}
	var visit func(a *analysis.Analyzer) *action
	visit = func(a *analysis.Analyzer) *action {
		if act, ok := seen[a]; ok {
			return act
		}
		act := &action{a: a}
		seen[a] = act
		for _, req := range a.Requires {
			act.deps = append(act.deps, visit(req))
		}
		order = append(order, act)
		return act
	}
	for _, a := range roots {
		visit(a)
	}
	for _, act := range order {
		c.exec(act)
	}
	return order
}

func (c *passRunner) exec(act *action) {
	resultOf := map[*analysis.Analyzer]any{}
	for _, dep := range act.deps {
		if dep.err != nil {
			act.err = fmt.Errorf("%s failed: %v", dep.a.Name, dep.err)
			return
		}
		resultOf[dep.a] = dep.res
	}
	pass := &analysis.Pass{
		Analyzer:   act.a,
		Fset:       c.fset,
		OtherFiles: c.files,
		ResultOf:   resultOf,
		ReadFile:   c.readFile,
		Report:     func(d analysis.Diagnostic) { act.diags = append(act.diags, d) },
	}
	if act.a == accesses.Analyzer {
		if c.part != nil {
			act.res = c.part
			return
		}
		// The model's options belong to this run, not to the analyzer.
		act.res, act.err = accesses.Load(pass, c.model)
		return
	}
	act.res, act.err = act.a.Run(pass)
}

// validateFix checks a suggested fix as x/tools' checker does: every edit
// lies within one file of the file set, ends at or after its start, and
// no two edits of the fix overlap.
func validateFix(fset *token.FileSet, fix analysis.SuggestedFix) error {
	var file *token.File
	edits := append([]analysis.TextEdit(nil), fix.TextEdits...)
	for i, e := range edits {
		end := e.End
		if end == token.NoPos {
			end, edits[i].End = e.Pos, e.Pos
		}
		tf := fset.File(e.Pos)
		switch {
		case tf == nil || !e.Pos.IsValid():
			return fmt.Errorf("edit at %d is outside every file", e.Pos)
		case end < e.Pos:
			return fmt.Errorf("edit at %s ends before it starts", fset.Position(e.Pos))
		case int(end) > tf.Base()+tf.Size():
			return fmt.Errorf("edit at %s ends past its file", fset.Position(e.Pos))
		case file != nil && tf != file:
			return fmt.Errorf("edits in %s and %s", file.Name(), tf.Name())
		}
		file = tf
	}
	sort.Slice(edits, func(i, j int) bool { return edits[i].Pos < edits[j].Pos })
	for i := 1; i < len(edits); i++ {
		if edits[i].Pos < edits[i-1].End {
			return fmt.Errorf("edits at %s and %s overlap", fset.Position(edits[i-1].Pos), fset.Position(edits[i].Pos))
		}
	}
	return nil
}

// dropInvalidFixes keeps the valid fixes of d, and says which it dropped.
func dropInvalidFixes(fset *token.FileSet, rule string, d *analysis.Diagnostic) []error {
	var errs []error
	var kept []analysis.SuggestedFix
	for _, fix := range d.SuggestedFixes {
		if err := validateFix(fset, fix); err != nil {
			errs = append(errs, fmt.Errorf("rule %s: %s: invalid fix %q dropped: %v", rule, fset.Position(d.Pos), fix.Message, err))
			continue
		}
		kept = append(kept, fix)
	}
	d.SuggestedFixes = kept
	return errs
}

// access is what one finding is kept per: the prediction (one access of
// one kernel under one launch). A range alone is not enough: a
// __device__ helper inlined into several kernels has one range and a
// prediction per kernel, each with its rule.
func access(f *lint.Finding) *analyzer.Prediction { return f.Prediction }

// winners keeps, per access, the findings of the rule that ranks first in
// rules.Precedence: one access gets one finding. A finding that covers
// other accesses (a vector's other lanes) ranks for them too.
func winners(fs []*lint.Finding) []*lint.Finding {
	best := map[*analyzer.Prediction]int{}
	for _, f := range fs {
		rank := rules.Rank(f.Rule)
		for _, k := range append([]*analyzer.Prediction{access(f)}, f.Covers...) {
			if b, ok := best[k]; !ok || rank < b {
				best[k] = rank
			}
		}
	}
	var out []*lint.Finding
	for _, f := range fs {
		if rules.Rank(f.Rule) == best[access(f)] {
			out = append(out, f)
		}
	}
	return out
}

// checkRules runs the enabled rules' analyzers and keeps what they found:
// fixes validated, precedence applied. Each rule's findings carry their
// prediction and severity, graded by the rule.
//
// enabled says which rules run at all; keep says whether a rule's
// finding in a file counts (a folder's configuration may disable the
// rule there). Precedence is decided among what counts, so a rule a
// folder disabled never hides another rule's finding on the same access.
//
// Streamed, the rules run over each part of the model in turn (every
// rule reads a kernel's predictions together, never two kernels'), and
// only the findings are kept: the model's other predictions and the
// rules' own state are dropped part by part. The result then holds no
// predictions but the findings'.
func (c *passRunner) checkRules(enabled func(id string) bool, keep func(id, file string) bool) (*accesses.Result, []*lint.Finding, []error) {
	var roots []*analysis.Analyzer
	byAnalyzer := map[*analysis.Analyzer]*lint.Rule{}
	for _, r := range rules.All {
		if r.Analyzer != nil && enabled(r.ID) {
			roots = append(roots, r.Analyzer)
			byAnalyzer[r.Analyzer] = r
		}
	}
	all := append([]*analysis.Analyzer{accesses.Analyzer}, roots...)
	if err := analysis.Validate(all); err != nil { // as x/tools' checker does: names, docs, no cycles
		return nil, nil, []error{err}
	}
	if !c.stream {
		acts := c.run(all)
		if acts[0].err != nil {
			return nil, nil, []error{acts[0].err}
		}
		found, errs := c.kept(acts[1:], byAnalyzer, keep)
		return acts[0].res.(*accesses.Result), winners(found), errs
	}
	return c.checkStreamed(all, byAnalyzer, keep)
}

// kept are the findings of the rules' actions that keep says count, their
// invalid fixes dropped, and the rules' failures.
func (c *passRunner) kept(acts []*action, byAnalyzer map[*analysis.Analyzer]*lint.Rule, keep func(id, file string) bool) ([]*lint.Finding, []error) {
	var errs []error
	var kept []*lint.Finding
	for _, act := range acts {
		r := byAnalyzer[act.a]
		if costs, ok := act.res.(*impact.Costs); ok {
			c.sites.Add(costs) // the kernels' times, which findings are priced against once all are in
		}
		if r == nil {
			continue // a requirement of the rules (impact), not a rule
		}
		found, err := findingsOf(act)
		if err != nil {
			errs = append(errs, fmt.Errorf("rule %s: %v", r.ID, err))
			continue
		}
		for _, f := range found {
			errs = append(errs, dropInvalidFixes(c.fset, r.ID, &f.Diagnostic)...)
			if keep(r.ID, c.fset.Position(f.Pos).Filename) {
				kept = append(kept, f)
			}
		}
	}
	return kept, errs
}

// findingsOf is what a rule's analyzer found, checked as x/tools' checker
// checks a result: of the declared type, and standing for every
// diagnostic the analyzer reported (a diagnostic with no finding would
// have no prediction, severity or figures).
func findingsOf(act *action) (spec.Findings, error) {
	if act.err != nil {
		return nil, act.err
	}
	found, ok := act.res.(spec.Findings)
	if !ok || reflect.TypeOf(act.res) != act.a.ResultType {
		return nil, fmt.Errorf("analyzer %s returned %T, want %v", act.a.Name, act.res, act.a.ResultType)
	}
	if len(found) != len(act.diags) {
		return nil, fmt.Errorf("analyzer %s reported %d diagnostics but returned %d findings", act.a.Name, len(act.diags), len(found))
	}
	return found, nil
}

// modelOptions are the model's options for this run: the definitions,
// blocks and params of every configuration used, then the command line's
// (which win), and the include folders of -I and of the configurations
// (each relative to its file's folder).
func (d *run) modelOptions() accesses.Options {
	o := accesses.Options{Root: d.root, Settings: analyzer.Settings{Defines: map[string]string{},
		Blocks: map[string]analyzer.Dim3{}, Grids: map[string]analyzer.Dim3{}, Params: map[string]int64{}}}
	o.IncludeDirs = append(o.IncludeDirs, d.opts.IncludeDirs...)
	for _, c := range d.allConfigs() {
		for _, entry := range c.IncludeDirs {
			dir := entry
			if !filepath.IsAbs(dir) {
				dir = filepath.Join(filepath.Dir(c.path), dir)
			}
			// A repository's own configuration may widen reads only
			// within the project and never into a hidden folder (.git,
			// ../../.aws under a home folder): those take the user's -I
			// on the command line.
			if d.root != "" {
				if err := sources.CheckDir(dir, d.root); err != nil {
					at := c.at["include-dirs"][entry]
					d.errs = append(d.errs, &ConfigError{File: displayPath(c.path), Line: at.line, Col: at.col,
						Msg: fmt.Sprintf("include-dirs: %v; not read (-I %s on the command line allows it)", err, dir)})
					continue
				}
			}
			o.IncludeDirs = append(o.IncludeDirs, dir)
		}
	}
	copyInto(o.Defines, d.opts.Defines)
	maps.Copy(o.Blocks, d.opts.Blocks)
	maps.Copy(o.Grids, d.opts.Grids)
	maps.Copy(o.Params, d.opts.Params)
	o.Scope = d.scopes()
	o.Items, o.Headers, o.Memo = d.opts.Items, d.opts.Headers, d.opts.Memo
	return o
}

// scopes gives each file the settings of the configuration governing
// it. Configurations were found while the files were listed; the lookup
// only reads what that found, so the analysis may call it concurrently.
func (d *run) scopes() func(file string) analyzer.Settings {
	if d.explicit != nil { // --config governs every file
		s := scopeOf(d.explicit)
		return func(string) analyzer.Settings { return s }
	}
	byConfig := map[*Config]analyzer.Settings{}
	for _, c := range d.configs {
		if c != nil {
			byConfig[c] = scopeOf(c)
		}
	}
	return func(file string) analyzer.Settings {
		dir, err := filepath.Abs(filepath.Dir(file))
		if err != nil {
			return analyzer.Settings{}
		}
		for {
			if c, ok := d.configs[dir]; ok {
				return byConfig[c] // the zero Settings for nil
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				return analyzer.Settings{}
			}
			dir = parent
		}
	}
}

// scopeOf is a configuration's settings, parsed (its blocks were
// checked when it was loaded).
func scopeOf(c *Config) analyzer.Settings {
	s := analyzer.Settings{Defines: c.Defines, Blocks: map[string]analyzer.Dim3{}, Grids: map[string]analyzer.Dim3{}, Params: c.Params}
	for k, v := range c.Grids {
		if d, err := ParseGrid(v); err == nil {
			s.Grids[k] = d
		}
	}
	for k, v := range c.Blocks {
		if d, err := analyzer.ParseDim3(v); err == nil {
			s.Blocks[k] = d
		}
	}
	return s
}

func copyInto(dst, src map[string]string) {
	for k, v := range src {
		dst[k] = v
	}
}
