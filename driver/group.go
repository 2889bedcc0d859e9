package driver

import (
	"fmt"
	"go/token"
	"math"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/analyzer/warp"
	"github.com/cudalint/cudalint/parser"
	"github.com/cudalint/cudalint/rules/lint"
	"github.com/cudalint/cudalint/rules/wording"
	"github.com/cudalint/cudalint/symbolic"
)

// One root cause, one finding. A maintainer fixes a layout once, not once
// per line, launch or template instance, so findings that share a cause
// are folded into the first of them, the others named as related
// locations:
//
//   - the same access under several launch configurations or template
//     instances, or read and written by one statement (x += ...): one
//     finding, the costliest;
//   - the fields of one array of structs read one by one in a kernel: one
//     aos-field finding;
//   - one array walked with the same lane stride by many accesses of a
//     kernel (a per-thread layout, state[tid * K + j]): one
//     strided-access finding;
//   - the accesses of one helper that calls of a kernel reach at the
//     same cost (one access through several calls, or the references a
//     call binds read and written alike): one finding, at the first
//     call. Different costs stay apart, each with its numbers: the fix
//     differs;
//   - arrays indexed alike on one line (out[y * n + x] = in[y * n + x]):
//     one strided-access or swapped-axes finding, since one index
//     mapping is the cause and one change fixes both.

// maxListed bounds the accesses a grouped message names; the related
// locations hold them all.
const maxListed = 4

// causeKey says which findings share a root cause.
type causeKey struct {
	kernel *parser.Func
	rule   *lint.Rule
	base   interp.Alloc
	fold   lint.Folds // which fold: the fields of a struct, or a lane stride
	layout any        // the struct, or the lane stride
	// instance is the kernel's template arguments: the instances of one
	// template are kernels of their own, and a cause folds within one
	// (llm.c's trimul_global<matmul_tri3> store is not 2x because
	// trimul_global<matmul_tri_naive> writes the same array worse).
	instance string
}

// group folds findings that share a cause. Findings are in a stable order
// (sorted by position) before grouping so the first of a group is the
// first in the file.
func group(fs []*lint.Finding, fset *token.FileSet) []*lint.Finding {
	sortFindings(fs, fset)
	fs = foldSameAccess(fs)
	fs = foldSameHelperCost(fs, fset)
	fs = foldSameCause(fs, fset)
	return foldSameLine(fs, fset)
}

// foldSameAccess keeps one finding per access range and rule (the range
// marked, and the access itself: a call reaches several of a helper's):
// the worst of them, saying it stands for the others.
func foldSameAccess(fs []*lint.Finding) []*lint.Finding {
	type key struct {
		pos, end token.Pos
		rule     *lint.Rule
		access   parser.Pos
	}
	return foldBy(fs, func(f *lint.Finding) (key, bool) {
		if f.Prediction == nil {
			return key{}, false
		}
		return key{f.Pos, f.End, f.Rule, f.Prediction.Access.Pos}, true
	}, func(m []*lint.Finding) *lint.Finding {
		w := m[0]
		for _, f := range m[1:] {
			if worse(f, w) {
				w = f
			}
		}
		return mergeAccess(w, m)
	})
}

// foldBy folds findings with equal keys into the first of them: key says
// which findings share a cause (ok false: none), merge makes the one
// finding that stands for a group of two or more.
func foldBy[K comparable](fs []*lint.Finding, key func(*lint.Finding) (K, bool), merge func([]*lint.Finding) *lint.Finding) []*lint.Finding {
	index := map[K]int{}
	var out []*lint.Finding
	var members [][]*lint.Finding
	for _, f := range fs {
		k, ok := key(f)
		if !ok {
			out = append(out, f)
			members = append(members, nil)
			continue
		}
		if i, seen := index[k]; seen {
			members[i] = append(members[i], f)
			continue
		}
		index[k] = len(out)
		out = append(out, f)
		members = append(members, []*lint.Finding{f})
	}
	for i, m := range members {
		if len(m) > 1 {
			out[i] = merge(m)
		}
	}
	return out
}

// worse: a costs more than b (excess sectors per request), or as much at
// a higher severity.
func worse(a, b *lint.Finding) bool {
	ea, eb := excess(a.Prediction), excess(b.Prediction)
	if ea != eb {
		return ea > eb
	}
	return a.Severity > b.Severity
}

func excess(p *analyzer.Prediction) float64 {
	if p == nil || !p.Known {
		return 0
	}
	return p.Sectors - p.Ideal
}

