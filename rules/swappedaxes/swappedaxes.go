package swappedaxes

import (
	"bytes"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"

	"golang.org/x/tools/go/analysis"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/parser"
	"github.com/cudalint/cudalint/parser/lex"
	"github.com/cudalint/cudalint/rules/accesses"
	"github.com/cudalint/cudalint/rules/lint"
	"github.com/cudalint/cudalint/rules/policy"
	"github.com/cudalint/cudalint/rules/spec"
	"github.com/cudalint/cudalint/rules/wording"
	"github.com/cudalint/cudalint/symbolic"
)

// Rule reports swapped 2D axes, with a fix when the swap is safe.
var Rule = spec.NewRule(spec.Spec{
	Rule: lint.Rule{ID: "swapped-axes", Title: "Swapped 2D axes", Severity: lint.Warning, Tags: []string{"performance", "coalescing"}, Precision: "high", Folds: lint.FoldSameLine},
	Name: "swappedaxes", Detect: Detect, Grade: Severity, Describe: describe, Fix: fix})

// Analyzer is the rule's analyzer, for go/analysis drivers and tests.
var Analyzer = Rule.Analyzer

// Detect: threadIdx.y walks the unit-stride dimension while threadIdx.x
// steps by a row.
func Detect(res *accesses.Result, p *analyzer.Prediction) bool {
	if !policy.Uncoalesced(res, p) || (p.Config.Block[1] == 1 && p.Config.Block[2] == 1) {
		return false
	}
	elem := accesses.ElemBytes(p.Access)
	cx, okx := accesses.Coefficient(p, symbolic.ThreadIdx(symbolic.X).ID())
	cy, oky := accesses.Coefficient(p, symbolic.ThreadIdx(symbolic.Y).ID())
	return okx && oky && accesses.Abs(cy) == elem && accesses.Abs(cx) >= 32 && accesses.Abs(cx) > elem
}

// Severity grades by cost.
func Severity(p *analyzer.Prediction) lint.Severity { return policy.CostSeverity(p) }

func describe(_ *accesses.Result, p *analyzer.Prediction) string {
	return fmt.Sprintf("threadIdx.x steps along rows while threadIdx.y walks the contiguous dimension; let threadIdx.x drive the column: %s",
		wording.Figures(p))
}

var builtins = interp.BuiltinNames()

// fix swaps .x and .y of the thread and block builtins in the kernel. A
// swap transposes the thread mapping, and nothing else, only when the
// hardware runs the same threads either way: every launch has a constant,
// square block and grid. It edits only the kernel's own text: every
// builtin it rewrites must be written literally in the kernel's body (not
// produced by a macro, whose body other code may use, nor by an included
// file), and every builtin written in the body must be one it rewrites (a
// branch the preprocessor left out would otherwise keep the old axes).
func fix(res *accesses.Result, p *analyzer.Prediction) ([]analysis.SuggestedFix, string) {
	k := p.Access.Kernel
	if k.Body == nil {
		return nil, ""
	}
	if why := launchesSquare(res.Analysis.Program, k); why != "" {
		return nil, why
	}
	edits, why := swapEdits(res, k)
	if why != "" {
		return nil, why
	}
	if len(edits) == 0 {
		return nil, ""
	}
	return []analysis.SuggestedFix{{Message: "swap the roles of x and y in " + k.Name, TextEdits: edits}}, ""
}

// launchesSquare returns why the kernel's launches do not allow the swap,
// or "". A launch whose grid is not known may be a 1920x1080 image: the
// swapped kernel would skip columns and rows silently.
func launchesSquare(prog *analyzer.Program, k *parser.Func) string {
	same := parsesOf(prog, k)
	n := 0
	for _, l := range prog.LaunchesOf(k.Name) {
		if !reaches(l, same) {
			continue
		}
		n++
		at := fmt.Sprintf("the launch at %s:%d", filepath.Base(l.Pos.File), l.Pos.Line)
		block, blockOK := constXY(l.Block)
		grid, gridOK := constXY(l.Grid)
		switch {
		case !blockOK:
			return at + " gives no constant block shape, so it may not be square"
		case !gridOK:
			return at + " gives no constant grid, so it may not be square"
		case block[0] != block[1]:
			return fmt.Sprintf("%s uses block %dx%d, not square", at, block[0], block[1])
		case grid[0] != grid[1]:
			return fmt.Sprintf("%s uses grid %dx%d, not square: swapped axes would leave part of the data untouched", at, grid[0], grid[1])
		}
	}
	if n == 0 {
		return "no launch in the analyzed files gives its grid and block, so they may not be square"
	}
	return ""
}

// parsesOf returns k and the other parses of its definition: a header's
// kernel is parsed once per includer, and a launch reaches one of them.
func parsesOf(prog *analyzer.Program, k *parser.Func) []*parser.Func {
	out := []*parser.Func{k}
	for _, fn := range prog.KernelsNamed(k.Name) {
		if fn != k && fn.P == k.P {
			out = append(out, fn)
		}
	}
	return out
}

func reaches(l *analyzer.LaunchSite, fns []*parser.Func) bool {
	for _, fn := range fns {
		if l.Reaches(fn) {
			return true
		}
	}
	return false
}

func constXY(d [3]symbolic.Expr) ([2]int64, bool) {
	var out [2]int64
	for i := range out {
		v, ok := symbolic.IsConst(d[i])
		if !ok || v <= 0 {
			return out, false
		}
		out[i] = v
	}
	return out, true
}

