// Package wording writes what findings say: how an access is named, the
// standard figures of a message, how lanes step in the kernel's own
// terms. Prose is made here from typed values; nothing reads it back.
package wording

import (
	"fmt"
	"math/bits"
	"path/filepath"
	"strings"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/analyzer/ctype"
	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/analyzer/warp"
	"github.com/cudalint/cudalint/rules/accesses"
	"github.com/cudalint/cudalint/rules/policy"
	"github.com/cudalint/cudalint/symbolic"
)

// Figures is the standard tail of a message: predicted and ideal sectors,
// efficiency, the lane step, the block shape and where it came from.
func Figures(p *analyzer.Prediction) string {
	var b strings.Builder
	unit := "sectors"
	if p.Access.Space == interp.Shared {
		unit = "wavefronts"
		// The conflict's degree is per phase: an access wider than 4 bytes
		// is served in phases, one wavefront each at best (ideal 4 for an
		// LDS.128), so 8 wavefronts against 4 are a 2-way conflict.
		fmt.Fprintf(&b, "%s-way bank conflict (%s wavefronts/request, ideal %s)", trim(p.Sectors/max(p.Ideal, 1)), trim(p.Sectors), trim(p.Ideal))
	} else {
		fmt.Fprintf(&b, "%s sectors/request, ideal %s (%.0f%%)", trim(p.Sectors), trim(p.Ideal), 100*p.Efficiency())
	}
	if u := p.Unrolled; u != nil && u.Differ() {
		b.WriteString("; the loop is unrolled: " + u.Describe(unit))
	}
	if step := LaneStep(p); step != "" {
		b.WriteString("; lanes step by " + step)
	}
	b.WriteString("; " + p.Config.Describe())
	if policy.GuessedBlock(p.Config) && policy.ShapeMatters(p) {
		fmt.Fprintf(&b, "; the cost depends on the block's shape, which the code does not give: say it with --block %s=WxH, blocks: in .cudalint.yaml, or // cudalint:block WxH above the kernel",
			p.Access.Kernel.Name)
	}
	for _, a := range p.Assumptions {
		if a.Kind == warp.TailGuard {
			b.WriteString("; " + a.String() + ", so few requests pay this")
			break
		}
	}
	if names := accesses.AssumedStride(p); len(names) > 0 {
		fmt.Fprintf(&b, "; assuming %s = %d, as no launch gives %s", strings.Join(names, ", "), assumedValue(p, names[0]), pronoun(len(names)))
		if from := sectorApartFrom(p, names); from > 0 && p.Access.Space == interp.Global {
			fmt.Fprintf(&b, ": the same for any %s of %d or more, where neighbouring lanes are a sector apart", names[0], from)
		}
		fmt.Fprintf(&b, " (give the value with --param %s=VALUE or params in .cudalint.yaml)", names[0])
	}
	if policy.RestsOnLargeStride(p) && !policy.StrideNamesOnly(p, accesses.AssumedStride(p)) {
		// Said where the stride's name alone does not say it already.
		u := p.AtUnitStride
		fmt.Fprintf(&b, "; with %s at 1 it costs %s sectors/request, ideal %s: the waste rests on %s being large", strings.Join(u.Names, ", "), trim(u.Sectors), trim(u.Ideal), pronounFor(u.Names))
	}
	return b.String()
}

// pronounFor names the parameters a clause is about: the one, or "them".
func pronounFor(names []string) string {
	if len(names) == 1 {
		return names[0]
	}
	return "them"
}

// assumedValue is the value the prediction gave parameter name: the
// assumed one, or the size a tail guard was evaluated at.
func assumedValue(p *analyzer.Prediction, name string) int64 {
	for _, a := range p.Assumptions {
		if a.Kind == warp.AssumedParam && a.Name == name {
			return a.Value
		}
	}
	return warp.AssumedValue
}