// mergeAccess is the worst finding of one access, saying it stands for
// the others: "load and store" when a statement reads and writes it, and
// how many other configurations share the cause.
func mergeAccess(worst *lint.Finding, m []*lint.Finding) *lint.Finding {
	f := *worst
	ops := map[interp.Op]bool{}
	configs := map[*analyzer.LaunchConfig]bool{}
	for _, x := range m {
		ops[x.Prediction.Access.Op] = true
		configs[x.Prediction.Config] = true
		if x.Severity > f.Severity {
			f.Severity = x.Severity
		}
	}
	if ops[interp.Load] && ops[interp.Store] {
		f.Subject = wording.SubjectAs(f.Prediction, "load and store")
		f.Compose()
	}
	if n := len(configs) - 1; n > 0 {
		f.AddExtra(othersText(worst, m, n))
	}
	combineImpact(&f, worst, m)
	f.Figures.Grouped = len(m)
	return &f
}

// othersText says what the access costs under the n other launch
// configurations or template instances of m: "the same" only where each
// costs what worst does (sectors and ideal), else what they cost.
func othersText(worst *lint.Finding, m []*lint.Finding, n int) string {
	what := fmt.Sprintf("%d other launch configuration%s or template instance%s", n, plural(n), plural(n))
	w := worst.Prediction
	var sectors, ideals []float64
	same := true
	for _, x := range m {
		p := x.Prediction
		if x == worst || p.Config == w.Config {
			continue
		}
		if !p.Known || !w.Known || hundredths(p.Sectors) != hundredths(w.Sectors) || hundredths(p.Ideal) != hundredths(w.Ideal) {
			same = false
		}
		if p.Known {
			sectors, ideals = append(sectors, p.Sectors), append(ideals, p.Ideal)
		}
	}
	if same || !w.Known || len(sectors) == 0 {
		return "; the same under " + what
	}
	unit := "sectors"
	if w.Access.Space == interp.Shared {
		unit = "wavefronts"
	}
	return fmt.Sprintf("; under %s it costs %s %s/request, ideal %s", what, span(sectors), unit, span(ideals))
}

// span writes the figures xs range over: "32", or "8 to 32".
func span(xs []float64) string {
	lo, hi := slices.Min(xs), slices.Max(xs)
	if hundredths(lo) == hundredths(hi) {
		return wording.Trim(lo)
	}
	return wording.Trim(lo) + " to " + wording.Trim(hi)
}

// helperCostKey says which findings are accesses of one helper that
// calls of one kernel reach at one cost: the helper's accesses through
// one call (Comparator(s_key[pos], s_val[pos], ...) reads and writes
// four references alike), or one access through several calls.
type helperCostKey struct {
	kernel, helper *parser.Func
	rule           *lint.Rule
	sectors, ideal int64 // hundredths, as messages print them
	unknown        warp.Unknown
}

// foldSameHelperCost folds the findings of one helper's accesses that
// calls of one kernel reach at the same cost into the first, naming the
// others as related places. Different costs stay apart: each call's fix
// differs.
func foldSameHelperCost(fs []*lint.Finding, fset *token.FileSet) []*lint.Finding {
	return foldBy(fs, helperCostOf, func(m []*lint.Finding) *lint.Finding { return mergeCalls(m, fset) })
}

// helperCostOf is the helper and cost a finding of a helper's access has.
func helperCostOf(f *lint.Finding) (helperCostKey, bool) {
	p := f.Prediction
	if p == nil || !p.Access.InHelper() {
		return helperCostKey{}, false
	}
	a := p.Access
	k := helperCostKey{kernel: a.Kernel, helper: a.Via[a.SiteIndex()].Func, rule: f.Rule}
	if p.Known {
		k.sectors, k.ideal = hundredths(p.Sectors), hundredths(p.Ideal)
	} else {
		k.ideal, k.unknown = hundredths(p.Ideal), p.Unknown
	}
	return k, true
}

