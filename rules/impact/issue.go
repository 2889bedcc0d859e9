package impact

import (
	"maps"
	"math"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/analyzer/ctype"
	"github.com/cudalint/cudalint/analyzer/warp"
	"github.com/cudalint/cudalint/parser"
)

// A kernel is not always bound by memory. A rasterizer walks every face
// for every pixel, thirty operations a face on data every lane reads
// alike, then stores its pixel once: its time is the instructions its
// warps issue, and a fix of that store saves nothing of it (measured: the
// raster256 pair, 1.00x, where memory alone says 1.01x; the fma pair,
// sixteen multiply-adds a step after a strided load, 1.05x where memory
// alone says 1.40x). So a kernel's time has a third term, the warp
// instructions it issues, which overlaps memory as DRAM and the L1
// overlap each other.

// IssueRate is the warp instructions per second the H200 issues at most:
// four schedulers an SM, each one warp instruction a clock, 132 SMs at
// the 1.98 GHz boost clock.
const IssueRate = 132 * 4 * 1.98e9

// KernelSeconds is a launch's time under the time model: its memory time
// and the time its warps take to issue their instructions, the shorter
// hidden in part by the longer.
func KernelSeconds(memory, instructions float64) float64 {
	issue := instructions / IssueRate
	return math.Max(memory, issue) + overlapHidden*math.Min(memory, issue)
}

// The instructions a kernel issues per launch are counted from its source
// (each operation one instruction, as nvcc's arithmetic mostly is) and
// weighed by how often each runs: an operation in the body of a loop runs
// as often as the loop's accesses make requests, one at the top of the
// kernel once per warp. Each access is an instruction of its own.

// Operation costs, in issue slots: most are one instruction; an integer
// division or remainder is a short sequence (a multiply-high and a
// correction). Floating-point divisions, double arithmetic and math
// functions take what testdata/truth/ops measured (precision.go).
const (
	opCost       = 1
	divisionCost = 4
)

// loopKey names a place in a kernel by the loops around it, outermost
// first, as the interpreter records them on accesses (interp.Loop.Pos):
// the top of the kernel is the key of no loops. Deeper nests share the
// key of their first maxLoopDepth loops.
type loopKey struct {
	depth int
	loops [maxLoopDepth]parser.Pos
}

const maxLoopDepth = 8

func (k loopKey) inner(pos parser.Pos) loopKey {
	if k.depth < maxLoopDepth {
		k.loops[k.depth] = pos
		k.depth++
	}
	return k
}

func (k loopKey) outer() loopKey {
	if k.depth > 0 {
		k.depth--
		k.loops[k.depth] = parser.Pos{}
	}
	return k
}

func (k loopKey) last() parser.Pos { return k.loops[k.depth-1] }

func keyOfLoops(p *analyzer.Prediction) loopKey {
	var k loopKey
	for _, l := range p.Access.Loops {
		k = k.inner(l.Pos)
	}
	return k
}

// maxCallDepth bounds how deep the count follows calls of device
// functions into their bodies (the interpreter inlines them too).
const maxCallDepth = 4

// opCounter counts a kernel's operations per place, following the calls
// of device functions the run defines.
type opCounter struct {
	funcs funcsNamed
	ops   map[loopKey]float64
	trips map[parser.Pos]int64 // loops whose header gives a constant trip count
	types *ctype.Types
	typ   *typer // the function being counted (precision.go)
}

// kernelCode is what a kernel's source says of its cost: the operations
// at each place, and the trip counts its loop headers give as constants
// (for (int k = 0; k < 100; k++)), which a loop with no access of its own
// has no other way to tell.
type kernelCode struct {
	ops   map[loopKey]float64
	trips map[parser.Pos]int64
}

// funcsNamed looks a called function up in the program: its functions
// of that name, in file order.
type funcsNamed func(name string) []*parser.Func

// deviceFunc is the first device function of that name with a body.
func (look funcsNamed) deviceFunc(name string) *parser.Func {
	for _, fn := range look(name) {
		if fn.Body != nil && !fn.Global {
			return fn
		}
	}
	return nil
}

// codeOf counts the operations of kernel's body, per place, in the
// issue slots their types take (types resolves the declarations).
func codeOf(kernel *parser.Func, funcs funcsNamed, types *ctype.Types) *kernelCode {
	c := &opCounter{funcs: funcs, ops: map[loopKey]float64{}, trips: map[parser.Pos]int64{}, types: types,
		typ: typerOf(kernel, types)}
	if kernel.Body != nil {
		c.stmt(kernel.Body, loopKey{}, 0)
	}
	return &kernelCode{ops: c.ops, trips: c.trips}
}