// sectorApartFrom is, for a stride resting on one assumed parameter, the
// smallest value of it from which neighbouring lanes are 32 bytes or more
// apart: from there on each lane has a sector of its own and the cost is
// the one predicted, so the finding holds for every large size. 0 when
// there is no such value (or several parameters were assumed).
func sectorApartFrom(p *analyzer.Prediction, names []string) int64 {
	if len(names) != 1 || p.Sectors < float64(activeLanes(p)) {
		return 0
	}
	apart := func(v int64) bool {
		c, ok := accesses.CoefficientWith(p, symbolic.ThreadIdx(symbolic.X).ID(), map[symbolic.SymID]int64{symbolic.ParamID(names[0]): v})
		return ok && accesses.Abs(c) >= 32
	}
	lo, hi := int64(1), int64(warp.AssumedValue)
	if !apart(hi) {
		return 0
	}
	for lo < hi { // the stride grows with the size: bisect
		mid := lo + (hi-lo)/2
		if apart(mid) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// activeLanes counts the lanes of the first request's warp.
func activeLanes(p *analyzer.Prediction) int {
	n := 0
	for _, a := range p.Warp {
		if a >= 0 {
			n++
		}
	}
	return n
}

// readableIters writes loops' iteration symbols (iter@22:5) as i, j, k,
// in the order they print, and says which loop each is: "2*1 << i floats
// (i counts the iterations of the loop at line 22)".
type readableIters struct {
	names map[symbolic.SymID]string
	lines []string
}

// explain is s, which the letters were named for, saying which loop each is.
func (r *readableIters) explain(s string) string {
	if len(r.lines) == 0 {
		return s
	}
	return s + " (" + strings.Join(r.lines, "; ") + ")"
}

// name is how symbol v prints: a loop's iteration by its letter.
func (r *readableIters) name(v *symbolic.Var) string {
	if v.Kind != symbolic.KindLoopIter {
		return v.Name
	}
	if n, ok := r.names[v.Key()]; ok {
		return n
	}
	if r.names == nil {
		r.names = map[symbolic.SymID]string{}
	}
	n := string(rune('i' + len(r.names)))
	r.names[v.Key()] = n
	r.lines = append(r.lines, fmt.Sprintf("%s counts the iterations of the loop at line %d", n, v.Site.Line))
	return n
}

func pronoun(n int) string {
	if n == 1 {
		return "it"
	}
	return "them"
}

// Trim writes a figure with at most two decimals and no trailing zeros:
// 4, 5.75, 3.92.
func Trim(x float64) string { return trim(x) }

func trim(x float64) string {
	s := fmt.Sprintf("%.2f", x)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	return s
}

// LaneStep describes, in the kernel's own terms, how far the address moves
// from one lane to the next: "height floats", "33 floats", "12 bytes",
// "2*1 << i floats (i counts the iterations of the loop at line 22)".
func LaneStep(p *analyzer.Prediction) string {
	c, ok := symbolic.Coefficient(p.Access.Addr, LaneSymbol(p))
	if !ok {
		return ""
	}
	return Distance(p.Access, c)
}

// LaneSymbol is the thread index neighbouring lanes differ in: x, or y
// in a block one thread wide.
func LaneSymbol(p *analyzer.Prediction) symbolic.SymID {
	if p.Config.Block[0] == 1 {
		return symbolic.ThreadIdx(symbolic.Y).ID()
	}
	return symbolic.ThreadIdx(symbolic.X).ID()
}

// Ordinal writes n as an ordinal: 2nd, 3rd, 4th, 21st.
func Ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return fmt.Sprintf("%d%s", n, suffix)
}

// Distance writes c, a distance in bytes between two addresses of access
// a, in the access's own elements where they divide it: "T*T floats",
// "33 floats", "12 bytes"; "" for 0.
func Distance(a *analyzer.Access, c symbolic.Expr) string {
	iters := &readableIters{}
	elem, unit := elemUnit(a)
	if v, isConst := symbolic.IsConst(c); isConst {
		switch {
		case v == 0:
			return ""
		case a.Type != nil && a.Type.Kind == ctype.TVector && v%a.Type.Size == 0:
			return plural(v/a.Type.Size, a.Type.Name) // "1 float3", not "3 float3s"
		case v%elem == 0 && unit != "":
			return plural(v/elem, unit)
		}
		return plural(v, "byte")
	}
	per := symbolic.Binary(symbolic.OpDiv, c, symbolic.Const(elem))
	if symbolic.ClassOf(c) == symbolic.Data || unit == "" {
		return iters.explain(mathString(c, iters.name) + " bytes")
	}
	if back := symbolic.Mul(per, symbolic.Const(elem)); symbolic.Key(back) == symbolic.Key(c) && !strings.Contains(per.String(), "/") {
		return iters.explain(mathString(per, iters.name) + " " + unit + "s")
	}
	if q, ok := divide(c, elem); ok {
		return iters.explain(mathString(q, iters.name) + " " + unit + "s")
	}
	return iters.explain(mathString(c, iters.name) + " bytes")
}

// Expr writes an index expression as the model holds it, loops'
// iterations as i, j, k, said which loop each is.
func Expr(e symbolic.Expr) string {
	iters := &readableIters{}
	return iters.explain(symbolic.Format(e, iters.name))
}

// divide divides every coefficient of a polynomial by d, when it can.
func divide(e symbolic.Expr, d int64) (symbolic.Expr, bool) {
	p, ok := e.(*symbolic.Poly)
	if !ok || p.Const%d != 0 {
		return nil, false
	}
	out := symbolic.Const(p.Const / d)
	for _, t := range p.Terms {
		if t.Coeff%d != 0 {
			return nil, false
		}
		term := symbolic.Const(t.Coeff / d)
		for _, a := range t.Atoms {
			term = symbolic.Mul(term, atom(a))
		}
		out = symbolic.Add(out, term)
	}
	return out, true
}

func atom(a symbolic.Expr) symbolic.Expr {
	if v, ok := a.(*symbolic.Var); ok {
		return symbolic.NewSym(*v)
	}
	return symbolic.Subst(a, nil)
}

func elemName(a *analyzer.Access) string {
	t := a.Type
	if t == nil || t.Kind == ctype.TStruct || t.Kind == ctype.TUnknown {
		return ""
	}
	return t.Name
}

// elemUnit is the unit Distance counts in, with its size: the access's
// instruction element (accesses.ElemBytes) and its name. A vector the
// compiler splits (a float3, three 4-byte pieces) counts in its
// components: its 4 bytes are a float's, not a float3's.
func elemUnit(a *analyzer.Access) (int64, string) {
	elem, unit := accesses.ElemBytes(a), elemName(a)
	if t := a.Type; t != nil && t.Kind == ctype.TVector && elem != t.Size {
		unit = ""
		if t.Elem != nil && t.Elem.Size == elem {
			unit = t.Elem.Name
		}
	}
	return elem, unit
}

func plural(n int64, unit string) string {
	if n == 1 || n == -1 {
		return fmt.Sprintf("%d %s", n, unit)
	}
	return fmt.Sprintf("%d %ss", n, unit)
}

// mathString writes a stride as a reader writes math: a doubling stride
// k << i is k·2^i, and a power-of-two k folds into the exponent, so
// 2*(1 << i) reads 2^(i+1). Anything else prints as the model prints it.
func mathString(e symbolic.Expr, name func(*symbolic.Var) string) string {
	p, ok := e.(*symbolic.Poly)
	if !ok || p.Const != 0 || len(p.Terms) != 1 || len(p.Terms[0].Atoms) != 1 {
		return symbolic.Format(e, name)
	}
	t := p.Terms[0]
	op, ok := t.Atoms[0].(*symbolic.Op)
	if !ok || op.Kind != symbolic.OpShl {
		return symbolic.Format(e, name)
	}
	base, ok := symbolic.IsConst(op.X)
	if !ok || base <= 0 {
		return symbolic.Format(e, name)
	}
	coeff := t.Coeff * base
	exp := symbolic.Format(op.Y, name)
	if coeff > 0 && coeff&(coeff-1) == 0 { // a power of two: 2^(exp + log2 coeff)
		if k := bits.TrailingZeros64(uint64(coeff)); k > 0 {
			return fmt.Sprintf("2^(%s+%d)", exp, k)
		}
		return "2^" + parenthesize(exp)
	}
	return fmt.Sprintf("%d·2^%s", coeff, parenthesize(exp))
}

func parenthesize(s string) string {
	if strings.ContainsAny(s, " +-*/") {
		return "(" + s + ")"
	}
	return s
}

// Where says, for an access in a helper, where it is written: " in get()
// at helpers.cuh:12", and through which helpers the kernel's call
// reaches it (" through get2()"); "" for an access of the kernel's body.
func Where(a *analyzer.Access) string {
	s := a.SiteIndex()
	if s >= len(a.Via) {
		return ""
	}
	inner := a.Via[len(a.Via)-1]
	out := fmt.Sprintf(" in %s at %s:%d", inner.Name(), filepath.Base(a.Pos.File), a.Pos.Line)
	var through []string
	for j := s; j < len(a.Via)-1; j++ {
		through = append(through, a.Via[j].Name())
	}
	if len(through) > 0 {
		out += " through " + strings.Join(through, ", ")
	}
	return out
}

// Subject is how a message names the access: "load in[i * 2]", or for an
// access in a helper, "load a[i] in get() at helpers.cuh:12".
func Subject(p *analyzer.Prediction) string { return SubjectAs(p, p.Access.Op.String()) }

// SubjectAs names the access with another verb: "load and store x[i]"
// for a statement that reads and writes it.
func SubjectAs(p *analyzer.Prediction, verb string) string {
	return verb + " " + p.Access.Expr + Where(p.Access)
}

// VectorType is the CUDA vector type of n elements of t, or "" when
// vector_types.h has none of that width (no half4; half2 is 4 bytes).
func VectorType(t *ctype.Type, n int64) string {
	var base string
	switch {
	case t.Kind == ctype.TFloat && t.Size == 4 && t.Name == "float":
		base = "float"
	case t.Kind == ctype.TFloat && t.Size == 8 && t.Name == "double":
		base = "double"
	case t.Kind == ctype.TInt && t.Size == 2:
		base = "short"
	case t.Kind == ctype.TInt && t.Size == 4:
		base = "int"
	case t.Kind == ctype.TInt && t.Size == 8:
		base = "longlong"
	default:
		return ""
	}
	if t.Kind == ctype.TInt && unsigned(t.Name) {
		base = "u" + base
	}
	if n*t.Size > 16 || (n != 2 && n != 4) {
		return ""
	}
	return fmt.Sprintf("%s%d", base, n)
}

func unsigned(name string) bool {
	return strings.Contains(name, "unsigned") || strings.HasPrefix(name, "u") || name == "size_t"
}