// mergeCalls is the first finding of a helper's accesses at one cost,
// saying which other calls and accesses cost the same.
func mergeCalls(m []*lint.Finding, fset *token.FileSet) *lint.Finding {
	f := *m[0]
	first := m[0].Prediction.Access
	f.Related = append([]analysis.RelatedInformation(nil), f.Related...)
	var lines []string
	seenLine := map[int]bool{fset.Position(f.Pos).Line: true}
	oneAccess := true
	for _, x := range m[1:] {
		a := x.Prediction.Access
		if x.Severity > f.Severity {
			f.Severity = x.Severity
		}
		rel := analysis.RelatedInformation{Pos: x.Pos, End: x.End, Message: "this call costs the same"}
		if a.Pos != first.Pos || a.Op != first.Op {
			oneAccess = false
			rel.Message = wording.Subject(x.Prediction) + " costs the same through this call"
			if x.Pos == f.Pos && len(x.Related) > 0 {
				// Through the same call: point at the access itself, the
				// last of its related places (Result.Related).
				rel = x.Related[len(x.Related)-1]
				rel.Message = fmt.Sprintf("the %s %s here costs the same through the call at line %d", a.Op, a.Expr, fset.Position(x.Pos).Line)
			}
		}
		f.Related = append(f.Related, rel)
		if line := fset.Position(x.Pos).Line; !seenLine[line] {
			seenLine[line] = true
			lines = append(lines, fmt.Sprint(line))
		}
	}
	if len(lines) > maxListed {
		lines = append(lines[:maxListed], fmt.Sprintf("%d more", len(lines)-maxListed))
	}
	n := len(m) - 1
	callee := first.Via[first.SiteIndex()].Name()
	if oneAccess {
		f.AddExtra(fmt.Sprintf("; the same through %d other call%s of %s in this kernel (line%s %s)", n, plural(n), callee, plural(len(lines)), strings.Join(lines, ", ")))
	} else {
		clause := fmt.Sprintf("; %d more access%s of %s through this kernel's calls cost%s the same", n, pluralES(n), callee, map[bool]string{true: "s", false: ""}[n == 1])
		if len(lines) > 0 {
			clause += fmt.Sprintf(" (calls at line%s %s)", plural(len(lines)), strings.Join(lines, ", "))
		}
		f.AddExtra(clause)
	}
	combineImpact(&f, m[0], m)
	f.Figures.Grouped = len(m)
	return &f
}

// foldSameCause folds the accesses of one kernel that share a layout.
func foldSameCause(fs []*lint.Finding, fset *token.FileSet) []*lint.Finding {
	return foldBy(fs, causeOf, func(m []*lint.Finding) *lint.Finding { return mergeCause(m, fset) })
}

// causeOf is the layout a finding is about, for the rules whose findings
// repeat once per field or per element of a per-thread layout.
func causeOf(f *lint.Finding) (causeKey, bool) {
	p := f.Prediction
	if p == nil || p.Access.Base.Kind == interp.AllocNone {
		return causeKey{}, false
	}
	a := p.Access
	inst := instanceOf(p)
	switch folds := f.Rule.Folds; {
	case folds.Has(lint.FoldStructFields):
		if a.Struct == nil {
			return causeKey{}, false
		}
		return causeKey{kernel: a.Kernel, rule: f.Rule, base: a.Base, fold: lint.FoldStructFields, layout: a.Struct.Name, instance: inst}, true
	case folds.Has(lint.FoldSameStride):
		if p.LaneStride == nil {
			if f.Cause == nil {
				return causeKey{}, false
			}
			return causeKey{kernel: a.Kernel, rule: f.Rule, base: a.Base, fold: lint.FoldSameStride, layout: f.Cause, instance: inst}, true
		}
		return causeKey{kernel: a.Kernel, rule: f.Rule, base: a.Base, fold: lint.FoldSameStride, layout: *p.LaneStride, instance: inst}, true
	}
	return causeKey{}, false
}

// instanceOf names the template instance p was predicted under: its
// template arguments, "" for a kernel that is no template.
func instanceOf(p *analyzer.Prediction) string {
	if p.Config == nil {
		return ""
	}
	return strings.Join(p.Config.TemplateArgs, ",")
}

// mergeCause is the first finding of a layout, naming the others as
// related locations, with their combined cost.
func mergeCause(m []*lint.Finding, fset *token.FileSet) *lint.Finding {
	f := *m[0]
	var sectors, ideal float64
	var lines []string
	f.Related = append([]analysis.RelatedInformation(nil), f.Related...)
	counted := map[string]bool{}
	for i, x := range m {
		p := x.Prediction
		// An address read again (p[i].x * p[i].x) is one access, as the
		// compiler emits it: its cost counts once in the total.
		if k := addressKey(p); !counted[k] {
			counted[k] = true
			sectors += p.Sectors
			ideal += p.Ideal
		}
		if x.Severity > f.Severity {
			f.Severity = x.Severity
		}
		if i == 0 {
			continue
		}
		what := wording.Subject(p)
		f.Related = append(f.Related, analysis.RelatedInformation{Pos: x.Pos, End: x.End, Message: what + " has the same cause"})
		at := fmt.Sprintf("%s at line %d", what, fset.Position(x.Pos).Line)
		if p.Access.InHelper() { // marked at the call: say so, not where the helper is
			at = fmt.Sprintf("%s %s through the call at line %d", p.Access.Op, p.Access.Expr, fset.Position(x.Pos).Line)
		}
		lines = append(lines, at)
	}
	n := len(m) - 1
	base := m[0].Prediction.Access.Base.String()
	what := fmt.Sprintf("access%s to %s with the same lane stride", pluralES(n), base)
	if m[0].Prediction.LaneStride == nil {
		what = fmt.Sprintf("access%s to %s with the same index mapping", pluralES(n), base)
	}
	if f.Rule.Folds.Has(lint.FoldStructFields) {
		what = fmt.Sprintf("access%s to fields of %s", pluralES(n), base)
	}
	if len(lines) > maxListed {
		lines = append(lines[:maxListed], fmt.Sprintf("%d more", len(lines)-maxListed))
	}
	f.AddExtra(fmt.Sprintf("; %d more %s in this kernel (%s): together %s sectors per request where %s would do",
		n, what, strings.Join(lines, ", "), wording.Trim(sectors), wording.Trim(ideal)))
	combineImpact(&f, m[0], m)
	f.Figures.Grouped = len(m)
	return &f
}