// headerTrips is the trip count a for loop's header gives as constants:
// an integer counter from a literal, compared with < or <= against a
// literal, stepped by ++ or += a literal. 0 when it gives none.
func headerTrips(f *parser.For) int64 {
	from, name, ok := counterStart(f.Init)
	if !ok {
		return 0
	}
	cond, ok := f.Cond.(*parser.Binary)
	if !ok {
		return 0
	}
	id, isName := cond.X.(*parser.Ident)
	to, isLit := cond.Y.(*parser.IntLit)
	if !isName || !isLit || id.Name != name || cond.Op != parser.Lss && cond.Op != parser.Leq {
		return 0
	}
	end := to.Value
	if cond.Op == parser.Leq {
		end++
	}
	step := counterStep(f.Post, name)
	if step <= 0 || end <= from {
		return 0
	}
	return (end - from + step - 1) / step
}

// counterStart reads int k = C.
func counterStart(init parser.Stmt) (int64, string, bool) {
	ds, ok := init.(*parser.DeclStmt)
	if !ok || len(ds.Decl.Declarators) != 1 {
		return 0, "", false
	}
	d := ds.Decl.Declarators[0]
	lit, ok := d.Init.(*parser.IntLit)
	if !ok {
		return 0, "", false
	}
	return lit.Value, d.Name, true
}

// counterStep reads k++, ++k and k += C.
func counterStep(post parser.Expr, name string) int64 {
	isCounter := func(e parser.Expr) bool {
		id, ok := e.(*parser.Ident)
		return ok && id.Name == name
	}
	switch x := post.(type) {
	case *parser.Postfix:
		if x.Op == parser.Inc && isCounter(x.X) {
			return 1
		}
	case *parser.Unary:
		if x.Op == parser.Inc && isCounter(x.X) {
			return 1
		}
	case *parser.Binary:
		if lit, ok := x.Y.(*parser.IntLit); ok && x.Op == parser.AddAssign && isCounter(x.X) {
			return lit.Value
		}
	}
	return 0
}

// stmt counts s's operations at key: a loop's condition and step run with
// its body, at the loop's own key; everything else where it stands.
func (c *opCounter) stmt(s parser.Stmt, key loopKey, calls int) {
	parser.Inspect(s, func(n parser.Node) bool {
		switch x := n.(type) {
		case *parser.For:
			if x.Init != nil {
				c.stmt(x.Init, key, calls)
			}
			in := key.inner(x.P)
			if n := headerTrips(x); n > 0 {
				c.trips[x.P] = n
			}
			c.expr(x.Cond, in, calls)
			c.expr(x.Post, in, calls)
			c.stmt(x.Body, in, calls)
			return false
		case *parser.While:
			in := key.inner(x.P)
			c.expr(x.Cond, in, calls)
			c.stmt(x.Body, in, calls)
			return false
		case parser.Expr:
			c.expr(x, key, calls)
			return false
		}
		return true
	})
}

// expr counts e's operations at key, and those of the device functions
// it calls.
func (c *opCounter) expr(e parser.Expr, key loopKey, calls int) {
	if e == nil {
		return
	}
	parser.WalkExpr(e, func(x parser.Expr) {
		c.ops[key] += c.cost(x, key, calls)
	})
}

// cost is what one node of an expression issues (its children are
// counted on their own).
func (c *opCounter) cost(x parser.Expr, key loopKey, calls int) float64 {
	if constant(x) {
		return 0 // nvcc folds it
	}
	switch x := x.(type) {
	case *parser.Binary:
		switch x.Op {
		case parser.Assign, parser.Comma:
			return 0
		case parser.Quo, parser.Rem, parser.QuoAssign, parser.RemAssign:
			return c.division(x)
		}
		return c.arithmetic(x)
	case *parser.Unary:
		if x.Op == parser.Mul || x.Op == parser.And || x.Op == parser.Add {
			return 0 // a dereference is the access's own instruction; an address, a plus: nothing
		}
		return c.arithmetic(x)
	case *parser.Postfix, *parser.Ternary:
		return c.arithmetic(x)
	case *parser.Call:
		return c.call(x, key, calls)
	}
	return 0
}

// arithmetic is an operation's slots: one, two in double.
func (c *opCounter) arithmetic(x parser.Expr) float64 {
	if c.typ.precision(x) == double {
		return doubleOpCost
	}
	return opCost
}

// division is a division's or remainder's slots: in floating point the
// measured sequence; in integers a shift or a mask by a power of two,
// else a short sequence.
func (c *opCounter) division(x *parser.Binary) float64 {
	switch c.typ.precision(x) {
	case double:
		return doubleDivCost
	case single:
		return singleDivCost
	}
	if powerOfTwo(x.Y) {
		return opCost
	}
	return divisionCost
}

// call is a call's cost: a device function's body, counted where the call
// stands, in its own declarations' types; a math function's measured
// sequence; one instruction for anything else (an intrinsic, a shuffle,
// an atomic, a functional cast).
func (c *opCounter) call(x *parser.Call, key loopKey, calls int) float64 {
	id, ok := x.Fun.(*parser.Ident)
	if !ok {
		return opCost
	}
	if fn := c.funcs.deviceFunc(id.Name); fn != nil && calls < maxCallDepth {
		outer := c.typ
		c.typ = typerOf(fn, c.types)
		c.stmt(fn.Body, key, calls+1)
		c.typ = outer
		return 0
	}
	if cost, ok := mathCost(id.Name, c.typ.callPrecision(x)); ok {
		return cost
	}
	return opCost
}

