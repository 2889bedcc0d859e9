// Package html writes a run's findings as one self-contained HTML page:
// the kernels ranked by what fixing their accesses saves, each kernel's
// source with every access line shaded by its predicted sectors (or
// shared-memory wavefronts) per request against the ideal, as Nsight
// Compute's source view shades its metrics, the findings beside their
// lines with the warp picture, and the launch configurations and
// assumptions the numbers rest on. Severity and rule filters are a few
// lines of inline script; the page loads nothing, so a CI artifact opens
// offline.
//
// It reads the driver's report and prints; it decides nothing. The
// ranking is the order of the findings it is given: the command gives
// them as --sort impact orders them.
package html

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"go/token"
	"html/template"
	"io"
	"sort"
	"strings"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/driver"
	"github.com/cudalint/cudalint/internal/report"
	"github.com/cudalint/cudalint/parser"
	"github.com/cudalint/cudalint/parser/lex"
	"github.com/cudalint/cudalint/rules/lint"
)

// Options are what the command knows of the run beyond the report.
type Options struct {
	// Path is how the page names a file (relative to the run's root);
	// nil names it as the report does.
	Path func(file string) string
	// Summary is the run's summary line, as text output ends with it.
	Summary string
	// Version names the tool at the page's foot.
	Version string
}

