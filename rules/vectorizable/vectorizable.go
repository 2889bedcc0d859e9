package vectorizable

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/analyzer/ctype"
	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/rules/accesses"
	"github.com/cudalint/cudalint/rules/lint"
	"github.com/cudalint/cudalint/rules/policy"
	"github.com/cudalint/cudalint/rules/spec"
	"github.com/cudalint/cudalint/rules/wording"
	"github.com/cudalint/cudalint/symbolic"
)

// Rule reports scalar accesses of one thread that together make one
// aligned vector. Its findings are one per vector and fold nothing
// else: two vectors are two casts to write.
var Rule = spec.NewRule(spec.Spec{
	Rule: lint.Rule{ID: "vectorizable-access", Title: "Scalar accesses that make a vector", Severity: lint.Info,
		Tags: []string{"performance", "coalescing", "vectorization"}, Precision: "high"},
	Name: "vectorizable", Detect: Detect, Grade: Severity, Describe: describe, Covers: covers})

// Analyzer is the rule's analyzer, for go/analysis drivers and tests.
var Analyzer = Rule.Analyzer

// Detect: p is the first element of a vector its thread reads (or
// writes) element by element.
//
// Not a store of a record the thread reads between its stores (a pixel
// blended in place, accesses.Record.Interleaved): the SM merges none of
// those stores, and they cost time as well as instructions (measured
// 4.1x), which strided-access reports.
func Detect(res *accesses.Result, p *analyzer.Prediction) bool {
	if rec := res.Record(p); rec != nil && rec.Interleaved && p.Access.Op == interp.Store {
		return false
	}
	_, ok := find(res, p)
	return ok
}

// Severity is info: the scalars ask for several times their sectors per
// instruction, but the L1 serves the repeats and the bytes from DRAM are
// the same; measured on an H200, a memory-bound kernel ran within 1% of
// its vector twin (probes6.cu). The vector saves instructions, which
// matters only where issuing them is the bound.
func Severity(*analyzer.Prediction) lint.Severity { return lint.Info }

// covers are the vector's other elements, which the finding names.
func covers(res *accesses.Result, p *analyzer.Prediction) []*analyzer.Prediction {
	others, _ := find(res, p)
	return others
}

// shape is a vector type of the element: n elements, width bytes.
type shape struct {
	n, width int64
	name     string // the CUDA type: float4
}

// find reports whether p is the first of n adjacent scalar elements of
// one thread that make one naturally aligned vector: neighbouring lanes
// step by the whole vector (so one vector access per lane is
// contiguous), and p's address is a multiple of the vector's width for
// every lane and value. The other elements are other accesses (others),
// or the other iterations of an unrolled loop around p (others nil).
func find(res *accesses.Result, p *analyzer.Prediction) (others []*analyzer.Prediction, ok bool) {
	if !scalarCandidate(res, p) {
		return nil, false
	}
	s, ok := shapeOf(p)
	if !ok || p.Access.AlignHint >= s.width {
		// Told the pointer's alignment, nvcc merges the scalars into one
		// wide instruction itself (measured: probes6's v_f4_assume).
		return nil, false
	}
	if loop := vectorLoop(p, s); loop != nil {
		first := symbolic.Subst(p.Access.Addr, map[symbolic.SymID]symbolic.Expr{loop.Iter: symbolic.Const(0)})
		return nil, aligned(p, first, s.width)
	}
	others = adjacent(res, p, s)
	return others, others != nil && aligned(p, p.Access.Addr, s.width)
}

// scalarCandidate: a known, wasteful global access of a scalar, not a
// member of a struct or vector (aos-field's, or already a vector).
func scalarCandidate(res *accesses.Result, p *analyzer.Prediction) bool {
	a := p.Access
	return policy.Uncoalesced(res, p) && a.Struct == nil && a.Type != nil &&
		(a.Type.Kind == ctype.TInt || a.Type.Kind == ctype.TFloat) && a.Op != interp.Atomic
}