// lineKey says which findings of one line share an index mapping.
type lineKey struct {
	kernel *parser.Func
	rule   *lint.Rule
	file   string
	line   int
	stride int64
	// mapping is the address's identity where the lane step is not one
	// constant (an index split with / and %): accesses fold when their
	// offsets are the same expression.
	mapping  string
	instance string // the template instance, as in causeKey
}

// foldSameLine folds the findings of one line whose accesses step alike
// from lane to lane, whatever the arrays.
func foldSameLine(fs []*lint.Finding, fset *token.FileSet) []*lint.Finding {
	return foldBy(fs, func(f *lint.Finding) (lineKey, bool) {
		p := f.Prediction
		if p == nil || !f.Rule.Folds.Has(lint.FoldSameLine) {
			return lineKey{}, false
		}
		at := fset.Position(f.Pos)
		if p.LaneStride == nil {
			return lineKey{p.Access.Kernel, f.Rule, at.Filename, at.Line, 0, offsetKey(p.Access.Addr), instanceOf(p)}, true
		}
		return lineKey{p.Access.Kernel, f.Rule, at.Filename, at.Line, *p.LaneStride, "", instanceOf(p)}, true
	}, mergeLine)
}

// offsetKey is the identity of an address with the pointers' own offsets
// into their allocations left out: two arrays indexed alike share it.
func offsetKey(addr symbolic.Expr) string {
	bases := map[symbolic.SymID]symbolic.Expr{}
	symbolic.Symbols(addr, func(v *symbolic.Var) {
		if v.Kind == symbolic.KindBase {
			bases[v.Key()] = symbolic.Const(0)
		}
	})
	return symbolic.Key(symbolic.Subst(addr, bases))
}

// mergeLine is the first finding of a line, naming the accesses that
// share its index mapping.
func mergeLine(m []*lint.Finding) *lint.Finding {
	f := *m[0]
	f.Related = append([]analysis.RelatedInformation(nil), f.Related...)
	var names []string
	var sectors, ideal float64
	for i, x := range m {
		p := x.Prediction
		sectors += p.Sectors
		ideal += p.Ideal
		if x.Severity > f.Severity {
			f.Severity = x.Severity
		}
		if i == 0 {
			continue
		}
		names = append(names, shortSubject(p))
		f.Related = append(f.Related, analysis.RelatedInformation{Pos: x.Pos, End: x.End, Message: shortSubject(p) + " has the same index mapping"})
	}
	f.AddExtra(fmt.Sprintf("; %s on this line step%s alike: together %s sectors per request where %s would do",
		strings.Join(names, ", "), map[bool]string{true: "s", false: ""}[len(names) == 1], wording.Trim(sectors), wording.Trim(ideal)))
	combineImpact(&f, m[0], m)
	f.Figures.Grouped = len(m)
	return &f
}

// shortSubject names an access in another finding's message: its
// expression cut short, as a message quotes source only in excerpts.
func shortSubject(p *analyzer.Prediction) string {
	const most = 60
	expr := []rune(p.Access.Expr)
	if len(expr) > most {
		return p.Access.Op.String() + " " + string(expr[:most]) + "…"
	}
	return wording.Subject(p)
}

// addressKey identifies what an access reads or writes: its operation,
// allocation, byte address and width.
func addressKey(p *analyzer.Prediction) string {
	a := p.Access
	size := int64(0)
	if a.Type != nil {
		size = a.Type.Size
	}
	return fmt.Sprintf("%s|%s|%s|%d", a.Op, a.Base.String(), symbolic.Key(a.Addr), size)
}

// hundredths is a figure as messages print it (two decimals), for
// deciding whether two costs read the same.
func hundredths(x float64) int64 { return int64(math.RoundToEven(x * 100)) }

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func pluralES(n int) string {
	if n == 1 {
		return ""
	}
	return "es"
}