// Write writes rep as one HTML page to w. Kernels are ranked by the
// first of their findings in rep.Findings; kernels without a finding
// follow, in the order of the files.
func Write(w io.Writer, rep *driver.Report, opts Options) error {
	if opts.Path == nil {
		opts.Path = func(s string) string { return s }
	}
	p := build(rep, opts)
	var buf bytes.Buffer
	if err := pageTemplate.Execute(&buf, p); err != nil {
		return fmt.Errorf("writing the HTML report: %v", err)
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// page is what the template prints.
type page struct {
	Summary, Version string
	CSP              string
	Script           template.JS
	Total            int
	Severities       []filter
	Rules            []filter
	Ranked           []*kernelView // kernels with findings, by rank
	Quiet            []*kernelView // kernels without
	Other            []*findingView
}

type filter struct {
	Name  string
	Count int
}

type kernelView struct {
	ID, Name, File string
	Line           int
	Rank           int
	Best           string // what fixing its top finding is worth
	Worst          string // its costliest access line against ideal
	Findings       int
	Lines          []*lineView
	Outside        []*findingView // findings on lines the listing does not show
	Configs        []string       // launch configurations: block shape and source
	Assumptions    []string
	Unknowns       []string
	Notes          []string
}

// lineView is one line of a kernel's source.
type lineView struct {
	ID       string // the anchor: kernel and line
	File     string
	N        int
	Text     string
	Heat     string // h0 (ideal) .. h4 (most waste), unk, or "" for no access
	Metric   string // worst access: sectors / ideal
	Tip      string // every access of the line
	Findings []*findingView
}

type findingView struct {
	ID, Rule, Severity, File string
	Line, Col                int
	Message, Picture, Fix    string
	URL                      string
	Notes                    []string
	Source                   *lineView // for a finding shown away from a listing
}

// build turns the report into the page.
func build(rep *driver.Report, opts Options) *page {
	p := &page{Summary: visible(opts.Summary), Version: visible(opts.Version), Script: template.JS(script), CSP: csp}
	reported := func(file string) bool { return rep.Reported == nil || rep.Reported(file) }
	var res *analyzer.Result
	if rep.Result != nil {
		res = rep.Result.Analysis
	}
	// Kernels, by function: a template kernel is one listing for all its
	// instances.
	byFunc := map[*parser.Func]*kernelState{}
	var order []*kernelState
	if res != nil {
		for _, k := range res.Kernels {
			if !reported(k.Func.P.File) {
				continue
			}
			ks := byFunc[k.Func]
			if ks == nil {
				ks = &kernelState{fn: k.Func}
				byFunc[k.Func] = ks
				order = append(order, ks)
			}
			ks.kernels = append(ks.kernels, k)
		}
		for _, pr := range res.Predictions {
			if ks := byFunc[pr.Access.Kernel]; ks != nil {
				ks.preds = append(ks.preds, pr)
			}
		}
	}
	src := &texts{files: map[string]*fileText{}}
	if res != nil {
		src.read = res.Program.Source
	}
	sevCount, ruleCount := map[string]int{}, map[string]int{}
	var ruleOrder []string
	var ranked []*kernelState
	for i, f := range rep.Findings {
		fv := newFinding(rep, opts, f, i)
		sevCount[fv.Severity]++
		if ruleCount[fv.Rule] == 0 {
			ruleOrder = append(ruleOrder, fv.Rule)
		}
		ruleCount[fv.Rule]++
		var ks *kernelState
		if f.Prediction != nil {
			ks = byFunc[f.Prediction.Access.Kernel]
		}
		if ks == nil {
			fv.Source = sourceOf(rep, opts, src, f.Pos, fv.ID)
			p.Other = append(p.Other, fv)
			continue
		}
		if len(ks.findings) == 0 {
			ranked = append(ranked, ks)
		}
		ks.findings = append(ks.findings, finding{f, fv})
	}
	p.Total = len(rep.Findings)
	for _, s := range []lint.Severity{lint.Error, lint.Warning, lint.Info} {
		if n := sevCount[s.String()]; n > 0 {
			p.Severities = append(p.Severities, filter{s.String(), n})
		}
	}
	sort.Strings(ruleOrder)
	for _, r := range ruleOrder {
		p.Rules = append(p.Rules, filter{r, ruleCount[r]})
	}
	for i, ks := range ranked {
		kv := ks.view(opts, src, fmt.Sprintf("k%d", i+1))
		kv.Rank = i + 1
		p.Ranked = append(p.Ranked, kv)
	}
	n := len(ranked)
	for _, ks := range order {
		if len(ks.findings) == 0 {
			n++
			p.Quiet = append(p.Quiet, ks.view(opts, src, fmt.Sprintf("k%d", n)))
		}
	}
	p.Other = placeOthers(p)
	return p
}

// placeOthers puts each finding of no prediction (a suppression comment
// that suppresses nothing) on its line when a listing shows that line,
// and returns those no listing shows.
func placeOthers(p *page) []*findingView {
	type place struct {
		file string
		line int
	}
	lines := map[place]*lineView{}
	owner := map[*lineView]*kernelView{}
	for _, kvs := range [][]*kernelView{p.Ranked, p.Quiet} {
		for _, kv := range kvs {
			for _, lv := range kv.Lines {
				lines[place{lv.File, lv.N}] = lv
				owner[lv] = kv
			}
		}
	}
	var rest []*findingView
	for _, fv := range p.Other {
		lv := lines[place{fv.File, fv.Line}]
		if lv == nil {
			rest = append(rest, fv)
			continue
		}
		fv.Source = nil
		lv.Findings = append(lv.Findings, fv)
		owner[lv].Findings++
	}
	return rest
}

type kernelState struct {
	fn       *parser.Func
	kernels  []*analyzer.Kernel
	preds    []*analyzer.Prediction
	findings []finding
}

type finding struct {
	f  *lint.Finding
	fv *findingView
}

// newFinding is the i-th finding as the page shows it.
func newFinding(rep *driver.Report, opts Options, f *lint.Finding, i int) *findingView {
	pos := rep.Fset.Position(f.Pos)
	fv := &findingView{ID: fmt.Sprintf("f%d", i+1), Rule: f.Rule.ID, Severity: f.Severity.String(),
		File: opts.Path(pos.Filename), Line: pos.Line, Col: pos.Column, Message: text(f.Message, expr(f)),
		Picture: report.WarpPicture(f.Prediction), URL: f.Rule.URL()}
	if len(f.SuggestedFixes) > 0 {
		fv.Fix = text(f.SuggestedFixes[0].Message, expr(f))
	}
	var launch token.Pos
	if f.Prediction != nil && rep.Result != nil {
		launch = rep.Result.Pos(f.Prediction.Config.At)
	}
	for _, r := range f.Related {
		if r.Pos.IsValid() && r.Pos != launch {
			rp := rep.Fset.Position(r.Pos)
			fv.Notes = append(fv.Notes, fmt.Sprintf("%s:%d:%d: %s", visible(opts.Path(rp.Filename)), rp.Line, rp.Column, text(r.Message, expr(f))))
		}
	}
	return fv
}

// expr is the source a finding's message quotes: its access.
func expr(f *lint.Finding) string {
	if f.Prediction == nil {
		return ""
	}
	return f.Prediction.Access.Expr
}

// view lays out one kernel: its source from the line naming it to the
// closing brace of its body, the accesses of each line, its findings.
func (ks *kernelState) view(opts Options, src *texts, id string) *kernelView {
	fn := ks.fn
	kv := &kernelView{ID: id, Name: visible(fn.Name), File: visible(opts.Path(fn.P.File)), Line: int(fn.P.Line), Findings: len(ks.findings)}
	ft := src.file(fn.P.File)
	first := max(int(fn.P.Line), 1)
	last := first
	if fn.Body != nil && fn.Body.P.File == fn.P.File {
		if toks, ok := lex.BlockTokens(fn.P.File, ft.data, int(fn.Body.P.Offset)); ok {
			last = ft.lineOf(int(toks[len(toks)-1].Pos.Offset))
		}
	}
	// Access sites below a body whose end was not found still show.
	for _, pr := range ks.preds {
		if pos, _ := pr.Access.Site(); pos.File == fn.P.File && int(pos.Line) > last {
			last = int(pos.Line)
		}
	}
	last = min(last, ft.lines())
	shown := map[int]*lineView{}
	for n := first; n <= last; n++ {
		lv := &lineView{ID: fmt.Sprintf("%s-L%d", id, n), File: kv.File, N: n, Text: visible(cut(ft.line(n), maxLine))}
		kv.Lines = append(kv.Lines, lv)
		shown[n] = lv
	}
	ks.shade(shown, kv)
	for _, fd := range ks.findings {
		fv := fd.fv
		if lv := shown[fv.Line]; lv != nil && fv.File == kv.File {
			lv.Findings = append(lv.Findings, fv)
			continue
		}
		kv.Outside = append(kv.Outside, fv)
	}
	if len(ks.findings) > 0 {
		kv.Best = "no estimate (its findings have no impact figure)"
		if imp := ks.findings[0].f.Figures.Impact; imp != nil {
			kv.Best = fmt.Sprintf("up to %.3gx, %.0f%% of its time", imp.EstimatedSpeedup, 100*imp.Share)
			if imp.Assumed {
				kv.Best += " (at assumed sizes)"
			}
		}
	}
	ks.describe(kv)
	return kv
}

// shade gives each shown line with an access its heat: the worst of its
// accesses' sectors (wavefronts for shared memory) against the ideal.
func (ks *kernelState) shade(shown map[int]*lineView, kv *kernelView) {
	type lineCost struct {
		worst float64
		known bool
		tips  []string
		seen  map[string]bool
	}
	costs := map[int]*lineCost{}
	worstLine, worstRatio := 0, 0.0
	for _, pr := range ks.preds {
		pos, _ := pr.Access.Site()
		lv := shown[int(pos.Line)]
		if lv == nil || pos.File != ks.fn.P.File || pr.NoLane {
			continue
		}
		c := costs[lv.N]
		if c == nil {
			c = &lineCost{seen: map[string]bool{}}
			costs[lv.N] = c
		}
		unit := "sectors"
		if pr.Access.Space == interp.Shared {
			unit = "wavefronts"
		}
		var tip string
		if pr.Known && pr.Ideal > 0 {
			ratio := pr.Sectors / pr.Ideal
			if !c.known || ratio > c.worst {
				c.worst = ratio
				lv.Metric = fmt.Sprintf("%s / %s", num(pr.Sectors), num(pr.Ideal))
			}
			c.known = true
			if ratio > worstRatio {
				worstLine, worstRatio = lv.N, ratio
			}
			tip = fmt.Sprintf("%s %s: %s %s/request, ideal %s; %s", pr.Access.Op, cut(pr.Access.Expr, maxExcerpt), num(pr.Sectors), unit, num(pr.Ideal), pr.Config.Describe())
		} else {
			tip = text(fmt.Sprintf("%s %s: unknown: %s", pr.Access.Op, pr.Access.Expr, pr.Reason()), pr.Access.Expr)
		}
		if !c.seen[tip] {
			c.seen[tip] = true
			c.tips = append(c.tips, visible(tip))
		}
	}
	for n, c := range costs {
		lv := shown[n]
		lv.Tip = strings.Join(c.tips, " | ")
		if !c.known {
			lv.Heat, lv.Metric = "unk", "?"
			continue
		}
		lv.Heat = heat(c.worst)
	}
	if worstLine > 0 {
		kv.Worst = fmt.Sprintf("line %d: %sx the ideal", worstLine, num(worstRatio))
	}
}

// heat is the shade of a line whose worst access costs ratio times the
// ideal: the share of the bytes moved that are wasted, in five steps.
func heat(ratio float64) string {
	waste := 1 - 1/ratio
	switch {
	case waste < 0.05:
		return "h0"
	case waste < 0.25:
		return "h1"
	case waste < 0.5:
		return "h2"
	case waste < 0.75:
		return "h3"
	}
	return "h4"
}

// describe lists what the kernel's numbers rest on: its launch
// configurations, the assumptions and what the model could not know.
func (ks *kernelState) describe(kv *kernelView) {
	add := func(list *[]string, seen map[string]bool, s string) {
		if s = visible(s); !seen[s] {
			seen[s] = true
			*list = append(*list, s)
		}
	}
	seenCfg, seenAss, seenUnk, seenNote := map[string]bool{}, map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, k := range ks.kernels {
		for _, c := range k.Configs {
			add(&kv.Configs, seenCfg, c.Describe())
		}
		for _, n := range k.Notes {
			add(&kv.Notes, seenNote, fmt.Sprintf("line %d: %s", n.Pos.Line, cut(n.Msg, maxMessage)))
		}
	}
	for _, pr := range ks.preds {
		for _, a := range pr.Assumptions {
			add(&kv.Assumptions, seenAss, a.String())
		}
		if !pr.Known {
			add(&kv.Unknowns, seenUnk, text(fmt.Sprintf("line %d: %s: %s", pr.Access.Pos.Line, pr.Access.Expr, pr.Reason()), pr.Access.Expr))
		}
	}
}

// sourceOf is the one line holding pos, for a finding no listing shows.
func sourceOf(rep *driver.Report, opts Options, src *texts, pos token.Pos, id string) *lineView {
	tf := rep.Fset.File(pos)
	if tf == nil {
		return nil
	}
	ft, n := src.file(tf.Name()), tf.Line(pos)
	if len(ft.data) != tf.Size() || n < 1 || n > ft.lines() {
		return nil
	}
	return &lineView{ID: id + "-L", File: visible(opts.Path(tf.Name())), N: n, Text: visible(cut(ft.line(n), maxLine))}
}

// texts reads each file's source once and indexes its lines: a file of
// a thousand kernels is one read for all their listings.
type texts struct {
	read  func(string) []byte
	files map[string]*fileText
}

type fileText struct {
	data   []byte
	starts []int // the offset of each line
}

func (t *texts) file(name string) *fileText {
	if ft := t.files[name]; ft != nil {
		return ft
	}
	ft := &fileText{}
	if t.read != nil {
		ft.data = t.read(name)
	}
	if len(ft.data) > 0 {
		ft.starts = append(ft.starts, 0)
		for i, c := range ft.data {
			if c == '\n' && i+1 < len(ft.data) {
				ft.starts = append(ft.starts, i+1)
			}
		}
	}
	t.files[name] = ft
	return ft
}

func (f *fileText) lines() int { return len(f.starts) }

// line is line n (from 1), without its line break.
func (f *fileText) line(n int) string {
	end := len(f.data)
	if n < len(f.starts) {
		end = f.starts[n]
	}
	l := strings.TrimSuffix(string(f.data[f.starts[n-1]:end]), "\n")
	return strings.TrimSuffix(l, "\r")
}

// lineOf is the line (from 1) holding byte offset off.
func (f *fileText) lineOf(off int) int {
	return sort.SearchInts(f.starts, off+1)
}

func num(x float64) string { return fmt.Sprintf("%.3g", x) }

// Bounds on what the page quotes, as every format of the command has
// them: a piece of source in a message, a message, a source line.
const (
	maxExcerpt = 120
	maxMessage = 1000
	maxLine    = 1000
)

// text is a message as the page shows it: the pieces of source it is
// known to quote shortened where they appear, the whole bounded, with
// what would move or hide text made visible. HTML escaping is the
// template's.
func text(s string, quotes ...string) string {
	for _, q := range quotes {
		if len(q) > maxExcerpt && strings.Contains(s, q) {
			s = strings.ReplaceAll(s, q, cut(q, maxExcerpt))
		}
	}
	return visible(cut(s, maxMessage))
}

// cut shortens s to at most n bytes on a character boundary, ending it
// with … when cut.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !isRuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func isRuneStart(b byte) bool { return b&0xc0 != 0x80 }

// script filters the findings by severity and rule: a finding is shown
// when both its boxes are ticked, and a kernel with findings when one of
// them is shown. It says how many are shown, which also tells a reader
// (and the browser test) that it ran. The boxes unticked are kept in the
// address (#hide=severity:info,rule:indirect-access), so a filtered view
// can be linked to and reopened.
const script = `(function () {
  var boxes = document.querySelectorAll("input[data-filter]");
  var key = function (b) { return b.dataset.filter + ":" + b.value; };
  if (location.hash.indexOf("#hide=") === 0) {
    var hide = decodeURIComponent(location.hash.slice(6)).split(",");
    boxes.forEach(function (b) { if (hide.indexOf(key(b)) >= 0) b.checked = false; });
  }
  function apply() {
    var off = {}, list = [];
    boxes.forEach(function (b) { if (!b.checked) { off[key(b)] = true; list.push(key(b)); } });
    var all = document.querySelectorAll(".finding"), shown = 0;
    all.forEach(function (f) {
      var hide = off["severity:" + f.dataset.severity] || off["rule:" + f.dataset.rule];
      f.hidden = !!hide;
      if (!hide) shown++;
    });
    document.querySelectorAll("section.kernel.flagged").forEach(function (k) {
      var any = k.querySelector(".finding:not([hidden])") !== null;
      k.hidden = !any;
      var row = document.getElementById("rank-" + k.id);
      if (row) row.hidden = !any;
    });
    document.getElementById("shown").textContent = shown + " of " + all.length + " findings shown";
    return list;
  }
  boxes.forEach(function (b) {
    b.addEventListener("change", function () {
      var list = apply();
      history.replaceState(null, "", list.length ? "#hide=" + encodeURIComponent(list.join(",")) : location.pathname + location.search);
    });
  });
  apply();
})();`

// csp lets the page run its own script and style and nothing else: no
// request leaves it, and markup that escaped escaping could not run.
var csp = func() string {
	sum := sha256.Sum256([]byte(script))
	return "default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}()
