package warp

import (
	"slices"
	"strconv"

	"github.com/cudalint/cudalint/analyzer/ctype"
	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/symbolic"
)

// What nvcc makes of adjacent scalar accesses of one thread.
//
// Measured with nvcc 13.0 for sm_90 on an H200 (testdata/truth/probes7.cu,
// sass7.txt, source7.csv.gz): the compiler merges a thread's accesses of
// 4-byte elements (float, __half2) at constant distances from one address
// into one 64- or 128-bit instruction when it can prove the alignment:
//
//   - s[t*8 + i], i = 0..7 in an unrolled loop, is two LDS.128; s[t*2]
//     and s[t*2 + 1] as two statements are one LDS.64; two adjacent
//     __half2 stores are one STS.64; four adjacent float stores one STS.128;
//   - a __shared__ array is placed 16-byte aligned, so only the index
//     decides; a global pointer's alignment is known only when
//     __builtin_assume_aligned gives it (x[t*2], x[t*2 + 1] through a
//     plain float* stay two LDG.E; promised 8 bytes they are one LDG.E.64);
//   - an offset the compiler cannot know (s[t*4 + k + i], k a parameter)
//     keeps four LDS; an odd constant one (s[t*4 + 1 + i]) is an LDS.128
//     over the aligned chunk the first three share, reading one float it
//     does not need, and an LDS for the fourth;
//   - a loop kept rolled (#pragma unroll 1) keeps one LDS per iteration;
//     a store between two loads that may alias the second keeps them apart;
//   - the components of a vector element (d[i].x, d[i].y of a float2*)
//     are merged alike, the element aligned to the vector's size:
//     BlackScholes' three float2 inputs are three LDG.E.64
//     (testdata/truth/samples);
//   - 2-byte elements (__half) are not merged: eight adjacent halves are
//     eight LDS.U16 (or LDG.E.U16), aligned or not.
//
// The merged instruction is priced as the vector access it is: a 16-byte
// shared access is served in quarter-warp phases (ideal 4 wavefronts for
// a warp of distinct chunks), an 8-byte one in half-warp phases. Nsight
// Compute attributes a merged load to the line of the first access it
// reads for (in program order), a merged store to the line of the last.
//
// 8-byte elements were not probed, and are left as written.

// MergeWidth is the widest instruction nvcc merges adjacent accesses into.
const MergeWidth = 16

// mergeWindow bounds how far apart, in the kernel's accesses in program
// order, two accesses may stand for the model to claim a merge: the
// compiler's vectorizer looks at nearby instructions, not the whole
// kernel, and the bound keeps the search linear in the kernel's size.
const mergeWindow = 32

// Merged says how the model's instruction differs from the access as
// written, when it predicts that nvcc merges adjacent accesses.
type Merged struct {
	// Bytes is the per-lane width of the instruction the figures price
	// (the widest, where copies of an unrolled loop merge unevenly).
	Bytes int64
	// With are the other source accesses the instruction serves.
	With []*interp.Access
	// Into is set on an access that issues no instruction of its own: its
	// element is read or written by Into's (whose figures it carries).
	Into *interp.Access
}

// mergeableElem: an element nvcc was measured to merge with its
// neighbours: 4 bytes, a float, an int or a __half2 (a pair of halves
// loaded as one word).
func mergeableElem(a *interp.Access) bool {
	t := a.Type
	if t == nil || t.Size != 4 || a.Struct != nil && !vectorComponent(a) {
		return false
	}
	switch t.Kind {
	case ctype.TFloat, ctype.TInt:
		return true
	case ctype.TVector:
		return t.Elem != nil && t.Elem.Size == 2 && t.Len == 2
	}
	return false
}

// allocAlign is the alignment the compiler knows of the start of a's
// allocation: a __shared__ array is its own to place (16 bytes, measured);
// a global pointer's only what __builtin_assume_aligned promised, or its
// element's.
func allocAlign(a *interp.Access) int64 {
	if a.Space == interp.Shared {
		return MergeWidth
	}
	if vectorComponent(a) {
		// d[i].x of a float2* d: the elements are the vector's, aligned
		// to its size (BlackScholes' d_StockPrice[opt].x and .y are one
		// LDG.E.64, measured: testdata/truth/samples).
		return max(a.AlignHint, a.Struct.Align, 1)
	}
	return max(a.AlignHint, a.Type.Align, 1)
}

