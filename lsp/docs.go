package lsp

import (
	"bytes"
	"context"
	"fmt"
	"go/token"
	"path/filepath"
	"strings"
	"time"

	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/driver"
	"github.com/cudalint/cudalint/internal/report"
	"github.com/cudalint/cudalint/parser/cpp"
	"github.com/cudalint/cudalint/rules/lint"
	"github.com/cudalint/cudalint/sources"
	"github.com/cudalint/cudalint/symbolic"
)

// document is an open file.
type document struct {
	uri, path string
	version   int
	src       []byte
	timer     *time.Timer
	res       *result // the latest analysis, possibly of an older version
	// ana is what is analyzed for it, when not src: src with patches
	// made (slack.go).
	ana     []byte
	patches []patch
	// cost is how long its latest analysis took.
	cost time.Duration
}

// result is one analysis of a document.
type result struct {
	version  int
	text     *text
	rep      *driver.Report
	findings []*lint.Finding // in this document, in diags' order
	diags    []Diagnostic
	deps     map[string]bool   // every file the analysis read
	seen     map[string][]byte // what it read of each
	path     string
	// shifts map the offsets of the analyzed text of path to text's,
	// after edits inside comments (see commentEdit).
	shifts []shift
}

// cacheRuns is how many analyses share one pair of parser caches: the
// item cache keeps every version of every edited item, so it is dropped
// now and then rather than grown without end.
const cacheRuns = 500

func (s *Server) didOpen(ctx context.Context, p *DidOpenTextDocumentParams) error {
	path, err := uriToPath(p.TextDocument.URI)
	if err != nil {
		return invalidParams(err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	d := &document{uri: p.TextDocument.URI, path: path, version: p.TextDocument.Version, src: []byte(p.TextDocument.Text)}
	s.docs[d.uri] = d
	s.context.Forget(d.path) // the buffer stands for the file now
	s.lint(ctx, d)
	// Files including it see a change only when the buffer differs from
	// what their analysis read: compared with that, the disk is not read.
	s.relintDependentsIf(ctx, d.path, func(o *document) bool { return !bytes.Equal(o.res.seen[d.path], d.analyzedText()) })
	return nil
}

func (s *Server) didChange(ctx context.Context, p *DidChangeTextDocumentParams) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.docs[p.TextDocument.URI]
	if d == nil {
		return invalidParams(errorf("didChange: %s is not open", p.TextDocument.URI))
	}
	old := d.src
	for _, c := range p.ContentChanges {
		d.src = applyChange(d.src, c, s.enc)
	}
	d.retarget(old)
	s.context.Forget(d.path)
	d.version = p.TextDocument.Version
	if s.settings.onSave() {
		return nil
	}
	s.schedule(ctx, d)
	return nil
}

// maxDebounce is the longest an edit waits for its analysis.
const maxDebounce = 150 * time.Millisecond

// delay is how long d's analysis waits after an edit: the interval the
// options fix, else as long as d's latest analysis took, at most
// maxDebounce. An analysis holds the server, so that an edit typed while
// it runs waits for it: one of 10 ms runs after each keystroke, one of
// a second only once typing pauses, never queued behind itself.
func (s *Server) delay(d *document) time.Duration {
	if s.debounce > 0 {
		return s.debounce
	}
	return min(d.cost, maxDebounce)
}

// schedule analyzes d once edits pause for the debounce interval.
func (s *Server) schedule(ctx context.Context, d *document) {
	if d.timer != nil {
		d.timer.Stop()
	}
	d.timer = time.AfterFunc(s.delay(d), func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.docs[d.uri] != d || s.shutdown {
			return
		}
		s.lintEdit(ctx, d)
		s.relintDependents(ctx, d.path)
	})
}

// lintEdit publishes d's diagnostics after an edit of its buffer: from
// its latest analysis, shifted, when the edit changed only a comment and
// the other buffers that analysis read are unchanged; else from a new
// analysis.
func (s *Server) lintEdit(ctx context.Context, d *document) {
	if r := s.reuse(d); r != nil {
		d.res = r
		v := r.version
		s.log.Printf("%s v%d: an edit inside a comment, the analysis of v%d reused", d.path, d.version, r.version)
		s.publish(ctx, &PublishDiagnosticsParams{URI: d.uri, Version: &v, Diagnostics: r.diags})
		return
	}
	s.lint(ctx, d)
}