// shapeOf is the vector the lane stride makes of p's element: lanes
// 16 bytes apart over floats make float4s.
func shapeOf(p *analyzer.Prediction) (shape, bool) {
	elem, stride := p.Access.Type.Size, accesses.LaneStrideBytes(p)
	if elem <= 0 || stride <= elem || stride%elem != 0 || (stride != 8 && stride != 16) {
		return shape{}, false
	}
	n := stride / elem
	name := wording.VectorType(p.Access.Type, n)
	return shape{n: n, width: stride, name: name}, name != ""
}

// vectorLoop is the loop around p whose iterations are the vector's
// elements: fully unrolled, of n iterations, each one element further.
func vectorLoop(p *analyzer.Prediction, s shape) *interp.Loop {
	if p.Unrolled == nil {
		return nil
	}
	for _, l := range p.Access.Loops {
		c, ok := symbolic.Coefficient(p.Access.Addr, l.Iter)
		if step, isConst := symbolic.IsConst(c); !ok || !isConst || step != p.Access.Type.Size || l.Trip != s.n {
			continue
		}
		for _, u := range p.Unrolled.Loops {
			if u.Line == int(l.Pos.Line) && u.Trip == s.n && u.Copies == s.n {
				return l
			}
		}
	}
	return nil
}

// adjacent are the accesses of the vector's other elements, in address
// order, or nil when one is missing.
func adjacent(res *accesses.Result, p *analyzer.Prediction, s shape) []*analyzer.Prediction {
	elem := p.Access.Type.Size
	var out []*analyzer.Prediction
	for k := int64(1); k < s.n; k++ {
		q := elementAt(res, p, k*elem)
		if q == nil {
			return nil
		}
		out = append(out, q)
	}
	return out
}

// elementAt is the kernel's access, under p's launch, that does what p
// does offset bytes further on, under the same conditions.
func elementAt(res *accesses.Result, p *analyzer.Prediction, offset int64) *analyzer.Prediction {
	for _, q := range res.Kernel(p) {
		if q == p || q.Config != p.Config || !sameKind(p.Access, q.Access) || !policy.GlobalKnown(q) {
			continue
		}
		if d, ok := symbolic.IsConst(symbolic.Sub(q.Access.Addr, p.Access.Addr)); ok && d == offset {
			return q
		}
	}
	return nil
}

// sameKind: b is a's operation on the same allocation, element type,
// conditions, loops and inlined calls: what one vector access can do
// for both.
func sameKind(a, b *interp.Access) bool {
	return a.Base == b.Base && a.Op == b.Op && a.Space == b.Space && b.Struct == nil &&
		b.Type != nil && b.Type.Name == a.Type.Name && b.Type.Size == a.Type.Size &&
		a.SameConditions(b) && sameCalls(a.Via, b.Via)
}

func sameCalls(a, b []interp.CallSite) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Pos != b[i].Pos || a[i].Func != b[i].Func {
			return false
		}
	}
	return true
}

// aligned: addr is a multiple of width for every lane, block and value
// of the symbols, with what p's launch gives bound.
func aligned(p *analyzer.Prediction, addr symbolic.Expr, width int64) bool {
	return symbolic.Divisor(addr, accesses.DivisorFacts(p.Config)) >= width
}

func describe(_ *accesses.Result, p *analyzer.Prediction) string {
	s, _ := shapeOf(p)
	a := p.Access
	loop := vectorLoop(p, s)
	return fmt.Sprintf("%s, one %d-byte-aligned %s, and neighbouring lanes are one %s apart: %d instructions where one would do (the L1 serves the repeats, so DRAM traffic is the same: worth it where issuing memory instructions is the bound); %s the %s in one instruction: %s (%s must be %d-byte aligned, as cudaMalloc's pointers are): %s",
		elements(a, s, loop), s.width, s.name, s.name, s.n, a.Op, s.name,
		castExample(a, s, loop), alignedPointer(a), s.width, wording.Figures(p))
}

