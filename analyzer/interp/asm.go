package interp

import (
	"strings"

	"github.com/cudalint/cudalint/analyzer/ctype"
	"github.com/cudalint/cudalint/parser"
	"github.com/cudalint/cudalint/parser/lex"
	"github.com/cudalint/cudalint/parser/ptx"
	"github.com/cudalint/cudalint/symbolic"
)

// Inline PTX. The parser hands over the asm statements whose templates
// package ptx follows whole; each memory instruction is an access at the
// address its operand holds, of the width its opcode (or cp.async's size
// operand) gives, under the predicate a setp in the template computes;
// ldmatrix and stmatrix are read and written by the lanes that supply a
// row address (8 per matrix). The asm's outputs are data afterwards:
// what the loads read, what the other instructions compute, and for
// mov %laneid the lane's index.

func (in *interp) asm(s *parser.Asm) {
	in.fence()
	vals := make([]value, len(s.Operands))
	for k, o := range s.Operands {
		if k >= s.Outputs || strings.HasPrefix(o.Constraint, "+") {
			vals[k] = in.eval(o.X)
		}
	}
	operand := func(o ptx.Operand) (value, bool) {
		switch o.Kind {
		case ptx.Ref:
			return vals[o.Index], true
		case ptx.Imm:
			return intValue(symbolic.Const(o.Value)), true
		}
		return value{}, false
	}
	preds := map[string]symbolic.Expr{}
	written := map[int]value{}
	for _, ins := range s.Instrs {
		nguards := len(in.guards)
		if ins.Pred != "" {
			g := preds[ins.Pred]
			if ins.PredNot {
				g = symbolic.Not(g)
			}
			in.guards = append(in.guards, g)
		}
		switch ins.Class {
		case ptx.SetPredicate:
			a, aok := operand(ins.Operands[1])
			b, bok := operand(ins.Operands[2])
			preds[ins.Operands[0].Name] = in.comparison(ins, a, b, aok && bok)
		case ptx.Compute:
			in.computedInto(s, ins, written)
		case ptx.Move:
			if v, ok := operand(ins.Operands[1]); ok && ins.Operands[0].Index < s.Outputs {
				written[ins.Operands[0].Index] = v
			}
		case ptx.LaneID:
			written[ins.Operands[0].Index] = intValue(symbolic.Binary(symbolic.OpRem, threadRank(), symbolic.Const(32)))
		case ptx.Load, ptx.Store, ptx.Atomic:
			op := map[ptx.Class]Op{ptx.Load: Load, ptx.Store: Store, ptx.Atomic: Atomic}[ins.Class]
			a, _ := ins.Addr()
			in.asmAccess(s, vals, ins, a, ins.Space, ins.Width, op)
			if ins.Class != ptx.Store {
				in.loadedInto(s, ins, written)
			}
		case ptx.AsyncCopy:
			w := ins.Width
			if w == 0 {
				v, _ := operand(ins.Operands[2])
				if k, ok := constOf(v); ok && k > 0 {
					w = k
				}
			}
			if w == 0 {
				in.asmNote(s, ins, "its copy size is not a constant cudalint knows")
				break
			}
			in.asmAccess(s, vals, ins, ins.Operands[1], "global", w, Load)
			in.asmAccess(s, vals, ins, ins.Operands[0], "shared", w, Store)
		case ptx.LoadMatrix, ptx.StoreMatrix:
			if ins.Matrices < 4 { // only lanes 0 to 8n-1 give a row address
				lane := symbolic.Binary(symbolic.OpRem, threadRank(), symbolic.Const(32))
				in.guards = append(in.guards, symbolic.Binary(symbolic.OpLt, lane, symbolic.Const(int64(8*ins.Matrices))))
			}
			op := Load
			addr := ins.Operands[1]
			if ins.Class == ptx.StoreMatrix {
				op, addr = Store, ins.Operands[0]
			}
			in.asmAccess(s, vals, ins, addr, "shared", 16, op)
			if op == Load {
				in.loadedInto(s, ins, written)
			}
		}
		in.guards = in.guards[:nguards]
	}
	for k, o := range s.Operands[:s.Outputs] {
		v, ok := written[k]
		if !ok {
			what := in.prog.Text(o.X) + ", which the inline assembly at " + s.P.String() + " writes"
			v = intValue(in.unknown(symbolic.CauseNotModelled, what, s.P, what, symbolic.Data))
		}
		in.store(in.lval(o.X), in.convert(v, in.lvalType(in.lval(o.X))), o.X)
	}
}

// loadedInto marks the outputs a load writes as loaded data.
func (in *interp) loadedInto(s *parser.Asm, ins ptx.Instr, written map[int]value) {
	for _, i := range outputsWritten(s, ins) {
		what := ins.Opcode
		written[i] = intValue(in.unknown(symbolic.CauseLoadedValue, what, s.P, "value loaded by "+what+" at "+s.P.String(), symbolic.Data))
	}
}