// reuse is d's latest analysis made d's current text's, or nil.
func (s *Server) reuse(d *document) *result {
	old := d.res
	if old == nil || old.rep.Result == nil {
		return nil
	}
	for _, o := range s.docs {
		if o != d && old.deps[o.path] && !bytes.Equal(old.seen[o.path], o.analyzedText()) {
			return nil
		}
	}
	sh, comment, ok := commentEdit(old.text.src, d.src)
	if !ok {
		return nil
	}
	// A fix that rewrites the comment's lines would write the old text.
	for _, f := range old.findings {
		if f == nil {
			continue
		}
		for _, fx := range f.SuggestedFixes {
			for _, e := range fx.TextEdits {
				a, b := old.rep.Fset.Position(e.Pos), old.rep.Fset.Position(e.End)
				if absPath(a.Filename) == d.path && old.off(a.Offset) < comment.end && comment.start < old.off(max(b.Offset, a.Offset+1)) {
					return nil
				}
			}
		}
	}
	r := *old
	r.version, r.text = d.version, newText(d.src)
	r.shifts = append(append([]shift(nil), old.shifts...), sh)
	r.diags, r.findings = s.diagnostics(d, &r)
	return &r
}

func (s *Server) didSave(ctx context.Context, p *DidSaveTextDocumentParams) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.docs[p.TextDocument.URI]
	if d == nil {
		return nil
	}
	if p.Text != nil {
		d.src = []byte(*p.Text)
		d.ana, d.patches = nil, nil
	}
	if d.timer != nil {
		d.timer.Stop()
	}
	// What the disk holds changed: replayed headers may be stale.
	s.headersChanged()
	s.lint(ctx, d)
	s.relintDependents(ctx, d.path)
	return nil
}

func (s *Server) didClose(ctx context.Context, p *DidCloseTextDocumentParams) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.docs[p.TextDocument.URI]
	if d == nil {
		return nil
	}
	if d.timer != nil {
		d.timer.Stop()
	}
	delete(s.docs, d.uri)
	s.context.Forget(d.path)
	// Recordings that read it hold its buffer; the disk stands for it now.
	s.headers.Forget(d.path)
	delete(s.cached, absPath(d.path))
	s.publish(ctx, &PublishDiagnosticsParams{URI: d.uri, Diagnostics: []Diagnostic{}})
	// Files including it read the disk again.
	s.relintDependents(ctx, d.path)
	return nil
}

// didChangeWatchedFiles re-analyzes the open files a changed header
// feeds, and every open file when a configuration changed.
func (s *Server) didChangeWatchedFiles(ctx context.Context, p *DidChangeWatchedFilesParams) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.headersChanged()
	all := false
	changed := map[string]bool{}
	for _, c := range p.Changes {
		path, err := uriToPath(c.URI)
		if err != nil {
			continue
		}
		if filepath.Base(path) == ".cudalint.yaml" {
			all = true
		}
		changed[path] = true
	}
	for _, d := range s.docs {
		if all || d.res == nil || dependsOn(d, changed) {
			s.lint(ctx, d)
		}
	}
}

func dependsOn(d *document, changed map[string]bool) bool {
	for path := range changed {
		if d.res.deps[path] && path != d.path {
			return true
		}
	}
	return false
}

