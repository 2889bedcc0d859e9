package strided

import (
	"fmt"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/analyzer/ctype"
	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/analyzer/warp"
	"github.com/cudalint/cudalint/parser"
	"github.com/cudalint/cudalint/rules/accesses"
	"github.com/cudalint/cudalint/rules/impact"
	"github.com/cudalint/cudalint/rules/lint"
	"github.com/cudalint/cudalint/rules/policy"
	"github.com/cudalint/cudalint/rules/spec"
	"github.com/cudalint/cudalint/rules/wording"
	"github.com/cudalint/cudalint/symbolic"
)

// Rule reports strided accesses.
var Rule = spec.NewRule(spec.Spec{
	Rule: lint.Rule{ID: "strided-access", Title: "Strided access", Severity: lint.Warning, Tags: []string{"performance", "coalescing"}, Precision: "high", Folds: lint.FoldSameStride | lint.FoldSameLine},
	Name: "strided", Detect: Detect, Grade: Severity, Describe: describe, Cause: cause})

// Analyzer is the rule's analyzer, for go/analysis drivers and tests.
var Analyzer = Rule.Analyzer

// Detect: neighbouring lanes are further apart than what each accesses.
// A struct copied whole (a 32-byte type, two 16-byte instructions) uses
// every byte between its lanes, though each instruction takes half of
// each sector: there is no wider instruction to use, nor a layout to fix.
//
// Two more shapes spread a warp's lanes the same way. A stride that a
// loop grows (a tree reduction in global memory, idata[2 * stride * tid]:
// 2, 4, 8 ... elements apart) has no one lane step. And contiguous lanes
// of which a guard lets only every k-th through (if (tid % (2 * stride)
// == 0) idata[tid] += ...) use one element in k of what they touch: not
// a misalignment, a mapping of work to lanes.
func Detect(res *accesses.Result, p *analyzer.Prediction) bool {
	if unknownElement(p) {
		return true
	}
	if !policy.Uncoalesced(res, p) {
		return false
	}
	if s := accesses.LaneStrideBytes(p); s >= 0 {
		return s > usedBytes(p.Access) || s == accesses.ElemBytes(p.Access) && accesses.SpreadByGuard(p, wording.LaneSymbol(p))
	}
	return growingStride(p) != nil
}

// cause folds the accesses of an array whose lanes a loop spreads alike
// (idata[index] and idata[index + stride]): their step, as an
// expression; nil (no fold beyond a constant stride's) otherwise.
func cause(p *analyzer.Prediction) any {
	if p.LaneStride != nil {
		return nil
	}
	if c := growingStride(p); c != nil {
		return symbolic.Key(c)
	}
	return nil
}

// unknownElement: p accesses whole elements of a type whose layout no
// file cudalint read gives (cufftComplex, its header not found), with
// lanes 32 or more elements apart: at any size of the element each lane
// then takes a sector of its own, a column walk, whatever the figures
// computed at the size assumed for it.
func unknownElement(p *analyzer.Prediction) bool {
	a := p.Access
	if a.Space != interp.Global || !p.Known || !a.Guessed || a.Struct != nil || a.Type == nil || a.Type.LayoutKnown() || p.LaneStride == nil {
		return false
	}
	if a.Type.Name == "" || isTemplateParam(a.Kernel, a.Type.Name) {
		return false // a generic instance's T: its launches give it
	}
	if c, ok := symbolic.Coefficient(a.Addr, wording.LaneSymbol(p)); !ok {
		return false
	} else if _, isConst := symbolic.IsConst(c); !isConst {
		return false // a step resting on a size the code does not give
	}
	elem := accesses.ElemBytes(a)
	return elem > 0 && abs(*p.LaneStride)%elem == 0 && abs(*p.LaneStride)/elem >= minColumnElems &&
		laneAxisSpansWarp(p) && p.Sectors >= 2*p.Ideal
}

// minColumnElems is the lane step, in elements, that puts every lane in
// a sector of its own whatever the element's size (one byte or more).
const minColumnElems = warp.SectorBytes

// laneAxisSpansWarp: the warp's 32 lanes all step along the axis the
// lane step is taken on (a block 32 or more wide, or one thread wide and
// 32 tall), so that the step says how every lane of the warp falls.
func laneAxisSpansWarp(p *analyzer.Prediction) bool {
	b := p.Config.Block
	return b[0] >= 32 || b[0] == 1 && b[1] >= 32
}

func isTemplateParam(fn *parser.Func, name string) bool {
	for _, tp := range fn.Template {
		if tp.Name == name {
			return true
		}
	}
	return false
}

// growingStride is the lane step of p's address when a loop's iteration
// sets it (2 << i ints): nil when the step is a constant, or rests on
// data.
func growingStride(p *analyzer.Prediction) symbolic.Expr {
	c, ok := symbolic.Coefficient(p.Access.Addr, wording.LaneSymbol(p))
	if !ok || symbolic.ClassOf(c) == symbolic.Data {
		return nil
	}
	if _, isConst := symbolic.IsConst(c); isConst {
		return nil
	}
	iter := false
	symbolic.Symbols(c, func(v *symbolic.Var) { iter = iter || v.Kind == symbolic.KindLoopIter })
	if !iter {
		return nil
	}
	return c
}

// usedBytes is what a lane accesses: the whole type, when the access
// copies a struct in instructions that are already the widest there are
// (16 bytes), else the element of its instruction (a 12-byte struct of
// three 4-byte loads could be one aligned 16-byte load).
func usedBytes(a *analyzer.Access) int64 {
	if a.Type == nil || !a.Type.LayoutKnown() {
		return accesses.ElemBytes(a)
	}
	pieces := ctype.Pieces(a.Type)
	for _, pc := range pieces {
		if pc[1] < 16 {
			return accesses.ElemBytes(a)
		}
	}
	if len(pieces) > 1 {
		return a.Type.Size
	}
	return accesses.ElemBytes(a)
}