// vectorComponent: a reads or writes one component of an element of a
// CUDA vector type (float2, float4, int4) of at most MergeWidth bytes.
func vectorComponent(a *interp.Access) bool {
	return a.Struct != nil && a.Struct.Kind == ctype.TVector && a.Struct.Size <= MergeWidth && a.Struct.Align >= a.Struct.Size
}

// compilerDivisor is what the compiler can prove divides e: constants
// and the allocation's alignment; thread and block indices, sizes and
// parameters may be odd (nvcc does not know the launch).
func compilerDivisor(a *interp.Access, e symbolic.Expr) int64 {
	align := allocAlign(a)
	return min(align, symbolic.Divisor(e, func(v *symbolic.Var) int64 {
		if v.Kind == symbolic.KindBase {
			return align
		}
		return 1
	}))
}

// residue is addr's known position in an aligned window: addr - r is a
// multiple of d, the largest power of two up to MergeWidth (and the
// allocation's alignment) the compiler can prove.
func residue(a *interp.Access, addr symbolic.Expr) (r, d int64) {
	for d = min(MergeWidth, allocAlign(a)); d > a.Type.Size; d /= 2 {
		for r = 0; r < d; r += a.Type.Size {
			if compilerDivisor(a, symbolic.Sub(addr, symbolic.Const(r))) >= d {
				return r, d
			}
		}
	}
	return 0, a.Type.Size
}

// chunk is one instruction over some of a set of elements: its offset
// (from the aligned point the elements are measured from), width, and
// which elements it serves.
type chunk struct {
	start, width int64
	members      []int
}

// chunks covers elements at offsets pos (bytes, from a point aligned to
// d, sorted, distinct) of size elem with the instructions nvcc emits:
// the elements of one d-byte window share one instruction, as narrow as
// holds them, when there are two or more; a window's lone element stays
// scalar. Over a global pointer an instruction may not read bytes no
// element asks for (not measured: those stay scalar).
func chunks(pos []int64, elem, d int64, shared bool) []chunk {
	var out []chunk
	for i := 0; i < len(pos); {
		win := FloorDiv(pos[i], d) * d
		j := i
		for j < len(pos) && pos[j] < win+d {
			j++
		}
		members := make([]int, 0, j-i)
		for k := i; k < j; k++ {
			members = append(members, k)
		}
		lo, hi := pos[i], pos[j-1]+elem
		w := d
		for w > elem && FloorDiv(lo, w/2) == FloorDiv(hi-1, w/2) {
			w /= 2
		}
		start := FloorDiv(lo, w) * w
		full := int64(len(members))*elem == w
		if len(members) < 2 || w <= elem || (!shared && !full) {
			for _, k := range members {
				out = append(out, chunk{start: pos[k], width: elem, members: []int{k}})
			}
		} else {
			out = append(out, chunk{start: start, width: w, members: members})
		}
		i = j
	}
	return out
}

// FloorDiv is x / d rounded down (C rounds toward zero): the sector or
// line a byte address before an allocation's start falls in.
func FloorDiv(x, d int64) int64 {
	q := x / d
	if x%d != 0 && (x < 0) != (d < 0) {
		q--
	}
	return q
}

// widened is a copy of a reading width bytes at a.Addr + delta: the
// instruction a merge makes.
func widened(a *interp.Access, delta, width int64) *interp.Access {
	b := *a
	b.Addr = symbolic.Add(a.Addr, symbolic.Const(delta))
	b.Type = &ctype.Type{Kind: ctype.TVector, Name: a.Type.Name, Elem: a.Type, Len: width / a.Type.Size, Size: width, Align: width}
	return &b
}