// literal matches a builtin member as written in the source.
var literal = regexp.MustCompile(`^(threadIdx|blockIdx|blockDim|gridDim)[ \t]*\.[ \t]*[xy]$`)

// swapEdits returns one edit per .x and .y of a builtin in the kernel's
// body, or why the swap cannot be confined to text the kernel owns.
func swapEdits(res *accesses.Result, k *parser.Func) ([]analysis.TextEdit, string) {
	file := k.P.File
	src := res.Analysis.Program.Source(file)
	raw, ok := lex.BlockTokens(file, src, int(k.Body.P.Offset))
	if !ok || k.Body.P.File != file {
		return nil, "the kernel's body is not delimited by braces written in " + filepath.Base(file)
	}
	written := writtenSwaps(raw)
	seen := map[int32]bool{}
	why := ""
	parser.WalkStmt(k.Body, func(e parser.Expr) {
		if why != "" {
			return
		}
		switch e := e.(type) {
		case *parser.Member:
			id, ok := e.X.(*parser.Ident)
			if !ok || !builtins[id.Name] || (e.Name != "x" && e.Name != "y") {
				return
			}
			var off int32
			off, why = nameOffset(src, file, e, id.Name)
			seen[off] = true
		case *parser.Call:
			if name := callsBuiltins(res, e); name != "" {
				why = "it calls " + name + ", which reads the thread or block index itself"
			}
		}
	})
	if why != "" {
		return nil, why
	}
	for _, off := range sortedOffsets(written) {
		if !seen[off] {
			return nil, fmt.Sprintf("%s.%s at line %d is not compiled as written (a branch the preprocessor leaves out, or code cudalint skipped)",
				written[off], src[off:off+1], lineOf(src, off))
		}
	}
	for off := range seen {
		if _, ok := written[off]; !ok {
			return nil, fmt.Sprintf("the index at line %d is outside the kernel's body", lineOf(src, off))
		}
	}
	var edits []analysis.TextEdit
	for _, off := range sortedOffsets(written) {
		other := map[byte]string{'x': "y", 'y': "x"}[src[off]]
		pos := res.Pos(parser.Pos{File: file, Offset: off})
		edits = append(edits, analysis.TextEdit{Pos: pos, End: pos + 1, NewText: []byte(other)})
	}
	return edits, ""
}

// writtenSwaps finds builtin.x and builtin.y in the raw tokens of a body:
// the offset of each x or y, with the builtin's name.
func writtenSwaps(raw []parser.Token) map[int32]string {
	out := map[int32]string{}
	for i := 0; i+2 < len(raw); i++ {
		t := raw[i]
		if t.Kind == lex.KIdent && builtins[t.Text] && raw[i+1].Text == "." && (raw[i+2].Text == "x" || raw[i+2].Text == "y") {
			out[raw[i+2].Pos.Offset] = t.Text
		}
	}
	return out
}

// nameOffset returns the offset of the member name (the x or y) of e in
// src, or why e is not text the kernel owns. A token from a macro body
// stands at the invocation but keeps its end offset in the definition,
// so the text between e's start and end is the member only when it was
// written there.
func nameOffset(src []byte, file string, e *parser.Member, builtin string) (int32, string) {
	what := builtin + "." + e.Name
	if e.P.File != file || e.E.File != file {
		return 0, what + " comes from another file"
	}
	from, to := int(e.P.Offset), int(e.E.Offset)
	if from >= 0 && from < to && to <= len(src) && literal.Match(src[from:to]) {
		return int32(to - 1), ""
	}
	if name := identAt(src, from); name != "" && !builtins[name] {
		return 0, fmt.Sprintf("%s comes from macro %s, whose body other code may use", what, name)
	}
	return 0, fmt.Sprintf("%s at line %d is not written as one plain expression", what, lineOf(src, int32(from)))
}

func identAt(src []byte, off int) string {
	if off < 0 || off >= len(src) {
		return ""
	}
	end := off
	for end < len(src) && (src[end] == '_' || src[end] >= 'a' && src[end] <= 'z' || src[end] >= 'A' && src[end] <= 'Z' || end > off && src[end] >= '0' && src[end] <= '9') {
		end++
	}
	return string(src[off:end])
}

func lineOf(src []byte, off int32) int {
	if off < 0 || int(off) > len(src) {
		return 0
	}
	return bytes.Count(src[:off], []byte("\n")) + 1
}

func sortedOffsets(m map[int32]string) []int32 {
	out := make([]int32, 0, len(m))
	for off := range m {
		out = append(out, off)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// callsBuiltins returns the name of the __device__ function the call
// reaches when that function reads the thread or block index itself, or
// "": the swap would not reach into it.
func callsBuiltins(res *accesses.Result, call *parser.Call) string {
	id, ok := call.Fun.(*parser.Ident)
	if !ok {
		return ""
	}
	for _, f := range res.Analysis.Program.Files {
		for _, fn := range f.Funcs {
			if fn.Name != id.Name || !fn.Device || fn.Body == nil {
				continue
			}
			found := false
			parser.WalkStmt(fn.Body, func(e parser.Expr) {
				if m, ok := e.(*parser.Member); ok {
					if x, ok := m.X.(*parser.Ident); ok && builtins[x.Name] {
						found = true
					}
				}
			})
			if found {
				return id.Name
			}
		}
	}
	return ""
}