// Severity grades by cost.
// An element of unknown size is info: its waste is certain in kind (a
// sector per lane), its size and so the figures are not.
func Severity(p *analyzer.Prediction) lint.Severity {
	if unknownElement(p) {
		return lint.Info
	}
	return policy.CostSeverity(p)
}

func describe(res *accesses.Result, p *analyzer.Prediction) string {
	if unknownElement(p) {
		elems, defines := fmt.Sprintf("%s elements", p.Access.Type), fmt.Sprintf("no file cudalint read defines %s", p.Access.Type)
		if p.Access.Type == ctype.UnknownType {
			// a member of a record whose type is not known: no name to give
			elems, defines = "elements of a type cudalint could not resolve", "no file cudalint read defines it"
		}
		return fmt.Sprintf("neighbouring lanes are %d %s apart, a sector or more at any size of it, so each lane takes a sector of its own; "+
			"%s (give the folder of its header with -I DIR or include-dirs: in .cudalint.yaml); %s; the figures take it as %d bytes: %s",
			abs(*p.LaneStride)/accesses.ElemBytes(p.Access), elems, defines, advice(p), accesses.ElemBytes(p.Access), wording.Figures(p))
	}
	if p.LaneStride == nil {
		return fmt.Sprintf("the distance between neighbouring lanes changes with the loop, %s, so %s; %s: %s",
			wording.Distance(p.Access, growingStride(p)), impact.Cost(res, p), neighbourAdvice, wording.Figures(p))
	}
	if abs(*p.LaneStride) == accesses.ElemBytes(p.Access) {
		which := "a guard on the remainder of the thread's index lets only some lanes through"
		if k := accesses.SparseLanes(p); k > 1 {
			which = fmt.Sprintf("only every %s lane passes the guards (in the first request)", wording.Ordinal(k))
		}
		return fmt.Sprintf("lanes are contiguous but %s, so %s; %s: %s", which, impact.Cost(res, p), neighbourAdvice, wording.Figures(p))
	}
	return fmt.Sprintf("neighbouring lanes are %d bytes apart, so %s; %s: %s",
		abs(*p.LaneStride), impact.Cost(res, p), advice(p), wording.Figures(p))
}

// neighbourAdvice is the cure where the work, not the layout, spreads the
// lanes: the lanes that work at a step should be neighbours, so that
// whole warps fall idle instead of lanes in every warp.
const neighbourAdvice = "give the work of each step to neighbouring lanes, with the step between the elements a lane combines rather than between lanes (for a tree reduction, sequential addressing: a[tid] += a[tid + stride], the stride halving)"

// advice says what to change, by how far apart lanes are: a few
// elements each is a vector per lane; more is a layout to interleave, or
// a tile to stage through shared memory. A store writes what a load reads.
func advice(p *analyzer.Prediction) string {
	stride, elem := abs(*p.LaneStride), accesses.ElemBytes(p.Access)
	verb, uses := "read", "uses"
	if p.Access.Op == interp.Store {
		verb, uses = "write", "writes"
	}
	if elem >= 16 {
		return layoutAdvice(p) // 16-byte vectors already: no wider one to use
	}
	if k := stride / elem; stride%elem == 0 && stride > 16 && stride <= 64 && stride%16 == 0 {
		return fmt.Sprintf("if each lane %s its %d neighbouring elements, %s them as %s, or interleave the layout so lanes %s neighbouring elements", uses, k, verb, vectors(p, stride/16, 16), verb)
	}
	if k := stride / elem; stride%elem == 0 && stride <= 16 && k&(k-1) == 0 {
		return fmt.Sprintf("if each lane %s its %d neighbouring elements, %s them as %s, or interleave the layout so lanes %s neighbouring elements", uses, k, verb, vectors(p, 1, stride), verb)
	}
	return layoutAdvice(p)
}

// layoutAdvice is the cure where no vector per lane is: lanes that
// differ in the array's last index, or a tile through shared memory.
// Where each thread walks a row of its own in a loop (a row per thread:
// darknet's mean_kernel, llm.c's layernorm_forward1), the row is what
// the lanes should share.
func layoutAdvice(p *analyzer.Prediction) string {
	if _, ok := accesses.OwnRow(p); ok {
		return "each thread walks a row of its own: let the lanes of a warp share each row instead (lane k takes elements k, k + 32, ... and the warp combines them), or stage the rows through shared memory"
	}
	if p.Access.Op == interp.Store {
		return "interleave the layout so that the index neighbouring lanes differ in is the array's last (contiguous) one, or write a tile into shared memory and store it out coalesced"
	}
	return "interleave the layout so that the index neighbouring lanes differ in is the array's last (contiguous) one, or read a tile coalesced into shared memory and pick the elements there"
}

// vectors names n vectors of width bytes of the access's element type:
// "one 16-byte vector (float4)", "2 16-byte vectors (double2)".
func vectors(p *analyzer.Prediction, n, width int64) string {
	s := fmt.Sprintf("%d %d-byte vectors", n, width)
	if n == 1 {
		s = fmt.Sprintf("one %d-byte vector", width)
	}
	if p.Access.Type != nil {
		if name := wording.VectorType(p.Access.Type, width/accesses.ElemBytes(p.Access)); name != "" {
			s += " (" + name + ")"
		}
	}
	return s
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}