// elements says which accesses make the vector: "this thread also loads
// the 3 floats after it: 4 adjacent floats", or the unrolled loop's.
func elements(a *interp.Access, s shape, loop *interp.Loop) string {
	elem := a.Type.Name
	if loop != nil {
		return fmt.Sprintf("the unrolled loop at line %d %ss %d adjacent %ss per thread", loop.Pos.Line, a.Op, s.n, elem)
	}
	after := fmt.Sprintf("the %d %ss after it", s.n-1, elem)
	if s.n == 2 {
		after = "the " + elem + " after it"
	}
	return fmt.Sprintf("this thread also %ss %s: %d adjacent %ss", a.Op, after, s.n, elem)
}

// alignedPointer names the pointer whose alignment the cast relies on:
// the one indexed, when a name, else the allocation's parameter.
func alignedPointer(a *interp.Access) string {
	if base := baseText(a); identifier.MatchString(base) {
		return base
	}
	return a.Base.String()
}

// baseText is the pointer the access indexes, as written.
func baseText(a *interp.Access) string {
	if a.BaseExpr != "" {
		return a.BaseExpr
	}
	return a.Base.String()
}

// castExample is the vector access the user can write in place of the
// scalar ones: float4 v = reinterpret_cast<const float4*>(a)[i].
func castExample(a *interp.Access, s shape, loop *interp.Loop) string {
	ref := vectorRef(a, s, loop)
	if a.Op == interp.Store {
		args := []string{"x", "y", "z", "w"}[:s.n]
		return fmt.Sprintf("%s = make_%s(%s)", ref, s.name, strings.Join(args, ", "))
	}
	return fmt.Sprintf("%s v = %s", s.name, ref)
}

// vectorRef is the vector as an lvalue: the base pointer cast and
// indexed in vectors when the access indexes a named pointer once
// (a[4 * i] is vector i), else the first element's address cast
// (*reinterpret_cast<float2*>(&xy[t][0])), which holds for any layout.
func vectorRef(a *interp.Access, s shape, loop *interp.Loop) string {
	ptr := s.name + "*"
	if a.Op == interp.Load {
		ptr = "const " + ptr
	}
	if base := baseText(a); a.Subscripts <= 1 && identifier.MatchString(base) {
		return fmt.Sprintf("reinterpret_cast<%s>(%s)[%s]", ptr, base, vectorIndex(a.IndexExpr, s.n, loop))
	}
	ref := fmt.Sprintf("*reinterpret_cast<%s>(&%s)", ptr, a.Expr)
	if loop != nil && loop.Var != "" {
		ref += fmt.Sprintf(" with %s = %d", loop.Var, 0)
	}
	return ref
}

var identifier = regexp.MustCompile(`^[A-Za-z_]\w*$`)

// vectorIndex is the index, in vectors, of the element at index: "4 * i"
// is vector i; a loop's variable ("4 * i + k") is the element within it,
// which the integer division of any other index drops.
func vectorIndex(index string, n int64, loop *interp.Loop) string {
	if loop != nil && loop.Var != "" {
		index = strings.TrimSuffix(index, " + "+loop.Var)
		index = strings.TrimPrefix(index, loop.Var+" + ")
	}
	if index == "" {
		return "i"
	}
	if m := scaled.FindStringSubmatch(index); m != nil {
		if m[1] == fmt.Sprint(n) {
			return m[2]
		}
		if m[4] == fmt.Sprint(n) {
			return m[3]
		}
	}
	if !identifier.MatchString(index) {
		index = "(" + index + ")"
	}
	return fmt.Sprintf("%s / %d", index, n)
}

// scaled matches "4 * i" and "i * 4" (one or the other number set).
var scaled = regexp.MustCompile(`^(?:(\d+) \* ([\w.]+|\(.*\))|([\w.]+|\(.*\)) \* (\d+))$`)
