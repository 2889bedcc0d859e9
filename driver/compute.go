package driver

import (
	"fmt"
	"maps"
	"path/filepath"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/parser"
	"github.com/cudalint/cudalint/rules/lint"
)

// applyComputeLoops makes a warning info when its kernel, or a device
// function it calls, runs a loop of arithmetic that touches no memory
// (cuda-samples' Mandelbrot: an escape-time loop of crunch iterations per
// pixel, then one store). The time model takes a kernel to be bound by
// memory; such a kernel is bound by its arithmetic, so what a fix of its
// accesses saves is no share of its time. The message names the loop.
func applyComputeLoops(fs []*lint.Finding, res *analyzer.Result) {
	h := indexHelpers(res)
	demote(fs, perKernel(func(fn *parser.Func) string {
		loop := h.computeLoop(fn)
		if loop == nil {
			return ""
		}
		return fmt.Sprintf("%s computes in the loop at %s:%d (%d arithmetic operations an iteration, no memory access), so memory is unlikely to bound it",
			fn.Name, filepath.Base(loop.pos.File), loop.pos.Line, loop.ops)
	}))
}

// helpers are a run's device functions by name, and the operations a
// call of each small pure one costs: indexed once per run.
type helpers struct {
	funcs map[string][]*parser.Func
	pure  map[string]int
}

func indexHelpers(res *analyzer.Result) *helpers {
	h := &helpers{funcs: map[string][]*parser.Func{}, pure: map[string]int{}}
	for _, f := range res.Program.Files {
		for _, fn := range f.Funcs {
			if fn.Body != nil && !fn.Global {
				h.funcs[fn.Name] = append(h.funcs[fn.Name], fn)
			}
		}
	}
	for name, gs := range h.funcs {
		if ops, ok := pureHelper(gs[0]); ok {
			h.pure[name] = ops // dsadd(a, b): arithmetic in a helper of its own
		}
	}
	return h
}

type computeLoop struct {
	pos parser.Pos
	ops int
}

// minComputeOps is the arithmetic an iteration needs to count as a
// compute loop: a loop that steps a counter or halves a size is not one.
const minComputeOps = 16

// computeLoop is the first loop of fn, or of a device function fn calls,
// whose body has no memory access (no subscript, dereference, member
// through a pointer, or call but to math, functional casts and small
// pure helpers) and at least minComputeOps arithmetic operations.
func (h *helpers) computeLoop(fn *parser.Func) *computeLoop {
	if fn.Body == nil {
		return nil
	}
	owners := []*parser.Func{fn}
	parser.WalkStmt(fn.Body, func(e parser.Expr) {
		if c, ok := e.(*parser.Call); ok {
			if id, ok := c.Fun.(*parser.Ident); ok {
				owners = append(owners, h.funcs[id.Name]...)
			}
		}
	})
	for _, g := range owners {
		pure := maps.Clone(h.pure)
		for _, t := range []string{"float", "double", "int", "unsigned", "half", "__half"} {
			pure[t] = 0
		}
		for _, tp := range g.Template {
			if tp.IsType {
				pure[tp.Name] = 0 // T(4.0), a functional cast
			}
		}
		if l := computeLoopIn(g.Body, pure); l != nil {
			return l
		}
	}
	return nil
}

// pureHelper: a small device function of arithmetic alone, which a call
// of does not touch memory, and the operations a call costs.
func pureHelper(g *parser.Func) (int, bool) {
	if g.Body == nil || len(g.Body.Stmts) > 32 {
		return 0, false
	}
	return arithmeticOnly(g.Body, map[string]int{"float": 0, "double": 0, "int": 0})
}

func computeLoopIn(b *parser.Block, casts map[string]int) *computeLoop {
	var found *computeLoop
	parser.Inspect(b, func(n parser.Node) bool {
		if found != nil || n == nil {
			return false
		}
		var body parser.Stmt
		var pos parser.Pos
		switch s := n.(type) {
		case *parser.For:
			body, pos = s.Body, s.P
		case *parser.While:
			body, pos = s.Body, s.P
		default:
			return true
		}
		if ops, ok := arithmeticOnly(body, casts); ok && ops >= minComputeOps {
			found = &computeLoop{pos: pos, ops: ops}
			return false
		}
		return true
	})
	return found
}

// arithmeticOnly counts the binary operations of s, with those of the
// pure helpers it calls (pure: their cost), false when s touches memory
// or calls anything but math and them.
func arithmeticOnly(s parser.Stmt, pure map[string]int) (int, bool) {
	ops, only := 0, true
	parser.WalkStmt(s, func(e parser.Expr) {
		switch x := e.(type) {
		case *parser.Index, *parser.Launch:
			only = false
		case *parser.Member:
			if x.Arrow {
				only = false
			}
		case *parser.Unary:
			if x.Op == parser.Deref {
				only = false
			}
		case *parser.Call:
			id, ok := x.Fun.(*parser.Ident)
			n, helper := 0, false
			if ok {
				n, helper = pure[id.Name]
			}
			switch {
			case ok && mathFuncs[id.Name]:
				ops++
			case helper:
				ops += n
			default:
				only = false
			}
		case *parser.Binary:
			ops++
		}
	})
	return ops, only
}

var mathFuncs = map[string]bool{
	"sqrt": true, "sqrtf": true, "rsqrt": true, "rsqrtf": true, "exp": true, "expf": true, "__expf": true,
	"log": true, "logf": true, "__logf": true, "sin": true, "sinf": true, "__sinf": true, "cos": true, "cosf": true,
	"__cosf": true, "fma": true, "fmaf": true, "__fmaf_rn": true, "fabs": true, "fabsf": true, "abs": true,
	"min": true, "max": true, "fminf": true, "fmaxf": true, "pow": true, "powf": true, "tanh": true, "tanhf": true,
	"__fmul_rn": true, "__fadd_rn": true, "__dmul_rn": true, "__dadd_rn": true,
}
