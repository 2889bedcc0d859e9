package driver

import (
	"fmt"
	"path/filepath"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/parser"
	"github.com/cudalint/cudalint/rules/lint"
)

// applyUnpricedAsm makes a warning info when its kernel, or a device
// function it reaches, moves memory through inline assembly the model
// does not follow (an implicit GEMM's ld.global, cp.async and ldmatrix,
// torchsparse's convolutions): the kernel's cost leaves that traffic
// out, and it is most of it, so the share the impact gives the finding
// is no share of the kernel's time. The message names the assembly.
func applyUnpricedAsm(fs []*lint.Finding, res *analyzer.Result) {
	h := indexHelpers(res)
	demote(fs, perKernel(func(fn *parser.Func) string {
		at, ok := h.unpricedAsm(fn, map[*parser.Func]bool{}, maxHelperDepth)
		if !ok {
			return ""
		}
		return fmt.Sprintf("%s also moves memory through inline assembly at %s:%d that cudalint does not price, so the share of its time this fix saves is not known",
			fn.Name, filepath.Base(at.File), at.Line)
	}))
}

// maxHelperDepth bounds how deep the search follows calls into device
// functions.
const maxHelperDepth = 4

// unpricedAsm is the first inline assembly that moves memory in fn or in
// the device functions it calls, depth calls deep.
func (h *helpers) unpricedAsm(fn *parser.Func, seen map[*parser.Func]bool, depth int) (parser.Pos, bool) {
	if fn.Body == nil || seen[fn] {
		return parser.Pos{}, false
	}
	seen[fn] = true
	var at parser.Pos
	found := false
	var callees []*parser.Func
	parser.Inspect(fn.Body, func(n parser.Node) bool {
		switch x := n.(type) {
		case *parser.BadStmt:
			if x.MovesMemory && !found {
				at, found = x.P, true
			}
		case *parser.Call:
			if id, ok := x.Fun.(*parser.Ident); ok {
				callees = append(callees, h.funcs[id.Name]...)
			}
		}
		return !found
	})
	if found || depth == 0 {
		return at, found
	}
	for _, g := range callees {
		if at, ok := h.unpricedAsm(g, seen, depth-1); ok {
			return at, true
		}
	}
	return parser.Pos{}, false
}