// outputsWritten are the asm's output operands an instruction writes:
// its first operand, or each element of a vector {%0, %1, ...}.
func outputsWritten(s *parser.Asm, ins ptx.Instr) []int {
	if len(ins.Operands) == 0 {
		return nil
	}
	dst := []ptx.Operand{ins.Operands[0]}
	if dst[0].Kind == ptx.Vec {
		dst = dst[0].Elems
	}
	var out []int
	for _, o := range dst {
		if o.Kind == ptx.Ref && o.Index < s.Outputs {
			out = append(out, o.Index)
		}
	}
	return out
}

// computedInto marks the outputs a register instruction writes as
// values the model does not compute.
func (in *interp) computedInto(s *parser.Asm, ins ptx.Instr, written map[int]value) {
	for _, i := range outputsWritten(s, ins) {
		what := in.prog.Text(s.Operands[i].X) + ", the result of " + ins.Opcode + " in the inline assembly at " + s.P.String()
		written[i] = intValue(in.unknown(symbolic.CauseNotModelled, what, s.P, what, symbolic.Data))
	}
}

// comparison is setp's predicate over a and b.
func (in *interp) comparison(ins ptx.Instr, a, b value, ok bool) symbolic.Expr {
	if !ok || a.kind != vInt || b.kind != vInt {
		return in.unknown(symbolic.CauseNotModelled, ins.Opcode, parser.Pos{}, "predicate of "+ins.Opcode, symbolic.Data)
	}
	x, y := a.x, b.x
	switch ins.Cmp {
	case "eq":
		return symbolic.Binary(symbolic.OpEq, x, y)
	case "ne":
		return symbolic.Binary(symbolic.OpNe, x, y)
	case "lt":
		return symbolic.Binary(symbolic.OpLt, x, y)
	case "le":
		return symbolic.Binary(symbolic.OpLe, x, y)
	case "gt":
		return symbolic.Binary(symbolic.OpLt, y, x)
	default: // ge
		return symbolic.Binary(symbolic.OpLe, y, x)
	}
}

func constOf(v value) (int64, bool) {
	if v.kind != vInt || v.x == nil {
		return 0, false
	}
	return symbolic.IsConst(v.x)
}

// asmAccess records the access of one instruction at address operand a.
func (in *interp) asmAccess(s *parser.Asm, vals []value, ins ptx.Instr, a ptx.Operand, space string, width int64, op Op) {
	if a.Index < 0 || a.Index >= len(s.Operands) {
		in.asmNote(s, ins, "its address is not an operand")
		return
	}
	x, v := s.Operands[a.Index].X, vals[a.Index]
	if v.kind != vPtr || v.ptr == nil {
		in.asmNote(s, ins, "its address "+in.prog.Text(x)+" is not a pointer cudalint follows")
		return
	}
	p := v.ptr.at(symbolic.Add(v.ptr.offset, symbolic.Const(a.Value)), widthType(width, ins.Type))
	switch space {
	case "global":
		if p.space == Generic || p.space == Local {
			p.space = Global
		}
	case "shared":
		p.space = Shared
	}
	acc := in.access(p, op, x)
	if acc == nil {
		return
	}
	acc.Expr = ins.Opcode + " [" + in.prog.Text(x) + "]"
	acc.BaseExpr, acc.IndexExpr, acc.Subscripts = "", "", 0
}

// asmNote says an instruction of an asm the parser read could not be
// modelled where it runs; the kernel is then partly analyzed.
func (in *interp) asmNote(s *parser.Asm, ins ptx.Instr, why string) {
	if in.host || !in.record {
		return
	}
	in.note(lex.NoteStatement, "", s.P, "statement not understood (inline assembly: %s: %s); skipped", ins.Opcode, why)
	in.unresolved++
}

// widthType is the type of a width-byte PTX access of elements of PTX
// type typ: one memory instruction of that many bytes, floats for f32.
func widthType(width int64, typ string) *ctype.Type {
	name := map[int64]string{1: "uint8_t", 2: "uint16_t", 4: "uint32_t", 8: "uint2", 16: "uint4"}[width]
	if typ == "f32" {
		name = map[int64]string{4: "float", 8: "float2", 16: "float4"}[width]
	}
	if t, ok := ctype.Builtin(name); ok {
		return t
	}
	return ctype.UnknownType
}

// rootIdent is the variable an output operand names: x, x.f, x[i], (x).
func rootIdent(e parser.Expr) (string, bool) {
	for {
		switch x := e.(type) {
		case *parser.Ident:
			return x.Name, true
		case *parser.Member:
			if x.Arrow {
				return "", false
			}
			e = x.X
		case *parser.Index:
			e = x.X
		default:
			return "", false
		}
	}
}