// blocksMerge: between kernel accesses i and j (program order) stands one
// that may alias the merged elements and must stay between them: for
// loads, a store or atomic to the same space; for stores, any access to it.
func blocksMerge(kernel []*interp.Access, members map[*interp.Access]bool, op interp.Op, space interp.Space, i, j int) bool {
	for k := i + 1; k < j; k++ {
		q := kernel[k]
		if members[q] || q.Space != space {
			continue
		}
		if op == interp.Store || q.Op != interp.Load {
			return true
		}
	}
	return false
}

// adjacentGroup finds the instruction nvcc makes of a and the kernel's
// other accesses of the same element type, conditions and calls at
// constant distances from it: the widened access, and the members it
// serves in program order; nil when a stays a scalar instruction.
func adjacentGroup(a *interp.Access, kernel []*interp.Access, tmpl map[symbolic.SymID]symbolic.Expr) (*interp.Access, []*interp.Access) {
	if !mergeableElem(a) || (a.Op != interp.Load && a.Op != interp.Store) || (a.Space != interp.Shared && a.Space != interp.Global) {
		return nil, nil
	}
	if a.Space == interp.Global && allocAlign(a) <= a.Type.Size {
		return nil, nil
	}
	self := slices.Index(kernel, a)
	if self < 0 {
		return nil, nil
	}
	type elem struct {
		acc   *interp.Access
		index int
		off   int64
	}
	var els []elem
	lo, hi := max(0, self-mergeWindow), min(len(kernel), self+mergeWindow+1)
	for i, q := range kernel[lo:hi] {
		if q != a && !sameElement(a, q) {
			continue
		}
		d, ok := symbolic.IsConst(symbolic.Sub(q.Addr, a.Addr))
		if !ok || d <= -MergeWidth || d >= MergeWidth {
			continue
		}
		els = append(els, elem{q, lo + i, d})
	}
	if len(els) < 2 {
		return nil, nil
	}
	slices.SortFunc(els, func(x, y elem) int { return int(x.off - y.off) })
	for i := 1; i < len(els); i++ {
		if els[i].off == els[i-1].off {
			return nil, nil // one element twice: not followed
		}
	}
	r, d := residue(a, symbolic.Subst(symbolic.Add(a.Addr, symbolic.Const(els[0].off)), tmpl))
	pos := make([]int64, len(els))
	for i, e := range els {
		pos[i] = r + e.off - els[0].off
	}
	for _, c := range chunks(pos, a.Type.Size, d, a.Space == interp.Shared) {
		if len(c.members) < 2 {
			continue
		}
		members := map[*interp.Access]bool{}
		first, last := len(kernel), -1
		var in []*interp.Access
		mine := false
		for _, k := range c.members {
			members[els[k].acc] = true
			first, last = min(first, els[k].index), max(last, els[k].index)
			mine = mine || els[k].acc == a
		}
		if !mine {
			continue
		}
		if blocksMerge(kernel, members, a.Op, a.Space, first, last) {
			return nil, nil
		}
		for _, q := range kernel[first : last+1] {
			if members[q] {
				in = append(in, q)
			}
		}
		delta := c.start - r + els[0].off // from a's address to the chunk's start
		return widened(a, delta, c.width), in
	}
	return nil, nil
}

// sameElement: b is a's kind of access to the same allocation, under the
// same conditions, loops and inlined calls: what one instruction can do
// for both.
func sameElement(a, b *interp.Access) bool {
	if b.Op != a.Op || b.Space != a.Space || b.Base != a.Base || b.Struct != a.Struct && !sameVector(a.Struct, b.Struct) || b.Type == nil ||
		b.Type.Size != a.Type.Size || b.Type.Name != a.Type.Name || b.AlignHint != a.AlignHint || !a.SameConditions(b) || len(a.Via) != len(b.Via) {
		return false
	}
	for i := range a.Via {
		if a.Via[i].Pos != b.Via[i].Pos || a.Via[i].Func != b.Via[i].Func {
			return false
		}
	}
	return true
}