// constant: e is arithmetic of literals alone, which the compiler folds
// (N / HEADS, -1, sizeof(float) * 4).
func constant(e parser.Expr) bool {
	switch x := e.(type) {
	case *parser.IntLit, *parser.FloatLit, *parser.SizeofType, *parser.SizeofExpr:
		return true
	case *parser.Binary:
		return !x.Op.IsAssign() && x.Op != parser.Comma && constant(x.X) && constant(x.Y)
	case *parser.Unary:
		return x.Op != parser.Mul && x.Op != parser.And && constant(x.X)
	case *parser.Cast:
		return constant(x.X)
	}
	return false
}

// powerOfTwo: e is an integer literal that is a power of two.
func powerOfTwo(e parser.Expr) bool {
	lit, ok := e.(*parser.IntLit)
	return ok && lit.Value > 0 && lit.Value&(lit.Value-1) == 0
}

var transcendental = map[string]bool{
	"sqrt": true, "sqrtf": true, "rsqrt": true, "rsqrtf": true, "cbrtf": true,
	"exp": true, "expf": true, "exp2f": true, "__expf": true, "log": true, "logf": true, "log2f": true, "__logf": true,
	"sin": true, "sinf": true, "__sinf": true, "cos": true, "cosf": true, "__cosf": true, "sincosf": true,
	"tan": true, "tanf": true, "tanh": true, "tanhf": true, "atan2f": true, "atan2": true, "acosf": true, "asinf": true,
	"pow": true, "powf": true, "__powf": true, "erff": true, "erf": true,
}

// places are how often a warp runs the code at each place of one kernel
// under one launch configuration, as its accesses with a cost request
// it.
type places struct {
	runs  map[loopKey]float64  // the most requests per launch an access there makes
	trips map[parser.Pos]int64 // the loops' trip counts the interpreter found constant
	warps float64              // the launch's warps
}

// placesOf reads the places of preds, one kernel's predictions under one
// configuration. An access whose address depends on data has no requests
// of its own: its place is found from the others'.
func placesOf(preds []*analyzer.Prediction, code *kernelCode) *places {
	pl := &places{runs: map[loopKey]float64{}, trips: maps.Clone(code.trips), warps: warpsPerLaunch(preds[0].Config)}
	for _, p := range preds {
		for _, l := range p.Access.Loops {
			if l.Trip > 0 {
				pl.trips[l.Pos] = l.Trip
			}
		}
		if !p.Known || p.NoLane {
			continue
		}
		// A struct copied in pieces makes a request per piece each time
		// its place runs once.
		k := keyOfLoops(p)
		pl.runs[k] = math.Max(pl.runs[k], p.RequestsPerLaunch()/float64(max(p.Pieces, 1)))
	}
	return pl
}

// instructions are the warp instructions one launch issues: each place's
// operations times the times a warp runs it, and one per request of each
// access.
func (pl *places) instructions(code *kernelCode, preds []*analyzer.Prediction, requests func(*analyzer.Prediction) float64) float64 {
	total := 0.0
	for key, n := range code.ops {
		total += n * pl.at(key)
	}
	for _, p := range preds {
		if !p.NoLane {
			total += requests(p)
		}
	}
	return total
}

// at is how many times per launch a warp runs the code at key: the warps
// at the top of the kernel; in a loop, what its accesses request, or, in
// a loop with none of its own, what a loop inside it requests over its
// trips, else the loop around it times its trip count (the model's
// assumed average where the code does not give it).
func (pl *places) at(key loopKey) float64 {
	if key.depth == 0 {
		return pl.warps
	}
	if n, ok := pl.runs[key]; ok {
		return n
	}
	inner := 0.0 // the most of the loops inside it, in any order
	for k, n := range pl.runs {
		if k.depth == key.depth+1 && k.outer() == key && pl.trips[k.last()] > 0 {
			inner = math.Max(inner, n/float64(pl.trips[k.last()]))
		}
	}
	if inner > 0 {
		return inner
	}
	trips := float64(warp.AssumedTrips)
	if t := pl.trips[key.last()]; t > 0 {
		trips = float64(t)
	}
	return pl.at(key.outer()) * trips
}

// warpsPerLaunch is the launch's grid times the warps of its block.
func warpsPerLaunch(c *analyzer.LaunchConfig) float64 {
	threads := c.Block[0] * c.Block[1] * c.Block[2]
	blocks := c.Grid[0] * c.Grid[1] * c.Grid[2]
	return float64(blocks) * math.Ceil(float64(threads)/32)
}