func (s *Server) didChangeConfiguration(ctx context.Context, p *DidChangeConfigurationParams) error {
	if len(p.Settings) == 0 || string(p.Settings) == "null" {
		return nil
	}
	set, err := parseSettings(p.Settings)
	if err != nil {
		return invalidParams(err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.settings = set
	s.resetCaches()
	for _, d := range s.docs {
		s.lint(ctx, d)
	}
	return nil
}

// headersChanged drops the header cache, for a change of the disk (a
// file saved or changed outside the editor): a replayed header is
// checked against its own text, but not against the headers it includes.
// The files read from disk go too (diskCache). The item cache (keyed
// by content) and the context cache (by modification time) stay valid.
func (s *Server) headersChanged() {
	s.headers = cpp.NewHeaderCache()
	s.cached = map[string][]byte{}
	s.disk = newDiskCache()
}

// syncHeaders drops the header recordings that read an open buffer
// other than as it is now (cpp.HeaderCache.Forget: its own, and those of
// the headers that include it), before an analysis replays them: a
// buffer just opened (they read the disk) or edited since. The others'
// recordings stay.
func (s *Server) syncHeaders() {
	for _, o := range s.docs {
		p := absPath(o.path)
		if src, ok := s.cached[p]; !ok || !bytes.Equal(src, o.analyzedText()) {
			s.headers.Forget(p)
			s.cached[p] = o.analyzedText()
		}
	}
}

// relintDependents re-analyzes the other open files that read path (an
// open header whose buffer changed, was opened or was closed).
func (s *Server) relintDependents(ctx context.Context, path string) {
	s.relintDependentsIf(ctx, path, func(*document) bool { return true })
}

// relintDependentsIf is relintDependents for the files stale says are.
func (s *Server) relintDependentsIf(ctx context.Context, path string, stale func(*document) bool) {
	for _, o := range s.docs {
		if o.path != path && o.res != nil && o.res.deps[path] && stale(o) {
			s.lint(ctx, o)
		}
	}
}

// fresh returns d's analysis of its current text, analyzing now when the
// latest is older (an edit still in its debounce interval).
func (s *Server) fresh(ctx context.Context, uri string) *document {
	d := s.docs[uri]
	if d == nil {
		return nil
	}
	if d.res == nil || d.res.version != d.version || len(d.res.text.src) != len(d.src) {
		if d.timer != nil {
			d.timer.Stop()
		}
		s.lint(ctx, d)
	}
	return d
}

// focusAnalyses restricts each analysis to what its document can
// report (analyzer.Memo.Focus); tests turn it off to compare.
var focusAnalyses = true

// readDisk reads a file the analysis needs that no buffer holds; tests
// watch what it reads.
var readDisk = sources.ReadFile

// analyze runs the driver over d, open buffers standing for their files.
func (s *Server) analyze(d *document) *result {
	s.syncHeaders()
	overlay := map[string][]byte{}
	for _, o := range s.docs {
		overlay[absPath(o.path)] = o.analyzedText()
	}
	set := s.settings
	root, inside := s.workspaceOf(d.path)
	disk := s.disk
	opts := driver.Options{
		Paths: []string{d.path}, Found: []string{d.path}, Root: root,
		ConfigPath: set.ConfigPath, Settings: set.Settings, Items: s.items, Headers: s.headers, Memo: s.memo, Context: s.context,
		// Open buffers stand for their files, matched by the document's
		// own name (its URI), so the disk is never read to compare.
		ReadFile: func(path string) ([]byte, error) {
			if src, ok := overlay[absPath(path)]; ok {
				return src, nil
			}
			if !inside {
				return nil, &cpp.RefusedError{Path: path, Reason: "the open file is outside every workspace folder and repository, so nothing else is read"}
			}
			return disk.read(path)
		},
		NoContext: !inside, NoDiscovery: !inside,
	}
	if set.Severity != "" {
		sev, _ := lint.ParseSeverity(set.Severity)
		opts.MinSeverity = &sev
	}
	if s.runs++; s.runs > cacheRuns {
		s.resetCaches()
	}
	// Only d's findings are published: the memo spares the analysis
	// the kernels and host functions whose findings are not d's.
	if focusAnalyses {
		s.memo.Focus([]string{absPath(d.path)})
	} else {
		s.memo.Focus(nil)
	}
	start := time.Now()
	rep := driver.Run(opts)
	res := &result{version: d.version, text: newText(d.src), rep: rep, deps: map[string]bool{}, seen: map[string][]byte{}, path: d.path,
		shifts: shiftsOf(d.patches)}
	if rep.Result != nil {
		for _, f := range rep.Result.Analysis.Program.Files {
			for path, src := range f.Sources {
				res.deps[absPath(path)] = true
				res.seen[absPath(path)] = src
			}
		}
	}
	res.diags, res.findings = s.diagnostics(d, res)
	d.cost = time.Since(start)
	st := s.memo.Last()
	s.log.Printf("analyzed %s v%d: %d diagnostics in %v (host functions interpreted %d, reused %d; kernels interpreted %d, reused %d; predicted %d, reused %d; lines patched %d)",
		d.path, d.version, len(res.diags), time.Since(start).Round(time.Microsecond),
		st.HostsInterpreted, st.HostsReused, st.RunsComputed, st.RunsReused, st.PredsComputed, st.PredsReused, len(d.patches))
	return res
}

// lint analyzes d and publishes its diagnostics.
func (s *Server) lint(ctx context.Context, d *document) {
	d.res = s.analyze(d)
	if fixTouchesPatch(d) {
		// A fix's text is the analyzed text's: it must be the buffer's.
		s.log.Printf("%s v%d: a fix spans a line the analysis took slack from; analyzed again as the buffer is", d.path, d.version)
		d.ana, d.patches = nil, nil
		d.res = s.analyze(d)
	}
	v := d.res.version
	s.publish(ctx, &PublishDiagnosticsParams{URI: d.uri, Version: &v, Diagnostics: d.res.diags})
}

func (s *Server) publish(ctx context.Context, p *PublishDiagnosticsParams) {
	if err := s.conn.Notify(ctx, "textDocument/publishDiagnostics", p); err != nil {
		s.log.Printf("publishing diagnostics: %v", err)
	}
}

// diagnostics converts the findings in d's file.
func (s *Server) diagnostics(d *document, res *result) ([]Diagnostic, []*lint.Finding) {
	diags := []Diagnostic{}
	var kept []*lint.Finding
	rep := res.rep
	for _, err := range rep.Errors {
		// A configuration or file the run could not use: said at the top
		// of the file, never a silently emptier list.
		diags = append(diags, Diagnostic{Severity: SeverityError, Code: "configuration", Source: "cudalint", Message: err.Error()})
		kept = append(kept, nil)
	}
	for _, n := range rep.Notes {
		// A budget spent here or in a header this file includes: the file
		// is not analyzed whole, which an empty list would hide.
		if driver.BudgetSpent(n.Kind) && absPath(n.Pos.File) == d.path {
			off := min(max(res.off(int(n.Pos.Offset)), 0), len(res.text.src))
			diags = append(diags, Diagnostic{Range: res.text.rangeOf(off, off, s.enc), Severity: SeverityWarning,
				Code: "budget", Source: "cudalint", Message: n.Msg})
			kept = append(kept, nil)
		}
	}
	occurrences := map[string]int{}
	for _, f := range rep.Findings {
		start, end := rep.Fset.Position(f.Pos), rep.Fset.Position(f.End)
		if absPath(start.Filename) != d.path {
			continue
		}
		if end.Filename != start.Filename || end.Offset < start.Offset {
			end = start
		}
		key := report.FingerprintKey(f, relURI(s.rootFor(d.path), d.path))
		occurrences[key]++
		diag := Diagnostic{
			Range:           res.text.rangeOf(res.off(start.Offset), res.off(end.Offset), s.enc),
			Severity:        severity(f.Severity),
			Code:            f.Rule.ID,
			CodeDescription: &CodeDescription{Href: f.Rule.URL()},
			Source:          "cudalint",
			Message:         f.Message,
			Data:            map[string]any{"fingerprint": report.Fingerprint(key, occurrences[key])},
		}
		for _, r := range f.Related {
			if loc, ok := s.location(res, r.Pos, r.End); ok {
				diag.RelatedInformation = append(diag.RelatedInformation, DiagnosticRelatedInformation{Location: loc, Message: r.Message})
			}
		}
		diag.RelatedInformation = append(diag.RelatedInformation, s.siblingFields(res, f)...)
		diags = append(diags, diag)
		kept = append(kept, f)
	}
	return diags, kept
}

// siblingFields points an aos-field finding at the other fields of the
// same array of structs that the kernel reads or writes.
func (s *Server) siblingFields(res *result, f *lint.Finding) []DiagnosticRelatedInformation {
	p := f.Prediction
	if !f.Rule.Folds.Has(lint.FoldStructFields) || p == nil || p.Access.Struct == nil {
		return nil
	}
	var out []DiagnosticRelatedInformation
	// One field read again (p[i].x * p[i].x) is one access: the same
	// operation at the same address.
	type access struct {
		op   interp.Op
		addr string
	}
	seen := map[access]bool{}
	for _, q := range res.rep.Result.Analysis.Predictions {
		a := q.Access
		k := access{a.Op, symbolic.Key(a.Addr)}
		if a.Kernel != p.Access.Kernel || a.Struct != p.Access.Struct || a.Base != p.Access.Base ||
			a.Field == p.Access.Field || a.Pos == p.Access.Pos || seen[k] {
			continue
		}
		seen[k] = true
		start, end := res.rep.Result.Range(a)
		if loc, ok := s.location(res, start, end); ok {
			out = append(out, DiagnosticRelatedInformation{Location: loc,
				Message: a.Op.String() + " of field ." + a.Field + " of the same array of structs"})
		}
	}
	return out
}

func severity(s lint.Severity) int {
	switch s {
	case lint.Error:
		return SeverityError
	case lint.Warning:
		return SeverityWarning
	}
	return SeverityInformation
}

func relURI(root, path string) string {
	if rel, err := filepath.Rel(root, path); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(path)
}

// textOf is the text the analysis saw for path.
func (s *Server) textOf(res *result, path string) *text {
	if res.rep.Result == nil {
		return nil
	}
	src := res.rep.Result.Analysis.Program.Source(path)
	if src == nil {
		return nil
	}
	return newText(src)
}

// location converts a span of the report's file set.
func (s *Server) location(res *result, pos, end token.Pos) (Location, bool) {
	fset := res.rep.Fset
	if !pos.IsValid() || fset.File(pos) == nil {
		return Location{}, false
	}
	a := fset.Position(pos)
	b := a
	if end.IsValid() && fset.File(end) == fset.File(pos) && end >= pos {
		b = fset.Position(end)
	}
	path := absPath(a.Filename)
	t := res.text
	from, to := a.Offset, b.Offset
	if path != filepath.Clean(res.path) {
		if t = s.textOf(res, a.Filename); t == nil {
			return Location{}, false
		}
	} else {
		from, to = res.off(from), res.off(to)
	}
	return Location{URI: pathToURI(path), Range: t.rangeOf(from, to, s.enc)}, true
}

func errorf(format string, args ...any) error { return fmt.Errorf(format, args...) }

// absPath is a file's name as the server keys it: absolute and clean.
// An analysis may spell a file relative to the working folder (through
// an include folder given relative); a buffer and a finding still match.
func absPath(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return filepath.Clean(path)
}