// sameVector: a and b are the same vector type (float2 and float2), as
// two component accesses of one array's elements have.
func sameVector(a, b *ctype.Type) bool {
	return a != nil && b != nil && a.Kind == ctype.TVector && b.Kind == ctype.TVector && a.Name == b.Name && a.Size == b.Size
}

// carrier is the member Nsight attributes the merged instruction to: the
// first of the loads, the last of the stores (in program order).
func carrier(op interp.Op, members []*interp.Access) *interp.Access {
	if op == interp.Store {
		return members[len(members)-1]
	}
	return members[0]
}

// mergedCopies are the instructions nvcc makes of the copies of an
// unrolled loop body, each with the first iterations it serves.
type mergedCopies struct {
	copies []*interp.Access
	firsts [][]int64
}

// mergeCopies regroups the copies of a's unrolled loops (plan) into the
// instructions nvcc emits when a fully unrolled loop steps a's address by
// one element: the elements of one aligned window become one instruction
// (merge.go's comment). It returns each instruction's width with them;
// nil when nothing merges, or when the loop holds an access that may
// alias a and must stay between the copies.
func mergeCopies(a *interp.Access, plan []splitLoop, copies []*interp.Access, firsts [][]int64, kernel []*interp.Access, tmpl map[symbolic.SymID]symbolic.Expr) ([]int64, *mergedCopies) {
	if kernel == nil || !mergeableElem(a) || (a.Op != interp.Load && a.Op != interp.Store) || (a.Space != interp.Shared && a.Space != interp.Global) {
		return nil, nil
	}
	size := a.Type.Size
	if a.Space == interp.Global && allocAlign(a) <= size {
		return nil, nil
	}
	// The innermost unrolled loop, as probed: a merge across an outer
	// loop's copies (each running an inner loop's) was not measured.
	k := len(plan) - 1
	c, ok := symbolic.Coefficient(symbolic.Subst(a.Addr, tmpl), a.Loops[plan[k].index].Iter)
	if step, isConst := symbolic.IsConst(c); !plan[k].full || !ok || !isConst || step != size {
		return nil, nil
	}
	loop := a.Loops[plan[k].index]
	for _, g := range a.Guards {
		if symbolic.Mentions(g, loop.Iter) {
			return nil, nil // copies that run under different conditions
		}
	}
	for _, q := range kernel {
		if q != a && q.Space == a.Space && slices.Contains(q.Loops, loop) && (a.Op == interp.Store || q.Op != interp.Load) {
			return nil, nil
		}
	}
	// Copies that differ only in loop k's iteration make one group.
	var order []string
	groups := map[string][]int{}
	for i, f := range firsts {
		key := slices.Clone(f)
		key[k] = -1
		id := fmtInts(key)
		if _, ok := groups[id]; !ok {
			order = append(order, id)
		}
		groups[id] = append(groups[id], i)
	}
	out := &mergedCopies{}
	var widths []int64
	merged := false
	for _, id := range order {
		members := groups[id]
		first := copies[members[0]]
		addr := symbolic.Subst(first.Addr, tmpl)
		r, d := residue(a, addr)
		pos := make([]int64, len(members))
		for i, m := range members {
			off, ok := symbolic.IsConst(symbolic.Sub(copies[m].Addr, first.Addr))
			if !ok || (i > 0 && r+off <= pos[i-1]) {
				return nil, nil
			}
			pos[i] = r + off
		}
		for _, c := range chunks(pos, size, d, a.Space == interp.Shared) {
			m := members[c.members[0]]
			if c.width <= size {
				out.copies, out.firsts = append(out.copies, copies[m]), append(out.firsts, firsts[m])
				widths = append(widths, size)
				continue
			}
			merged = true
			out.copies = append(out.copies, widened(first, c.start-r, c.width))
			out.firsts = append(out.firsts, firsts[m])
			widths = append(widths, c.width)
		}
	}
	if !merged {
		return nil, nil
	}
	return widths, out
}

func fmtInts(xs []int64) string {
	var b []byte
	for _, x := range xs {
		b = strconv.AppendInt(append(b, ','), x, 10)
	}
	return string(b)
}
