package swappedaxes

import (
	"fmt"
	"go/token"

	"golang.org/x/tools/go/analysis"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/parser"
	"github.com/cudalint/cudalint/rules/accesses"
)

// Analyzer reports swapped 2D axes, with a fix when the swap is safe.
var Analyzer = accesses.NewAnalyzer(accesses.SwappedAxes, "swappedaxes", describe, fix)

func describe(p *analyzer.Prediction) string {
	return fmt.Sprintf("%s: threadIdx.x steps along rows while threadIdx.y walks the contiguous dimension; let threadIdx.x drive the column: %s",
		accesses.Subject(p), accesses.Figures(p))
}

var builtins = map[string]bool{"threadIdx": true, "blockIdx": true, "blockDim": true, "gridDim": true}

// fix swaps .x and .y of the thread and block builtins in the kernel. It
// is offered only when that transposes the thread mapping and nothing
// else: every launch uses a square block and a square or unknown grid,
// and no __device__ function the kernel calls reads a builtin itself.
func fix(res *accesses.Result, p *analyzer.Prediction) []analysis.SuggestedFix {
	k := p.Access.Kernel
	for _, kr := range res.Analysis.Kernels {
		if kr.Func != k {
			continue
		}
		for _, c := range kr.Configs {
			if c.Block[0] != c.Block[1] || (c.GridKnown[0] && c.GridKnown[1] && c.Grid[0] != c.Grid[1]) {
				return nil
			}
		}
	}
	var edits []analysis.TextEdit
	safe := true
	parser.WalkStmt(k.Body, func(e parser.Expr) {
		switch e := e.(type) {
		case *parser.Member:
			id, ok := e.X.(*parser.Ident)
			if !ok || !builtins[id.Name] || (e.Name != "x" && e.Name != "y") {
				return
			}
			end := res.Pos(e.E)
			if end == token.NoPos || e.E.File != k.P.File {
				safe = false
				return
			}
			other := map[string]string{"x": "y", "y": "x"}[e.Name]
			edits = append(edits, analysis.TextEdit{Pos: end - 1, End: end, NewText: []byte(other)})
		case *parser.Call:
			if callsBuiltins(res, e) {
				safe = false
			}
		}
	})
	if !safe || len(edits) == 0 {
		return nil
	}
	return []analysis.SuggestedFix{{Message: "swap the roles of x and y in " + k.Name, TextEdits: edits}}
}

// callsBuiltins reports whether the call reaches a __device__ function
// that reads the thread or block index itself.
func callsBuiltins(res *accesses.Result, call *parser.Call) bool {
	id, ok := call.Fun.(*parser.Ident)
	if !ok {
		return false
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
				return true
			}
		}
	}
	return false
}
